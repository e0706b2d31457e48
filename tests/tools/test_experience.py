"""The assistant's experience: answers that let a model recover in one more call."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..home_util import dev_id


async def test_wrong_arguments_answer_the_input_schema(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_set_rule_paused", {"app_id": "140"})  # paused missing
    assert result.error and result.data["error"] == "invalid_arguments", result.data
    schema = result.data["input_schema"]
    assert schema["type"] == "object"
    assert "paused" in schema["properties"] and "paused" in schema.get("required", [])
    assert "input_schema" in result.data["hint"]


async def test_what_changed_in_one_call(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    import asyncio

    light = dev_id(hub, "Porch Light")
    hub.set_device_attribute(int(light), "switch", "off")
    done = await call_tool("hub_call_device_command", {"device_id": light, "command": "on"})
    assert not done.error, done.data
    await asyncio.sleep(0.05)
    target = "Night" if hub.current_mode != "Night" else "Evening"  # a change from now
    hub.set_mode(target)
    await call_tool("hub_create_backup", {})
    result = await call_tool("hub_list_changes", {"hours_back": 1})
    assert not result.error, result.data
    changes = result.data["changes"]
    ours = [c for c in changes if c.get("device_id") == light and c.get("name") == "switch"]
    assert ours and ours[0]["value"] == "on" and ours[0]["by"]["tool"] == "hub_call_device_command"
    assert any(c["kind"] == "mode" and c["value"] == target for c in changes)
    assert any(c["kind"] == "assistant" and c["name"] == "hub_create_backup" for c in changes)
    from datetime import datetime

    dates = [datetime.fromisoformat(c["date"]) for c in changes]
    assert dates == sorted(dates, reverse=True)
    assert len({c["date"][-6:] for c in changes}) == 1  # one offset: the hub's


async def test_a_seeded_rule_page_agrees_with_its_text(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    import json

    from hubitat_emulator.seed_specs import RULE_MOTION

    internals = hub.state.dev.internals[RULE_MOTION]
    text = " ".join(internals.paragraphs)
    by_name = {i["name"]: i for i in internals.inputs}
    for dev in by_name["tDev0"]["deviceIdsForDeviceList"]:
        assert str(hub.state.devices[dev].label) in text
    assert by_name["tDev0"]["deviceIdsForDeviceList"]  # the text names a trigger device
    for mode in json.loads(by_name["modesRestrict"]["value"]):
        assert mode in text


async def test_gateways_name_each_tools_required_arguments(
    hass: HomeAssistant, entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.tools.surface import (
        gateway_groups,
        registry,
        required_args,
    )

    for gateway, tools in gateway_groups(registry().values()).items():
        text = gateway_description_of(gateway)
        for tool in tools:
            args = required_args(tool)
            short = tool.name.removeprefix("hub_")
            if args:
                assert f"{short}({','.join(args)})" in text, (gateway, tool.name)
    # the short name the description uses is accepted by the gateway
    result = await call_tool("hub_read_rules", {"tool": "get_rule", "args": {"app_id": "140"}})
    assert not result.error, result.data


def gateway_description_of(name: str) -> str:
    from custom_components.hubitat_dev_tools.tools.surface import (
        gateway_description,
        gateway_groups,
        registry,
    )

    return gateway_description(gateway_groups(registry().values())[name])


async def test_the_catalog_section_lists_every_tool(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.tools.surface import registry

    result = await call_tool("hub_get_tool_guide", {"section": "catalog"})
    assert not result.error, result.data
    text = result.data["text"]
    missing = [n for n in registry() if n not in text and n != "hub_search_tools"]
    assert missing == []
    assert "hub_create_rule (write, via hub_manage_rules)" in text


async def test_cached_answers_say_how_fresh_they_are(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    for tool in ("hub_list_modes", "hub_get_hsm_status"):
        result = await call_tool(tool, {})
        assert not result.error, result.data
        fresh = result.data["freshness"]
        assert fresh["source"] in ("hub", "live_cache") and "age_s" in fresh, (tool, fresh)


async def test_whats_going_on_at_home_in_one_call(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    window = hub.find_device("Living Room Window")["id"]
    hub.set_device_attribute(window, "contact", "open")
    lamp = hub.find_device("Living Room Lamp")["id"]
    hub.set_device_attribute(lamp, "switch", "on")
    result = await call_tool("hub_get_home_summary", {})
    assert not result.error, result.data
    data = result.data
    assert "Living Room Window" in data["open"]
    assert "Living Room Lamp" in data["lights_on"]["Living Room"]
    assert data["mode"] == hub.current_mode and data["hsm"]["status"] == hub.hsm_status
    assert all(b["battery"] < 20 for b in data["low_batteries"])
    assert data["lights_on_count"] == sum(len(v) for v in data["lights_on"].values())
    import json

    assert len(json.dumps(data)) < 4000  # small enough for a small model
