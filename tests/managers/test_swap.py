"""The Swap Device manager (``managers/swap.py``) on its own, no hass: every app using one
device moved to another through the hub's transient Swap Device app, which is removed
afterwards, also when a step fails, over the emulated hub.

Moved from tests/tools/test_device_admin.py (the swap is the manager's; the tool's
confirmation, its summary, the allowlist and the refusals of a pair that cannot be swapped
stay there)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..home_util import dev_id


async def test_swap_device_moves_every_app(emu: HubEmulator, manager_hub: Hub) -> None:
    old_id, new_id = dev_id(emu, "Kitchen Motion"), dev_id(emu, "Office Motion")
    old, new = emu.state.devices[int(old_id)], emu.state.devices[int(new_id)]
    users = list(old.apps_using)
    assert users
    apps_before = set(emu.state.apps)
    data = await manager_hub.swap.swap_device(old_id, new_id)
    assert sorted(int(a["app_id"]) for a in data["apps_moved"]) == sorted(users)
    assert data["old_device"] == {"device_id": old_id, "label": "Kitchen Motion"}
    assert data["new_device"] == {"device_id": new_id, "label": "Office Motion"}
    assert "warning" not in data and "swap_app_left_behind" not in data
    assert old.apps_using == [] and set(users) <= set(new.apps_using)
    assert set(emu.state.apps) == apps_before  # the transient Swap Device app is gone
    assert any(p.startswith("/installedapp/forcedelete/") for _m, p in emu.requests)


async def test_swap_device_failures_remove_the_swap_app(emu: HubEmulator, manager_hub: Hub) -> None:
    old_id, new_id = dev_id(emu, "Kitchen Motion"), dev_id(emu, "Office Motion")
    users = list(emu.state.devices[int(old_id)].apps_using)
    apps_before = set(emu.state.apps)
    for path in ("/installedapp/update/json", "/installedapp/btn"):
        emu.faults.fail_paths = {path: 500}
        with pytest.raises(HubError) as failed:
            await manager_hub.swap.swap_device(old_id, new_id)
        assert failed.value.code == "hub_bad_response", path
        assert set(emu.state.apps) == apps_before, path  # no Swap Device app left behind
        assert emu.state.devices[int(old_id)].apps_using == users, path
