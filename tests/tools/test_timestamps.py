"""One timestamp format in every answer: ISO 8601 with a colon offset (``+00:00``)."""

from __future__ import annotations

import json
import re
from zoneinfo import ZoneInfo

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.timestamps import iso_time, iso_times
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ensure_stream, until
from ..helpers.hostile import call_all_reads

pytestmark = pytest.mark.usefixtures("fast_stream")

# A date and time whose offset has no colon (the hub's own "+0000"), or a space between them.
_ODD = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:[+-]\d{4}\b|Z\b)")
_SPACED = re.compile(r"\"\d{4}-\d{2}-\d{2} \d{2}:\d{2}")


async def test_every_read_answers_iso_8601_with_a_colon_offset(
    hass: HomeAssistant, hub: HubEmulator, entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    cache = await ensure_stream(hass, entry)
    await until(lambda: cache.logs_live, what="log socket")
    snap = await call_tool("hub_create_snapshot", {})
    assert not snap.error, snap.data
    extra = {
        "hub_diff_snapshots": [{"from_snapshot": str(snap.data["name"])}],
        "hub_get_restore_plan": [{"snapshot": str(snap.data["name"])}],
        # the lock has no code events here (the secrets test seeds them): a light's newest
        "hub_get_event_cause": [{"device_id": "6"}],
        "hub_get_item_backup": [],  # none exist yet (tested with the backups)
        "hub_read_file": [{"file_name": n} for n in hub.home.files.names()],
    }
    outputs = await call_all_reads(call_tool, hub, extra)
    odd: dict[str, set[str]] = {}
    for out in outputs:
        text = json.dumps(out["result"], default=str)
        for match in [*_ODD.findall(text), *_SPACED.findall(text)]:
            odd.setdefault(str(out["tool"]), set()).add(match)
    assert not odd, "; ".join(f"{t}: {sorted(f)[:2]}" for t, f in sorted(odd.items()))


def test_iso_time_forms() -> None:
    denver = ZoneInfo("America/Denver")
    assert iso_time("2026-11-30T00:25:21.826-0700", None) == "2026-11-30T00:25:21.826-07:00"
    assert iso_time("2026-11-25T05:11:38+0000", None) == "2026-11-25T05:11:38+00:00"
    assert iso_time("2026-11-25T05:11:38Z", None) == "2026-11-25T05:11:38+00:00"
    assert iso_time("2026-11-25T05:11:38+00:00", None) == "2026-11-25T05:11:38+00:00"
    assert iso_time("2026-07-14 08:05:53", denver) == "2026-07-14T08:05:53-06:00"
    assert iso_time("2026-07-14 08:05", None) == "2026-07-14T08:05:00"
    # text that only contains a date, and other values, are left alone
    assert iso_time("since 2026-07-14 08:05", denver) == "since 2026-07-14 08:05"
    # shaped like a local time but none (month 13): text, not an error for the whole answer
    assert iso_time("2026-13-01 25:61", denver) == "2026-13-01 25:61"
    assert iso_times({"a": ["2026-11-25T05:11:38+0000", 3, None]}, None) == {
        "a": ["2026-11-25T05:11:38+00:00", 3, None]
    }
