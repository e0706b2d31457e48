"""What a rule's page shows and its settings do not (``managers/automation/shown.py``), no
hass: every trigger, condition and action line the hub's rule text lists is in the spec or
listed as undecompiled with the hub's own line, and a change cannot drop an unread part.

Moved from tests/tools/test_rule_decode_all.py (they call the manager's functions, not a tool)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.automation.decompile import Decompiler
from custom_components.hubitat_dev_tools.managers.automation.patch import refuse_unread
from custom_components.hubitat_dev_tools.managers.automation.shown import (
    account,
    rule_text_sections,
)


def _page(*paragraphs: str, title: str = "") -> dict[str, Any]:
    body = [{"element": "paragraph", "description": p} for p in paragraphs]
    return {"configPage": {"sections": [{"title": title, "input": [], "body": body}]}}


def _decoded(
    settings: dict[str, Any], state: dict[str, Any] | None = None
) -> tuple[dict[str, Any], Decompiler]:
    dec = Decompiler(settings, {}, {"3": "Night"}, state)
    return dec.spec("r"), dec


def test_a_page_the_settings_hold_nothing_for_is_listed_line_by_line() -> None:
    spec, dec = _decoded({})
    page = _page(
        "<b>Trigger Events</b>: Mode becomes Night",
        "<b>Actions</b>",
        "Off: all lights<br>Lock: Front Door",
        "&nbsp;&nbsp;&nbsp;&nbsp;Notify: Phones",
    )
    account(spec, dec, rule_text_sections(page))
    assert [(u["part"], u["text"]) for u in dec.undecompiled] == [
        ("triggers[0]", "Mode becomes Night"),
        ("actions[0]", "Off: all lights"),
        ("actions[1]", "Lock: Front Door"),
        ("actions[2]", "Notify: Phones"),
    ]
    assert all(set(p) == {"unknown"} for p in [*spec["triggers"], *spec["actions"]])
    with pytest.raises(ToolError, match=r"rule\.triggers\[0\]"):
        refuse_unread(spec)


def test_an_unknown_action_gets_the_hubs_line_and_a_known_one_none() -> None:
    settings = {
        "tCapab1": "Mode",
        "modesX1": ["3"],
        "actType.1": "soundActs",
        "actSubType.1": "getChime",
        "actType.2": "modeActs",
        "actSubType.2": "getSetMode",
        "mode.2": "3",
    }
    spec, dec = _decoded(settings)
    page = _page(
        "<b>Trigger Events</b>",
        "Mode becomes Night",
        "<b>Actions</b>",
        "Chime: Hall Chime",
        "Set Mode: Night",
        title="",
    )
    account(spec, dec, rule_text_sections(page))
    assert dec.undecompiled == [
        {
            "part": "actions[0]",
            "why": "Rule Machine action 'soundActs/getChime'",
            "text": "Chime: Hall Chime",
        }
    ]
    assert spec["triggers"] == [{"mode": ["Night"]}]


def test_more_lines_than_settings_lists_the_whole_section() -> None:
    spec, dec = _decoded({"tCapab1": "Mode", "modesX1": ["3"]})
    page = _page("<b>Trigger Events</b>", "Mode becomes Night", "Kitchen Motion motion active")
    account(spec, dec, rule_text_sections(page))
    (entry,) = dec.undecompiled
    assert entry["part"] == "triggers" and "2 triggers" in entry["why"]
    assert entry["text"] == "Mode becomes Night\nKitchen Motion motion active"
    assert spec["triggers"][0] == {"mode": ["Night"]} and "unknown" in spec["triggers"][1]


def test_a_required_expression_the_settings_lack_is_listed() -> None:
    spec, dec = _decoded({"tCapab1": "Mode", "modesX1": ["3"]})
    page = _page(
        "<b>Trigger Events</b>",
        "Mode becomes Night",
        "<b>Required Expression</b>",
        "Mode is Night",
        "<b>Actions</b>",
    )
    account(spec, dec, rule_text_sections(page))
    assert [(u["part"], u["text"]) for u in dec.undecompiled] == [("conditions", "Mode is Night")]
    assert set(spec["conditions"]) == {"unknown"}


def test_a_page_without_rule_text_headings_is_not_judged() -> None:
    spec, dec = _decoded({})
    page = _page("Some note", title="Controls")
    assert rule_text_sections(page) is None
    account(spec, dec, rule_text_sections(page))
    assert dec.undecompiled == [] and spec["triggers"] == [] and spec["actions"] == []
    # another section's title ends the rule text
    shown = rule_text_sections(
        {
            "configPage": {
                "sections": [
                    {
                        "title": "",
                        "body": [{"element": "paragraph", "description": "<b>Actions</b>"}],
                    },
                    {"title": "Controls", "body": [{"element": "paragraph", "description": "x"}]},
                ]
            }
        }
    )
    assert shown is not None and shown["actions"] == []


def test_a_partly_read_part_is_refused_where_it_is() -> None:
    spec = {
        "actions": [
            {"wait": [{"device_id": "1", "attribute": "motion", "is": "on", "unknown": "x"}]}
        ]
    }
    with pytest.raises(ToolError, match=r"rule\.actions\[0\]\.wait\[0\]"):
        refuse_unread(spec)
