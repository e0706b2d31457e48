"""The radio settings (``managers/radio_settings.py``, through the radio manager's
``update_settings``) on their own, no hass: each radio's full settings set read first and
sent back with the change laid over it (never a placeholder, never a Secure Join the hub did
not report), what the hub does not offer refused before anything is sent, and the effect
read back (a success the hub did not apply, or one that reset another setting, is a failure;
a refusal the hub applied anyway is a success), over the emulated hub and the recorded hub
answers. The library's update request on its own (a Secure Join sent only as the hub
reported it) and the emulated hub taking the Secure Join as reported are tested in
tests/hub/test_radios.py.

Moved from tests/tools/test_radios.py, tests/tools/test_radios_zwave.py and
tests/tools/test_radios_more.py (the settings logic is the manager's; the tools' confirm
and backup gate, their argument checks (a channel or Long Range channel out of range) and the
advice to reboot with hub_reboot_hub stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubRefusedError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..ops_util import FixtureClient, radio_manager


async def update(manager_hub: Hub, radio: str, **changes: Any) -> dict[str, Any]:
    return await manager_hub.radios.update_settings(radio, changes)


def settings_updates(emu: HubEmulator, before: int) -> list[str]:
    """The Z-Wave settings calls sent since ``before``."""
    return [p for _m, p in emu.requests[before:] if p.startswith("/hub/zwaveDetails/update")]


# ------------------------------------------------------------------ against the emulator


async def test_settings_are_merged_and_read_back(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await update(manager_hub, "zigbee", channel=25, inactive_device_ping=False)
    assert data["settings"] == {"channel": 25, "inactive_device_ping": False}
    assert "not_applied" not in data and "channel" in data["note"]
    assert data["summary"].startswith("zigbee settings: ")
    ops = emu.ops
    # the untouched half of each combined call was sent back as it was
    assert (ops.zigbee_channel, ops.zigbee_power) == (25, 8)
    assert (ops.zigbee_inactive_ping, ops.zigbee_rebuild_on_reboot) == (False, False)
    start = len(emu.requests)
    lr = await update(manager_hub, "zwave", long_range_channel=1)
    assert lr["settings"] == {"long_range_channel": 1} and ops.zwave_long_range_channel == 1
    # the full set the hub UI sends, current values merged: Z-Wave and Secure Join stay on
    assert settings_updates(emu, start) == [
        "/hub/zwaveDetails/update?enabled=true&region=USLR&secureJoin=1&longRangeChannel=1"
    ]
    assert ops.radio_enabled["zwave"] is True and ops.zwave_secure_join == 1
    off = await update(manager_hub, "matter", enabled=False)
    assert ops.radio_enabled["matter"] is False and "reboot" in off["note"]


async def test_settings_refusals_send_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    start = len(emu.requests)
    for radio, changes in (
        ("zwave", {"channel": 15}),  # a Zigbee setting
        ("zigbee", {}),
        ("zigbee", {"power_level": 25}),  # not in powerLevels
    ):
        with pytest.raises(ToolError) as err:
            await update(manager_hub, radio, **changes)
        assert err.value.code == "invalid_request"
        assert "Nothing was sent" in str(err.value)
    sent = {p.split("?")[0] for _m, p in emu.requests[start:]}
    assert sent <= {"/hub/zwaveDetails/json", "/hub/zigbeeDetails/json"}, sent
    emu.ops.matter = False
    with pytest.raises(ToolError) as err:
        await update(manager_hub, "matter", enabled=True)
    assert "no matter radio" in str(err.value).lower()
    assert err.value.code == "invalid_request"


async def test_zigbee_settings_never_echo_placeholders(emu: HubEmulator, manager_hub: Hub) -> None:
    start = len(emu.requests)
    emu.ops.zigbee_inactive_ping = "null"  # type: ignore[assignment]  # as a settings page reads
    with pytest.raises(ToolError) as err:
        await update(manager_hub, "zigbee", rebuild_network_on_reboot=True)
    assert err.value.code == "invalid_request"
    assert "nothing was sent" in str(err.value)
    assert not any("updateSettings" in p for _m, p in emu.requests[start:])
    emu.ops.zigbee_inactive_ping = True
    emu.ops.settings_ignored = True
    with pytest.raises(HubBadResponseError) as bad:
        await update(manager_hub, "zigbee", channel=15)
    assert bad.value.code == "hub_bad_response"


async def test_zwave_settings_never_echo_placeholders(emu: HubEmulator, manager_hub: Hub) -> None:
    """New: a Secure Join or region the hub reads back as a placeholder is not sent back (the
    hub would take it as a new value): refused before anything is sent."""
    start = len(emu.requests)
    emu.ops.zwave_secure_join = "null"  # type: ignore[assignment]  # as a settings page reads
    with pytest.raises(ToolError) as join:
        await update(manager_hub, "zwave", long_range_channel=1)
    assert join.value.code == "invalid_request" and "Secure Join" in str(join.value)
    emu.ops.zwave_secure_join = 1
    emu.ops.zwave_region = "null"
    with pytest.raises(ToolError) as region:
        await update(manager_hub, "zwave", long_range_channel=1)
    assert "region" in str(region.value) and "nothing was sent" in str(region.value)
    assert settings_updates(emu, start) == [] and emu.ops.zwave_long_range_channel != 1


async def test_zwave_settings_refusals_and_effect_check(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.ops.zwave_region = "EU"  # no Long Range there
    start = len(emu.requests)
    with pytest.raises(ToolError) as eu:
        await update(manager_hub, "zwave", long_range_channel=1)
    assert eu.value.code == "invalid_request" and "Long Range" in str(eu.value)
    emu.ops.zwave_region = "USLR"
    emu.ops.radio_enabled["zwave"] = False
    with pytest.raises(ToolError) as off:
        await update(manager_hub, "zwave", long_range_channel=1)
    assert off.value.code == "invalid_request"
    assert not any("/update" in p or "/enable/" in p for _m, p in emu.requests[start:])
    emu.ops.radio_enabled["zwave"] = True
    # the hub answers success but nothing changes: a failure, not a success
    emu.ops.settings_ignored = True
    with pytest.raises(HubBadResponseError) as lied:
        await update(manager_hub, "zwave", long_range_channel=1)
    assert lied.value.code == "hub_bad_response"
    assert "long_range_channel" in str(lied.value)


async def test_zwave_region_change(emu: HubEmulator, manager_hub: Hub) -> None:
    start = len(emu.requests)
    data = await update(manager_hub, "zwave", region="EU")
    assert data["settings"] == {"region": "EU"} and emu.ops.zwave_region == "EU"
    assert settings_updates(emu, start) == [
        "/hub/zwaveDetails/update?enabled=true&region=EU&secureJoin=1"
    ]
    # back to a Long Range region: the current LR channel goes with it
    start = len(emu.requests)
    await update(manager_hub, "zwave", region="USLR")
    assert emu.requests[-3:] and emu.ops.zwave_region == "USLR"
    (back,) = settings_updates(emu, start)
    assert "region=USLR" in back and "longRangeChannel=" in back
    with pytest.raises(ToolError) as err:
        await update(manager_hub, "zwave", region="EU", long_range_channel=1)
    assert err.value.code == "invalid_request"


# ------------------------------------------------------------------ recorded hub answers


async def test_zwave_update_refused_but_applied_is_a_success() -> None:
    details = dict(load_fixture("radios/zwave_details").answer)

    class Refusing(FixtureClient):
        async def request(self, method: str, path: str, **kw: Any) -> Any:
            if path == "/hub/zwaveDetails/update":
                self.sent.append((path, kw.get("params")))
                details["longRangeChannel"] = 0  # the hub applied it ...
                raise HubRefusedError("The hub refused to change the Z-Wave settings")
            return await super().request(method, path, **kw)

    fake = Refusing({"/hub/zwaveDetails/json": details})
    result = await radio_manager(fake).update_settings("zwave", {"long_range_channel": 0})
    assert result["settings"] == {"long_range_channel": 0}  # ... so it is a success
    assert fake.sent[1] == (
        "/hub/zwaveDetails/update",
        {"enabled": "true", "region": "USLR", "secureJoin": "1", "longRangeChannel": "0"},
    )


async def test_zwave_update_that_resets_another_setting_is_a_failure() -> None:
    details = dict(load_fixture("radios/zwave_details").answer)

    class Resetting(FixtureClient):
        async def request(self, method: str, path: str, **kw: Any) -> Any:
            if path == "/hub/zwaveDetails/update":
                details.update(longRangeChannel=1, secureJoin=0)  # a full replacement's harm
                return {"success": True}
            return await super().request(method, path, **kw)

    manager = radio_manager(Resetting({"/hub/zwaveDetails/json": details}))
    with pytest.raises(HubBadResponseError, match="secureJoin=0"):
        await manager.update_settings("zwave", {"long_range_channel": 1})


async def test_zwave_update_leaves_out_a_secure_join_the_hub_did_not_report() -> None:
    # The hub UI sends secureJoin as zwaveDetails/json reported it; a hub that does not offer
    # Secure Join (showSecureJoin false) may report none: it is left out, never sent as "None".
    details = dict(load_fixture("radios/zwave_details").answer)
    details.update(showSecureJoin=False, secureJoin=None)

    class Applying(FixtureClient):
        async def request(self, method: str, path: str, **kw: Any) -> Any:
            if path == "/hub/zwaveDetails/update":
                params = kw["params"]
                self.sent.append((path, params))
                if "longRangeChannel" in params:
                    details["longRangeChannel"] = int(params["longRangeChannel"])
                return {"success": True}
            return await super().request(method, path, **kw)

    fake = Applying({"/hub/zwaveDetails/json": details})
    result = await radio_manager(fake).update_settings("zwave", {"long_range_channel": 0})
    assert result["settings"] == {"long_range_channel": 0}  # read back
    updates = [params for path, params in fake.sent if path == "/hub/zwaveDetails/update"]
    assert updates == [{"enabled": "true", "region": "USLR", "longRangeChannel": "0"}]
