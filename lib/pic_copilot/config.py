"""Configuration: which LLM endpoint to use, per-agent models, run limits, folders.

Precedence (highest first): environment variables, the config file, built-in defaults.

Environment variables:
    PIC_COPILOT_PROVIDER   "local" (embedded model), "openai" (any OpenAI-compatible URL) or "anthropic"
    PIC_COPILOT_BASE_URL   endpoint base URL, e.g. http://host:8000/v1 (also OPENAI_BASE_URL)
    PIC_COPILOT_API_KEY    API key (also OPENAI_API_KEY, ANTHROPIC_API_KEY for the anthropic provider)
    PIC_COPILOT_MODEL      model name sent to the endpoint
    PIC_COPILOT_CONFIG     path of the config file (default ~/.config/pic-copilot/config.toml)
    PIC_COPILOT_HOME       shared data folder (embedded LLM runtime + model, history)
    PIC_COPILOT_LLM_THREADS CPU threads of the embedded LLM server (default: the cores, 1 if busy at start)
    PIC_COPILOT_SEED       sampling seed sent with every LLM call (reproducible runs)
    PIC_COPILOT_MAX_ROUNDS evaluator feedback rounds
    PIC_COPILOT_TIMEOUT    deadline of one LLM call in seconds: connect, every read and every
                           retry together (config key ``timeout``; default 300)
    PIC_COPILOT_LLM_PORT   127.0.0.1 port of the embedded LLM server (config key ``llm_port``;
                           default 18765; see :func:`llm_port`)
    PIC_COPILOT_ENDPOINT_PORT  127.0.0.1 port of the endpoint KLayout opens for external agents
                           (config key ``endpoint_port``; default 0 = a free port the system picks)

Config file (TOML)::

    provider = "openai"
    base_url = "https://example/v1"
    model = "some-model"
    max_rounds = 3
    mode = "interactive"
    time_budget = 600      # seconds a request may take; then the best script so far (0 = no limit)
    timeout = 300          # seconds one LLM call may take in all (PIC_COPILOT_TIMEOUT)
    llm_port = 18765        # the embedded LLM server (PIC_COPILOT_LLM_PORT)
    endpoint_port = 0       # KLayout's endpoint for external agents, 0 = any free port
    [agents.planner]
    model = "a-smaller-model"
    [generators.layout]
    databases = ["gdsfactory", "pya"]   # the manuals this domain's generator searches

The API key is never read from the main config file's text into logs: it is kept in a
separate credentials file (mode 0600) next to it, and ``Settings.__repr__`` masks it.
"""
from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

LOCAL_MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"


def data_home() -> Path:
    """Shared data folder: the embedded LLM runtime and model, run history."""
    return Path(os.environ.get("PIC_COPILOT_HOME") or Path.home() / ".local/share/pic-copilot")


def config_path() -> Path:
    """Path of the user's config file."""
    return Path(os.environ.get("PIC_COPILOT_CONFIG") or Path.home() / ".config/pic-copilot/config.toml")


def credentials_path() -> Path:
    """Path of the file that holds the API key (mode 0600), next to the config file."""
    return config_path().with_name("credentials")


def project_root() -> Path:
    """The package checkout (the salt grain folder)."""
    return Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class AgentModel:
    """Per-agent override of the model and sampling.

    Attributes:
        model: model name for this agent, or None to use the default.
        temperature: sampling temperature, or None for the default.
        max_tokens: completion limit, or None for the default.
    """

    model: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None


@dataclass(frozen=True)
class Settings:
    """Everything the engine needs to know about the LLM endpoint and run limits.

    Attributes:
        provider: "local", "openai" or "anthropic".
        base_url: endpoint base URL (for "local" it is filled in when the server starts).
        api_key: secret; masked in repr; never logged.
        model: default model name.
        temperature: default sampling temperature.
        max_tokens: default completion limit.
        timeout_s: deadline of one LLM call (connect + all reads + all retries), seconds.
            300 s: the embedded 1.5B model on a 2-core machine reads an uncached prompt at 27-47
            tokens/s and writes 9-13 tokens/s at the advanced requests' 2-5k-token contexts
            (session 27's server log), so a cold 5k-token prompt with a 1024-token answer takes
            about 240 s; 180 s ended 3 of 321 calls in this machine's records (one of them with
            nothing else running), each ending its request. A dead or trickling endpoint holds
            the panel for at most 5 minutes, and Cancel acts at once (it was ~12 min of 4
            attempts x 180 s, and forever for an endpoint that trickled keep-alives).
        connect_timeout_s: connection timeout.
        max_retries: retries on 429, 5xx and connection errors.
        max_rounds: evaluator feedback rounds.
        mode: "interactive" (run on the open layout) or "sandbox".
        time_budget_s: seconds a request may take before it ends with its best script so far
            (no candidate is started that would end later; 0 = no limit). 600 s: basic and medium
            requests end well before it with the embedded model, and a long composite one (about
            100 s a candidate) answers after 10 minutes instead of 15.
        agents: per-agent overrides keyed by agent name.
        seed: sampling seed sent with every call (None = the server's choice).
        generator_databases: per domain ("layout", "drc", ...), the databases its generator
            searches instead of the built-in choice in prompts/domains.toml.
    """

    provider: str = "local"
    base_url: str = ""
    api_key: str = field(default="", repr=False)
    model: str = LOCAL_MODEL_NAME
    temperature: float = 0.2
    max_tokens: int = 1024
    timeout_s: float = 300.0
    connect_timeout_s: float = 5.0
    max_retries: int = 3
    max_rounds: int = 3
    mode: str = "interactive"
    time_budget_s: float = 600.0
    agents: dict[str, AgentModel] = field(default_factory=dict)
    seed: int | None = None
    generator_databases: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __repr__(self) -> str:  # never show the key
        key = "***" if self.api_key else ""
        return (f"Settings(provider={self.provider!r}, base_url={self.base_url!r}, model={self.model!r}, "
                f"api_key={key!r}, max_rounds={self.max_rounds}, mode={self.mode!r})")

    def for_agent(self, agent: str) -> "AgentModel":
        """The effective model/temperature/max_tokens for one agent."""
        o = self.agents.get(agent, AgentModel())
        return AgentModel(
            model=o.model or self.model,
            temperature=self.temperature if o.temperature is None else o.temperature,
            max_tokens=o.max_tokens or self.max_tokens,
        )

    def public_dict(self) -> dict:
        """A dict safe to log or write to a history file (no key)."""
        return {
            "provider": self.provider, "base_url": self.base_url, "model": self.model,
            "api_key_set": bool(self.api_key), "temperature": self.temperature,
            "max_tokens": self.max_tokens, "max_rounds": self.max_rounds, "mode": self.mode,
            "time_budget_s": self.time_budget_s,
            "agents": {k: v.__dict__ for k, v in self.agents.items()},
            "generator_databases": {k: list(v) for k, v in self.generator_databases.items()},
        }


def _read_toml(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"config file {path} is not valid TOML: {e}") from None


#: the environment variables that take precedence over the config file (the settings dialog names
#: the ones that are set, never their values)
ENV_VARS = ("PIC_COPILOT_PROVIDER", "PIC_COPILOT_BASE_URL", "OPENAI_BASE_URL", "PIC_COPILOT_MODEL",
            "PIC_COPILOT_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PIC_COPILOT_MAX_ROUNDS",
            "PIC_COPILOT_PIPELINE", "PIC_COPILOT_LLM_PORT", "PIC_COPILOT_ENDPOINT_PORT")


def read_config_file(path: Path | None = None) -> tuple[dict, str]:
    """The config file's tables as they are, without defaults, and what is wrong with it.

    Args:
        path: the file (default :func:`config_path`).

    Returns:
        (data, problem): ``data`` is {} when the file is missing or not valid TOML; ``problem`` is
        "" or the TOML error.
    """
    path = path or config_path()
    if not path.exists():
        return {}, ""
    try:
        return tomllib.loads(path.read_text()), ""
    except tomllib.TOMLDecodeError as e:
        return {}, f"it is not valid TOML: {e}"


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return json.dumps(str(v))  # a JSON string is a valid TOML basic string


def to_toml(data: dict) -> str:
    """The config file's text for ``data`` (its shape: top-level values, then ``[table]`` values and
    ``[table.sub]`` tables such as ``[agents.planner]``; empty tables are left out).

    Args:
        data: the settings as :func:`read_config_file` returns them.
    """
    lines = ["# pic-copilot settings (written by the KLayout settings dialog).",
             "# The API key is not here: it lives in the 'credentials' file next to this one (mode 0600).", ""]
    tables = []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            lines.append(f"{k} = {_toml_value(v)}")
    for k, v in tables:
        scalars = [(sub, spec) for sub, spec in v.items() if not isinstance(spec, dict)]
        if scalars:
            lines += ["", f"[{k}]"] + [f"{sub} = {_toml_value(spec)}" for sub, spec in scalars]
        for sub, spec in v.items():
            if isinstance(spec, dict) and spec:
                lines += ["", f"[{k}.{sub}]"] + [f"{kk} = {_toml_value(vv)}" for kk, vv in spec.items()]
    return "\n".join(lines) + "\n"


def write_config_file(data: dict, path: Path | None = None) -> Path:
    """Replace the config file with ``data`` (written next to it first, then renamed: never half a file).

    Args:
        data: the settings (never the API key: it belongs in the credentials file).
        path: the file (default :func:`config_path`).
    """
    path = path or config_path()
    data = {k: v for k, v in data.items() if k != "api_key"}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(to_toml(data))
    os.replace(tmp, path)
    return path


def read_api_key_file() -> str:
    """The API key stored by the settings dialog, or ""."""
    p = credentials_path()
    try:
        return p.read_text().strip()
    except OSError:
        return ""


def write_api_key_file(key: str) -> Path:
    """Store the API key in the credentials file with mode 0600."""
    p = credentials_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.strip())
    os.chmod(p, 0o600)
    return p


def _generator_databases(data: dict) -> dict[str, tuple[str, ...]]:
    """The `[generators.<domain>] databases = [...]` tables of the config file."""
    out = {}
    for domain, spec in (data.get("generators") or {}).items():
        dbs = spec.get("databases") if isinstance(spec, dict) else None
        if dbs is None:
            continue
        if not isinstance(dbs, list) or not all(isinstance(d, str) for d in dbs):
            raise ValueError(f"config [generators.{domain}] databases must be a list of database names, "
                             f"e.g. [\"gdsfactory\", \"pya\"]")
        out[domain] = tuple(dbs)
    return out


def load_settings(env: dict[str, str] | None = None, path: Path | None = None) -> Settings:
    """Build the effective settings from defaults, the config file and the environment."""
    env = dict(os.environ if env is None else env)
    data = _read_toml(path or config_path())
    agents = {name: AgentModel(**{k: v for k, v in spec.items() if k in ("model", "temperature", "max_tokens")})
              for name, spec in (data.get("agents") or {}).items()}
    s = Settings(agents=agents, generator_databases=_generator_databases(data))
    simple = {k: data[k] for k in ("provider", "base_url", "model", "temperature", "max_tokens", "timeout_s",
                                   "connect_timeout_s", "max_retries", "max_rounds", "mode") if k in data}
    if "timeout" in data:
        simple["timeout_s"] = data["timeout"]
    s = replace(s, **simple)
    if env.get("PIC_COPILOT_TIMEOUT"):
        try:
            s = replace(s, timeout_s=float(env["PIC_COPILOT_TIMEOUT"]))
        except ValueError:
            raise ValueError(f"PIC_COPILOT_TIMEOUT must be a number of seconds, not {env['PIC_COPILOT_TIMEOUT']!r}") from None
    try:
        s = replace(s, timeout_s=float(s.timeout_s))
    except (TypeError, ValueError):
        raise ValueError(f"config 'timeout' must be a number of seconds, not {s.timeout_s!r}") from None
    if s.timeout_s <= 0:
        raise ValueError(f"the LLM deadline must be positive (PIC_COPILOT_TIMEOUT / config 'timeout'): {s.timeout_s}")

    base_url = env.get("PIC_COPILOT_BASE_URL") or env.get("OPENAI_BASE_URL")
    provider = env.get("PIC_COPILOT_PROVIDER")
    if base_url:
        s = replace(s, base_url=base_url, provider=provider or ("openai" if s.provider == "local" else s.provider))
    if provider:
        s = replace(s, provider=provider)
    if s.provider not in ("local", "openai", "anthropic"):
        raise ValueError(f"unknown provider {s.provider!r}: use local, openai or anthropic")
    if s.provider == "anthropic" and not s.base_url:
        s = replace(s, base_url="https://api.anthropic.com")
    if s.provider == "local":
        s = replace(s, model=data.get("model", LOCAL_MODEL_NAME) if not env.get("PIC_COPILOT_MODEL") else env["PIC_COPILOT_MODEL"])
    elif env.get("PIC_COPILOT_MODEL"):
        s = replace(s, model=env["PIC_COPILOT_MODEL"])

    key = env.get("PIC_COPILOT_API_KEY")
    if not key:
        key = env.get("ANTHROPIC_API_KEY") if s.provider == "anthropic" else env.get("OPENAI_API_KEY")
    if not key and s.provider != "local":
        key = read_api_key_file()
    s = replace(s, api_key=key or "")
    if env.get("PIC_COPILOT_SEED"):
        s = replace(s, seed=int(env["PIC_COPILOT_SEED"]))
    if env.get("PIC_COPILOT_MAX_ROUNDS"):
        s = replace(s, max_rounds=int(env["PIC_COPILOT_MAX_ROUNDS"]))
    budget = env.get("PIC_COPILOT_TIME_BUDGET") or data.get("time_budget")
    if budget is not None and budget != "":
        try:
            s = replace(s, time_budget_s=max(0.0, float(budget)))
        except (TypeError, ValueError):
            raise ValueError(f"the time budget (PIC_COPILOT_TIME_BUDGET / config 'time_budget') must be a number "
                             f"of seconds, not {budget!r}") from None
    return s


# ------------------------------------------------------------------------------------------ ports
LLM_PORT_DEFAULT = 18765
ENDPOINT_PORT_DEFAULT = 0   # 0: a free port the system picks (its ephemeral range, 32768+ on Linux)
# Ports that tools designers run next to KLayout bind: KlayoutClaw and klink 8765 (klink scans
# 8765-8799), klive 8082. No default of ours is one of them.
PEER_PORTS = frozenset([*range(8765, 8800), 8082])

_PORTS = {  # what: (environment variable, config key, label in the settings dialog)
    "llm": ("PIC_COPILOT_LLM_PORT", "llm_port", "Embedded LLM port"),
    "endpoint": ("PIC_COPILOT_ENDPOINT_PORT", "endpoint_port", "External agents port"),
}


@dataclass(frozen=True)
class PortChoice:
    """A 127.0.0.1 port and the setting it came from (for messages that say what to change).

    Attributes:
        port: the port; 0 means any free port.
        setting: where it was set: the environment variable, "<key> in <config file>", or "the default".
        explicit: the designer chose it (environment or config file), so it must be this port.
        env_var: the environment variable that sets it.
        key: the config file key that sets it.
        label: the settings dialog's field.
    """

    port: int
    setting: str
    explicit: bool
    env_var: str
    key: str
    label: str

    def in_use_message(self, what: str) -> str:
        """The message for "this port is already taken by another program"."""
        return (f"cannot open {what} on 127.0.0.1:{self.port}: the port is already in use by another program. "
                f"The port comes from {self.setting}; choose a free one with {self.env_var}, with {self.key} in "
                f"{config_path()}, or in the pic-copilot settings dialog ('{self.label}').")


def _port_choice(what: str, default: int, env: dict[str, str] | None, path: Path | None) -> PortChoice:
    env_var, key, label = _PORTS[what]
    env = dict(os.environ if env is None else env)
    path = path or config_path()
    raw, setting = env.get(env_var, "").strip(), env_var
    if not raw:
        data = _read_toml(path)
        raw, setting = (data.get(key), f"{key} in {path}") if key in data else (None, "the default")
    if raw is None:
        return PortChoice(default, setting, False, env_var, key, label)
    try:
        port = int(raw)
        if isinstance(raw, (bool, float)) or not 0 <= port <= 65535:
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"{setting} must be a port number from 1 to 65535 (0 = any free port), not {raw!r}") from None
    return PortChoice(port, setting, True, env_var, key, label)


def llm_port(env: dict[str, str] | None = None, path: Path | None = None,
             default: int = LLM_PORT_DEFAULT) -> PortChoice:
    """The embedded LLM server's port: PIC_COPILOT_LLM_PORT, else ``llm_port`` in the config file, else 18765.

    Raises:
        ValueError: the setting is not a port number (the message names it).
    """
    return _port_choice("llm", default, env, path)


def endpoint_port(env: dict[str, str] | None = None, path: Path | None = None) -> PortChoice:
    """The port KLayout's endpoint for external agents listens on: PIC_COPILOT_ENDPOINT_PORT, else
    ``endpoint_port`` in the config file, else 0 (a free port the system picks, announced in the
    discovery file).

    Raises:
        ValueError: the setting is not a port number (the message names it).
    """
    return _port_choice("endpoint", ENDPOINT_PORT_DEFAULT, env, path)
