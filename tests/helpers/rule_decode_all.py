"""The check that every line of a rule read's text is in its spec or listed as undecompiled
(with the text-section parsing it needs), and the wide spec with a wait added, for
managers/test_rule_decode_all.py and tools/test_rule_decode_all.py.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from hubitat_emulator import HubEmulator

from ..home_util import dev_id
from .rule_authoring_e2e import wide_spec

_HEADING = re.compile(r"(Trigger Events|Required Expression|Restriction|Actions)(?::\s*(.*))?")
_SECTION = {
    "Trigger Events": "triggers",
    "Required Expression": "conditions",
    "Restriction": "restrictions",
    "Actions": "actions",
}
_CHILDREN = ("then", "else", "else_if", "do")


def _norm(text: str) -> str:
    return " ".join(html.unescape(text).replace("\xa0", " ").split())


def _sections(lines: list[str]) -> dict[str, list[str]]:
    """A rule read's rule_text by section (the page's paragraphs; its "Controls" section,
    the seeded rules' buttons, ends the rule text)."""
    out: dict[str, list[str]] = {k: [] for k in _SECTION.values()}
    current: str | None = None
    for raw in lines:
        line = _norm(raw)
        if line == "Controls":
            break
        if m := _HEADING.fullmatch(line):
            current = _SECTION[m.group(1)]
            line = m.group(2) or ""
        if line and current is not None:
            out[current].append(line)
    return out


def _rows(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The action list as the rows the hub shows (IF, ELSE, END-IF, END-REP each a row)."""
    out: list[dict[str, Any]] = []
    for a in actions:
        if "if" in a:
            out += [a, *_rows(a["then"])]
            for branch in a.get("else_if", []):
                out += [branch, *_rows(branch["then"])]
            if "else" in a:
                out += [{"row": "ELSE"}, *_rows(a["else"])]
            out.append({"row": "END-IF"})
        elif "do" in a:
            out += [a, *_rows(a["do"]), {"row": "END-REP"}]
        else:
            out.append(a)
    return out


def _read(part: dict[str, Any]) -> bool:
    """Whether a part (without the rows nested in it) is in the spec, not a placeholder."""
    own = {k: v for k, v in part.items() if k not in _CHILDREN}
    return '"unknown"' not in json.dumps(own)


def _quoted(line: str, undecoded: list[dict[str, Any]]) -> bool:
    """Whether ``line`` is the hub's text of a listed part (one of its lines)."""
    return any(line in [_norm(t) for t in str(u.get("text", "")).split("\n")] for u in undecoded)


def assert_accounted(data: dict[str, Any]) -> None:
    """Every line of the rule text's sections is in the spec (the part at its place was
    read) or quoted in undecompiled (``data``: a rule read, the manager's or hub_get_rule's)."""
    spec, undecoded = data["spec"], data["undecompiled"]
    assert spec.get("triggers") or spec.get("actions") or undecoded, data
    shown = _sections(data["rule_text"])
    assert shown["triggers"] and shown["actions"], data["rule_text"]
    parts = {"triggers": spec.get("triggers", []), "actions": _rows(spec.get("actions", []))}
    for key, held in parts.items():
        lines = shown[key]
        for i, line in enumerate(lines):
            in_spec = len(held) == len(lines) and _read(held[i])
            assert in_spec or _quoted(line, undecoded), (key, line, data)
    for line in shown["conditions"]:
        assert ("conditions" in spec and _read(spec["conditions"])) or _quoted(line, undecoded)
    for line in shown["restrictions"]:
        assert _quoted(line, undecoded), (line, data)
    for entry in undecoded:  # each listed part says what and why; page parts quote the hub
        assert entry["part"] and entry["why"], entry


def wide_spec_and_a_wait(emu: HubEmulator) -> dict[str, Any]:
    """``wide_spec`` and a last action: wait until the office motion stays inactive 3 minutes."""
    spec = wide_spec(emu)
    motion = dev_id(emu, "Office Motion")
    spec["actions"].append(
        {
            "wait": [
                {
                    "device_id": motion,
                    "attribute": "motion",
                    "is": "inactive",
                    "stays_for": {"minutes": 3},
                }
            ]
        }
    )
    return spec
