"""Rules built on the emulated hub's Rule Machine pages, read back, changed and cleaned up."""

from __future__ import annotations

import contextlib
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..home_util import dev_id


def wide_spec(hub: HubEmulator) -> dict[str, Any]:
    office_motion = dev_id(hub, "Office Motion")
    office_light = dev_id(hub, "Office Light")
    office_door = dev_id(hub, "Office Door")
    sensor = dev_id(hub, "Dining Room Sensor")
    button = dev_id(hub, "Bedside Button")
    return {
        "name": "Office evening",
        "triggers": [
            {"device_id": office_motion, "attribute": "motion", "is": "active"},
            {
                "device_id": sensor,
                "attribute": "temperature",
                "op": "gt",
                "value": 78,
                "stays_for": {"minutes": 10},
            },
            {"time": "22:30"},
            {"sun": "sunset", "offset_minutes": -15},
            {"every": {"minutes": 15}},
            {"mode": ["Night"]},
            {"variable": "guestCount", "op": "gte", "value": 3},
            {"button_device_id": button, "button": 2, "event": "held"},
        ],
        "conditions": {
            "all": [
                {"mode": ["Evening", "Night"]},
                {"not": {"device_id": office_door, "attribute": "contact", "is": "open"}},
            ]
        },
        "actions": [
            {
                "if": {"device_id": office_light, "attribute": "switch", "is": "off"},
                "then": [{"command": "setLevel", "device_ids": [office_light], "arguments": [40]}],
                "else": [
                    {
                        "command": "off",
                        "device_ids": [office_light],
                        "delay": {"minutes": 2},
                        "cancelable": True,
                    }
                ],
            },
            {"set_mode": "Evening"},
            {"set_variable": "guestCount", "value": 0},
            {"log": "office evening ran"},
            {"notify": "Office evening started", "device_ids": [dev_id(hub, "Family Phone")]},
            {"run_rule": ["140"]},
        ],
        "logging": ["events", "actions"],
    }


async def test_a_wide_rule_is_built_and_reads_back_as_its_spec(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    spec = wide_spec(hub)
    result = await call_tool("hub_create_rule", {"rule": spec})
    assert not result.error, result.data
    app_id = result.data["app_id"]
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [], got.data["undecompiled"]
    back = got.data["spec"]
    assert back["triggers"] == spec["triggers"]
    assert back["conditions"] == spec["conditions"]
    assert back["actions"] == spec["actions"]
    assert got.data["paused"] is False


def _rule_ids(hub: HubEmulator) -> set[int]:
    return {a.id for a in hub.home.state.apps.values() if a.type == "Rule-5.1"}


async def test_a_build_the_pages_refuse_leaves_nothing_behind(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from .test_rule_authoring import porch_spec

    before = _rule_ids(hub)
    hub.rule_machine.hidden_fields = [r"delayMinute\.\d+"]  # this "firmware" has no such field
    result = await call_tool("hub_create_rule", {"rule": porch_spec(hub)})
    assert result.error, result.data
    message = result.data["message"]
    assert "rule.actions[3].delay" in message and "delayMinute" in message
    assert "was removed" in message
    assert _rule_ids(hub) == before  # the partial rule is gone


async def test_a_cancelled_build_is_removed(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    import asyncio

    from .test_rule_authoring import porch_spec

    before = _rule_ids(hub)
    hub.faults.delay_paths = {"/installedapp/update/json": 0.05}
    task = asyncio.ensure_future(call_tool("hub_create_rule", {"rule": porch_spec(hub)}))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if _rule_ids(hub) - before:
            break
    await asyncio.sleep(0.1)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    hub.faults.delay_paths = {}
    for _ in range(100):
        if _rule_ids(hub) == before:
            break
        await asyncio.sleep(0.02)
    assert _rule_ids(hub) == before


async def test_a_patch_cannot_bring_in_a_device_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES

    from .test_rule_authoring import porch_spec

    spec = porch_spec(hub)
    created = await call_tool("hub_create_rule", {"rule": spec})
    assert not created.error, created.data
    allowed = [spec["triggers"][0]["device_id"], spec["actions"][1]["device_ids"][0]]
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: allowed})
    other = dev_id(hub, "Kitchen Light")
    result = await call_tool(
        "hub_update_rule",
        {
            "app_id": created.data["app_id"],
            "patch": [{"op": "replace", "path": "/actions/1/device_ids", "value": [other]}],
        },
    )
    assert result.error and result.data["error"] == "device_not_allowed", result.data
    assert created.data["app_id"] in {str(i) for i in _rule_ids(hub)}  # untouched


async def test_an_update_that_cannot_be_built_puts_the_rule_back_as_it_was(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from .test_rule_authoring import porch_spec

    created = await call_tool("hub_create_rule", {"rule": porch_spec(hub)})
    assert not created.error, created.data
    app_id = created.data["app_id"]
    before = _rule_ids(hub)
    was = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    hub.rule_machine.hidden_fields = [r"logmsg\.\d+"]  # only the new action needs it
    result = await call_tool(
        "hub_update_rule",
        {"app_id": app_id, "patch": [{"op": "add", "path": "/actions/-", "value": {"log": "x"}}]},
    )
    hub.rule_machine.hidden_fields = []
    assert result.error, result.data
    assert f"The rule (app {app_id}) was put back as it was" in result.data["message"]
    assert _rule_ids(hub) == before
    still = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert still["spec"] == was["spec"] and still["paused"] is False
    assert still["undecompiled"] == []


async def test_an_update_whose_put_back_fails_names_the_backup_that_brings_it_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from .test_rule_authoring import porch_spec

    created = await call_tool("hub_create_rule", {"rule": porch_spec(hub)})
    assert not created.error, created.data
    app_id = created.data["app_id"]
    hub.rule_machine.hidden_fields = [r"delayMinute\.\d+"]  # the old rule needs it too
    result = await call_tool(
        "hub_update_rule",
        {
            "app_id": app_id,
            "patch": [{"op": "replace", "path": "/actions/3/delay", "value": {"minutes": 10}}],
        },
    )
    hub.rule_machine.hidden_fields = []
    assert result.error, result.data
    message = result.data["message"]
    assert f"The rule (app {app_id}) could not be put back as it was" in message
    assert "item backup hdt-backup_installedapp-" in message, message
    assert (await call_tool("hub_get_rule", {"app_id": app_id})).data["paused"] is True


async def test_a_number_attribute_is_not_compared_with_text(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from .test_rule_authoring import porch_spec

    sensor = dev_id(hub, "Dining Room Sensor")
    rule = {
        **porch_spec(hub),
        "triggers": [{"device_id": sensor, "attribute": "temperature", "op": "eq", "value": "hot"}],
    }
    result = await call_tool("hub_create_rule", {"rule": rule, "validate_only": True})
    assert result.error and "is a number" in result.data["message"], result.data


async def test_local_variables_are_made_on_the_actions_page_and_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    spec: dict[str, Any] = {
        "name": "Count office visits",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "local_variables": [
            {"name": "visits", "type": "integer", "value": "0"},
            {"name": "lastNote", "type": "string", "value": "none"},
            {"name": "armed", "type": "boolean", "value": True},
        ],
        "conditions": {"variable": "armed", "op": "eq", "value": "true"},
        "actions": [{"set_variable": "visits", "value": 1}],
    }
    result = await call_tool("hub_create_rule", {"rule": spec})
    assert not result.error, result.data
    app_id = int(result.data["app_id"])
    model = hub.rule_machine.rules[app_id]
    assert model.local.variables == {
        "visits": {"type": "integer", "value": 0},
        "lastNote": {"type": "string", "value": "none"},
        "armed": {"type": "boolean", "value": True},
    }
    assert model.settings["xVarV.1"] == "visits"
    got = await call_tool("hub_get_rule", {"app_id": str(app_id)})
    assert not got.error, got.data
    assert got.data["spec"]["local_variables"] == [
        {"name": "armed", "type": "boolean", "value": True},
        {"name": "lastNote", "type": "string", "value": "none"},
        {"name": "visits", "type": "integer", "value": 0},
    ]
    # the clicks and writes are the ones the on-hub server's live probe makes
    clicks = [c for c in hub.state.dev.clicks if c.get("name") == "moreVar"]
    assert len(clicks) == 3 and all(c.get("stateAttribute") == "moreVar" for c in clicks)


async def test_local_variables_are_checked_before_anything_is_sent(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    base: dict[str, Any] = {
        "name": "Bad locals",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"log": "x"}],
    }
    before = {a.id for a in hub.home.state.apps.values()}
    cases: list[tuple[Any, str]] = [
        ([{"name": "1st", "type": "integer", "value": 1}], "start with a letter"),
        ([{"name": "a", "type": "date", "value": "x"}], "must be one of"),
        ([{"name": "a", "type": "datetime", "value": "x"}], "UTC offset"),
        ([{"name": "a", "type": "integer", "value": 1.5}], "whole number"),
        ([{"name": "a", "type": "bigdecimal", "value": "nan"}], "finite"),
        ([{"name": "a", "type": "integer", "value": True}], "not true/false"),
        ([{"name": "a", "type": "boolean", "value": "yes"}], "true or false"),
        ([{"name": "a", "type": "string"}], "start value"),
        (
            [
                {"name": "a", "type": "string", "value": "x"},
                {"name": "A", "type": "string", "value": "y"},
            ],
            "given twice",
        ),
        ([{"name": "guestCount", "type": "integer", "value": 1}], "also a hub variable"),
    ]
    for locals_, words in cases:
        result = await call_tool("hub_create_rule", {"rule": {**base, "local_variables": locals_}})
        assert result.error and words in result.data["message"], (locals_, result.data)
    trig = await call_tool(
        "hub_create_rule",
        {
            "rule": {
                **base,
                "triggers": [{"variable": "n", "op": "gt", "value": 1}],
                "local_variables": [{"name": "n", "type": "integer", "value": 0}],
            }
        },
    )
    assert trig.error and "does not trigger" in trig.data["message"]
    assert {a.id for a in hub.home.state.apps.values()} == before


async def test_a_patch_adds_a_local_variable_and_the_rebuilt_rule_has_it(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    spec: dict[str, Any] = {
        "name": "Office counter",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "local_variables": [{"name": "visits", "type": "integer", "value": 0}],
        "actions": [{"set_variable": "visits", "value": 1}],
    }
    made = await call_tool("hub_create_rule", {"rule": spec})
    assert not made.error, made.data
    patch = [
        {
            "op": "add",
            "path": "/local_variables/-",
            "value": {"name": "limit", "type": "bigdecimal", "value": "2.5"},
        },
        {"op": "replace", "path": "/actions/0/set_variable", "value": "limit"},
    ]
    updated = await call_tool("hub_update_rule", {"app_id": made.data["app_id"], "patch": patch})
    assert not updated.error, updated.data
    assert updated.data["edited_in_place"] is True, updated.data
    assert updated.data["app_id"] == made.data["app_id"]
    got = await call_tool("hub_get_rule", {"app_id": updated.data["app_id"]})
    assert got.data["spec"]["local_variables"] == [
        {"name": "limit", "type": "bigdecimal", "value": 2.5},
        {"name": "visits", "type": "integer", "value": 0},
    ]
    assert got.data["spec"]["actions"] == [{"set_variable": "limit", "value": 1}]
