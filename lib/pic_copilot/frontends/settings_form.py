"""What the KLayout settings dialog shows and saves: the engine's answer to the ``settings`` message
(docs/PROTOCOL.md). The plugin never reads the engine's files: the fields, their defaults, the
domains and their default databases, and the saving all come from here.

The config file keeps only what the designer set (other keys already in it are kept); the API key
goes to the separate credentials file (mode 0600) and never into the form, a log or an answer.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .. import config
from ..contracts import MODES

#: the agents whose model the dialog can set (``[agents.<name>] model = ...``)
AGENTS = ("planner", "query_generator", "programmer", "synthesizer", "evaluator", "explainer")
#: the domains whose generator's databases the dialog can choose (``[generators.<domain>]``); the DRC
#: deck generator is left out: it searches only its own reference (prompts/domains.toml)
GENERATORS = ("layout", "drc", "simulation", "data")
PROVIDERS = ("local", "openai", "anthropic")
MAX_ROUNDS_RANGE = (1, 10)
_SIMPLE = ("provider", "base_url", "model", "mode", "max_rounds", "llm_port", "endpoint_port")


@dataclass(frozen=True)
class SettingsForm:
    """The settings dialog's content.

    Attributes:
        config_path: the config file.
        problem: what is wrong with the config file ("" when nothing; saving rewrites it).
        credentials_path: the file that holds the API key.
        key_stored: an API key is stored there (the key itself is never sent).
        env_set: the environment variables that are set and take precedence (names only).
        agents: the agents whose model can be set.
        generators: the domains whose databases can be chosen.
        databases: the documentation databases there are.
        defaults: what applies when the file does not say: provider, mode, max_rounds, llm_port,
            endpoint_port, databases {domain: [names]}.
        values: the file's settings with the defaults filled in: provider, base_url, model, mode,
            max_rounds, llm_port, endpoint_port, agents {name: model or ""}, databases {domain: [names]}.
    """

    config_path: str
    problem: str
    credentials_path: str
    key_stored: bool
    env_set: tuple[str, ...]
    agents: tuple[str, ...] = AGENTS
    generators: tuple[str, ...] = GENERATORS
    databases: tuple[str, ...] = ()
    defaults: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The form as the ``settings_result`` message carries it."""
        return asdict(self)


def available_databases() -> tuple[str, ...]:
    """The documentation database folders (the check library excluded)."""
    from ..retrieval.paths import databases_dir

    d = databases_dir()
    return tuple(sorted(p.name for p in d.iterdir() if p.is_dir() and p.name != "checks")) if d.is_dir() else ()


def default_databases() -> dict[str, list[str]]:
    """Each domain's built-in choice of databases (prompts/domains.toml)."""
    from .. import prompts

    spec = prompts.domains()
    return {g: list(spec[g]["databases"]) for g in GENERATORS if g in spec}


def _int_or(value, default: int) -> int:
    if isinstance(value, bool):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def load_form(env: dict[str, str] | None = None, path: Path | None = None) -> SettingsForm:
    """The dialog's content from the config file, the credentials file and the environment.

    Args:
        env: the environment (default os.environ); only the names of the set variables are used.
        path: the config file (default config.config_path()).
    """
    env = dict(os.environ if env is None else env)
    path = path or config.config_path()
    data, problem = config.read_config_file(path)
    base = config.Settings()
    defaults = {"provider": "local", "mode": base.mode, "max_rounds": base.max_rounds,
                "llm_port": config.LLM_PORT_DEFAULT, "endpoint_port": config.ENDPOINT_PORT_DEFAULT,
                "databases": default_databases()}
    agents = data.get("agents") if isinstance(data.get("agents"), dict) else {}
    chosen = {g: spec.get("databases") for g, spec in (data.get("generators") or {}).items() if isinstance(spec, dict)} \
        if isinstance(data.get("generators"), dict) else {}
    provider = data.get("provider", "local")
    values = {
        "provider": provider if provider in PROVIDERS else "local",
        "base_url": str(data.get("base_url", "")),
        "model": str(data.get("model", "")),
        "mode": "sandbox" if data.get("mode") == "sandbox" else "interactive",
        "max_rounds": _int_or(data.get("max_rounds"), defaults["max_rounds"]),
        "llm_port": _int_or(data.get("llm_port"), defaults["llm_port"]),
        "endpoint_port": _int_or(data.get("endpoint_port"), defaults["endpoint_port"]),
        "agents": {name: str((agents.get(name) if isinstance(agents.get(name), dict) else {}).get("model", ""))
                   for name in AGENTS},
        "databases": {g: list(chosen[g]) if isinstance(chosen.get(g), list) else list(defaults["databases"].get(g, []))
                      for g in GENERATORS},
    }
    return SettingsForm(config_path=str(path), problem=problem, credentials_path=str(config.credentials_path()),
                        key_stored=bool(config.read_api_key_file()),
                        env_set=tuple(v for v in config.ENV_VARS if env.get(v)),
                        databases=available_databases(), defaults=defaults, values=values)


def _port(values: dict, key: str) -> int | None:
    v = values.get(key)
    if v in (None, ""):
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 65535:
        raise ValueError(f"{key} must be a port number from 0 to 65535, not {v!r}")
    return v


def checked_values(values) -> dict:
    """The dialog's values, checked: the keys of :attr:`SettingsForm.values` (each optional).

    Args:
        values: what the dialog sent.

    Raises:
        ValueError: a value of the wrong kind (the message names the field).
    """
    if not isinstance(values, dict):
        raise ValueError("the settings values must be an object")
    out: dict = {}
    for k in ("provider", "base_url", "model", "mode"):
        v = values.get(k)
        if v is not None and not isinstance(v, str):
            raise ValueError(f"{k} must be text, not {v!r}")
        out[k] = (v or "").strip()
    if out["provider"] and out["provider"] not in PROVIDERS:
        raise ValueError(f"unknown provider {out['provider']!r}: use {', '.join(PROVIDERS)}")
    if out["mode"] and out["mode"] not in MODES:
        raise ValueError(f"unknown mode {out['mode']!r}: use {' or '.join(MODES)}")
    rounds = values.get("max_rounds")
    lo, hi = MAX_ROUNDS_RANGE
    if rounds not in (None, "") and (isinstance(rounds, bool) or not isinstance(rounds, int) or not lo <= rounds <= hi):
        raise ValueError(f"max_rounds must be a whole number from {lo} to {hi}, not {rounds!r}")
    out["max_rounds"] = rounds if rounds not in (None, "") else None
    out["llm_port"] = _port(values, "llm_port")
    out["endpoint_port"] = _port(values, "endpoint_port")
    agents = values.get("agents") or {}
    if not isinstance(agents, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in agents.items()):
        raise ValueError("agents must map agent names to model names")
    out["agents"] = {k: v.strip() for k, v in agents.items()}
    dbs = values.get("databases")
    if dbs is not None and (not isinstance(dbs, dict) or not all(
            isinstance(g, str) and isinstance(names, list) and all(isinstance(n, str) for n in names)
            for g, names in dbs.items())):
        raise ValueError("databases must map domains to lists of database names")
    out["databases"] = None if dbs is None else {g: list(names) for g, names in dbs.items()}
    return out


def save(values, api_key: str | None, path: Path | None = None) -> Path:
    """Merge the dialog's values into the config file and store the API key.

    A field left empty removes the URL or model from the file (the default applies again); other
    keys already in the file are kept; a file that is not valid TOML is rewritten.

    Args:
        values: the dialog's values (see :func:`checked_values`).
        api_key: a new key to store; "" removes the stored key; None keeps it.
        path: the config file (default config.config_path()).

    Returns:
        the config file written.

    Raises:
        ValueError: a value of the wrong kind; nothing is written then.
        OSError: a file could not be written.
    """
    v = checked_values(values)
    if api_key is not None and not isinstance(api_key, str):
        raise ValueError("api_key must be text")
    data, _problem = config.read_config_file(path)
    data.pop("api_key", None)   # never in this file
    for k in _SIMPLE:
        if v.get(k) not in (None, ""):
            data[k] = v[k]
        elif k in ("base_url", "model"):
            data.pop(k, None)
    known = data.get("agents") if isinstance(data.get("agents"), dict) else {}
    agents = {name: dict(spec) for name, spec in known.items() if isinstance(spec, dict)}
    for name, model in v["agents"].items():
        spec = agents.setdefault(name, {})
        if model:
            spec["model"] = model
        else:
            spec.pop("model", None)
    data["agents"] = {k: s for k, s in agents.items() if s}
    if v["databases"] is not None:
        data["generators"] = {g: {"databases": list(dbs)} for g, dbs in v["databases"].items()}
    written = config.write_config_file(data, path)
    if api_key is not None:
        config.write_api_key_file(api_key)
    return written
