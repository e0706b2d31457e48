"""Export, import and clone through the hub's App Cloner (hub_export_app, hub_clone_app,
hub_import_app), and the App Cloner export kept by hub_delete_app.

The tools' part is here: their summaries and the advice naming the tool to call next, the
hints naming sibling tools, their argument refusals (a file name, exactly one export
source), the confirmation an enabled clone or import needs, the write master and Hub
Security. The export document, save_as and large exports, the apps refused before anything
is sent, clones (staged disabled, child apps, lost clicks, a slow hub, concurrent clones, an
error after the press), imports (object, text, file, backup, seed app, missing devices, the
device allowlist) and the temporary cloner removed on hub errors are tested without hass in
tests/managers/test_app_cloner.py."""

from __future__ import annotations

import json

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOW_WRITE
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.seed import (
    APP_RULE_MACHINE,
    RULE_GOODNIGHT,
    RULE_MOTION,
)

from ..conftest import ToolCaller, add_entry
from ..helpers.app_cloner import cloner_requests, cloners, new_apps


async def test_export_app_summary_and_the_import_advice(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its summary, the document in its answer, and the advice naming
    hub_import_app for a saved export (the document, save_as and large exports:
    tests/managers/test_app_cloner.py)."""
    result = await call_tool("hub_export_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    data = result.data
    devices = len(data["devices"])
    assert devices and data["summary"] == (
        f"Exported app {RULE_MOTION} (Motion Lights - Kitchen) with 1 app(s) and "
        f"{devices} device(s)"
    )
    assert list(data["export"]["appReplacements"]) == [str(RULE_MOTION)]
    assert data["repaired_escaping"] is True and "note" not in data
    saved = await call_tool("hub_export_app", {"app_id": RULE_MOTION, "save_as": "rule.json"})
    assert not saved.error, saved.data
    assert saved.data["summary"].endswith(" to rule.json") and "export" not in saved.data
    assert saved.data["note"].endswith("Import it with hub_import_app from_file=rule.json.")
    assert str(RULE_MOTION) in json.loads(hub.files.read("rule.json") or b"{}")["appReplacements"]
    assert cloners(hub) == []


async def test_export_app_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the error codes, the hints naming sibling tools and the file name
    argument refused (each refusal by the manager: tests/managers/test_app_cloner.py)."""
    start = len(hub.requests)
    visual = await call_tool("hub_export_app", {"app_id": VRB_PORCH})
    assert visual.error and visual.data["error"] == "invalid_request"
    assert "hub_get_visual_rule" in visual.data["hint"]
    builtin = await call_tool("hub_export_app", {"app_id": APP_RULE_MACHINE})
    assert builtin.error and builtin.data["error"] == "invalid_request"
    assert "hub_list_apps" in builtin.data["hint"]
    missing = await call_tool("hub_export_app", {"app_id": 9999})
    assert missing.error and missing.data["error"] == "not_found"
    bad_name = await call_tool("hub_export_app", {"app_id": RULE_MOTION, "save_as": "../x"})
    assert bad_name.error and bad_name.data["error"] == "invalid_arguments"
    assert cloner_requests(hub, start) == []
    assert not any(m == "POST" for m, _p in hub.requests[start:])


async def test_clone_app_summary_and_the_confirmation_of_an_enabled_copy(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its summary, and confirm=true for an enabled copy of an app that
    reaches a lock (the copy itself: tests/managers/test_app_cloner.py)."""
    before = set(hub.state.apps)
    result = await call_tool("hub_clone_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    (copy,) = new_apps(hub, before)
    assert copy.disabled and result.data["summary"] == (
        f"Cloned app {RULE_MOTION} as app {copy.id} (Motion Lights - Kitchen (copy), disabled)"
    )
    # Goodnight locks the front door: an enabled copy needs confirm, a disabled one does not
    before = set(hub.state.apps)
    start = len(hub.requests)
    args = {"app_id": RULE_GOODNIGHT, "enable": True}
    refused = await call_tool("hub_clone_app", args)
    assert refused.error and refused.data["error"] == "confirmation_required", refused.data
    assert set(hub.state.apps) == before and cloner_requests(hub, start) == []
    enabled = await call_tool("hub_clone_app", {**args, "confirm": True})
    assert not enabled.error, enabled.data
    (live,) = new_apps(hub, before)
    assert not live.disabled and enabled.data["summary"].endswith(" (Goodnight (copy), enabled)")


async def test_clone_app_under_hub_security(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, secure_hub)
    before = set(secure_hub.state.apps)
    result = await call_tool("hub_clone_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    assert len(new_apps(secure_hub, before)) == 1


async def test_import_app_summary(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the export hub_export_app returned is taken as it is, and the
    summary (object, text, file and seed app: tests/managers/test_app_cloner.py)."""
    doc = (await call_tool("hub_export_app", {"app_id": RULE_GOODNIGHT})).data["export"]
    before = set(hub.state.apps)
    result = await call_tool("hub_import_app", {"export": doc})
    assert not result.error, result.data
    (made,) = new_apps(hub, before)
    assert made.label == "Goodnight" and made.disabled
    assert result.data["summary"] == f"Imported argument as app {made.id} (Goodnight, disabled)"
    assert cloners(hub) == []


async def test_import_app_refusals_create_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: exactly one source, and the hints naming sibling tools (each export
    the manager refuses: tests/managers/test_app_cloner.py)."""
    doc = (await call_tool("hub_export_app", {"app_id": RULE_MOTION})).data["export"]
    before = set(hub.state.apps)
    start = len(hub.requests)
    none = await call_tool("hub_import_app", {})
    assert none.error and none.data["error"] == "invalid_request"
    two = await call_tool("hub_import_app", {"export": doc, "from_file": "x.json"})
    assert two.error and "exactly one" in two.data["message"]
    junk = await call_tool("hub_import_app", {"export": "{not json"})
    assert junk.error and junk.data["error"] == "invalid_request"
    assert "hub_export_app" in junk.data["hint"]
    foreign = await call_tool("hub_import_app", {"export": {"rules": []}})
    assert foreign.error and "appReplacements" in foreign.data["message"]
    assert "hub_export_app" in foreign.data["hint"]
    no_file = await call_tool("hub_import_app", {"from_file": "nope.json"})
    assert no_file.error and no_file.data["error"] == "invalid_request"
    assert "hub_list_files" in no_file.data["hint"]
    bad_name = await call_tool("hub_import_app", {"from_file": "../x.json"})
    assert bad_name.error and bad_name.data["error"] == "invalid_arguments"
    assert cloner_requests(hub, start) == []
    assert set(hub.state.apps) == before


async def test_deleted_app_comes_back_from_its_backup(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the backup hub_delete_app names is taken by hub_import_app, confirm
    for an enabled import that reaches a lock, the summary, and the hint for a backup
    without an export (the restore itself: tests/managers/test_app_cloner.py)."""
    hub.mark_backup_now()
    deleted = await call_tool("hub_delete_app", {"app_id": RULE_GOODNIGHT, "confirm": True})
    assert not deleted.error, deleted.data
    backup = deleted.data["item_backup"]["backup"]
    assert RULE_GOODNIGHT not in hub.state.apps
    before = set(hub.state.apps)
    args = {"from_backup": backup, "enable": True}
    # Goodnight locks the front door: brought back enabled, it needs confirm
    refused = await call_tool("hub_import_app", args)
    assert refused.error and refused.data["error"] == "confirmation_required", refused.data
    assert set(hub.state.apps) == before
    restored = await call_tool("hub_import_app", {**args, "confirm": True})
    assert not restored.error, restored.data
    (made,) = new_apps(hub, before)
    assert made.label == "Goodnight" and not made.disabled
    assert restored.data["summary"] == (
        f"Imported backup {backup} as app {made.id} (Goodnight, enabled)"
    )
    # a backup without an export says so
    hub.files.write("hdt-backup_installedapp-5_20260101-000000.json", b'{"kind":"installedapp"}')
    empty = await call_tool(
        "hub_import_app", {"from_backup": "hdt-backup_installedapp-5_20260101-000000.json"}
    )
    assert empty.error and "no App Cloner export" in empty.data["message"]
    assert "hub_delete_app" in empty.data["hint"]


async def test_cloner_tools_obey_the_write_master(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_WRITE: False})
    start = len(hub.requests)
    for name, args in (
        ("hub_export_app", {"app_id": RULE_MOTION}),
        ("hub_clone_app", {"app_id": RULE_MOTION}),
        ("hub_import_app", {"from_file": "x.json"}),
    ):
        result = await call_tool(name, args)
        assert result.error and result.data["error"] == "writes_disabled", name
    assert len(hub.requests) == start
