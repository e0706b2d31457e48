"""hub_update_code resave=true (the editor's Save of the unchanged source) and
update_instances=true (Done on each installed app running the code: updated()), through the
tool: the confirmation gate, its argument refusals (a driver's update_instances, resave with
a source), the device allowlist as it answers it, and its summary. The fields Done sends,
the re-save itself (version checked, backed up), each app's updated() run with its settings
kept and the requests sent are tested without hass in tests/managers/test_code_instances.py."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import CODE_APP_ANNOUNCER, CODE_APP_REPORT, CODE_DRIVER_PLUG

from ..conftest import ToolCaller, ok, refused, sent_since
from ..helpers.code_instances import APP, _motions, _running, _writes


async def _instance(call_tool: ToolCaller, name: str, motion: int) -> int:
    made = await ok(
        call_tool,
        "hub_create_app",
        {
            "app_type": "Motion Announcer",
            "name": name,
            "settings": {"motion": str(motion)},
            "confirm": True,
        },
    )
    return int(made["app_id"])


async def test_resave_saves_the_unchanged_source_checked_and_backed_up(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the gate, a stale version and a source given with resave refused
    as it answers them, and its answer (the re-save itself:
    tests/managers/test_code_instances.py)."""
    item = hub.state.dev.code[("app", CODE_APP_ANNOUNCER)]
    source, version = item.source, item.version
    before = len(sent_since(hub))
    args = {"type": "app", "id": APP, "resave": True}
    await refused(call_tool, "hub_update_code", args, "confirmation_required")
    stale = {**args, "confirm": True, "expected_version": version + 5}
    await refused(call_tool, "hub_update_code", stale, "version_conflict")
    mixed = {**args, "confirm": True, "source": source}
    await refused(call_tool, "hub_update_code", mixed)
    assert _writes(hub, before) == [] and item.version == version
    data = await ok(call_tool, "hub_update_code", {**args, "confirm": True})
    assert data["resaved"] is True and data["previous_version"] == version
    assert data["version"] == version + 1 == item.version and item.source == source
    assert data["item_backup"]["backup"] and "Re-saved" in data["summary"]
    # without resave the same source is "unchanged": nothing is sent
    same = await ok(
        call_tool, "hub_update_code", {"type": "app", "id": APP, "source": source, "confirm": True}
    )
    assert same["unchanged"] is True and item.version == version + 1


async def test_update_instances_presses_done_on_each_running_app(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its refusals, the save before the Done presses, its summary and one
    result per app (each app's updated() run with its settings kept:
    tests/managers/test_code_instances.py::test_update_instances_presses_done_on_each_running_app)."""
    first, second = _motions(hub)[:2]
    a = await _instance(call_tool, "Porch announcer", first)
    b = await _instance(call_tool, "Hall announcer", second)
    ints = hub.state.dev.internals
    assert ints[a].updated_runs == 0 and ints[b].updated_runs == 0
    # refusals change nothing
    before = len(sent_since(hub))
    driver = {"type": "driver", "id": str(CODE_DRIVER_PLUG), "update_instances": True}
    await refused(call_tool, "hub_update_code", {**driver, "confirm": True})
    await refused(
        call_tool,
        "hub_update_code",
        {"type": "app", "id": APP, "update_instances": True},
        "confirmation_required",
    )
    await refused(
        call_tool,
        "hub_update_code",
        {"type": "app", "id": "999", "update_instances": True, "confirm": True},
        "not_found",
    )
    assert _writes(hub, before) == [] and ints[a].updated_runs == 0
    data = await ok(
        call_tool,
        "hub_update_code",
        {"type": "app", "id": APP, "resave": True, "update_instances": True, "confirm": True},
    )
    code_version = hub.state.dev.code[("app", CODE_APP_ANNOUNCER)].version
    running = _running(hub)  # the home's own announcer too
    assert {a, b} < set(running)
    assert f"Done pressed on {len(running)} of {len(running)}" in data["summary"]
    assert data["version"] == code_version
    assert {r["app_id"]: r["status"] for r in data["instances"]} == {
        str(i): "updated" for i in running
    }
    assert all("settings_changed" not in r for r in data["instances"])
    # each ran updated() once, against the re-saved code (its settings kept:
    # tests/managers/test_code_instances.py)
    assert ints[a].updated_runs == 1 and ints[a].ran_code_version == code_version
    # the tool saves first, then presses one Done per app
    sent = _writes(hub, before)
    assert any("saveOrUpdateJson" in p or "ajax/update" in p for p in sent[:2])
    dones = [p for p in sent if "installedapp/update" in p]
    assert dones == ["/installedapp/update/json"] * len(running)
    # alone: only the Done presses, no save
    start = len(sent_since(hub))
    alone = await ok(
        call_tool,
        "hub_update_code",
        {"type": "app", "id": APP, "update_instances": True, "confirm": True},
    )
    assert "version" not in alone and len(alone["instances"]) == len(running)
    assert (
        ints[a].updated_runs == 2
        and hub.state.dev.code[("app", CODE_APP_ANNOUNCER)].version == code_version
    )
    assert not [p for p in _writes(hub, start) if "save" in p.lower() or "ajax/update" in p]


async def test_update_instances_is_gated_by_what_the_apps_reach(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    first, second = _motions(hub)[:2]
    a = await _instance(call_tool, "Porch announcer", first)
    await _instance(call_tool, "Hall announcer", second)
    # the assistant may use only the first motion sensor: Done on the app that names the
    # second would make it act on a device outside the allowlist
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [str(first)]})
    item = hub.state.dev.code[("app", CODE_APP_ANNOUNCER)]
    version, before = item.version, len(sent_since(hub))
    data = await refused(
        call_tool,
        "hub_update_code",
        {"type": "app", "id": APP, "resave": True, "update_instances": True, "confirm": True},
        "device_not_allowed",
    )
    assert "Nothing was sent" in data["message"]
    # nothing saved, no Done pressed
    assert _writes(hub, before) == [] and item.version == version
    assert hub.state.dev.internals[a].updated_runs == 0


async def test_update_instances_with_no_running_app(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    assert not [x for x in hub.state.apps.values() if x.app_type_id == CODE_APP_REPORT]
    data = await ok(
        call_tool,
        "hub_update_code",
        {"type": "app", "id": str(CODE_APP_REPORT), "update_instances": True, "confirm": True},
    )
    assert data["instances"] == [] and "no installed app" in data["summary"]
