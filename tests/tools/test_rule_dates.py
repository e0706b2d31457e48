"""The "Between two dates" condition: written in the settings a live hub's rules store
(``startDateType``/``monthStart``/``dayStart``/``timeStart`` and the end's), read back equal
to the spec, shown in the rule text, and run by the emulated rule (across New Year too)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import HUB_TZ

from ..conftest import ToolCaller
from ..home_util import dev_id


def _spec(hub: HubEmulator, dates: dict[str, str], **extra: Any) -> dict[str, Any]:
    button, light = dev_id(hub, "Bedside Button"), dev_id(hub, "Office Light")
    return {
        "name": "Holiday lights",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "conditions": {"dates": dates, **extra},
        "actions": [{"command": "on", "device_ids": [light]}],
    }


async def _pressed_at(hub: HubEmulator, when: datetime) -> str:
    light, button = dev_id(hub, "Office Light"), dev_id(hub, "Bedside Button")
    hub.run_command(int(light), "off", [])
    hub.clock.set(when)
    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    return str(hub.device(int(light))["attributes"]["switch"])


async def test_a_between_dates_condition_is_built_read_back_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    spec = _spec(hub, {"from": "12-20", "to": "1-5"})  # across New Year; 1-5 is 01-05
    made = await call_tool("hub_create_rule", {"rule": spec})
    assert not made.error, made.data
    app_id = str(made.data["app_id"])
    assert "Required Expression" in made.data["rule_text"]
    assert any("Between December 20 and January 5" in t for t in made.data["rule_text"])
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["undecompiled"] == []
    assert got["spec"]["conditions"] == {"dates": {"from": "12-20", "to": "01-05"}}
    settings = hub.rule_machine.rules[int(app_id)].settings
    c = next(k[7:] for k, v in settings.items() if v == "Between two dates")
    assert (settings[f"startDateType{c}"], settings[f"monthStart{c}"]) == ("mm-dd", "12")
    assert (settings[f"dayEnd{c}"], settings.get(f"timeStart{c}")) == ("5", None)

    assert await _pressed_at(hub, datetime(2026, 12, 24, 20, 0, tzinfo=HUB_TZ)) == "on"
    assert await _pressed_at(hub, datetime(2027, 1, 5, 23, 0, tzinfo=HUB_TZ)) == "on"
    assert await _pressed_at(hub, datetime(2027, 1, 6, 0, 30, tzinfo=HUB_TZ)) == "off"
    assert await _pressed_at(hub, datetime(2027, 7, 4, 12, 0, tzinfo=HUB_TZ)) == "off"


async def test_dates_with_times_and_not(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    spec = _spec(hub, {"from": "10-31 15:00", "to": "10-31 23:00"})
    spec["conditions"] = {"not": spec["conditions"]}
    made = await call_tool("hub_create_rule", {"rule": spec})
    assert not made.error, made.data
    got = (await call_tool("hub_get_rule", {"app_id": str(made.data["app_id"])})).data
    assert got["spec"]["conditions"] == {
        "not": {"dates": {"from": "10-31 15:00", "to": "10-31 23:00"}}
    }
    assert any(
        "NOT Between October 31 at 15:00 and October 31 at 23:00" in t for t in got["rule_text"]
    )
    assert await _pressed_at(hub, datetime(2026, 10, 31, 16, 0, tzinfo=HUB_TZ)) == "off"
    assert await _pressed_at(hub, datetime(2026, 10, 31, 12, 0, tzinfo=HUB_TZ)) == "on"


@pytest.mark.parametrize(
    ("dates", "where"),
    [
        ({"from": "13-01", "to": "12-31"}, "dates.from"),
        ({"from": "02-30", "to": "03-01"}, "dates.from"),
        ({"from": "12-20", "to": "12-25 24:00"}, "dates.to"),
        ({"from": "December 20", "to": "12-25"}, "dates.from"),
        ({"from": "12-20"}, "dates.to"),
    ],
)
async def test_bad_dates_are_refused_naming_the_part(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    dates: dict[str, str],
    where: str,
) -> None:
    refused = await call_tool("hub_create_rule", {"rule": _spec(hub, dates)})
    assert refused.data["error"] == "invalid_request", refused.data
    assert where in refused.data["message"], refused.data
