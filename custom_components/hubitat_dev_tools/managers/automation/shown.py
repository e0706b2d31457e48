"""What a rule's page shows, part by part, held against what its settings decoded to.

Rule Machine's main page shows the rule text (``docs/rule-machine-pages.md``): a heading per
section (``Trigger Events``, ``Required Expression``, ``Actions``; older and seeded rules also
``Restriction``, a heading either alone or before its first item, ``Trigger Events: ...``),
then one line per trigger and per action row (IF, ELSE, END-IF and END-REP rows included),
the Required Expression in words. :func:`rule_text_sections` reads those lines from the page;
:func:`account` holds them against the :class:`~.decompile.Decompiler` that read the
settings, so nothing the hub shows is silently left out of a rule read
(:meth:`RuleAuthoring.get`):

* a section whose lines match the parts decoded one for one (the hub lists triggers and
  action rows in the order the decoder reads them): each part the decoder could not read
  gets the hub's line for it (``text``) beside its reason;
* a section the settings hold nothing for: every line is listed as undecoded with its text,
  and the spec keeps a placeholder (``{"unknown": ...}``) where it would be;
* more lines than decoded parts: which line has no part cannot be told from the text, so
  the section is listed once, quoting all its lines, with a placeholder;
* a restriction (``only in modes Day, Evening``): the spec has no form for one (a Required
  Expression is its way to limit when a rule runs), so it is listed with its text and left
  under ``restrictions`` as a placeholder.

A placeholder is refused when a rule is created from a spec; an update keeps the part it
stands for as it is, and refuses a change that would remove or rebuild it (:mod:`.edits`), so
such a part is never dropped. A page without these headings (another
firmware's layout) is not judged: nothing is added.
"""

from __future__ import annotations

import html
import re
from typing import Any

from .decompile import Decompiler

SECTIONS = ("triggers", "conditions", "restrictions", "actions")
_HEADINGS = {
    "triggers": ("trigger events", "triggers"),
    "conditions": ("required expression", "conditions"),
    "restrictions": ("restrictions", "restriction"),
    "actions": ("actions", "actions to run"),
}
_HEADING_RE = re.compile(
    r"(?P<head>"
    + "|".join(re.escape(h) for names in _HEADINGS.values() for h in names)
    + r")\s*(?::\s*(?P<rest>.*))?",
    re.I | re.S,
)
_SECTION_OF = {h: key for key, names in _HEADINGS.items() for h in names}
_TAG_RE = re.compile(r"<[^>]+>")
_BREAK_RE = re.compile(r"<br\s*/?>", re.I)
NOT_IN_SETTINGS = (
    "the hub's rule text shows it, but the rule's settings hold nothing the decoder reads for it"
)
RESTRICTION = (
    "a restriction: the spec has no form for one (a Required Expression, conditions, is "
    "how the spec limits when a rule runs)"
)


def _plain(fragment: str) -> str:
    """A piece of a paragraph as one line of plain text (markup, entities and indentation
    removed)."""
    text = html.unescape(_TAG_RE.sub("", fragment)).replace("\xa0", " ")
    return " ".join(text.split())


def _heading(line: str) -> tuple[str, str] | None:
    """(section, text after the heading) when ``line`` is a section heading."""
    m = _HEADING_RE.fullmatch(line)
    if m is None:
        return None
    return _SECTION_OF[m.group("head").lower()], (m.group("rest") or "").strip()


def rule_text_sections(config: dict[str, Any]) -> dict[str, list[str]] | None:
    """The rule text's lines by section (``triggers``, ``conditions``, ``restrictions``,
    ``actions``) from a configure/json page, or None when the page shows no such heading."""
    out: dict[str, list[str]] = {key: [] for key in SECTIONS}
    found = False
    current: str | None = None
    page = config.get("configPage")
    for sec in page.get("sections") or [] if isinstance(page, dict) else []:
        if not isinstance(sec, dict):
            continue
        title = _plain(str(sec.get("title") or ""))
        if title:
            head = _heading(title)
            current = head[0] if head else None  # another section ends the rule text
            found = found or head is not None
        for item in sec.get("body") or []:
            if not isinstance(item, dict) or item.get("element") != "paragraph":
                continue
            raw = str(item.get("description") or item.get("title") or "")
            for piece in _BREAK_RE.split(raw):
                line = _plain(piece)
                if not line:
                    continue
                head = _heading(line)
                if head is not None:
                    current, line = head
                    found = True
                    if not line:
                        continue
                if current is not None:
                    out[current].append(line)
    return out if found else None


def account(spec: dict[str, Any], dec: Decompiler, shown: dict[str, list[str]] | None) -> None:
    """Hold the rule text's lines against the decoded parts (see the module text): quote the
    hub's line beside each part the decoder marked, and list (with a placeholder in
    ``spec``) each line the settings hold nothing for. Changes ``spec`` and
    ``dec.undecompiled`` in place."""
    if shown is None:
        return
    _rows(spec, dec, "triggers", shown["triggers"], dec.trigger_marks, "trigger")
    _rows(spec, dec, "actions", shown["actions"], dec.action_marks, "action row")
    lines = shown["conditions"]
    if lines and "conditions" not in spec:
        why = "the hub's rule text shows a Required Expression its settings do not hold"
        spec["conditions"] = {"unknown": why}
        dec.undecompiled.append({"part": "conditions", "why": why, "text": "\n".join(lines)})
    elif lines:
        for entry in dec.condition_marks:
            entry.setdefault("text", "\n".join(lines))
    for line in shown["restrictions"]:
        held = spec.setdefault("restrictions", [])
        dec.undecompiled.append(
            {"part": f"restrictions[{len(held)}]", "why": RESTRICTION, "text": line}
        )
        held.append({"unknown": RESTRICTION})


def _rows(
    spec: dict[str, Any],
    dec: Decompiler,
    key: str,
    lines: list[str],
    marks: list[list[dict[str, str]]],
    what: str,
) -> None:
    """One section: its lines against the parts read (``marks``: what was marked while
    reading each, in order)."""
    held: list[Any] = spec.setdefault(key, [])
    if len(lines) == len(marks):
        for line, entries in zip(lines, marks, strict=True):
            for entry in entries:
                entry.setdefault("text", line)
        return
    if not marks:
        for line in lines:
            dec.undecompiled.append(
                {"part": f"{key}[{len(held)}]", "why": NOT_IN_SETTINGS, "text": line}
            )
            held.append({"unknown": NOT_IN_SETTINGS})
        return
    if len(lines) > len(marks):
        why = (
            f"the hub's rule text shows {len(lines)} {what}s and the settings hold "
            f"{len(marks)}: which shown {what} is not in the spec cannot be told from the text"
        )
        dec.undecompiled.append({"part": key, "why": why, "text": "\n".join(lines)})
        held.append({"unknown": why})
