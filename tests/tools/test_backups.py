"""Backup tools: list, delete, restore (gates, validation, hub errors).

Here stay the tools' part: each tool called by name with its answer, the confirmation and
backup gates, the backup name checks, the advice naming hub_get_health_report, the tools
working again once the restored hub is back, the call's own time bound and the error a hub
refusing a restore answers. The local backup logic (the listing with ages, the tier and the
schedule, create verified by the list, delete checked and re-listed, restore after a
current-state backup, a slow restore in progress and never resent, a missing backup) is
tested without hass in tests/managers/test_backups.py; the parsing of the hub's recorded
backup answers and the emulated hub's delete and restore answers in
tests/hub/test_backups.py."""

from __future__ import annotations

import time

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..helpers.backups import fail_the_restore
from ..ops_util import wait_for_status


async def test_list_backups(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: both by name and their answers (the listing's ages, tier and
    schedule: tests/managers/test_backups.py::test_list_and_create_backups)."""
    data = await ok(call_tool, "hub_list_backups")
    assert data["count"] == 1 and data["destructive_tier_satisfied"] is False
    made = await ok(call_tool, "hub_create_backup")
    assert made["verified"] is True and made["summary"].startswith("Backup created")
    data = await ok(call_tool, "hub_list_backups")
    assert data["count"] == 2 and data["destructive_tier_satisfied"] is True


async def test_delete_backup_gates_and_success(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    old = hub.backups[0].name
    before = len(hub.requests)
    await refused(call_tool, "hub_delete_backup", {"file_name": old}, "confirmation_required")
    await refused(
        call_tool, "hub_delete_backup", {"file_name": old, "confirm": True}, "backup_required"
    )
    assert not [p for _m, p in hub.requests[before:] if "deleteLocalBackup" in p]
    await ok(call_tool, "hub_create_backup")
    await refused(
        call_tool, "hub_delete_backup", {"file_name": "nope.lzf", "confirm": True}, "not_found"
    )
    assert not [p for _m, p in hub.requests if "deleteLocalBackup" in p]
    data = await ok(call_tool, "hub_delete_backup", {"file_name": old, "confirm": True})
    assert data["remaining"] == 1 and "summary" in data
    assert [b.name for b in hub.backups] != [old] and old not in [b.name for b in hub.backups]


async def test_backup_name_validation(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    await refused(
        call_tool, "hub_restore_backup", {"file_name": "../x", "confirm": True}, "invalid_arguments"
    )
    await refused(call_tool, "hub_delete_backup", {"file_name": "", "confirm": True})
    assert hub.requests[before:] == []


async def test_restore_reboots_and_tools_recover(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    backup = hub.mark_backup_now()
    data = await ok(call_tool, "hub_restore_backup", {"file_name": backup.name, "confirm": True})
    assert data["rebooting"] is True and "reboot" in data["note"] and data["status"] == "done"
    assert "hub_get_health_report" in data["note"]
    # the hub goes away, then comes back; the next calls just work again
    await wait_for_status(hub, "down")
    await wait_for_status(hub, "running", timeout=5)
    info = await ok(call_tool, "hub_get_info")
    assert info["hub_uid"] == hub.hub_uid


async def test_a_restore_longer_than_the_call_is_reported_in_progress_not_retried(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tool's part: the call answers within its own time bound, with the advice naming
    hub_get_health_report (the restore in progress, never resent:
    tests/managers/test_backups.py)."""
    from custom_components.hubitat_dev_tools.tools import base

    # The hub answers a restore only when it has ended (hub UI, the on-hub server): here it takes
    # longer than the whole call may last.
    monkeypatch.setattr(base, "CALL_BUDGET_S", 5.0)
    hub.ops.local_restore_s = 6.0
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    backup = hub.mark_backup_now()
    start, began = len(hub.requests), time.monotonic()
    data = await ok(call_tool, "hub_restore_backup", {"file_name": backup.name, "confirm": True})
    assert time.monotonic() - began < base.CALL_BUDGET_S
    assert data["status"] == "in_progress" and "rebooting" not in data
    assert "hub_get_health_report" in data["pending"] and "Do not restore again" in data["pending"]
    # one restore request, never resent; the hub goes on restoring, then reboots
    restores = [p for _m, p in hub.requests[start:] if p.startswith("/hub2/restoreLocalBackup")]
    assert len(restores) == 1 and hub.status == "running"
    await wait_for_status(hub, "down", timeout=8)
    await wait_for_status(hub, "running", timeout=5)
    assert [p for _m, p in hub.requests[start:] if "restoreLocalBackup" in p] == restores


async def test_restore_refused_by_hub(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tool's part: a hub refusing the restore is answered as a failure (a missing backup
    and the hub error itself: tests/managers/test_backups.py::test_restore_refused_by_hub)."""
    hub.mark_backup_now()
    # the hub answering 500 to the restore is a failure with a hint, not an exception
    name = fail_the_restore(hub, monkeypatch)
    data = await refused(call_tool, "hub_restore_backup", {"file_name": name, "confirm": True})
    assert data["error"] == "hub_bad_response" and hub.status == "running"
