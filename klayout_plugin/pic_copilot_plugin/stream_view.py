"""Streamed LLM text as readable transcript text (stdlib only; no pya, so it is tested without KLayout).

The models answer in markdown: prose, ``**bold**``, headings, bullet lists and fenced code, and
sometimes JSON. The transcript shows the prose without markup; a script in a code fence goes to
the Script tab instead (the transcript says so once per block); other code blocks are indented;
JSON (fenced or bare) is shown as indented ``key: value`` lines once it is complete.
"""
from __future__ import annotations

import json
import re

SCRIPT_AGENTS = ("programmer", "synthesizer")   # their code blocks are the candidate script
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_CODE = re.compile(r"`([^`\n]+)`")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_BULLET = re.compile(r"^(\s*)[*+]\s+")
JSON_MAX_LINES = 40


def clean_line(line: str) -> str:
    """One markdown prose line as plain text (bold, inline code, heading and bullet markers removed)."""
    line = _HEADING.sub("", line)
    line = _BULLET.sub(r"\1- ", line)
    line = _BOLD.sub(r"\2", line)
    return _CODE.sub(r"\1", line)


def json_lines(obj, indent: str = "", limit: int = JSON_MAX_LINES) -> list[str]:
    """A parsed JSON value as indented ``key: value`` / ``- item`` lines."""
    out: list[str] = []

    def walk(v, pad: str, head: str) -> None:
        if len(out) > limit:
            return
        if isinstance(v, dict):
            if head:
                out.append(pad + head.rstrip())
                pad += "  "
            for k, x in v.items():
                if isinstance(x, (dict, list)) and x:
                    walk(x, pad, f"{k}:")
                else:
                    out.append(f"{pad}{k}: {_scalar(x)}")
        elif isinstance(v, list):
            if head:
                out.append(pad + head.rstrip())
                pad += "  "
            for x in v:
                if isinstance(x, (dict, list)) and x:
                    walk(x, pad, "-")
                else:
                    out.append(f"{pad}- {_scalar(x)}")
        else:
            out.append(pad + head + " " + _scalar(v) if head else pad + _scalar(v))

    walk(obj, indent, "")
    if len(out) > limit:
        out = out[:limit] + [indent + "…"]
    return out


def _scalar(x) -> str:
    if isinstance(x, str):
        return " ".join(x.split()) if "\n" not in x or len(x) < 200 else x.splitlines()[0] + " …"
    return json.dumps(x)


class StreamView:
    """Formats one agent's streamed answer.

    Args:
        agent: the streaming agent (programmer, synthesizer, explainer, ...).
        script_to_tab: code blocks of a script agent go to the Script tab (``feed`` returns them).

    ``feed(text)`` and ``finish()`` return ``(transcript_text, script_text)``; either may be "".
    Complete prose lines are shown at once, and so is a partial line that cannot be markup.
    """

    def __init__(self, agent: str, script_to_tab: bool = True):
        self.agent = agent
        self.to_script = script_to_tab and agent in SCRIPT_AGENTS
        self.mode = "start"        # start, prose, code, json_fence, json_bare
        self.line = ""             # the current, incomplete line
        self.shown = 0             # characters of self.line already shown (partial prose)
        self.json_buf: list[str] = []
        self.blocks = 0
        self.shown_any = False     # the first shown text goes after the "[agent] " header: code starts a new line

    # -- public
    def feed(self, text: str) -> tuple[str, str]:
        shown, script = [], []
        self.line += text
        while "\n" in self.line:
            line, self.line = self.line.split("\n", 1)
            t, s = self._line(line, self.shown)
            self.shown = 0
            shown.append(t)
            script.append(s)
        shown.append(self._partial())
        return self._first("".join(shown)), "".join(script)

    def finish(self) -> tuple[str, str]:
        """The rest at the end of the stream (an unterminated line, a JSON answer)."""
        t, s = ("", "")
        if self.line:
            t, s = self._line(self.line, self.shown)
            self.line, self.shown = "", 0
        block = False
        if self.mode in ("json_fence", "json_bare"):
            js = self._json_text("".join(self.json_buf))
            block = js.count("\n") > 1
            t += js
            self.json_buf = []
            self.mode = "prose"
        return self._first(t, block), s

    def _first(self, text: str, block: bool = False) -> str:
        """The stream's first shown text follows the "[agent] " header; a code or JSON block starts below it."""
        if text and not self.shown_any:
            self.shown_any = True
            if block or text.startswith(" "):
                return "\n" + text
        return text

    # -- internals
    def _partial(self) -> str:
        """Show the incomplete line as it streams when it is plain prose."""
        if self.mode not in ("prose", "start") or not self.line.strip():
            return ""
        if self.mode == "start" and self.line.lstrip()[0].isalnum():
            self.mode = "prose"   # plain words: not JSON
        if self.mode == "start" or self.line.lstrip()[:1] in "`{[#*_-+|>" or self.shown == 0 and len(self.line) < 4:
            return ""
        piece = self.line[self.shown:]
        if "`" in piece or "*" in piece:   # inline markup may still be open: wait for the line's end
            return ""
        self.shown = len(self.line)
        return piece

    def _line(self, line: str, shown: int) -> tuple[str, str]:
        strip = line.strip()
        if self.mode == "start":
            if not strip:
                return "", ""
            if strip[0] in "{[":
                self.mode = "json_bare"
            else:
                self.mode = "prose"
        if self.mode == "json_bare":
            self.json_buf.append(line + "\n")
            return "", ""
        if self.mode == "json_fence":
            if strip.startswith("```"):
                self.mode = "prose"
                text = self._json_text("".join(self.json_buf))
                self.json_buf = []
                return text, ""
            self.json_buf.append(line + "\n")
            return "", ""
        if self.mode == "code":
            if strip.startswith("```"):
                self.mode = "prose"
                return "", ""
            return ("", line + "\n") if self.to_script else ("    " + line + "\n", "")
        # prose
        if strip.startswith("```"):
            lang = strip[3:].strip().lower()
            if lang == "json":
                self.mode = "json_fence"
                return "", ""
            self.mode = "code"
            self.blocks += 1
            if self.to_script:
                return ("(the script is in the Script tab)\n" if self.blocks == 1 else
                        "(another code block: appended in the Script tab)\n"), ""
            return "", ""
        if shown:
            return clean_line(line)[len(clean_line(line[:shown])):] + "\n", ""
        return clean_line(line) + "\n", ""

    def _json_text(self, raw: str) -> str:
        try:
            obj = json.loads(raw)
        except ValueError:
            text = " ".join(raw.split())
            return (text[:600] + ("…" if len(text) > 600 else "") + "\n") if text else ""
        if isinstance(obj, dict) and self.to_script:
            for key in ("code", "script"):
                if isinstance(obj.get(key), str):   # a script wrapped in JSON: the Script tab gets it from
                    obj = dict(obj)                 # the engine's script message; show the rest
                    obj[key] = f"({obj[key].count(chr(10)) + 1} lines, see the Script tab)"
        return "\n".join(json_lines(obj)) + "\n"
