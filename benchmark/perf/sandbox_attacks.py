"""The issue-13 attacks, one per call, against whichever code version PYTHONPATH selects.

    PYTHONPATH=<checkout>/lib python benchmark/perf/sandbox_attacks.py ctl-file
    names: ctl-file, ctl-fifo, shadow, binary, echo, big, trickle-stream S, trickle-plain S,
           silent S (SILENT_S: how long the endpoint stays silent), children MIB MEMORY_MB, disk N MIB

Prints one JSON line: what happened, how long it took, and whether a trivial job ran right
after. The scripted LLM server is always this checkout's (it speaks the real OpenAI protocol),
so an older client can be measured against the same faults. Run it at nice 19; the memory
attack allocates up to 3 x MIB on the host when the code under test does not bound it.
"""
import importlib.util, json, os, sys, threading, time, textwrap, uuid, subprocess
from pathlib import Path
HERE = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("scripted_llm", HERE / "lib/pic_copilot/testing/scripted_llm.py")
scripted = importlib.util.module_from_spec(spec); spec.loader.exec_module(scripted)
name = sys.argv[1]
tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"pic-copilot-attacks-{os.getpid()}"
tmp.mkdir(parents=True, exist_ok=True)
root = tmp / "root"
out = {"attack": name}

def sandbox():
    from pic_copilot.sandbox import Sandbox
    sb = Sandbox(root=root); sb.start(); return sb

def bounded(fn, limit):
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("r", fn()), daemon=True)
    t0 = time.monotonic(); t.start(); t.join(limit)
    return box.get("r"), round(time.monotonic() - t0, 2)

def trivial(sb):
    t0 = time.monotonic(); r = sb.run("print(1)"); return r.ok, round(time.monotonic() - t0, 2)

SWAP = """
import os
job = os.path.dirname(os.getcwd())
for n in ("stdout", "stderr"):
    p = os.path.join(job, "ctl", n)
    try:
        os.unlink(p); os.symlink(%r, p)
    except OSError:
        pass
print("normal")
"""
if name == "ctl-file":
    sb = sandbox()
    secret = tmp / "secret.txt"; secret.write_text("HOST-SECRET-LINE\n"); secret.chmod(0o600)
    r, took = bounded(lambda: sb.run(SWAP % str(secret)), 60)
    out.update(leaked="HOST-SECRET" in (r.stdout + r.stderr), took=took, trivial_after=trivial(sb))
elif name == "ctl-fifo":
    sb = sandbox()
    fifo = tmp / "trap.fifo"; fifo.unlink(missing_ok=True); os.mkfifo(fifo)
    r, took = bounded(lambda: sb.run(SWAP % str(fifo)), 40)
    out.update(hung=r is None, took=took)
    if r is None:
        try:
            fd = os.open(fifo, os.O_RDWR); os.close(fd)
        except OSError:
            pass
        time.sleep(1)
    out["trivial_after"] = trivial(sb) if r is not None else "host thread still blocked"
elif name == "shadow":
    sb = sandbox()
    r = sb.run("try:\n    print(open('/etc/shadow').read()[:4] == 'root')\nexcept OSError as e:\n    print(type(e).__name__)")
    out.update(result=r.stdout.strip(), trivial_after=trivial(sb))
elif name.startswith("children"):
    sb = sandbox()
    size, mem = int(sys.argv[2]), int(sys.argv[3])
    code = textwrap.dedent(f"""
        import os, time
        r, w = os.pipe()
        kids = []
        for i in range(3):
            pid = os.fork()
            if pid == 0:
                os.close(r)
                b = bytearray({size} << 20)
                for j in range(0, len(b), 4096):
                    b[j] = 1
                os.write(w, b"held\\n")
                time.sleep(4)
                os._exit(0)
            kids.append(pid)
        os.close(w)
        data = b""
        while True:
            c = os.read(r, 100)
            if not c: break
            data += c
        [os.waitpid(p, 0) for p in kids]
        print("held", data.count(b"held"))
    """)
    t0 = time.monotonic()
    r = sb.run(code, memory_mb=mem, timeout_s=120)
    out.update(children_mib=size, memory_mb=mem, stdout=r.stdout.strip(), killed=r.killed_reason,
               took=round(time.monotonic() - t0, 2), peak=r.isolation_detail.get("memory_peak_mb"), trivial_after=trivial(sb))
elif name.startswith("disk"):
    sb = sandbox()
    n, mb = int(sys.argv[2]), int(sys.argv[3])
    code = f"for i in range({n}):\n    f = open(f'f{{i}}', 'wb')\n    for _ in range({mb}):\n        f.write(b'x' * (1 << 20))\n    f.close()\nprint('wrote all')"
    t0 = time.monotonic()
    r = sb.run(code, timeout_s=300)
    kept = sum(p.stat().st_size for p in Path(r.workdir).iterdir() if p.is_file()) >> 20
    out.update(files=n, file_mib=mb, stdout=r.stdout.strip(), killed=r.killed_reason, kept_mib=kept,
               took=round(time.monotonic() - t0, 2), trivial_after=trivial(sb))
    import shutil; shutil.rmtree(Path(r.workdir).parent, ignore_errors=True)
elif name in ("trickle-stream", "trickle-plain", "silent", "big", "echo"):
    from pic_copilot.config import Settings
    from pic_copilot.llm import LLMClient
    step = {"trickle-stream": {"keepalive": 20, "keepalive_every": 1, "content": "late"},
            "trickle-plain": {"keepalive": 20, "keepalive_every": 1, "content": "late"},
            "silent": {"delay": float(os.environ.get("SILENT_S", 60)), "content": "never"},
            "big": {"content_bytes": 50_000_000},
            "echo": {"status": 400, "echo_auth": True}}[name]
    key = "sk-measure-" + uuid.uuid4().hex
    with scripted.ScriptedLLM([step]) as srv:
        s = Settings(provider="openai", base_url=srv.base_url, api_key=key, model="m",
                     timeout_s=float(sys.argv[2]) if len(sys.argv) > 2 else 3, max_retries=3)
        c = LLMClient(s)
        t0 = time.monotonic()
        try:
            res = c.chat([{"role": "user", "content": "hi"}], stream=name == "trickle-stream")
            out["result"] = f"answer of {len(res.text)} chars"
        except Exception as e:
            out["result"] = f"{type(e).__name__}: {str(e)[:160]}"
            out["key_in_message"] = key in str(e)
        out["took"] = round(time.monotonic() - t0, 2)
        out["requests"] = len(srv.requests)
elif name == "binary":
    blob = tmp / "blob.gds"; blob.write_bytes(b"\x00\x06\x00\x02\xff\xfe")
    p = subprocess.run([sys.executable, "-m", "pic_copilot.frontends.cli", "run", str(blob)], capture_output=True, text=True)
    out.update(exit=p.returncode, traceback="Traceback" in p.stderr, err=p.stderr.strip().splitlines()[-1][:120])
print(json.dumps(out))
import shutil
shutil.rmtree(tmp, ignore_errors=True)
os._exit(0)  # a host thread may still be blocked on the FIFO (old code)
