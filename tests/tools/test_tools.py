"""Every tool directly through the real llm.API, against the emulated hub."""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import (
    OPT_ALLOW_READ,
    OPT_ALLOW_WRITE,
    OPT_DISABLED_TOOLS,
)
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller


def runmethods(hub: HubEmulator) -> list[str]:
    return [p for m, p in hub.requests if p.startswith("/device/runmethod")]


async def find(call_tool: ToolCaller, **flt: Any) -> dict[str, Any]:
    result = await call_tool("hub_list_devices", flt)
    assert not result.error, result.data
    assert result.data["devices"], flt
    device: dict[str, Any] = result.data["devices"][0]
    return device


async def test_get_info(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    result = await call_tool("hub_get_info")
    assert not result.error, result.data
    assert result.data["hub_uid"] == hub.hub_uid
    assert result.data["name"] == hub.hub_name
    assert result.data["firmware"]
    assert result.data["maker_api_configured"] is True
    assert isinstance(result.data["active_alerts"], list)


async def test_list_devices_one_call_answers(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    result = await call_tool("hub_list_devices")
    assert not result.error
    devices = result.data["devices"]
    assert result.data["count"] >= 40
    assert all({"device_id", "label", "room", "states"} <= d.keys() for d in devices)
    kitchen = await call_tool("hub_list_devices", {"room": "kitchen"})
    assert kitchen.data["count"] > 0
    assert all(d["room"] == "Kitchen" for d in kitchen.data["devices"])
    # text matches label, name and exact id
    first = devices[0]
    by_id = await call_tool("hub_list_devices", {"text": first["device_id"]})
    assert [d["device_id"] for d in by_id.data["devices"]] == [first["device_id"]]
    part = first["label"][:4].lower()
    by_text = await call_tool("hub_list_devices", {"text": part})
    assert first["device_id"] in [d["device_id"] for d in by_text.data["devices"]]
    switches = await call_tool("hub_list_devices", {"capability": "Switch"})
    assert switches.data["count"] > 0
    assert all("Switch" in d["capabilities"] for d in switches.data["devices"])
    limited = await call_tool("hub_list_devices", {"limit": 3})
    assert len(limited.data["devices"]) == 3
    assert "truncated" in limited.data


async def test_list_devices_bad_argument_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    result = await call_tool("hub_list_devices", {"limit": 0})
    assert result.error
    assert result.data["error"] == "invalid_arguments"
    assert "limit" in result.data["message"]
    assert len(hub.requests) == before


async def test_get_device_has_typed_commands(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    dimmer = await find(call_tool, capability="SwitchLevel")
    result = await call_tool("hub_get_device", {"device_id": dimmer["device_id"]})
    assert not result.error, result.data
    device = result.data["device"]
    set_level = next(c for c in device["commands"] if c["name"] == "setLevel")
    assert set_level["arguments"][0]["type"] == "NUMBER"
    assert any(a["name"] == "level" for a in device["attributes"])
    assert "apps_using" in device


async def test_ids_are_ascii_digits_only(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    for name, args in (
        ("hub_get_device", {"device_id": "\uff11\uff12"}),  # fullwidth 12
        ("hub_get_app", {"app_id": "\u0661\u0664\u0660"}),  # Arabic-Indic 140
    ):
        result = await call_tool(name, args)
        assert result.error and result.data["error"] == "invalid_arguments", name
    assert len(hub.requests) == before


async def test_get_device_unknown(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    result = await call_tool("hub_get_device", {"device_id": "99999"})
    assert result.error
    assert result.data["error"] == "not_found"
    assert "hub_list_devices" in result.data["hint"]


async def test_command_with_repair_changes_state(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    dimmer = await find(call_tool, capability="SwitchLevel")
    result = await call_tool(
        "hub_call_device_command",
        {"device_id": dimmer["device_id"], "command": "setLevel", "arguments": ["37"]},
    )
    assert not result.error, result.data
    assert result.data["arguments"] == [37]
    assert any("quoted number" in r for r in result.data["repairs"])
    assert hub.device(int(dimmer["device_id"]))["attributes"]["level"] in (37, "37")


async def test_command_unknown_is_refused_before_sending(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    dimmer = await find(call_tool, capability="SwitchLevel")
    result = await call_tool(
        "hub_call_device_command", {"device_id": dimmer["device_id"], "command": "setlevel"}
    )
    assert result.error
    assert "Did you mean setLevel" in result.data["message"]
    assert "setLevel(level: NUMBER" in result.data["message"]
    bad_type = await call_tool(
        "hub_call_device_command",
        {"device_id": dimmer["device_id"], "command": "setLevel", "arguments": ["bright"]},
    )
    assert bad_type.error
    assert "must be a number" in bad_type.data["message"]
    too_many = await call_tool(
        "hub_call_device_command",
        {"device_id": dimmer["device_id"], "command": "on", "arguments": [1]},
    )
    assert too_many.error
    assert runmethods(hub) == []


async def test_lock_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = await find(call_tool, capability="Lock")
    args = {"device_id": lock["device_id"], "command": "unlock"}
    refused = await call_tool("hub_call_device_command", args)
    assert refused.error
    assert refused.data["error"] == "confirmation_required"
    assert runmethods(hub) == []
    done = await call_tool("hub_call_device_command", {**args, "confirm": True})
    assert not done.error, done.data
    assert hub.device(int(lock["device_id"]))["attributes"]["lock"] == "unlocked"


async def test_list_rooms(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    result = await call_tool("hub_list_rooms")
    assert not result.error
    names = [r["name"] for r in result.data["rooms"]]
    assert "Kitchen" in names
    kitchen = next(r for r in result.data["rooms"] if r["name"] == "Kitchen")
    assert kitchen["device_count"] == len(kitchen["device_ids"]) > 0


async def test_create_backup_records_time(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_create_backup")
    assert not result.error, result.data
    assert result.data["backup"]["name"]
    evidence = await entry.runtime_data.hub.backups.destructive_evidence()
    assert evidence.backup is not None and evidence.backup.name == result.data["backup"]["name"]


async def test_non_admin_refused_everywhere(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_read_only_user: User,
) -> None:
    from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES

    before = len(hub.requests)
    for cls in TOOL_CLASSES:
        try:
            result = await call_tool(cls.name, {}, user=hass_read_only_user)
        except Exception as err:
            assert type(err).__name__ == "Unauthorized"
            continue
        assert result.error
        assert result.data["error"] in ("not_admin", "invalid_arguments")
    try:
        no_user = await call_tool("hub_get_info", user=None)
    except Exception as err:  # 2026.11+: core's requires_admin refuses first
        assert type(err).__name__ == "Unauthorized"
    else:
        assert no_user.error
        assert no_user.data["error"] == "not_admin"
    assert len(hub.requests) == before


async def test_write_master_and_disable_list(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    dimmer = await find(call_tool, capability="SwitchLevel")
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_WRITE: False})
    result = await call_tool(
        "hub_call_device_command", {"device_id": dimmer["device_id"], "command": "on"}
    )
    assert result.data["error"] == "writes_disabled"
    assert runmethods(hub) == []
    assert not (await call_tool("hub_list_rooms")).error  # reads still work
    hass.config_entries.async_update_entry(
        entry, options={OPT_ALLOW_READ: False, OPT_DISABLED_TOOLS: ["hub_create_backup"]}
    )
    assert (await call_tool("hub_list_rooms")).data["error"] == "reads_disabled"
    assert (await call_tool("hub_create_backup")).data["error"] == "tool_disabled"
    audit = get_domain_data(hass)
    assert audit is not None
    outcomes = [(r["tool"], r["outcome"]) for r in audit.audit.recent()]
    assert ("hub_call_device_command", "refused") in outcomes
    assert ("hub_create_backup", "refused") in outcomes


async def test_audit_records_user_and_redacts(
    hass: HomeAssistant, entry: MockConfigEntry, call_tool: ToolCaller, hass_admin_user: User
) -> None:
    dimmer = await find(call_tool, capability="SwitchLevel")
    await call_tool("hub_call_device_command", {"device_id": dimmer["device_id"], "command": "on"})
    data = get_domain_data(hass)
    assert data is not None
    record = data.audit.recent(1)[0]
    assert record["tool"] == "hub_call_device_command"
    assert record["outcome"] == "ok"
    assert record["user_id"] == hass_admin_user.id
    assert record["args"]["command"] == "on"
    from custom_components.hubitat_dev_tools.audit import redact_args

    assert redact_args({"password": "x", "nested": {"token": "y"}}) == {
        "password": "**REDACTED**",
        "nested": {"token": "**REDACTED**"},
    }


async def test_hub_down_gives_actionable_error(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.down = True
    result = await call_tool("hub_list_devices")
    assert result.error
    assert result.data["error"] in ("hub_unreachable", "hub_bad_response")
    assert result.data["hint"]


async def test_destructive_gate(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    import pytest

    from custom_components.hubitat_dev_tools.errors import ToolError
    from custom_components.hubitat_dev_tools.safety import check_destructive

    runtime = entry.runtime_data
    with pytest.raises(ToolError) as err:
        await check_destructive(runtime, {})
    assert err.value.code == "confirmation_required"
    with pytest.raises(ToolError) as err:  # the seeded newest backup is 30 h old
        await check_destructive(runtime, {"confirm": True})
    assert err.value.code == "backup_required"
    hub.mark_backup_now()  # a backup made on the hub itself counts too
    await check_destructive(runtime, {"confirm": True})
    assert (await runtime.hub.backups.destructive_evidence()).backup is not None
