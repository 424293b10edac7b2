"""The settings dialog: endpoint, models per agent, API key, mode, rounds, ports, databases, rebuild.

What it shows and what Save writes come from the engine over the protocol (the ``settings``
message, answered by ``settings_result``; docs/PROTOCOL.md): the fields, their defaults, the
domains and their databases, the config file (``config.toml``, ``PIC_COPILOT_CONFIG`` overrides the
path) and the API key's separate credentials file (mode 0600). This layer never reads the engine's
files. The key is never put in the config file, a log or the history; environment variables take
precedence over both, and the dialog says which ones are set (never their values).

When the engine is not running it is started; if it cannot start, or does not answer, the dialog
says so and keeps what the designer typed (nothing is written). stdlib + pya only; the answers
arrive through QProcess signals, so KLayout never waits.
"""
from __future__ import annotations

import re

import pya

from . import GRAIN_ROOT
from .engine_process import engine_process, engine_python
from .macro_ide import raise_widget

PROVIDERS = (("local", "Local (embedded model)"), ("openai", "OpenAI-compatible URL"), ("anthropic", "Anthropic"))
_PROGRESS = re.compile(r"(\S+)\s+\[[^\]]*\]\s+(\d+)/(\d+)")
_ERROR_STYLE = "color: #b00000;"


class SettingsDialog:
    """Non-modal dialog; ``on_saved(form)`` is called after a save (the panel restarts the engine).

    Args:
        parent: the main window.
        controller: the panel's Controller (its engine answers the settings messages).
        on_saved: called with the saved form (a dict, see the protocol's ``settings_result``).

    Attributes:
        form: the last form the engine sent (None until one arrived).
        loaded: the fields show the engine's form and can be edited.
    """

    def __init__(self, parent, controller, on_saved=None):
        self.controller = controller
        self.on_saved = on_saved
        self.form: dict | None = None
        self.loaded = False
        self._asking: str | None = None   # the settings message waiting for its answer
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
        self.clear_key.visible = False
        form.addRow("Endpoint", self.provider)
        form.addRow("URL", self.base_url)
        form.addRow("Model", self.model)
        form.addRow("API key", self.api_key)
        form.addRow("", self.key_state)
        form.addRow("", self.clear_key)
        root.addWidget(ep)

        # the agents and the databases per domain are the engine's: their rows are made from its first form
        self.agents_box = pya.QGroupBox("Model per agent (empty: the model above)", self.dlg)
        self.agents_form = pya.QFormLayout(self.agents_box)
        self.agent_models: dict[str, object] = {}
        root.addWidget(self.agents_box)

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

        self.dbs_box = pya.QGroupBox("Documentation databases per generator", self.dlg)
        dbl = pya.QVBoxLayout(self.dbs_box)
        self.db_grid = pya.QGridLayout()
        dbl.addLayout(self.db_grid)
        self.generators: list[str] = []
        self.db_names: list[str] = []
        self.db_checks: dict[tuple[str, str], object] = {}
        brow = pya.QHBoxLayout()
        self.rebuild_btn = pya.QPushButton("Rebuild databases", self.dbs_box)
        self.progress = pya.QProgressBar(self.dbs_box)
        self.progress.setRange(0, 100)
        self.progress.value = 0
        self.build_label = pya.QLabel("", self.dbs_box)
        brow.addWidget(self.rebuild_btn)
        brow.addWidget(self.progress, 1)
        dbl.addLayout(brow)
        dbl.addWidget(self.build_label)
        root.addWidget(self.dbs_box)
        self._editable = (ep, self.agents_box, run, ports)

        self.env_note = pya.QLabel(self.dlg)
        self.env_note.wordWrap = True
        root.addWidget(self.env_note)
        self.path_note = pya.QLabel(self.dlg)
        self.path_note.wordWrap = True
        root.addWidget(self.path_note)

        buttons = pya.QHBoxLayout()
        self.status = pya.QLabel("", self.dlg)
        self.status.wordWrap = True
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
        self._set_editable(False)

    def _safe(self, fn):
        def handler(*args):
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - an exception here would pop a modal dialog
                self._say(f"{type(e).__name__}: {e}", error=True)
        return handler

    def _say(self, text: str, error: bool = False) -> None:
        self.status.text = text
        self.status.toolTip = text
        self.status.styleSheet = _ERROR_STYLE if error else ""

    def _set_editable(self, on: bool) -> None:
        for box in self._editable:
            box.enabled = on
        self.save_btn.enabled = on and self._asking is None

    # -- state: asked from the engine
    def load(self) -> None:
        """Ask the engine for the settings; the fields fill when it answers (:meth:`_loaded`)."""
        if self._asking is not None:
            return   # a question is on its way; its answer fills or reports
        self._say("Loading the settings from the engine…")
        self._set_editable(False)
        try:
            self._asking = self.controller.settings("get", self._loaded)
        except RuntimeError as e:   # the engine cannot start: say why; what the fields show stays
            self._asking = None
            self._say(f"Cannot load the settings: {e}", error=True)
            self._set_editable(self.form is not None)
            return
        self._set_editable(False)

    def _loaded(self, msg: dict) -> None:
        self._asking = None
        if not msg.get("ok") or not isinstance(msg.get("form"), dict):
            self._say(f"Cannot load the settings: {msg.get('message') or 'the engine sent none'}", error=True)
            self._set_editable(self.form is not None)
            return
        self.populate(msg["form"])
        self._say("")

    def _build_rows(self, form: dict) -> None:
        """The agents' rows and the databases grid, once, from the engine's names."""
        if self.agent_models or self.db_checks:
            return
        for name in form.get("agents") or ():
            e = pya.QLineEdit(self.agents_box)
            self.agent_models[name] = e
            self.agents_form.addRow(name.replace("_", " "), e)
        self.generators = list(form.get("generators") or ())
        self.db_names = list(form.get("databases") or ())
        for j, db in enumerate(self.db_names):
            self.db_grid.addWidget(pya.QLabel(db, self.dbs_box), 0, j + 1)
        for i, g in enumerate(self.generators):
            self.db_grid.addWidget(pya.QLabel(g, self.dbs_box), i + 1, 0)
            for j, db in enumerate(self.db_names):
                cb = pya.QCheckBox(self.dbs_box)
                self.db_checks[(g, db)] = cb
                self.db_grid.addWidget(cb, i + 1, j + 1)
        self._editable = (*self._editable, *self.db_checks.values())

    def populate(self, form: dict) -> None:
        """Show an engine form (a ``settings_result``'s ``form``) in the fields."""
        self._build_rows(form)
        self.form = form
        v = form.get("values") or {}
        keys = [k for k, _ in PROVIDERS]
        self.provider.setCurrentIndex(keys.index(v["provider"]) if v.get("provider") in keys else 0)
        self.base_url.text = str(v.get("base_url", ""))
        self.model.text = str(v.get("model", ""))
        for name, e in self.agent_models.items():
            e.text = str((v.get("agents") or {}).get(name, ""))
        self.mode.setCurrentIndex(1 if v.get("mode") == "sandbox" else 0)
        self.max_rounds.value = int(v.get("max_rounds", 3))
        self.llm_port.value = int(v.get("llm_port", 18765))
        self.endpoint_port.value = int(v.get("endpoint_port", 0))
        chosen = v.get("databases") or {}
        for (g, db), cb in self.db_checks.items():
            cb.checked = db in (chosen.get(g) or [])
        self.api_key.text = ""
        stored = bool(form.get("key_stored"))
        cred = form.get("credentials_path")
        self.key_state.text = (f"A key is stored in {cred} (mode 0600); leave the field empty to keep it."
                               if stored else "No key is stored. A typed key is saved in the credentials file "
                                              f"{cred} (mode 0600), never in the config file.")
        self.clear_key.checked = False
        self.clear_key.visible = stored
        env = list(form.get("env_set") or ())
        self.env_note.text = ("Environment variables take precedence over these settings: " + ", ".join(env) +
                              " (set in KLayout's environment; their values are not shown)." if env else
                              "No PIC_COPILOT_*/OPENAI_*/ANTHROPIC_* environment variables are set; these settings apply.")
        self.env_note.styleSheet = "color: #a05000;" if env else "color: #406040;"
        problem = form.get("problem") or ""
        self.path_note.text = f"Config file: {form.get('config_path')}" + (f" ({problem}; saving rewrites it)"
                                                                            if problem else "")
        self.loaded = True
        self._set_editable(True)
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
            "databases": {g: [db for db in self.db_names if self.db_checks[(g, db)].checked] for g in self.generators},
        }

    def save(self) -> str | None:
        """Send the fields to the engine to save; returns the message id, or None when it could not be sent.
        Until the engine answers, the fields keep what the designer typed (the key included)."""
        if not self.loaded:
            self._say("The settings have not been loaded from the engine yet: nothing to save.", error=True)
            return None
        if self._asking is not None:
            return None
        key = self.api_key.text.strip()
        api_key = "" if self.clear_key.checked and not key else (key or None)
        self._say("Saving…")
        try:
            self._asking = self.controller.settings("save", self._saved, values=self.values(), api_key=api_key)
        except RuntimeError as e:
            self._say(f"Not saved: {e}. What you typed is kept.", error=True)
            return None
        self.save_btn.enabled = False
        return self._asking

    def _saved(self, msg: dict) -> None:
        self._asking = None
        self.save_btn.enabled = self.loaded
        if not msg.get("ok"):
            self._say(f"Not saved: {msg.get('message') or 'the engine did not say why'}. What you typed is kept.",
                      error=True)
            return
        if isinstance(msg.get("form"), dict):
            self.populate(msg["form"])   # clears the key field: the key is stored now
        self._say(f"Saved to {msg.get('saved')}.")
        if self.on_saved is not None:
            # after this answer's handler returns: on_saved restarts the engine whose output is being read now
            self._saved_timer = pya.QTimer()
            self._saved_timer.singleShot = True
            self._saved_timer.interval = 0
            self._saved_timer.timeout = self._safe(lambda: self.on_saved(self.form))
            self._saved_timer.start()

    def show(self) -> None:
        self.dlg.show()
        raise_widget(self.dlg)
        self.load()

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
