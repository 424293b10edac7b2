"""The MCP server (`pic-copilot serve-mcp`) driven by the mcp SDK's own stdio client."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import anyio

from mcp import ClientSession, StdioServerParameters, stdio_client

from pic_copilot.testing.scripted_llm import ScriptedLLM

EXE = str(Path(sys.executable).with_name("pic-copilot"))


def server_env(tmp_path: Path, **extra) -> dict:
    env = dict(os.environ)
    for k in ("PIC_COPILOT_BASE_URL", "OPENAI_BASE_URL", "PIC_COPILOT_PROVIDER", "PIC_COPILOT_PIPELINE"):
        env.pop(k, None)
    env.update(PIC_COPILOT_HOME=str(tmp_path / "home"), PIC_COPILOT_HISTORY=str(tmp_path / "history"),
               PIC_COPILOT_CONFIG=str(tmp_path / "no-config.toml"))
    env.update(extra)
    return env


def session_run(env: dict, body, timeout: float = 240):
    """Start the server, open a ClientSession, run ``await body(session)``, return its result."""
    params = StdioServerParameters(command=EXE, args=["serve-mcp"], env=env)

    async def main():
        with anyio.fail_after(timeout):
            with open(os.devnull, "w") as errlog:
                async with stdio_client(params, errlog=errlog) as (r, w):
                    async with ClientSession(r, w) as s:
                        await s.initialize()
                        return await body(s)

    return anyio.run(main)


def data(res) -> dict:
    """The structured result of a successful call (also checks the text content mirrors it)."""
    assert not res.is_error, res.content[0].text
    assert res.structured_content is not None
    return res.structured_content


def error_text(res) -> str:
    assert res.is_error, res
    return res.content[0].text


def test_tools_over_stdio(tmp_path):
    async def body(s: ClientSession):
        out = {}
        tools = (await s.list_tools()).tools
        out["tools"] = {t.name: t for t in tools}
        out["search"] = await s.call_tool("search_apis", {"query": "multimode interference 1x2 splitter component",
                                                          "db": "gdsfactory", "k": 3})
        out["details"] = await s.call_tool("get_api_details", {"name": "gf.components.mmi1x2"})
        out["run_ok"] = await s.call_tool("run_code", {"code": "print(6 * 7)", "mode": "sandbox"})
        out["run_fail"] = await s.call_tool("run_code", {"code": "x = 1\nraise ValueError('no good')\n"})
        out["bad_mode"] = await s.call_tool("run_code", {"code": "print(1)", "mode": "cloud"})
        out["empty_query"] = await s.call_tool("search_apis", {"query": "   "})
        out["bad_db"] = await s.call_tool("search_apis", {"query": "waveguide", "db": "nosuchdb"})
        out["bad_k"] = await s.call_tool("search_apis", {"query": "waveguide", "k": 0})
        out["bad_api"] = await s.call_tool("get_api_details", {"name": "gf.components.mmi1x3x9"})
        out["missing_arg"] = await s.call_tool("get_api_details", {})
        out["interactive"] = await s.call_tool("run_code", {"code": "print(1)", "mode": "interactive"})
        out["gen_interactive"] = await s.call_tool("generate_script", {"request": "a box", "mode": "interactive"})
        out["gen_empty"] = await s.call_tool("generate_script", {"request": ""})
        out["unknown_tool"] = await s.call_tool("no_such_tool", {})
        return out

    out = session_run(server_env(tmp_path), body)
    tools = out["tools"]
    assert set(tools) == {"search_apis", "get_api_details", "run_code", "generate_script", "explain_script",
                          "fix_script"}
    for t in tools.values():
        assert t.description and len(t.description) > 80
        for name, prop in t.input_schema["properties"].items():
            assert prop.get("description"), (t.name, name)
    assert tools["run_code"].input_schema["properties"]["mode"]["enum"] == ["sandbox", "interactive"]
    assert tools["search_apis"].input_schema["required"] == ["query"]
    assert tools["search_apis"].annotations.read_only_hint

    res = data(out["search"])["results"]
    assert len(res) == 3 and all(r["db"] == "gdsfactory" for r in res)
    assert any("mmi1x2" in r["id"] for r in res), [r["id"] for r in res]
    d = data(out["details"])
    assert d["id"] == "gdsfactory.components.mmi1x2" and "signature" in d["metadata"]

    ok = data(out["run_ok"])
    assert ok["ok"] and ok["where"] == "sandbox" and ok["stdout"].strip() == "42"
    fail = data(out["run_fail"])
    assert not fail["ok"] and fail["exception"]["type"] == "ValueError" and "no good" in fail["traceback"]

    assert "'sandbox' or 'interactive'" in error_text(out["bad_mode"])
    assert "empty query" in error_text(out["empty_query"])
    assert "unknown database 'nosuchdb'" in error_text(out["bad_db"])
    assert "k" in error_text(out["bad_k"])
    assert "unknown API" in error_text(out["bad_api"])
    assert "name" in error_text(out["missing_arg"])
    msg = error_text(out["interactive"])
    assert "KLayout" in msg and "Allow external agents" in msg and "sandbox" in msg
    assert "Allow external agents" in error_text(out["gen_interactive"])
    assert "empty request" in error_text(out["gen_empty"])
    assert "no_such_tool" in error_text(out["unknown_tool"])


def test_generate_script_with_scripted_llm_reports_progress(tmp_path):
    code = "import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.mmi1x2()\nprint(len(c.ports))\n"
    steps = [{"content": f"Here it is.\n```python\n{code}```\n"}]
    progress: list = []

    async def body(s: ClientSession):
        async def on_progress(p, total, message):
            progress.append((p, total, message))

        return await s.call_tool("generate_script", {"request": "an MMI 1x2; print its port count",
                                                     "config": "zero-shot"}, progress_callback=on_progress)

    with ScriptedLLM(steps) as srv:
        env = server_env(tmp_path, PIC_COPILOT_BASE_URL=srv.base_url, PIC_COPILOT_MODEL="scripted-model")
        res = session_run(env, body)
        requests = list(srv.requests)
    out = data(res)
    assert out["ok"] and out["script"].strip() == code.strip() and out["config"] == "zero-shot"
    assert out["execution"]["ok"] and out["execution"]["stdout"].strip() == "3"
    assert out["usage"]["calls"] == 1 and len(requests) == 1
    assert out["record"] and Path(out["record"]).exists()
    assert progress and all(isinstance(m, str) and m.startswith("[") for _p, _t, m in progress)
    assert [p for p, _t, _m in progress] == sorted(p for p, _t, _m in progress)


def test_explain_and_fix_script_with_scripted_llm(tmp_path):
    """The panel's explain / fix workflow as MCP tools (the engine's explain and fix messages)."""
    broken = "width = 2.5\nprint('area', width * undefined_height)\n"
    fixed = "width = 2.5\nundefined_height = 4.0\nprint('area', width * undefined_height)\n"
    steps = [{"match": "Explain area_demo", "content": "It multiplies a 2.5 um width by a height it never defines."},
             {"content": f"```python\n{fixed}```"}]
    progress: list = []

    async def body(s: ClientSession):
        async def on_progress(p, total, message):
            progress.append(message)

        out = {"explain": await s.call_tool("explain_script", {"code": broken, "name": "area_demo"}),
               "fix": await s.call_tool("fix_script", {"code": broken, "name": "area_demo"},
                                        progress_callback=on_progress),
               "fine": await s.call_tool("fix_script", {"code": "print('fine')\n"}),
               "empty": await s.call_tool("fix_script", {"code": " "})}
        return out

    with ScriptedLLM(steps) as srv:
        env = server_env(tmp_path, PIC_COPILOT_BASE_URL=srv.base_url, PIC_COPILOT_MODEL="scripted-model",
                         PIC_COPILOT_PIPELINE="single-candidate")
        out = session_run(env, body)
        asked = json.dumps(srv.requests)
    assert "never defines" in data(out["explain"])["explanation"]
    fix = data(out["fix"])
    assert fix["ok"] and fix["needed"] and fix["script"].strip() == fixed.strip()
    assert "+undefined_height = 4.0" in fix["diff"] and fix["probe"]["exception"]["type"] == "NameError"
    assert "NameError" in asked
    assert any("area_demo failed" in m for m in progress), progress
    fine = data(out["fine"])
    assert fine["ok"] and not fine["needed"] and fine["diff"] == ""
    assert "empty code" in error_text(out["empty"])


def test_llm_down_is_a_tool_error(tmp_path):
    async def body(s: ClientSession):
        return await s.call_tool("generate_script", {"request": "a ring resonator", "config": "zero-shot"})

    env = server_env(tmp_path, PIC_COPILOT_BASE_URL="http://127.0.0.1:9/v1", PIC_COPILOT_MODEL="m")
    msg = error_text(session_run(env, body))
    assert "LLM endpoint failed" in msg


def test_nothing_but_protocol_on_stdout(tmp_path):
    """Raw check: every line the server writes to stdout is a JSON-RPC message."""
    msgs = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "run_code", "arguments": {"code": "import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search_apis", "arguments": {"query": "ring"}}},
    ]
    proc = subprocess.Popen([EXE, "serve-mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=server_env(tmp_path))
    killer = threading.Timer(240, proc.kill)
    killer.start()
    parsed = []
    try:
        proc.stdin.write("".join(json.dumps(m) + "\n" for m in msgs))
        proc.stdin.flush()
        while not {2, 3} <= {p.get("id") for p in parsed}:
            line = proc.stdout.readline()
            assert line, "the server closed stdout early"
            parsed.append(json.loads(line))  # anything but JSON on stdout fails here
        proc.stdin.close()
        rest = proc.stdout.read()
        parsed += [json.loads(x) for x in rest.splitlines() if x.strip()]
        assert proc.wait(30) == 0
    finally:
        killer.cancel()
        proc.kill()
    assert all(p.get("jsonrpc") == "2.0" for p in parsed)
    run = next(p for p in parsed if p.get("id") == 2)
    assert run["result"]["structuredContent"]["stdout"].strip() == "to stdout"
