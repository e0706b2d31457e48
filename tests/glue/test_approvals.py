"""Approval outside the model (issue 31): with the hub's option "Approve in Home Assistant",
a call of a covered tier does nothing until an administrator approves that exact call in Home
Assistant (Repairs, or a notification's button); the model's confirm=true is not enough.

Each test asserts what reached the emulated hub: nothing before the approval, the effect
exactly once after it."""

from __future__ import annotations

import ast
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from homeassistant.auth.models import User
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_mock_service
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools import approvals
from custom_components.hubitat_dev_tools.const import (
    DOMAIN,
    OPT_ALLOW_WRITE,
    OPT_APPROVAL_NOTIFY,
    OPT_APPROVAL_TIERS,
    OPT_APPROVE_IN_HA,
)
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.errors import (
    CONFIRM_SCOPE,
    TIERS,
    ConfirmScope,
    confirmed,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, setup_mcp_server, until
from ..helpers.approvals import approval_issues, decide, repairs_client
from ..home_util import dev_id
from ..mcp_client import Mcp

PACKAGE = Path(__file__).parents[2] / "custom_components" / "hubitat_dev_tools"
ON = {OPT_APPROVE_IN_HA: True, OPT_APPROVAL_TIERS: list(TIERS)}
GOOD_DRIVER = """metadata {
    definition(name: "Approval Relay", namespace: "t", author: "t") {
        capability "Switch"
    }
}
def on() { }
def off() { }
"""
# Requests that act (GETs that trigger something, and every non-GET).
_ACTING_GETS = ("forceDelete", "/hsm/")


def acted(hub: HubEmulator, before: int) -> list[tuple[str, str]]:
    """The requests since ``before`` that change the hub."""
    return [
        (m, p) for m, p in hub.requests[before:] if m != "GET" or any(x in p for x in _ACTING_GETS)
    ]


def runs(hub: HubEmulator, before: int) -> int:
    """Device commands sent since ``before``."""
    return sum(1 for m, p in hub.requests[before:] if m == "POST" and p == "/device/runmethod")


def issue(hass: HomeAssistant, entry: MockConfigEntry, approval_id: str) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(DOMAIN, f"approval_{entry.entry_id}_{approval_id}")


def audit_details(hass: HomeAssistant) -> list[str]:
    shared = get_domain_data(hass)
    assert shared is not None
    return [str(r.get("detail")) for r in shared.audit.recent(None)]


def audit_records(hass: HomeAssistant) -> list[dict[str, Any]]:
    shared = get_domain_data(hass)
    assert shared is not None
    return shared.audit.recent(None)


async def asked(call_tool: ToolCaller, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Call and assert the answer is approval_required; its data."""
    result = await call_tool(name, args)
    assert result.error and result.data["error"] == "approval_required", result.data
    return result.data


# ---------------------------------------------------------------------- the whole cycle


async def test_unlock_waits_for_the_owner_then_happens_once(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
    hass_admin_user: User,
) -> None:
    lock = dev_id(hub, "Front Door Lock")
    hub.set_device_attribute(int(lock), "lock", "locked")
    call = {"device_id": lock, "command": "unlock", "confirm": True}
    before = len(hub.requests)

    # the model's confirm=true alone does nothing
    data = await asked(call_tool, "hub_call_device_command", call)
    approval_id = data["approval_id"]
    assert "Front Door Lock" in data["effect"] and "unlock" in data["effect"]
    assert "confirm=true" not in data["effect"]
    assert data["tool"] == "hub_call_device_command"
    assert data["arguments"]["device_id"] == lock and "confirm" not in data["arguments"]
    expires = datetime.fromisoformat(data["expires_at"])
    assert expires.utcoffset() is not None
    assert timedelta(minutes=9) < expires - dt_util.utcnow() <= timedelta(minutes=10)
    assert 540 < data["valid_for_s"] <= 600
    assert "Repairs" in data["hint"]
    assert acted(hub, before) == []

    found = issue(hass, approving_entry, approval_id)
    assert found is not None and found.is_fixable
    assert found.severity is ir.IssueSeverity.WARNING
    assert found.translation_key == "approval"
    placeholders = found.translation_placeholders or {}
    assert placeholders["tool"] == "hub_call_device_command"
    assert "Front Door Lock" in placeholders["effect"]

    # asking again is the same pending approval, still nothing sent
    again = await asked(call_tool, "hub_call_device_command", call)
    assert again["approval_id"] == approval_id and "Still waiting" in again["message"]
    assert acted(hub, before) == []

    client = await repairs_client(hass, hass_client)
    flow = await decide(hass, client, approving_entry, approval_id)
    shown = flow["description_placeholders"]
    assert shown["tool"] == "hub_call_device_command" and lock in shown["arguments"]
    assert "Front Door Lock" in shown["effect"]
    assert issue(hass, approving_entry, approval_id) is None
    assert acted(hub, before) == []  # approving sends nothing by itself

    # another argument is another call: not covered by this approval
    changed = await asked(call_tool, "hub_call_device_command", {**call, "command": "lock"})
    assert changed["approval_id"] != approval_id
    assert acted(hub, before) == []

    # the same call (its confirm is irrelevant now) runs, once
    result = await ok(call_tool, "hub_call_device_command", {**call, "confirm": False})
    assert "unlock" in json.dumps(result)
    assert runs(hub, before) == 1
    assert hub.find_device("Front Door Lock")["attributes"]["lock"] == "unlocked"

    # single use: the next identical call needs a new approval
    third = await asked(call_tool, "hub_call_device_command", call)
    assert third["approval_id"] not in (approval_id, changed["approval_id"])
    assert runs(hub, before) == 1

    records = audit_records(hass)
    executed = [r for r in records if r["args"].get("approval_id") == approval_id]
    assert any(r["outcome"] == "ok" and r["args"].get("approved_by") for r in executed), executed
    decision = next(r for r in executed if "approval_approved" in str(r.get("detail")))
    assert decision["user_id"] == hass_admin_user.id
    assert hass_admin_user.name and hass_admin_user.name in decision["detail"]
    assert any("approval_required" in d and approval_id in d for d in audit_details(hass))


async def test_destructive_delete_needs_approval(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    hub.mark_backup_now()
    victim = dev_id(hub, "Kitchen Light")
    call = {"device_id": victim, "confirm": True}
    before = len(hub.requests)
    data = await asked(call_tool, "hub_delete_device", call)
    assert data["effect"].startswith("Delete device:"), data["effect"]
    assert "destructive" in data["effect"] and f"Kitchen Light ({victim})" in data["effect"]
    assert acted(hub, before) == []
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, approving_entry, data["approval_id"])
    await ok(call_tool, "hub_delete_device", call)
    deletes = [p for _m, p in hub.requests[before:] if "forceDelete" in p]
    assert len(deletes) == 1, deletes
    with pytest.raises(KeyError):
        hub.find_device("Kitchen Light")


async def test_no_backup_means_no_approval_request(
    hass: HomeAssistant, approving_entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The owner is not asked to approve a destructive call that would be refused anyway."""
    result = await call_tool(
        "hub_delete_device", {"device_id": dev_id(hub, "Kitchen Light"), "confirm": True}
    )
    assert result.error and result.data["error"] == "backup_required", result.data
    assert approval_issues(hass) == set()


# ---------------------------------------------------------------------- who may approve


async def test_a_non_admin_cannot_approve(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
    hass_read_only_access_token: str,
) -> None:
    lock = dev_id(hub, "Front Door Lock")
    call = {"device_id": lock, "command": "unlock"}
    data = await asked(call_tool, "hub_call_device_command", call)
    issue_id = f"approval_{approving_entry.entry_id}_{data['approval_id']}"
    assert await async_setup_component(hass, "repairs", {})
    before = len(hub.requests)

    # Home Assistant's repairs views refuse a non-admin outright
    user_client = await hass_client(hass_read_only_access_token)
    resp = await user_client.post(
        "/api/repairs/issues/fix", json={"handler": DOMAIN, "issue_id": issue_id}
    )
    assert resp.status == 401

    # and the flow checks who is acting itself: with no administrator behind it, it aborts
    manager = hass.data["repairs"]["flow_manager"]
    result = await manager.async_init(DOMAIN, context={"issue_id": issue_id})
    assert result["type"] == "abort" and result["reason"] == "not_admin", result
    assert issue(hass, approving_entry, data["approval_id"]) is not None

    # still not approved: the call still waits, nothing was sent
    again = await asked(call_tool, "hub_call_device_command", call)
    assert again["approval_id"] == data["approval_id"]
    assert acted(hub, before) == []


async def test_flow_refuses_a_context_user_who_is_not_an_admin(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_read_only_user: User,
    hass_admin_user: User,
) -> None:
    data = await asked(
        call_tool,
        "hub_call_device_command",
        {"device_id": dev_id(hub, "Front Door Lock"), "command": "unlock"},
    )
    issue_id = f"approval_{approving_entry.entry_id}_{data['approval_id']}"
    assert await async_setup_component(hass, "repairs", {})
    manager = hass.data["repairs"]["flow_manager"]
    context: Any = {"issue_id": issue_id, "user_id": hass_read_only_user.id}
    result = await manager.async_init(DOMAIN, context=context)
    assert result["type"] == "abort" and result["reason"] == "not_admin", result
    # an admin in the context may (as a websocket-started flow would carry)
    context = {"issue_id": issue_id, "user_id": hass_admin_user.id}
    result = await manager.async_init(DOMAIN, context=context)
    assert result["type"] == "menu", result
    done = await manager.async_configure(result["flow_id"], {"next_step_id": "approve"})
    assert done["type"] == "create_entry"


async def test_the_hard_gates_come_first_and_do_not_use_an_approval(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    call = {"device_id": dev_id(hub, "Front Door Lock"), "command": "unlock"}
    data = await asked(call_tool, "hub_call_device_command", call)
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, approving_entry, data["approval_id"])
    before = len(hub.requests)
    hass.config_entries.async_update_entry(approving_entry, options={**ON, OPT_ALLOW_WRITE: False})
    result = await call_tool("hub_call_device_command", call)
    assert result.error and result.data["error"] == "writes_disabled", result.data
    hass.config_entries.async_update_entry(approving_entry, options=dict(ON))
    await ok(call_tool, "hub_call_device_command", call)  # the approval was still there
    assert runs(hub, before) == 1


# ---------------------------------------------------------------------- refused approvals


async def test_an_expired_approval_sends_nothing(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lock = dev_id(hub, "Front Door Lock")
    call = {"device_id": lock, "command": "unlock"}
    data = await asked(call_tool, "hub_call_device_command", call)
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, approving_entry, data["approval_id"])
    before = len(hub.requests)
    later = dt_util.utcnow() + timedelta(minutes=11)
    monkeypatch.setattr(approvals, "now", lambda: later)
    result = await call_tool("hub_call_device_command", call)
    assert result.error and result.data["error"] == "approval_expired", result.data
    assert result.data["approval_id"] == data["approval_id"]
    assert acted(hub, before) == []
    assert any(
        "approval_expired" in d and data["approval_id"] in d and "not used" in d
        for d in audit_details(hass)
    )
    # said once; the next call asks for a new approval
    fresh = await asked(call_tool, "hub_call_device_command", call)
    assert fresh["approval_id"] != data["approval_id"]
    assert acted(hub, before) == []


async def test_an_undecided_approval_expires_with_its_issue(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(approvals, "VALIDITY_S", 0.3)
    call = {"device_id": dev_id(hub, "Front Door Lock"), "command": "unlock"}
    data = await asked(call_tool, "hub_call_device_command", call)
    assert issue(hass, approving_entry, data["approval_id"]) is not None
    await until(lambda: issue(hass, approving_entry, data["approval_id"]) is None, what="expiry")
    before = len(hub.requests)
    result = await call_tool("hub_call_device_command", call)
    assert result.error and result.data["error"] == "approval_expired", result.data
    assert acted(hub, before) == []
    assert any("approval_expired" in d and "not decided" in d for d in audit_details(hass))


async def test_a_denied_call_stays_refused(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
    hass_admin_user: User,
) -> None:
    call = {"device_id": dev_id(hub, "Front Door Lock"), "command": "unlock", "confirm": True}
    data = await asked(call_tool, "hub_call_device_command", call)
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, approving_entry, data["approval_id"], "deny")
    assert issue(hass, approving_entry, data["approval_id"]) is None
    before = len(hub.requests)
    for _ in range(2):
        result = await call_tool("hub_call_device_command", call)
        assert result.error and result.data["error"] == "approval_denied", result.data
    assert acted(hub, before) == []
    assert approval_issues(hass) == set()  # a denied call does not ask the owner again
    denied = [d for d in audit_details(hass) if d.startswith("approval_denied")]
    assert denied and hass_admin_user.name and hass_admin_user.name in denied[0]


# ---------------------------------------------------------------------- tiers and options


@pytest.mark.parametrize("tier", TIERS)
async def test_each_tier_is_held_for_approval(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller, tier: str
) -> None:
    entry = await add_entry(
        hass, hub, options={OPT_APPROVE_IN_HA: True, OPT_APPROVAL_TIERS: [tier]}
    )
    hub.mark_backup_now()
    calls = {
        "sensitive": (
            "hub_call_device_command",
            {"device_id": dev_id(hub, "Front Door Lock"), "command": "unlock"},
        ),
        "safety": ("hub_set_hsm", {"command": "armAway"}),
        "code": ("hub_install_code", {"type": "driver", "source": GOOD_DRIVER}),
        "destructive": ("hub_delete_device", {"device_id": dev_id(hub, "Kitchen Light")}),
    }
    before = len(hub.requests)
    name, args = calls[tier]
    data = await asked(call_tool, name, {**args, "confirm": True})
    assert acted(hub, before) == []
    store = hass.data[approvals._DATA][entry.entry_id]
    held = store.get(data["approval_id"])
    assert held is not None and held.tier == tier
    if tier != "sensitive":  # not covered here: the model's own confirm still decides it
        name, args = calls["sensitive"]
        result = await call_tool(name, args)
        assert result.error and result.data["error"] == "confirmation_required", result.data


async def test_uncovered_tier_keeps_the_model_confirm(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub, options={OPT_APPROVE_IN_HA: True, OPT_APPROVAL_TIERS: ["code"]})
    lock = dev_id(hub, "Front Door Lock")
    refused = await call_tool("hub_call_device_command", {"device_id": lock, "command": "unlock"})
    assert refused.error and refused.data["error"] == "confirmation_required"
    before = len(hub.requests)
    await ok(call_tool, "hub_call_device_command", {"device_id": lock, "command": "unlock",
                                                     "confirm": True})  # fmt: skip
    assert runs(hub, before) == 1
    assert approval_issues(hass) == set()


def test_a_covered_tier_is_not_passed_by_the_model_in_a_mixed_call() -> None:
    """A call that meets an uncovered gate first and a covered one after cannot slip through
    the covered one on the model's confirm (why gates ask ``confirmed`` per tier)."""
    token = CONFIRM_SCOPE.set(ConfirmScope(frozenset({"code"}), model_confirm=True))
    try:
        # the call runs with confirm forced false; the gates decide by tier
        assert confirmed(False, "destructive") is True  # uncovered: the model's confirm
        assert confirmed(False, "code") is False  # covered: only an approval
        assert confirmed(True, "code") is True  # approved (confirm forced true)
    finally:
        CONFIRM_SCOPE.reset(token)
    assert confirmed(None, "code") is False and confirmed(True, "code") is True


async def test_option_off_changes_nothing(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = dev_id(hub, "Front Door Lock")
    refused = await call_tool("hub_call_device_command", {"device_id": lock, "command": "unlock"})
    assert refused.error and refused.data["error"] == "confirmation_required"
    before = len(hub.requests)
    await ok(call_tool, "hub_call_device_command", {"device_id": lock, "command": "unlock",
                                                     "confirm": True})  # fmt: skip
    assert runs(hub, before) == 1
    assert approval_issues(hass) == set()
    assert approvals._DATA not in hass.data or entry.entry_id not in hass.data[approvals._DATA]


async def test_options_form_offers_the_approval(
    hass: HomeAssistant, entry: MockConfigEntry
) -> None:
    result = await hass.config_entries.options.async_init(entry.entry_id)
    schema = result["data_schema"]
    assert schema is not None
    fields = {str(k): k for k in schema.schema}
    assert fields[OPT_APPROVE_IN_HA].default() is False  # off for a new install
    assert set(fields[OPT_APPROVAL_TIERS].default()) == set(TIERS)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {OPT_APPROVE_IN_HA: True, OPT_APPROVAL_NOTIFY: "notify.nope"}
    )
    assert result["type"] == "form" and result["errors"] == {
        OPT_APPROVAL_NOTIFY: "notify_not_found"
    }
    async_mock_service(hass, "notify", "mobile_app_phone")
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {
            OPT_APPROVE_IN_HA: True,
            OPT_APPROVAL_TIERS: ["sensitive", "safety"],
            OPT_APPROVAL_NOTIFY: "notify.mobile_app_phone",
        },
    )
    assert result["type"] == "create_entry"
    assert entry.options[OPT_APPROVE_IN_HA] is True
    assert entry.options[OPT_APPROVAL_TIERS] == ["sensitive", "safety"]
    assert entry.options[OPT_APPROVAL_NOTIFY] == "mobile_app_phone"


# ---------------------------------------------------------------------- notifications


async def test_notification_and_its_buttons(
    hass: HomeAssistant,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_admin_user: User,
    hass_read_only_user: User,
) -> None:
    sent = async_mock_service(hass, "notify", "mobile_app_phone")
    entry = await add_entry(hass, hub, options={**ON, OPT_APPROVAL_NOTIFY: "mobile_app_phone"})
    call = {"device_id": dev_id(hub, "Front Door Lock"), "command": "unlock"}
    data = await asked(call_tool, "hub_call_device_command", call)
    await hass.async_block_till_done()
    assert len(sent) == 1
    note = sent[0].data
    assert "Front Door Lock" in note["message"] and "Repairs" in note["message"]
    actions = {a["action"] for a in note["data"]["actions"]}
    approve = f"HDT_APPROVE_{data['approval_id']}"
    assert actions == {approve, f"HDT_DENY_{data['approval_id']}"}

    # a button pressed on a non-admin's phone does nothing
    hass.bus.async_fire(
        "mobile_app_notification_action",
        {"action": approve},
        context=Context(user_id=hass_read_only_user.id),
    )
    await hass.async_block_till_done()
    assert issue(hass, entry, data["approval_id"]) is not None
    before = len(hub.requests)
    again = await asked(call_tool, "hub_call_device_command", call)
    assert again["approval_id"] == data["approval_id"] and acted(hub, before) == []

    hass.bus.async_fire(
        "mobile_app_notification_action",
        {"action": approve},
        context=Context(user_id=hass_admin_user.id),
    )
    await hass.async_block_till_done()
    assert issue(hass, entry, data["approval_id"]) is None
    await ok(call_tool, "hub_call_device_command", call)
    assert runs(hub, before) == 1
    assert any("notification action" in d for d in audit_details(hass))


async def test_unload_drops_pending_approvals(
    hass: HomeAssistant, approving_entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    call = {"device_id": dev_id(hub, "Front Door Lock"), "command": "unlock"}
    await asked(call_tool, "hub_call_device_command", call)
    assert approval_issues(hass)
    assert await hass.config_entries.async_unload(approving_entry.entry_id)
    assert approval_issues(hass) == set()


# ---------------------------------------------------------------------- the real mcp_server


async def test_whole_flow_through_mcp_server(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    hass_client: ClientSessionGenerator,
) -> None:
    await setup_mcp_server(hass)
    hass.config_entries.async_update_entry(entry, options=dict(ON))
    client = await repairs_client(hass, hass_client)
    mcp = Mcp(client)
    lock = dev_id(hub, "Front Door Lock")
    call = {"device_id": lock, "command": "unlock", "confirm": True}
    before = len(hub.requests)

    is_error, data = await mcp.call("hub_call_device_command", call)
    assert is_error and data["error"] == "approval_required", data
    assert acted(hub, before) == []
    await decide(hass, client, entry, data["approval_id"])
    is_error, result = await mcp.call("hub_call_device_command", call)
    assert not is_error, result
    assert runs(hub, before) == 1
    is_error, again = await mcp.call("hub_call_device_command", call)
    assert is_error and again["error"] == "approval_required"
    assert again["approval_id"] != data["approval_id"]

    # a destructive tool through its gateway: the same key, the same single use
    hub.mark_backup_now()
    victim = dev_id(hub, "Kitchen Light")
    gateway = {"tool": "hub_delete_device", "args": {"device_id": victim, "confirm": True}}
    is_error, held = await mcp.call("hub_manage_devices", gateway)
    assert is_error and held["error"] == "approval_required", held
    assert held["tool"] == "hub_delete_device"
    assert not [p for _m, p in hub.requests[before:] if "forceDelete" in p]
    await decide(hass, client, entry, held["approval_id"])
    # the same call made directly is the same call (tool and arguments)
    is_error, done = await mcp.call("hub_manage_devices", gateway)
    assert not is_error, done
    assert len([p for _m, p in hub.requests[before:] if "forceDelete" in p]) == 1


# ---------------------------------------------------------------------- every gate has a tier


def _confirmation_raises() -> list[tuple[str, int, bool]]:
    """(file, line, has tier=) of every ToolError(...) whose code can be
    confirmation_required."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ToolError"):
                continue
            code = next((k.value for k in node.keywords if k.arg == "code"), None)
            if code is None or "confirmation_required" not in ast.unparse(code):
                continue
            tier = any(k.arg == "tier" for k in node.keywords)
            out.append((f"{path.relative_to(PACKAGE)}", node.lineno, tier))
    return out


def test_every_confirmation_refusal_names_its_tier() -> None:
    found = _confirmation_raises()
    assert len(found) >= 9, found  # the gates listed in SECURITY.md
    assert [f for f in found if not f[2]] == []


async def test_the_owner_sees_the_values_a_settings_change_would_set(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    """A hostile review's finding: the fix flow showed every settings value redacted, so the
    owner approved "change something" without seeing what."""
    args = {"app_id": "142", "settings": {"origLabel": "Planted value"}, "confirm": True}
    data = await asked(call_tool, "hub_update_app_settings", args)
    client = await repairs_client(hass, hass_client)
    flow = await decide(hass, client, approving_entry, data["approval_id"])
    assert "Planted value" in flow["description_placeholders"]["arguments"]


async def test_a_user_app_instance_is_the_code_tier(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A new instance of user app code runs that code: with only the code tier covered, the
    owner approves it; the model's confirm is not enough."""
    await add_entry(hass, hub, options={OPT_APPROVE_IN_HA: True, OPT_APPROVAL_TIERS: ["code"]})
    apps = set(hub.state.apps)
    args = {"app_type": "Motion Announcer", "name": "Porch announcer", "confirm": True}
    data = await asked(call_tool, "hub_create_app", args)
    assert "user app code" in data["effect"]
    assert set(hub.state.apps) == apps
