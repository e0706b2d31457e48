"""Done on the apps running an app code: the gate applies to what they reach (no hass)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import CODE_APP_ANNOUNCER


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
