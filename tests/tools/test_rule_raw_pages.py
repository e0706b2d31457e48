"""A rule's pages walked raw through the tools (what the spec does not cover), as the on-hub
server's walker does: the tools' own part. hub_update_app_settings answers each step with its
summary (what was set, pressed, opened) and the page after it, a sub-page the page does not
link to is an error result, a state_attribute without a press is refused by the tool with
nothing sent, and hub_get_rule reads the trigger the walk added.

The walk itself (a bare press opening nothing, the wizard button with its stateAttribute, the
trigger's inputs written and read back, its delete click, a linked sub-page opened with its
link's params) is tested without hass in tests/managers/test_rule_raw_pages.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..helpers.rule_authoring import porch_spec
from ..home_util import dev_id


async def _step(call_tool: ToolCaller, app_id: str, page: str, **args: Any) -> dict[str, Any]:
    return await ok(call_tool, "hub_update_app_settings", {"app_id": app_id, "page": page, **args})


def _inputs(answer: dict[str, Any]) -> list[str]:
    return [
        str(i["name"]) for sec in answer["config_page"]["sections"] for i in sec.get("inputs", [])
    ]


async def test_a_trigger_is_added_through_the_raw_pages(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    made = await ok(call_tool, "hub_create_rule", {"rule": porch_spec(hub)})
    app_id = str(made["app_id"])
    light = dev_id(hub, "Office Light")
    opened = await _step(
        call_tool, app_id, "selectTriggers", press="true", state_attribute="moreCond"
    )
    assert opened["summary"] == f"App {app_id} ({made['name']}), page selectTriggers: pressed true"
    assert opened["state_attribute"] == "moreCond"
    n = next(x[6:] for x in _inputs(opened) if x.startswith("tCapab"))
    for name, value in ((f"tCapab{n}", "Switch"), (f"tDev{n}", [light]), (f"tstate{n}", "on")):
        step = await _step(call_tool, app_id, "selectTriggers", settings={name: value})
        assert step["summary"].endswith("page selectTriggers: set 1 of 1"), step["summary"]
    await _step(call_tool, app_id, "selectTriggers", press="hasAll")
    await _step(call_tool, app_id, "mainPage", press="updateRule")
    got = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert {"device_id": light, "attribute": "switch", "is": "on"} in got["spec"]["triggers"]


async def test_a_state_attribute_without_a_press_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    made = await call_tool("hub_create_rule", {"rule": porch_spec(hub)})
    before = len(hub.requests)
    answer = await call_tool(
        "hub_update_app_settings",
        {"app_id": str(made.data["app_id"]), "state_attribute": "moreCond"},
    )
    assert answer.error and "state_attribute goes with press" in answer.data["message"]
    assert [r for r in hub.requests[before:] if r[0] == "POST"] == []


async def test_a_linked_sub_page_is_opened_with_its_links_params(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    made = await ok(call_tool, "hub_create_rule", {"rule": porch_spec(hub)})
    app_id = str(made["app_id"])
    opened = await _step(
        call_tool, app_id, "selectTriggers", press="true", state_attribute="moreCond"
    )
    n = next(x[6:] for x in _inputs(opened) if x.startswith("tCapab"))
    await _step(call_tool, app_id, "selectTriggers", settings={f"tCapab{n}": "Periodic Schedule"})
    missing = await refused(
        call_tool,
        "hub_update_app_settings",
        {"app_id": app_id, "page": "mainPage", "sub_page": "periodic"},
    )
    assert "links to no page 'periodic'" in missing["message"]
    sub = await _step(call_tool, app_id, "selectTriggers", sub_page="periodic")
    assert sub["summary"].endswith("page selectTriggers: opened periodic"), sub["summary"]
    assert sub["opened"] == "periodic" and sub["config_page"]["page"] == "periodic"
