"""The front ends: where a request enters the engine and its answer leaves it.

- :mod:`.engine`: the engine process the KLayout panel starts (``python -m pic_copilot.frontends.engine``),
  JSON lines on stdin/stdout (docs/PROTOCOL.md);
- :mod:`.mcp_server`: the copilot's tools for other agents over MCP (``pic-copilot serve-mcp``, docs/MCP.md);
- :mod:`.cli`: the ``pic-copilot`` command line; :mod:`.ask_run` adds its ``ask`` and ``run`` commands.
"""
