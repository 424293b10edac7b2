"""Tool-manual databases and hybrid retrieval (Step 2).

    from pic_copilot.retrieval import search_apis, get_api_details, symbol_index
    search_apis("connect two ports with a waveguide")          # top-5 original chunks
    get_api_details("gf.components.mmi1x2")                    # full entry, params, members
    symbol_index().suggest("gdsfactory.write_gds")             # did-you-mean

Loading is lazy and cached per process.
"""
from __future__ import annotations

from .errors import RetrievalError

__all__ = ["search_apis", "get_api_details", "list_databases", "symbol_index", "RetrievalError", "SymbolIndex", "reset_cache"]


def __getattr__(name):
    if name in ("search_apis", "get_api_details", "list_databases", "symbol_index", "reset_cache", "get_retriever"):
        from . import api

        return getattr(api, name)
    if name == "SymbolIndex":
        from .symbols import SymbolIndex

        return SymbolIndex
    raise AttributeError(name)
