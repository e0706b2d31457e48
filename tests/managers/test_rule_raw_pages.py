"""A rule's pages walked raw (what the spec does not cover), as the on-hub server's walker does,
through the settings editor (``managers/apps/settings.py``, ``hub.app_settings``) on its own,
no hass: a rule made by rule authoring (``hub.rule_authoring``) gets a trigger added through its
Select Triggers page (a wizard button pressed with its stateAttribute opens the new trigger's
inputs, a bare press opens nothing), read back by rule authoring, and removed by the trigger's
delete click; a linked sub-page is opened with its link's params, and one the page does not
link to is refused.

Moved from tests/tools/test_rule_raw_pages.py (the tool's own argument refusal, a
state_attribute without a press, and the tools' summaries of a walk stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.rule_authoring import porch_spec
from ..home_util import dev_id


async def _made(authoring: Hub, emu: HubEmulator) -> str:
    """The porch rule, built as hub_create_rule builds it (no device allowlist)."""
    made = await authoring.rule_authoring.create(
        porch_spec(emu), confirm=False, validate_only=False
    )
    return str(made["app_id"])


async def _step(authoring: Hub, app_id: str, page: str | None, **args: Any) -> dict[str, Any]:
    """One walk step as hub_update_app_settings makes it (no device allowlist)."""
    return await authoring.app_settings.update_settings(
        app_id,
        page=page,
        settings=args.pop("settings", {}),
        press=args.pop("press", None),
        device_allowed=lambda _id: True,
        **args,
    )


def _inputs(answer: dict[str, Any]) -> list[str]:
    return [
        str(i["name"]) for sec in answer["config_page"]["sections"] for i in sec.get("inputs", [])
    ]


async def test_a_trigger_is_added_and_removed_through_the_raw_pages(
    emu: HubEmulator, authoring: Hub
) -> None:
    app_id = await _made(authoring, emu)
    light = dev_id(emu, "Office Light")

    # without its stateAttribute the button opens nothing
    bare = await _step(authoring, app_id, "selectTriggers", press="true")
    assert not [n for n in _inputs(bare) if n.startswith("tCapab")]
    opened = await _step(
        authoring, app_id, "selectTriggers", press="true", state_attribute="moreCond"
    )
    assert opened["state_attribute"] == "moreCond" and opened["pressed"] == "true"
    n = next(x[6:] for x in _inputs(opened) if x.startswith("tCapab"))
    for name, value in ((f"tCapab{n}", "Switch"), (f"tDev{n}", [light]), (f"tstate{n}", "on")):
        step = await _step(authoring, app_id, "selectTriggers", settings={name: value})
        assert name in step["applied"], step
    assert emu.rule_machine.rules[int(app_id)].settings[f"tCapab{n}"] == "Switch"
    await _step(authoring, app_id, "selectTriggers", press="hasAll")
    await _step(authoring, app_id, "mainPage", press="updateRule")
    got = await authoring.rule_authoring.get(app_id)
    assert {"device_id": light, "attribute": "switch", "is": "on"} in got["spec"]["triggers"]

    # the trigger's delete: the bare click with deleteCon, then the page's submit (press)
    await _step(authoring, app_id, "selectTriggers", press=n, state_attribute="deleteCon")
    got = await authoring.rule_authoring.get(app_id)
    assert got["spec"]["triggers"] == porch_spec(emu)["triggers"]
    assert f"tCapab{n}" not in emu.rule_machine.rules[int(app_id)].settings


async def test_a_linked_sub_page_is_opened_with_its_links_params(
    emu: HubEmulator, authoring: Hub
) -> None:
    app_id = await _made(authoring, emu)
    opened = await _step(
        authoring, app_id, "selectTriggers", press="true", state_attribute="moreCond"
    )
    n = next(x[6:] for x in _inputs(opened) if x.startswith("tCapab"))
    await _step(authoring, app_id, "selectTriggers", settings={f"tCapab{n}": "Periodic Schedule"})
    before = len(emu.requests)
    with pytest.raises(ToolError) as missing:
        await _step(authoring, app_id, "mainPage", sub_page="periodic")
    assert "links to no page 'periodic'" in str(missing.value)
    assert [r for r in emu.requests[before:] if r[0] == "POST"] == []
    sub = await _step(authoring, app_id, "selectTriggers", sub_page="periodic")
    assert sub["opened"] == "periodic" and sub["config_page"]["page"] == "periodic"
    assert sub["config_page"]["error"] is None, sub["config_page"]
    assert _inputs(sub), sub["config_page"]  # the Periodic Schedule's own fields
