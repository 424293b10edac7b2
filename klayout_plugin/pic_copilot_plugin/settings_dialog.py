"""The settings dialog: endpoint, models per agent, API key, mode, rounds, databases, rebuild.

Writes ``config.toml`` (``PIC_COPILOT_CONFIG`` overrides the path) and the API key into the
separate credentials file (mode 0600, through ``pic_copilot.config.write_api_key_file``); the
key is never put in the config file, a log or the history. Environment variables take
precedence over both; the dialog says which ones are set (never their values).
stdlib + pya only: ``pic_copilot/config.py`` is loaded by path (it is stdlib-only).
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
import tomllib
from pathlib import Path

import pya

from . import GRAIN_ROOT
from .engine_process import engine_process, engine_python
from .macro_ide import raise_widget

AGENTS = ("planner", "query_generator", "programmer", "synthesizer", "evaluator", "explainer")
GENERATORS = ("layout", "drc", "simulation", "data")
PROVIDERS = (("local", "Local (embedded model)"), ("openai", "OpenAI-compatible URL"), ("anthropic", "Anthropic"))
ENV_VARS = ("PIC_COPILOT_PROVIDER", "PIC_COPILOT_BASE_URL", "OPENAI_BASE_URL", "PIC_COPILOT_MODEL",
            "PIC_COPILOT_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PIC_COPILOT_MAX_ROUNDS",
            "PIC_COPILOT_PIPELINE", "PIC_COPILOT_LLM_PORT", "PIC_COPILOT_ENDPOINT_PORT")
_PROGRESS = re.compile(r"(\S+)\s+\[[^\]]*\]\s+(\d+)/(\d+)")


def config_module():
    """pic_copilot.config loaded from the grain (stdlib only; no engine packages needed)."""
    name = "pic_copilot_plugin._config"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, GRAIN_ROOT / "lib" / "pic_copilot" / "config.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def available_databases() -> list[str]:
    d = GRAIN_ROOT / "databases"
    return sorted(p.name for p in d.iterdir() if p.is_dir() and p.name != "checks") if d.is_dir() else []


def default_generator_databases() -> dict[str, list[str]]:
    try:
        spec = tomllib.loads((GRAIN_ROOT / "lib" / "pic_copilot" / "prompts" / "domains.toml").read_text())
        return {g: list(spec[g]["databases"]) for g in GENERATORS if g in spec}
    except Exception:  # noqa: BLE001
        return {}


def _int_or(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return json.dumps(str(v))  # a JSON string is a valid TOML basic string


def to_toml(data: dict) -> str:
    """A small TOML writer for the config's shape: top-level scalars, then [table.sub] tables."""
    lines = ["# pic-copilot settings (written by the KLayout settings dialog).",
             "# The API key is not here: it lives in the 'credentials' file next to this one (mode 0600).", ""]
    tables = []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            lines.append(f"{k} = {_toml_value(v)}")
    for k, v in tables:
        for sub, spec in v.items():
            if isinstance(spec, dict):
                if not spec:
                    continue
                lines += ["", f"[{k}.{sub}]"] + [f"{kk} = {_toml_value(vv)}" for kk, vv in spec.items()]
            else:
                lines += ["", f"[{k}]", f"{sub} = {_toml_value(spec)}"]
    return "\n".join(lines) + "\n"


def save_settings(values: dict, api_key: str | None) -> Path:
    """Merge ``values`` into the config file and store ``api_key`` (None = keep, "" = remove).

    ``values``: provider, base_url, model, mode, max_rounds, llm_port, endpoint_port, agents
    {name: model}, databases {generator: [names]}. Other keys already in the file are kept.
    """
    cfg = config_module()
    path = cfg.config_path()
    data = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError:
            data = {}
    data.pop("api_key", None)  # never in this file
    for k in ("provider", "base_url", "model", "mode", "max_rounds", "llm_port", "endpoint_port"):
        if values.get(k) not in (None, ""):
            data[k] = values[k]
        elif k in ("base_url", "model"):
            data.pop(k, None)
    agents = {name: dict(spec) for name, spec in (data.get("agents") or {}).items() if isinstance(spec, dict)}
    for name, model in (values.get("agents") or {}).items():
        spec = agents.setdefault(name, {})
        if model:
            spec["model"] = model
        else:
            spec.pop("model", None)
    data["agents"] = {k: v for k, v in agents.items() if v}
    if values.get("databases") is not None:
        data["generators"] = {g: {"databases": list(dbs)} for g, dbs in values["databases"].items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(to_toml(data))
    os.replace(tmp, path)
    if api_key is not None:
        cfg.write_api_key_file(api_key)
    return path


class SettingsDialog:
    """Non-modal dialog; ``on_saved()`` is called after Save (the panel restarts the engine)."""

    def __init__(self, parent, on_saved=None):
        self.on_saved = on_saved
        self.build_proc = None
        self._build_err = b""
        self.dlg = pya.QDialog(parent)
        self.dlg.windowTitle = "pic-copilot settings"
        self.dlg.objectName = "pic_copilot_settings"
        self.dlg.resize(660, 880)
        root = pya.QVBoxLayout(self.dlg)

        ep = pya.QGroupBox("LLM endpoint", self.dlg)
        form = pya.QFormLayout(ep)
        self.provider = pya.QComboBox(ep)
        for key, label in PROVIDERS:
            self.provider.addItem(label, key)
        self.base_url = pya.QLineEdit(ep)
        self.base_url.placeholderText = "https://host/v1 (empty: the provider's default)"
        self.model = pya.QLineEdit(ep)
        self.model.placeholderText = "model name sent to the endpoint"
        self.api_key = pya.QLineEdit(ep)
        self.api_key.echoMode = pya.QLineEdit.Password
        self.api_key.objectName = "pic_copilot_api_key"
        self.key_state = pya.QLabel(ep)
        self.key_state.wordWrap = True
        self.key_state.setMinimumHeight(36)
        self.clear_key = pya.QCheckBox("Remove the stored key", ep)
        form.addRow("Endpoint", self.provider)
        form.addRow("URL", self.base_url)
        form.addRow("Model", self.model)
        form.addRow("API key", self.api_key)
        form.addRow("", self.key_state)
        form.addRow("", self.clear_key)
        root.addWidget(ep)

        ag = pya.QGroupBox("Model per agent (empty: the model above)", self.dlg)
        agf = pya.QFormLayout(ag)
        self.agent_models = {}
        for name in AGENTS:
            e = pya.QLineEdit(ag)
            self.agent_models[name] = e
            agf.addRow(name.replace("_", " "), e)
        root.addWidget(ag)

        run = pya.QGroupBox("Running", self.dlg)
        rf = pya.QFormLayout(run)
        self.mode = pya.QComboBox(run)
        self.mode.addItem("interactive (run on the open layout)", "interactive")
        self.mode.addItem("sandbox (run in the engine's sandbox)", "sandbox")
        self.max_rounds = pya.QSpinBox(run)
        self.max_rounds.setRange(1, 10)
        rf.addRow("Mode", self.mode)
        rf.addRow("Max feedback rounds", self.max_rounds)
        root.addWidget(run)

        ports = pya.QGroupBox("Ports on 127.0.0.1 (peer tools use 8765-8799 and 8082)", self.dlg)
        pf = pya.QFormLayout(ports)
        self.llm_port = pya.QSpinBox(ports)
        self.llm_port.setRange(1024, 65535)
        self.llm_port.toolTip = "Where the embedded model listens (PIC_COPILOT_LLM_PORT); used when it next starts"
        self.endpoint_port = pya.QSpinBox(ports)
        self.endpoint_port.setRange(0, 65535)
        self.endpoint_port.specialValueText = "automatic (a free port)"
        self.endpoint_port.toolTip = ("Where KLayout listens for external agents when the panel allows them "
                                      "(PIC_COPILOT_ENDPOINT_PORT); clients find it in the discovery file")
        pf.addRow("Embedded LLM port", self.llm_port)
        pf.addRow("External agents port", self.endpoint_port)
        root.addWidget(ports)

        dbs = pya.QGroupBox("Documentation databases per generator", self.dlg)
        grid = pya.QGridLayout(dbs)
        self.db_names = available_databases()
        self.db_checks: dict[tuple[str, str], object] = {}
        for j, db in enumerate(self.db_names):
            grid.addWidget(pya.QLabel(db, dbs), 0, j + 1)
        for i, g in enumerate(GENERATORS):
            grid.addWidget(pya.QLabel(g, dbs), i + 1, 0)
            for j, db in enumerate(self.db_names):
                cb = pya.QCheckBox(dbs)
                self.db_checks[(g, db)] = cb
                grid.addWidget(cb, i + 1, j + 1)
        brow = pya.QHBoxLayout()
        self.rebuild_btn = pya.QPushButton("Rebuild databases", dbs)
        self.progress = pya.QProgressBar(dbs)
        self.progress.setRange(0, 100)
        self.progress.value = 0
        self.build_label = pya.QLabel("", dbs)
        brow.addWidget(self.rebuild_btn)
        brow.addWidget(self.progress, 1)
        grid.addLayout(brow, len(GENERATORS) + 1, 0, 1, len(self.db_names) + 1)
        grid.addWidget(self.build_label, len(GENERATORS) + 2, 0, 1, len(self.db_names) + 1)
        root.addWidget(dbs)

        self.env_note = pya.QLabel(self.dlg)
        self.env_note.wordWrap = True
        root.addWidget(self.env_note)
        self.path_note = pya.QLabel(self.dlg)
        self.path_note.wordWrap = True
        root.addWidget(self.path_note)

        buttons = pya.QHBoxLayout()
        self.status = pya.QLabel("", self.dlg)
        self.save_btn = pya.QPushButton("Save and restart engine", self.dlg)
        self.close_btn = pya.QPushButton("Close", self.dlg)
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.close_btn)
        buttons.addWidget(self.save_btn)
        root.addLayout(buttons)

        self.save_btn.clicked = self._safe(self.save)
        self.close_btn.clicked = self._safe(lambda *a: self.dlg.hide())
        self.rebuild_btn.clicked = self._safe(lambda *a: self.rebuild())
        self.provider.currentIndexChanged = self._safe(lambda *a: self._provider_changed())
        self.load()

    def _safe(self, fn):
        def handler(*args):
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - an exception here would pop a modal dialog
                self.status.text = f"{type(e).__name__}: {e}"
        return handler

    # -- state
    def load(self) -> None:
        cfg = config_module()
        path = cfg.config_path()
        data = {}
        problem = ""
        if path.exists():
            try:
                data = tomllib.loads(path.read_text())
            except tomllib.TOMLDecodeError as e:
                problem = f" (it is not valid TOML: {e}; saving rewrites it)"
        prov = data.get("provider", "local")
        self.provider.setCurrentIndex(max(0, [k for k, _ in PROVIDERS].index(prov) if prov in dict(PROVIDERS) else 0))
        self.base_url.text = str(data.get("base_url", ""))
        self.model.text = str(data.get("model", "")) if prov != "local" or "model" in data else ""
        for name, e in self.agent_models.items():
            e.text = str(((data.get("agents") or {}).get(name) or {}).get("model", ""))
        self.mode.setCurrentIndex(1 if data.get("mode") == "sandbox" else 0)
        self.max_rounds.value = int(data.get("max_rounds", 3))
        self.llm_port.value = _int_or(data.get("llm_port"), cfg.LLM_PORT_DEFAULT)
        self.endpoint_port.value = _int_or(data.get("endpoint_port"), cfg.ENDPOINT_PORT_DEFAULT)
        chosen = {g: spec.get("databases") for g, spec in (data.get("generators") or {}).items() if isinstance(spec, dict)}
        defaults = default_generator_databases()
        for (g, db), cb in self.db_checks.items():
            on = chosen.get(g) if chosen.get(g) is not None else defaults.get(g, [])
            cb.checked = db in on
        self.api_key.text = ""
        stored = bool(cfg.read_api_key_file())
        self.key_state.text = (f"A key is stored in {cfg.credentials_path()} (mode 0600); leave the field empty to keep it."
                               if stored else "No key is stored. A typed key is saved in the credentials file "
                                              f"{cfg.credentials_path()} (mode 0600), never in the config file.")
        self.clear_key.checked = False
        self.clear_key.visible = stored
        env = [v for v in ENV_VARS if os.environ.get(v)]
        self.env_note.text = ("Environment variables take precedence over these settings: " + ", ".join(env) +
                              " (set in KLayout's environment; their values are not shown)." if env else
                              "No PIC_COPILOT_*/OPENAI_*/ANTHROPIC_* environment variables are set; these settings apply.")
        self.env_note.styleSheet = "color: #a05000;" if env else "color: #406040;"
        self.path_note.text = f"Config file: {path}{problem}"
        self._provider_changed()

    def _provider_changed(self) -> None:
        prov = self.provider.itemData(self.provider.currentIndex)
        self.base_url.enabled = prov != "local"
        self.api_key.enabled = prov != "local"
        self.api_key.placeholderText = ("not needed for the embedded model" if prov == "local"
                                        else "type a new key to store it (hidden)")

    def values(self) -> dict:
        prov = self.provider.itemData(self.provider.currentIndex)
        return {
            "provider": prov,
            "base_url": self.base_url.text.strip() if prov != "local" else "",
            "model": self.model.text.strip(),
            "mode": self.mode.itemData(self.mode.currentIndex),
            "max_rounds": int(self.max_rounds.value),
            "llm_port": int(self.llm_port.value),
            "endpoint_port": int(self.endpoint_port.value),
            "agents": {n: e.text.strip() for n, e in self.agent_models.items()},
            "databases": {g: [db for db in self.db_names if self.db_checks[(g, db)].checked] for g in GENERATORS},
        }

    def save(self) -> Path:
        key = self.api_key.text.strip()
        api_key = "" if self.clear_key.checked and not key else (key or None)
        path = save_settings(self.values(), api_key)
        self.api_key.text = ""
        self.load()
        self.status.text = f"Saved to {path}."
        if self.on_saved is not None:
            self.on_saved()
        return path

    def show(self) -> None:
        self.load()
        self.dlg.show()
        raise_widget(self.dlg)

    # -- rebuilding the databases (a QProcess: the GUI stays responsive)
    def rebuild(self, names: list[str] | None = None, extra_args: list[str] | None = None) -> None:
        if self.build_proc is not None and self.build_proc.state() != pya.QProcess.NotRunning:
            self.status.text = "A rebuild is already running."
            return
        p = engine_process()
        p.setWorkingDirectory(str(GRAIN_ROOT))
        p.readyReadStandardError = self._safe(self._build_output)
        p.readyReadStandardOutput = self._safe(self._build_output)
        p.finished = lambda *a: self._safe(self._build_finished)()
        self._build_err = b""
        self._build_done = 0
        self._build_names: list[str] = []
        self.progress.value = 0
        self.build_label.text = "Starting the database build…"
        self.rebuild_btn.enabled = False
        p.start(engine_python(), ["-m", "pic_copilot.frontends.cli", "build-db", *(names or []), *(extra_args or [])])
        self.build_proc = p

    def _build_output(self) -> None:
        p = self.build_proc
        if p is None:
            return
        data = p.readAllStandardError()
        data = bytes(data) if not isinstance(data, bytes) else data
        out = p.readAllStandardOutput()
        data += bytes(out) if not isinstance(out, bytes) else out
        self._build_err = (self._build_err + data)[-4000:]
        text = data.decode("utf-8", "replace")
        for piece in re.split(r"[\r\n]+", text):
            m = _PROGRESS.search(piece)
            if m:
                label, done, total = m.group(1), int(m.group(2)), max(1, int(m.group(3)))
                self.progress.value = int(100 * done / total)
                self.build_label.text = f"{label}: {done}/{total}"
            elif piece.strip():
                self.build_label.text = piece.strip()[:160]

    def _build_finished(self) -> None:
        p = self.build_proc
        code = p.exitCode() if p is not None else -1
        self.rebuild_btn.enabled = True
        if code == 0:
            self.progress.value = 100
            self.build_label.text = "Databases rebuilt. " + (self.build_label.text if "entries" in self.build_label.text else "")
        else:
            tail = self._build_err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
            self.build_label.text = f"The rebuild failed (exit {code}): {tail[0][:200]}"
