"""The library's radio status readers (``hub/radio_status.py``) fed the real hub's recorded
answers, no hass: the Matter log lines (newest first, colour codes gone, continuation lines
joined) and the node id a Matter pairing answers.

Moved from tests/tools/test_radio_reads.py (test_matter_log_parsing_from_the_fixture,
test_matter_pair_answers: the tool's refusals, allowlist, notes and MCP round trip stay
there; the blocks read through the manager are tested in tests/managers/test_radio_reads.py)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.hub.radio_status import (
    matter_pair_node,
    parse_matter_logs,
)

from ..contract import load_fixture


def test_matter_log_parsing_from_the_fixture() -> None:
    entries = parse_matter_logs(load_fixture("radios/matter_logs").answer["text"])
    # newest first, ANSI gone, the continuation line joined to its entry
    assert [e["category"] for e in entries] == ["IM", "DIS"]
    assert entries[0]["message"] == "[1990:2004] Subscription established\n  continued line"
    assert entries[1]["message"] == "[1990:2004] Advertise operational node"
    assert entries[0]["time"] == "2025-12-01T11:53:21.220+00:00"


def test_matter_pair_answers() -> None:
    assert matter_pair_node(load_fixture("radios/matter_pair_node").answer) == "4021"
    assert matter_pair_node("0") is None
    assert matter_pair_node(load_fixture("radios/matter_pair").answer) is None  # an envelope
