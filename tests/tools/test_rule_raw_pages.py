"""A rule's pages walked raw (what the spec does not cover), as the on-hub server's walker
does: hub_get_app reads a page, hub_update_app_settings writes its inputs and presses its
wizard buttons with their stateAttribute."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..home_util import dev_id
from .test_rule_authoring import porch_spec


async def _step(call_tool: ToolCaller, app_id: str, page: str, **args: Any) -> dict[str, Any]:
    result = await call_tool("hub_update_app_settings", {"app_id": app_id, "page": page, **args})
    assert not result.error, result.data
    data: dict[str, Any] = result.data
    return data


def _inputs(answer: dict[str, Any]) -> list[str]:
    return [
        str(i["name"]) for sec in answer["config_page"]["sections"] for i in sec.get("inputs", [])
    ]


async def test_a_trigger_is_added_and_removed_through_the_raw_pages(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    made = await call_tool("hub_create_rule", {"rule": porch_spec(hub)})
    assert not made.error, made.data
    app_id = str(made.data["app_id"])
    light = dev_id(hub, "Office Light")

    # without its stateAttribute the button opens nothing
    bare = await _step(call_tool, app_id, "selectTriggers", press="true")
    assert not [n for n in _inputs(bare) if n.startswith("tCapab")]
    opened = await _step(
        call_tool, app_id, "selectTriggers", press="true", state_attribute="moreCond"
    )
    assert opened["state_attribute"] == "moreCond"
    n = next(x[6:] for x in _inputs(opened) if x.startswith("tCapab"))
    for name, value in ((f"tCapab{n}", "Switch"), (f"tDev{n}", [light]), (f"tstate{n}", "on")):
        await _step(call_tool, app_id, "selectTriggers", settings={name: value})
    await _step(call_tool, app_id, "selectTriggers", press="hasAll")
    await _step(call_tool, app_id, "mainPage", press="updateRule")
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert {"device_id": light, "attribute": "switch", "is": "on"} in got["spec"]["triggers"]

    # the trigger's delete: the bare click with deleteCon, then the page's submit (press)
    await _step(call_tool, app_id, "selectTriggers", press=n, state_attribute="deleteCon")
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["spec"]["triggers"] == porch_spec(hub)["triggers"]


async def test_a_state_attribute_without_a_press_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    made = await call_tool("hub_create_rule", {"rule": porch_spec(hub)})
    before = len(hub.requests)
    refused = await call_tool(
        "hub_update_app_settings",
        {"app_id": str(made.data["app_id"]), "state_attribute": "moreCond"},
    )
    assert refused.error and "state_attribute goes with press" in refused.data["message"]
    assert [r for r in hub.requests[before:] if r[0] == "POST"] == []


async def test_a_linked_sub_page_is_opened_with_its_links_params(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    made = await call_tool("hub_create_rule", {"rule": porch_spec(hub)})
    app_id = str(made.data["app_id"])
    opened = await _step(
        call_tool, app_id, "selectTriggers", press="true", state_attribute="moreCond"
    )
    n = next(x[6:] for x in _inputs(opened) if x.startswith("tCapab"))
    await _step(call_tool, app_id, "selectTriggers", settings={f"tCapab{n}": "Periodic Schedule"})
    missing = await call_tool(
        "hub_update_app_settings", {"app_id": app_id, "page": "mainPage", "sub_page": "periodic"}
    )
    assert missing.error and "links to no page 'periodic'" in missing.data["message"]
    sub = await _step(call_tool, app_id, "selectTriggers", sub_page="periodic")
    assert sub["opened"] == "periodic" and sub["config_page"]["page"] == "periodic"
    assert sub["config_page"]["error"] is None, sub["config_page"]
    assert _inputs(sub), sub["config_page"]  # the Periodic Schedule's own fields
