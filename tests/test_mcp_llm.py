"""An MCP client session against `pic-copilot serve-mcp` with the real embedded LLM (slow).

Writes a transcript of every call (the four tools, progress notifications, results) to
test-output/mcp_transcript_local_llm.json and .txt. `run_code(mode="interactive")` runs against
a real KLayout (klayout -b hosting the panel's remote endpoint, see test_remote.py).
PIC_COPILOT_MCP_CONFIG chooses generate_script's pipeline configuration (default: full).
"""
from __future__ import annotations

import json
import os
import time

import anyio
import pytest

from kl import KLAYOUT
from pic_copilot.llm import local_server

pytestmark = [pytest.mark.llm, pytest.mark.slow,
              pytest.mark.skipif(not local_server.runtime_available(),
                                 reason="the embedded LLM is not installed (scripts/setup.sh installs it)")]

REQUEST = "Create a 1x2 MMI splitter with gdsfactory and write it to mmi.gds"
GF_CODE = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.mmi1x2(length_mmi=12)\n"
           "c.write_gds('mmi.gds', with_metadata=False)\nprint(c.name, sorted(p.name for p in c.ports))\n")
PYA_CODE = ("li = layout.layer(1, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 20, 2))\n"
            "print('top', cell.name, 'shapes on 1/0:', cell.shapes(li).size())\n")


def _short(obj, n=1500):
    text = json.dumps(obj, indent=1, default=str)
    return text if len(text) <= n else text[:n] + f"\n... [{len(text) - n} more characters]"


def test_mcp_session_with_local_llm(tmp_path, test_output):
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from test_mcp import EXE, server_env

    info = local_server.start()
    host = None
    if KLAYOUT is not None:
        from test_remote import Host

        (tmp_path / "kl").mkdir()
        host = Host(tmp_path / "kl")
        host("start")
    home = str(host.home) if host else str(tmp_path / "home")
    # provider "local" with the running server's URL: exactly how the engine talks to the embedded model,
    # while PIC_COPILOT_HOME points at the test KLayout's discovery file
    env = server_env(tmp_path, PIC_COPILOT_HOME=home, PIC_COPILOT_BASE_URL=info.base_url, PIC_COPILOT_PROVIDER="local",
                     PIC_COPILOT_MODEL="qwen2.5-coder-1.5b-instruct-q4_k_m")
    config = os.environ.get("PIC_COPILOT_MCP_CONFIG", "full")
    log: list[dict] = []
    text: list[str] = [f"# MCP session: {EXE} serve-mcp (stdio), LLM {info.base_url} (embedded Qwen2.5-Coder 1.5B)"]

    async def call(s, tool, args, **kw):
        text.append(f"\n>>> tools/call {tool} {json.dumps(args)}")
        t0 = time.monotonic()
        res = await s.call_tool(tool, args, **kw)
        dt = round(time.monotonic() - t0, 1)
        payload = res.structured_content if not res.is_error else res.content[0].text
        log.append({"tool": tool, "arguments": args, "is_error": res.is_error, "seconds": dt, "result": payload})
        text.append(f"<<< isError={res.is_error} ({dt} s)\n{_short(payload) if not res.is_error else payload}")
        return res

    async def main():
        params = StdioServerParameters(command=EXE, args=["serve-mcp"], env=env)
        with anyio.fail_after(1800):
            async with stdio_client(params) as (r, w):
                async with ClientSession(r, w) as s:
                    init = await s.initialize()
                    text.append(f"\n>>> initialize\n<<< server {init.server_info.name} {init.server_info.version}; "
                                f"instructions: {init.instructions[:300]}...")
                    tools = (await s.list_tools()).tools
                    text.append("\n>>> tools/list\n<<< " + "\n    ".join(
                        f"{t.name}({', '.join(t.input_schema['properties'])}): {t.description.splitlines()[0]}"
                        for t in tools))
                    log.append({"tools": [t.name for t in tools]})
                    await call(s, "search_apis", {"query": "1x2 MMI splitter component", "db": "gdsfactory", "k": 3})
                    await call(s, "get_api_details", {"name": "gf.components.mmi1x2"})
                    await call(s, "run_code", {"code": GF_CODE, "mode": "sandbox"})
                    await call(s, "run_code", {"code": PYA_CODE, "mode": "interactive"})
                    await call(s, "run_code", {"code": "print(1)", "mode": "remote-gpu"})
                    progress = []

                    async def on_progress(p, total, message):
                        progress.append(message)
                        text.append(f"    (progress {p:g}) {message}")

                    res = await call(s, "generate_script", {"request": REQUEST, "mode": "sandbox", "config": config},
                                     progress_callback=on_progress)
                    return res, progress

    try:
        res, progress = anyio.run(main)
    finally:
        if host is not None:
            host.close()
        (test_output / "mcp_transcript_local_llm.json").write_text(json.dumps(log, indent=1, default=str))
        (test_output / "mcp_transcript_local_llm.txt").write_text("\n".join(text) + "\n")
    by_tool = {}
    for e in log:
        by_tool.setdefault(e.get("tool"), []).append(e)
    assert by_tool["search_apis"][0]["result"]["results"]
    assert by_tool["get_api_details"][0]["result"]["id"] == "gdsfactory.components.mmi1x2"
    assert by_tool["run_code"][0]["result"]["ok"]
    if host is not None:
        assert by_tool["run_code"][1]["result"]["ok"] and by_tool["run_code"][1]["result"]["where"] == "klayout"
    assert by_tool["run_code"][2]["is_error"]
    assert not res.is_error and progress
    out = res.structured_content
    assert out["script"] and "gdsfactory" in out["script"]
    assert out["usage"]["calls"] >= 1
