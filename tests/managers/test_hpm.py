"""The Hubitat Package Manager reader (``managers/apps/hpm.py``) on its own, no hass: the
packages HPM tracks, their drift against the hub's user code (required parts never
installed, code gone from the hub) and the user code no package claims, over the emulated
hub.

Moved from tests/tools/test_apps.py (the drift report is the manager's; the tool only
answers it, and a smaller test of that stays there)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_HPM


async def test_hpm_packages(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await manager_hub.hpm.packages()
    assert data["hpm_app_id"] == str(APP_HPM)
    names = {p["name"]: p for p in data["packages"]}
    assert names["Acme Tools"]["version"] == "1.4.2"
    assert names["Acme Tools"]["apps"] == ["Motion Announcer"]
    assert data["packages_with_drift"] == 0 and "drift" not in names["Acme Tools"]
    claimed = {("app", "1"), ("driver", "1"), ("app", "3")}
    code = await manager_hub.code.list_code(None, None)
    expected = {(c["type"], str(c["id"])) for c in code if c["type"] != "library"}
    untracked = {(u["type"], u["code_id"]) for u in data["untracked_code"]}
    assert untracked == expected - claimed and untracked
    # a required part HPM never installed, and a part whose code was deleted on the hub
    manifests = emu.state.dev.internals[APP_HPM].state["manifests"]
    acme = manifests["https://example.com/acme/packageManifest.json"]
    acme["apps"].append({"id": "a2", "name": "Acme Scenes", "required": True})
    acme["drivers"][0]["heID"] = 999
    drifted = await manager_hub.hpm.packages()
    pkg = next(p for p in drifted["packages"] if p["name"] == "Acme Tools")
    assert drifted["packages_with_drift"] == 1
    assert pkg["drift"] == {
        "required_not_installed": [{"type": "app", "name": "Acme Scenes"}],
        "code_gone_from_hub": [{"type": "driver", "name": "Acme Smart Plug", "code_id": "999"}],
    }
    # the plug driver's code is now claimed by nobody
    assert ("driver", "1") in {(u["type"], u["code_id"]) for u in drifted["untracked_code"]}
