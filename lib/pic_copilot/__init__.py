"""pic-copilot engine: LLM access, retrieval, agents, checks, sandbox and benchmark logic."""

__version__ = "0.1.0"
