"""Rules built on the emulated hub's Rule Machine pages through the tools: their own part, their
answers. A wide rule is created (its summary) and read back through hub_get_rule as its spec; a
build the pages refuse and an update that cannot be built are error results saying the partial
rule was removed and the rule put back; a patch cannot bring in a device outside the device
allowlist from the integration's options. ``wide_spec`` and the read-back check are
tests/helpers/rule_authoring_e2e.py's.

The building, reading back, cleaning up (a refused or cancelled build, an update put back or
naming its backup), the number attribute check and local variables (made, read back, checked,
patched in) are tested without hass in tests/managers/test_rule_authoring_e2e.py."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..helpers.rule_authoring import porch_spec
from ..helpers.rule_authoring_e2e import _rule_ids, assert_reads_back, wide_spec
from ..home_util import dev_id


async def test_a_wide_rule_is_built_and_reads_back_as_its_spec(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    spec = wide_spec(hub)
    made = await ok(call_tool, "hub_create_rule", {"rule": spec})
    app_id = made["app_id"]
    assert made["summary"] == f"Created rule {app_id} (Office evening)", made
    assert_reads_back(await ok(call_tool, "hub_get_rule", {"app_id": app_id}), spec)


async def test_a_failed_build_or_update_is_an_error_result(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = _rule_ids(hub)
    hub.rule_machine.hidden_fields = [r"delayMinute\.\d+"]  # this "firmware" has no such field
    data = await refused(call_tool, "hub_create_rule", {"rule": porch_spec(hub)})
    assert "rule.actions[3].delay" in data["message"] and "was removed" in data["message"]
    assert _rule_ids(hub) == before
    hub.rule_machine.hidden_fields = []

    app_id = (await ok(call_tool, "hub_create_rule", {"rule": porch_spec(hub)}))["app_id"]
    hub.rule_machine.hidden_fields = [r"logmsg\.\d+"]  # only the new action needs it
    patch = [{"op": "add", "path": "/actions/-", "value": {"log": "x"}}]
    data = await refused(call_tool, "hub_update_rule", {"app_id": app_id, "patch": patch})
    hub.rule_machine.hidden_fields = []
    assert f"The rule (app {app_id}) was put back as it was" in data["message"], data
    assert (await ok(call_tool, "hub_get_rule", {"app_id": app_id}))["paused"] is False


async def test_a_patch_cannot_bring_in_a_device_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
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
