"""Rule authoring (``managers/automation/``, ``hub.rule_authoring``) on its own, no hass: a
rule's HTTP Get, HTTP Post and Ping actions checked, gated on confirm, built through the
emulated rule's pages and run by the emulated rule, the hub keeping and sending their secrets
(URL tokens, POST body passwords) whole. The texts the manager makes never hold a secret (a
refusal, a dry run's rule text and plan, a build's answer, a read's rule text, the app's page,
the item backups an update takes); a read's spec holds them whole, for an update to put back:
a spec read, shown redacted (as the tools show it) and given again loses nothing, and a
redacted value that cannot be told apart or is not the rule's own is refused.

Moved from tests/tools/test_rule_http_actions.py (the tools' part stays there: every answer
redacted as the model sees it, the spec hub_get_rule shows, the audit trail keeping no
secret)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.redact import REDACTED, redact
from hubitat_emulator import HubEmulator

from ..helpers.rule_http_actions import (
    BODY,
    GET_URL,
    POST_URL,
    TOKEN,
    WEBHOOK_KEY,
    _no_secret,
    _spec,
)
from ..home_util import dev_id


def _error_text(err: ToolError) -> dict[str, Any]:
    """All a refusal carries: its message, hint and facts."""
    return {"message": str(err), "hint": err.hint, "extra": err.extra}


async def _create(manager_hub: Hub, spec: dict[str, Any], *, confirm: bool) -> dict[str, Any]:
    return await manager_hub.rule_authoring.create(spec, confirm=confirm, validate_only=False)


async def _update(manager_hub: Hub, app_id: str, **kw: Any) -> dict[str, Any]:
    """The update as hub_update_rule asks it with confirm=true (no device allowlist)."""
    return await manager_hub.rule_authoring.update(
        app_id, kw.get("rule"), kw.get("patch"), confirm=True, validate_only=False
    )


async def test_http_and_ping_actions_are_built_run_and_never_shown_whole(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    button = dev_id(emu, "Bedside Button")
    spec = _spec(button)
    with pytest.raises(ToolError) as unconfirmed:
        await _create(manager_hub, spec, confirm=False)
    assert unconfirmed.value.code == "confirmation_required", unconfirmed.value
    assert "HTTP GET to 192.168.1.50" in str(unconfirmed.value)
    assert "HTTP POST to maker.ifttt.com" in str(unconfirmed.value)
    _no_secret(_error_text(unconfirmed.value))

    # the manager redacts the texts it makes; the spec it answers is redacted by the tools
    dry = await manager_hub.rule_authoring.create(spec, confirm=True, validate_only=True)
    assert dry["valid"] and dry["sent"] is False
    _no_secret([dry["rule_text"], dry["plan"]])
    assert "Send HTTP Get: http://192.168.1.50/apps/api/7/devices/3/on?access_token=" in (
        " ".join(dry["rule_text"])
    )

    made = await _create(manager_hub, spec, confirm=True)
    _no_secret(made)
    app_id = str(made["app_id"])
    # the hub keeps them whole
    settings = json.dumps(emu.rule_machine.rules[int(app_id)].settings)
    assert TOKEN in settings and WEBHOOK_KEY in settings and "hunter2pw" in settings
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [], got
    _no_secret([got["rule_text"], got["undecompiled"], got["broken_markers"]])
    # the read spec holds them whole (what an update restores), and reads redacted as the
    # tools show it
    assert got["spec"]["actions"] == spec["actions"]
    shown = redact(got["spec"])["actions"]
    assert shown[0]["http_get"] == (
        "http://192.168.1.50/apps/api/7/devices/3/on?access_token=**REDACTED**"
    )
    assert shown[1]["http_post"] == "https://maker.ifttt.com/trigger/door/with/key/**REDACTED**"
    assert shown[1]["body"] == '{"value1": "%device% %value%", "password": "**REDACTED**"}'
    assert shown[1]["content_type"] == "application/json"
    assert shown[2] == {"ping": "192.168.1.20"}
    page = await manager_hub.apps.get_app(app_id, None, include_state=True)
    assert page["settings"]
    _no_secret(page)

    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    sent = [c for c in emu.outbound if c["rule"] == app_id]
    assert [(c["method"], c["to"]) for c in sent] == [
        ("GET", GET_URL),
        ("POST", POST_URL),
        ("PING", "192.168.1.20"),
    ]
    assert sent[1]["body"] == BODY and sent[1]["content_type"] == "application/json"


async def test_a_spec_read_back_and_given_again_keeps_its_secrets(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    button = dev_id(emu, "Bedside Button")
    made = await _create(manager_hub, _spec(button), confirm=True)
    # the spec as hub_get_rule shows it: its secrets redacted
    shown = redact((await manager_hub.rule_authoring.get(str(made["app_id"])))["spec"])
    assert REDACTED in json.dumps(shown)
    edited = {**shown, "actions": [*shown["actions"], {"log": "told"}]}
    updated = await _update(manager_hub, str(made["app_id"]), rule=edited)
    _no_secret(updated)
    new_id = str(updated["app_id"])

    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    sent = [(c["to"], c.get("body")) for c in emu.outbound if c["rule"] == new_id]
    assert sent == [(GET_URL, None), (POST_URL, BODY), ("192.168.1.20", None)]

    # a JSON Patch's new URL is stored whole, and not answered
    patched = f"http://192.168.1.50/apps/api/7/devices/4/on?access_token={TOKEN}"
    patch = [{"op": "replace", "path": "/actions/0/http_get", "value": patched}]
    again = await _update(manager_hub, new_id, patch=patch)
    _no_secret(again)
    assert patched in json.dumps(emu.rule_machine.rules[int(new_id)].settings)
    # nor in the item backups the updates took (File Manager files, readable on the LAN)
    backups = [n for n in emu.files.names() if n.startswith("hdt-backup_installedapp-")]
    assert len(backups) >= 2
    for name in backups:
        _no_secret((emu.files.read(name) or b"").decode())

    # two URLs that read the same once redacted: which is which cannot be told, refused
    twin = {**edited, "actions": [{"http_get": GET_URL}, {"http_get": GET_URL[:-1] + "b"}]}
    made2 = await _create(manager_hub, twin, confirm=True)
    read2 = redact((await manager_hub.rule_authoring.get(str(made2["app_id"])))["spec"])
    # (the read spec given back whole is the rule as it is: that much is told apart)
    changed2 = {**read2, "actions": [*read2["actions"], {"log": "x"}]}
    with pytest.raises(ToolError) as same:
        await _update(manager_hub, str(made2["app_id"]), rule=changed2)
    assert same.value.code == "invalid_request" and "read the same" in str(same.value)

    # a redacted value that is not the rule's own cannot be restored: refused, not stored
    foreign = {**edited, "actions": [{"http_get": "http://h/x?token=**REDACTED**"}]}
    before = json.dumps(emu.rule_machine.rules[int(new_id)].settings)
    with pytest.raises(ToolError) as refused:
        await _update(manager_hub, new_id, rule=foreign)
    assert refused.value.code == "invalid_request", refused.value
    assert "redacted" in str(refused.value)
    assert json.dumps(emu.rule_machine.rules[int(new_id)].settings) == before


@pytest.mark.parametrize(
    ("action", "where"),
    [
        ({"http_get": "ftp://192.168.1.5/file"}, "actions[0].http_get"),
        ({"http_get": "http:///nohost"}, "actions[0].http_get"),
        ({"http_get": "http://h/a b"}, "actions[0].http_get"),
        ({"http_post": "http://h/hook"}, "actions[0].body"),
        ({"http_post": "http://h/hook", "body": "x", "content_type": "json"}, "content_type"),
        ({"http_post": "http://h/hook", "body": "x", "headers": {}}, "unknown key"),
        ({"ping": "printer.local"}, "actions[0].ping"),
        ({"http_get": "http://h/x?key=**REDACTED**"}, "redacted"),
    ],
)
async def test_bad_http_and_ping_actions_are_refused_before_anything_is_sent(
    emu: HubEmulator, manager_hub: Hub, action: dict[str, Any], where: str
) -> None:
    button = dev_id(emu, "Bedside Button")
    spec = {**_spec(button), "actions": [action]}
    before = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await _create(manager_hub, spec, confirm=True)
    assert refused.value.code == "invalid_request", refused.value
    assert where in str(refused.value), refused.value
    assert not [p for _m, p in emu.requests[before:] if "createchild" in p]
