"""Done on the installed apps that run one app code (``managers/code_instances.py``) and the
code manager's re-save of an unchanged source (``managers/code.py``), on their own, no hass:
the fields Done sends (stored values over a page's defaults, a device input as the page
lists it, never a password), the gate on what the apps reach (a lock needs confirm, a
device outside the allowlist refuses), Done pressed on each running app (updated() run
against the code, settings kept, one Done each, nothing saved), no app running the code,
and the re-save (version checked, backed up, the source unchanged), over the emulated hub.

Moved from tests/tools/test_code_instances.py (the re-save and the Done presses are the
managers'; hub_update_code's own part stays there: the confirmation gate, its argument
refusals (a driver's update_instances, resave with a source), the device allowlist as it
answers it and its summary)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.app_page import PageInput
from custom_components.hubitat_dev_tools.hub.code import HubVersionConflictError
from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.managers.code_instances import done_fields
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import CODE_APP_ANNOUNCER, CODE_APP_REPORT

from ..helpers.code_instances import APP, _motions, _running, _writes


def _allow_all(_device_id: str) -> bool:
    return True


async def _instance(manager_hub: Hub, name: str, motion: int) -> int:
    """A new Motion Announcer running the app code, as hub_create_app makes it."""
    made = await manager_hub.app_create.create(
        "Motion Announcer",
        parent_app_id=None,
        settings={"motion": str(motion)},
        name=name,
        device_allowed=_allow_all,
        confirm=True,
    )
    return int(made["app_id"])


def test_done_fields_keep_stored_values_over_page_defaults() -> None:
    flag = PageInput("debug", "bool", False, None, False, None, None)  # the page shows a default
    motion = PageInput("motion", "capability.motionSensor", False, None, None, None, [5])
    modes = PageInput("modes", "enum", True, None, None, None, None)
    fields = done_fields(
        {"debug": flag, "motion": motion, "modes": modes},
        {"debug": True, "motion": "9", "modes": ["Day", "Night"]},
    )
    assert fields["debug"].value == "true"  # the stored value, not the page's default
    assert fields["motion"].value == "5"  # device inputs: the page's ids
    assert fields["modes"].value == '["Day", "Night"]' and fields["modes"].multiple


def test_done_fields_leave_passwords_out() -> None:
    """A page may show a password as a mask: Done must not send that back over the real one."""
    secret = PageInput("apiKey", "password", False, None, "********", None, None)
    name = PageInput("name", "text", False, None, "Porch", None, None)
    fields = done_fields({"apiKey": secret, "name": name}, {"apiKey": "hunter2-real"})
    assert "apiKey" not in fields and fields["name"].value == "Porch"


async def test_done_on_an_app_that_names_a_lock_needs_confirm(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    done = manager_hub.code_instances
    instances = await done.instances(str(CODE_APP_ANNOUNCER))
    assert instances and all(name for _i, name in instances)
    app_id = int(instances[0][0])
    lock = int(emu.find_device("Back Door Lock")["id"])
    speaker = next(i for i in emu.state.dev.internals[app_id].inputs if i["name"] == "speaker")
    speaker.update({"value": str(lock), "deviceIdsForDeviceList": [lock]})
    before = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await done.gate(instances, confirm=False, device_allowed=lambda _d: True, what="Done")
    assert refused.value.code == "confirmation_required" and "lock" in str(refused.value).lower()
    assert not [p for m, p in emu.requests[before:] if m == "POST"]
    await done.gate(instances, confirm=True, device_allowed=lambda _d: True, what="Done")
    results = await done.press_all(instances)
    assert [r["status"] for r in results] == ["updated"] * len(instances)
    assert emu.state.dev.internals[app_id].updated_runs == 1
    assert speaker["deviceIdsForDeviceList"] == [lock]  # re-submitted as it was


async def test_resave_saves_the_unchanged_source_checked_and_backed_up(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    code = manager_hub.code
    item = emu.state.dev.code[("app", CODE_APP_ANNOUNCER)]
    source, version = item.source, item.version
    before = len(emu.requests)
    with pytest.raises(HubVersionConflictError) as stale:
        await code.resave("app", APP, version + 5)
    assert stale.value.code == "version_conflict"
    assert _writes(emu, before) == [] and item.version == version
    data: dict[str, Any] = dict(await code.resave("app", APP, None))
    assert data["previous_version"] == version
    assert data["version"] == version + 1 == item.version and item.source == source
    assert data["item_backup"]["backup"]
    # without resave the same source is "unchanged": nothing is sent
    start = len(emu.requests)
    same: dict[str, Any] = dict(await code.update("app", APP, source, None))
    assert same["unchanged"] is True and item.version == version + 1
    assert _writes(emu, start) == []


async def test_update_instances_presses_done_on_each_running_app(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    done = manager_hub.code_instances
    first, second = _motions(emu)[:2]
    a = await _instance(manager_hub, "Porch announcer", first)
    b = await _instance(manager_hub, "Hall announcer", second)
    ints = emu.state.dev.internals
    assert ints[a].updated_runs == 0 and ints[b].updated_runs == 0
    # an app code that does not exist: refused, nothing sent
    before = len(emu.requests)
    with pytest.raises(HubError) as missing:
        await done.instances("999")
    assert missing.value.code == "not_found"
    instances = await done.instances(APP)
    await done.gate(instances, confirm=True, device_allowed=_allow_all, what="Done")
    assert _writes(emu, before) == [] and ints[a].updated_runs == 0
    await manager_hub.code.resave("app", APP, None)
    results = await done.press_all(instances)
    code_version = emu.state.dev.code[("app", CODE_APP_ANNOUNCER)].version
    running = _running(emu)  # the home's own announcer too
    assert {a, b} < set(running)
    assert {r["app_id"]: r["status"] for r in results} == {str(i): "updated" for i in running}
    assert all("settings_changed" not in r for r in results)
    assert all(r["inputs_resubmitted"] > 0 for r in results)
    # each ran updated() once, against the re-saved code, and kept its settings
    for app_id, motion in ((a, first), (b, second)):
        assert ints[app_id].updated_runs == 1 and ints[app_id].ran_code_version == code_version
        picked = next(i for i in ints[app_id].inputs if i["name"] == "motion")
        assert picked["deviceIdsForDeviceList"] == [motion]
        assert emu.state.apps[app_id].label in ("Porch announcer", "Hall announcer")
    # the save came first, then one Done per app
    sent = _writes(emu, before)
    assert any("saveOrUpdateJson" in p or "ajax/update" in p for p in sent[:2])
    dones = [p for p in sent if "installedapp/update" in p]
    assert dones == ["/installedapp/update/json"] * len(running)
    # alone: only the Done presses, no save
    start = len(emu.requests)
    alone = await done.press_all(await done.instances(APP))
    assert len(alone) == len(running)
    assert (
        ints[a].updated_runs == 2
        and emu.state.dev.code[("app", CODE_APP_ANNOUNCER)].version == code_version
    )
    assert not [p for p in _writes(emu, start) if "save" in p.lower() or "ajax/update" in p]


async def test_done_is_refused_for_an_app_reaching_a_device_not_allowed(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    done = manager_hub.code_instances
    first, second = _motions(emu)[:2]
    a = await _instance(manager_hub, "Porch announcer", first)
    await _instance(manager_hub, "Hall announcer", second)
    instances = await done.instances(APP)
    before = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await done.gate(
            instances, confirm=True, device_allowed=lambda d: d == str(first), what="Done"
        )
    assert refused.value.code == "device_not_allowed"
    assert "Nothing was sent" in str(refused.value)
    assert _writes(emu, before) == [] and emu.state.dev.internals[a].updated_runs == 0


async def test_no_running_app_means_no_done(emu: HubEmulator, manager_hub: Hub) -> None:
    done = manager_hub.code_instances
    assert not [x for x in emu.state.apps.values() if x.app_type_id == CODE_APP_REPORT]
    instances = await done.instances(str(CODE_APP_REPORT))
    assert instances == []
    before = len(emu.requests)
    await done.gate(instances, confirm=False, device_allowed=lambda _d: False, what="Done")
    assert await done.press_all(instances) == []
    assert _writes(emu, before) == []
