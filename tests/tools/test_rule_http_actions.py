"""The tools' part of a rule's HTTP Get, HTTP Post and Ping actions: what the model sees is
never shown with the secrets (URL tokens, POST body passwords) the hub keeps whole; the
confirmation refusal, the dry run, the build, hub_get_rule's spec (redacted in place), the
app's page through hub_get_app and hub_update_rule's answer, and the audit trail of the
creates and updates (a JSON Patch's new URL included); a spec read back through hub_get_rule
and given again loses nothing, and one whose redacted parts cannot be put back is refused.

The authoring itself (the checks and their refusals, the build, the run sending the secrets
whole, the manager's texts and the item backups keeping none, the secrets put back on an
update) is tested without hass in tests/managers/test_rule_http_actions.py."""

from __future__ import annotations

import json

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..helpers.rule_http_actions import GET_URL, TOKEN, WEBHOOK_KEY, _no_secret, _spec
from ..home_util import dev_id


async def test_http_and_ping_actions_are_never_shown_whole(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button = dev_id(hub, "Bedside Button")
    spec = _spec(button)
    unconfirmed = await call_tool("hub_create_rule", {"rule": spec})
    assert unconfirmed.data["error"] == "confirmation_required", unconfirmed.data
    assert "HTTP GET to 192.168.1.50" in unconfirmed.data["message"]
    assert "HTTP POST to maker.ifttt.com" in unconfirmed.data["message"]
    _no_secret(unconfirmed.data)

    dry = await call_tool("hub_create_rule", {"rule": spec, "validate_only": True, "confirm": True})
    assert dry.data["valid"] and dry.data["sent"] is False
    _no_secret(dry.data)

    made = await call_tool("hub_create_rule", {"rule": spec, "confirm": True})
    assert not made.error, made.data
    _no_secret(made.data)
    app_id = str(made.data["app_id"])
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert got.data["undecompiled"] == [], got.data
    _no_secret(got.data)
    shown = got.data["spec"]["actions"]
    assert shown[0]["http_get"] == (
        "http://192.168.1.50/apps/api/7/devices/3/on?access_token=**REDACTED**"
    )
    assert shown[1]["http_post"] == "https://maker.ifttt.com/trigger/door/with/key/**REDACTED**"
    assert shown[1]["body"] == '{"value1": "%device% %value%", "password": "**REDACTED**"}'
    assert shown[1]["content_type"] == "application/json"
    assert shown[2] == {"ping": "192.168.1.20"}
    page = await call_tool("hub_get_app", {"app_id": app_id, "include_state": True})
    assert not page.error, page.data
    _no_secret(page.data)

    shared = get_domain_data(hass)
    assert shared is not None
    _no_secret([r for r in shared.audit.recent(None) if r["tool"] == "hub_create_rule"])


async def test_a_spec_read_back_and_given_again_keeps_its_secrets(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button = dev_id(hub, "Bedside Button")
    made = await call_tool("hub_create_rule", {"rule": _spec(button), "confirm": True})
    assert not made.error, made.data
    got = await call_tool("hub_get_rule", {"app_id": str(made.data["app_id"])})
    edited = {**got.data["spec"], "actions": [*got.data["spec"]["actions"], {"log": "told"}]}
    updated = await call_tool(
        "hub_update_rule",
        {"app_id": str(made.data["app_id"]), "rule": edited, "confirm": True},
    )
    assert not updated.error, updated.data
    _no_secret(updated.data)
    new_id = str(updated.data["app_id"])

    # the secrets put back whole on the hub
    settings = json.dumps(hub.rule_machine.rules[int(new_id)].settings)
    assert TOKEN in settings and WEBHOOK_KEY in settings and "hunter2pw" in settings

    # a JSON Patch's new URL is not kept in the audit trail either
    patched = f"http://192.168.1.50/apps/api/7/devices/4/on?access_token={TOKEN}"
    patch = [{"op": "replace", "path": "/actions/0/http_get", "value": patched}]
    again = await call_tool("hub_update_rule", {"app_id": new_id, "patch": patch, "confirm": True})
    assert not again.error, again.data
    shared = get_domain_data(hass)
    assert shared is not None
    _no_secret([r for r in shared.audit.recent(None) if r["tool"] == "hub_update_rule"])
    _no_secret(again.data)

    # two URLs that read the same once redacted: which is which cannot be told, refused
    twin = {**edited, "actions": [{"http_get": GET_URL}, {"http_get": GET_URL[:-1] + "b"}]}
    made2 = await call_tool("hub_create_rule", {"rule": twin, "confirm": True})
    assert not made2.error, made2.data
    read2 = (await call_tool("hub_get_rule", {"app_id": str(made2.data["app_id"])})).data
    # (the read spec given back whole is the rule as it is: that much is told apart)
    changed2 = {**read2["spec"], "actions": [*read2["spec"]["actions"], {"log": "x"}]}
    same = await call_tool(
        "hub_update_rule",
        {"app_id": str(made2.data["app_id"]), "rule": changed2, "confirm": True},
    )
    assert same.data["error"] == "invalid_request" and "read the same" in same.data["message"]

    # a redacted value that is not the rule's own cannot be restored: refused, not stored
    foreign = {**edited, "actions": [{"http_get": "http://h/x?token=**REDACTED**"}]}
    refused = await call_tool(
        "hub_update_rule", {"app_id": new_id, "rule": foreign, "confirm": True}
    )
    assert refused.data["error"] == "invalid_request", refused.data
    assert "redacted" in refused.data["message"]
