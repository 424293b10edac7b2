"""pic-copilot's thin layer inside KLayout: dock panel, menus, macro-IDE hook, and the bridge.

stdlib + pya only. The engine (LLM, retrieval, agents, sandbox) runs as a child process.
"""
from pathlib import Path

__version__ = "0.1.0"

GRAIN_ROOT = Path(__file__).resolve().parents[2]
