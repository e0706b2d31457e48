"""Owner-style rule tasks through the real mcp_server, counted, and the rule run on the
emulated hub's clock: the porch light comes on after sunset and goes off 5 emulated minutes
after the motion stops."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..helpers.rule_authoring import porch_rule
from ..mcp_client import Mcp


class Assistant:
    """Counts the calls a model makes on the compact surface (gateways count as one)."""

    def __init__(self, mcp: Mcp) -> None:
        self.mcp = mcp
        self.calls = 0

    async def direct(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        return await self.mcp.ok(name, args)

    async def rules(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        gateway = "hub_read_rules" if tool == "hub_get_rule" else "hub_manage_rules"
        self.calls += 1
        return await self.mcp.ok(gateway, {"tool": tool, "args": args})


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0.02)


def _state(hub: HubEmulator, device_id: str, attr: str) -> Any:
    return hub.device(device_id)["attributes"][attr]


async def _at(hub: HubEmulator, when: datetime) -> None:
    hub.clock.set(when)
    await _settle()


async def _create_porch(mcp: Mcp, hub: HubEmulator) -> tuple[Assistant, dict[str, Any], str]:
    bot = Assistant(mcp)
    found = await bot.direct("hub_list_devices", {"text": "porch", "fields": ["label"]})
    by_label = {d["label"]: d["device_id"] for d in found["devices"]}
    motion, light = by_label["Front Porch Motion"], by_label["Porch Light"]
    created = await bot.rules("hub_create_rule", {"rule": porch_rule(motion, light)})
    return bot, created, light


async def test_porch_rule_in_three_calls_runs_after_sunset(
    entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator
) -> None:
    bot, created, light = await _create_porch(mcp, hub)
    motion = hub.find_device("Front Porch Motion")["id"]
    text = "\n".join(created["rule_text"])
    assert created["verified"] is True and created["paused"] is False
    assert "Porch Light" in text and "Front Porch Motion" in text
    # optional check: the rule reads back as the spec
    got = await bot.rules("hub_get_rule", {"app_id": created["app_id"]})
    assert got["undecompiled"] == [] and got["spec"]["actions"][3] == {
        "delay": {"minutes": 5},
        "cancelable": True,
    }
    assert bot.calls <= 3
    # the hub shows it as an ordinary Rule Machine child
    rm_children = [a for a in hub.state.apps.values() if str(a.id) == created["app_id"]]
    assert rm_children and rm_children[0].type == "Rule-5.1"

    today = hub.clock.now().date()
    _sunrise, sunset = hub.sun_times(today)
    hub.set_device_attribute(int(light), "switch", "off")
    await _at(hub, sunset + timedelta(minutes=20))
    hub.set_device_attribute(motion, "motion", "active")
    await _settle()
    assert _state(hub, light, "switch") == "on"
    hub.set_device_attribute(motion, "motion", "inactive")
    await _settle()
    await hub.clock.advance(seconds=4 * 60)
    await _settle()
    assert _state(hub, light, "switch") == "on"  # not before the 5 minutes
    await hub.clock.advance(seconds=70)
    await _settle()
    assert _state(hub, light, "switch") == "off"


async def test_porch_rule_does_nothing_before_sunset(
    entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator
) -> None:
    _bot, _created, light = await _create_porch(mcp, hub)
    motion = hub.find_device("Front Porch Motion")["id"]
    today = hub.clock.now().date()
    sunrise, sunset = hub.sun_times(today)
    hub.set_device_attribute(int(light), "switch", "off")
    await _at(hub, sunrise + (sunset - sunrise) / 2)  # midday
    hub.set_device_attribute(motion, "motion", "active")
    await _settle()
    await hub.clock.advance(seconds=60)
    await _settle()
    assert _state(hub, light, "switch") == "off"


async def test_what_does_it_do_and_change_its_delay(
    entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator
) -> None:
    _bot, created, _light = await _create_porch(mcp, hub)
    # "what does rule X do": one call
    ask = Assistant(mcp)
    got = await ask.rules("hub_get_rule", {"app_id": created["app_id"]})
    assert ask.calls == 1
    assert got["spec"]["conditions"] == {"between": {"from": "sunset", "to": "sunrise"}}
    assert any("Porch Light" in line for line in got["rule_text"])
    # "change its delay to 10 minutes": at most two calls (read, patch)
    change = Assistant(mcp)
    current = await change.rules("hub_get_rule", {"app_id": created["app_id"]})
    idx = next(i for i, a in enumerate(current["spec"]["actions"]) if "delay" in a)
    done = await change.rules(
        "hub_update_rule",
        {
            "app_id": created["app_id"],
            "patch": [{"op": "replace", "path": f"/actions/{idx}/delay", "value": {"minutes": 10}}],
        },
    )
    assert change.calls <= 2
    assert done["app_id"] == created["app_id"] and done["verified"] is True
    assert done["edited_in_place"] is True
    after = await mcp.ok(
        "hub_read_rules", {"tool": "hub_get_rule", "args": {"app_id": done["app_id"]}}
    )
    assert after["spec"]["actions"][idx] == {"delay": {"minutes": 10}, "cancelable": True}
    assert str(created["app_id"]) in {str(a) for a in hub.state.apps}
