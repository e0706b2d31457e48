"""Hostile review of the write paths added with the newer rule shapes, the private boolean
setter, Button Rules and in-place rule edits: each reaches a sensitive effect only with the
gate the same effect has on its other paths, and the allowlist covers every device a new
field names."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..home_util import dev_id
from .hostile_effects_util import changes_since, set_options


def _motion(hub: HubEmulator) -> dict[str, Any]:
    return {"device_id": dev_id(hub, "Office Motion"), "attribute": "motion", "is": "active"}


async def test_per_mode_actions_on_a_lock_scenes_activator_need_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    activator = dev_id(hub, "Lock Up Activator")
    for action in (
        {"choose_per_mode": {"Night": {"on": [activator]}}},
        {"switch_per_mode": {"Night": "on"}, "device_ids": [activator]},
    ):
        spec = {"name": "per mode", "triggers": [_motion(hub)], "actions": [action]}
        before = len(hub.requests)
        data = await refused(call_tool, "hub_create_rule", {"rule": spec}, "confirmation_required")
        assert "Lock Up" in data["message"], data
        assert changes_since(hub, before) == []


async def test_new_fields_naming_a_device_outside_the_allowlist_are_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, outside = dev_id(hub, "Office Light"), dev_id(hub, "Guest Lamp")
    sensor, other = dev_id(hub, "Dining Room Sensor"), dev_id(hub, "Guest Room Sensor")
    motion = dev_id(hub, "Office Motion")
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: [light, motion, sensor]})
    trig = {"device_id": motion, "attribute": "motion", "is": "active"}
    cases: list[dict[str, Any]] = [
        {"triggers": [trig], "actions": [{"choose_per_mode": {"Day": {"on": [outside]}}}]},
        {"triggers": [trig], "actions": [{"stop_level_change": [outside]}]},
        {
            "triggers": [trig],
            "conditions": {
                "device_id": sensor,
                "attribute": "temperature",
                "op": "gt",
                "compare_to": {"device_id": other},
            },
            "actions": [{"command": "on", "device_ids": [light]}],
        },
        {
            "triggers": [
                {
                    **trig,
                    "only_if": {"device_id": outside, "attribute": "switch", "is": "on"},
                }
            ],
            "actions": [{"command": "on", "device_ids": [light]}],
        },
        {
            "triggers": [trig],
            "local_variables": [{"name": "t", "type": "bigdecimal", "value": 0}],
            "actions": [
                {
                    "set_variable": "t",
                    "from_device": {"device_id": other, "attribute": "temperature"},
                }
            ],
        },
    ]
    for case in cases:
        before = len(hub.requests)
        await refused(
            call_tool, "hub_create_rule", {"rule": {"name": "x", **case}}, "device_not_allowed"
        )
        assert changes_since(hub, before) == [], case


async def test_a_read_hides_devices_outside_the_allowlist_in_new_fields(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, outside = dev_id(hub, "Office Light"), dev_id(hub, "Guest Lamp")
    sensor, other = dev_id(hub, "Dining Room Sensor"), dev_id(hub, "Guest Room Sensor")
    motion = dev_id(hub, "Office Motion")
    spec = {
        "name": "reads",
        "triggers": [
            {
                "device_id": motion,
                "attribute": "motion",
                "is": "active",
                "only_if": {"device_id": outside, "attribute": "switch", "is": "on"},
            }
        ],
        "conditions": {
            "device_id": sensor,
            "attribute": "temperature",
            "op": "gt",
            "compare_to": {"device_id": other},
        },
        "local_variables": [{"name": "t", "type": "bigdecimal", "value": 0}],
        "actions": [
            {"choose_per_mode": {"Day": {"on": [outside], "off": [light]}}},
            {"stop_level_change": [outside, light]},
            {"fade_level": 10, "minutes": 5, "direction": "lower", "device_ids": [outside]},
            {"set_variable": "t", "from_device": {"device_id": other, "attribute": "temperature"}},
        ],
    }
    made = await ok(call_tool, "hub_create_rule", {"rule": spec})
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: [light, motion, sensor]})
    got = await ok(call_tool, "hub_get_rule", {"app_id": str(made["app_id"])})
    import json

    text = json.dumps(got)
    for dev in (outside, other):
        assert f'"{dev}"' not in text and f" {dev}," not in text and f"[{dev}" not in text, text
    assert "Guest Lamp" not in text and "Guest Room Sensor" not in text, text


async def test_an_audit_record_naming_an_outside_device_in_a_new_field_is_screened(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, outside = dev_id(hub, "Office Light"), dev_id(hub, "Guest Lamp")
    motion = dev_id(hub, "Office Motion")
    for action in (
        {"choose_per_mode": {"Day": {"on": [outside]}}},
        {"stop_level_change": [outside]},
    ):
        spec = {
            "name": "audited",
            "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
            "actions": [action],
        }
        await ok(call_tool, "hub_create_rule", {"rule": spec, "validate_only": True})
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: [light, motion]})
    got = await ok(call_tool, "hub_list_audit_entries", {"tool": "hub_create_rule"})
    import json
    import re

    for record in got["entries"]:
        # the record's own id and times are digits too: the device id is looked for as a
        # whole number (inside them, "104" is no device)
        text = json.dumps({k: v for k, v in record.items() if k not in ("id", "time", "ended")})
        assert not re.search(rf"(?<!\d){outside}(?!\d)", text), text
        assert "Guest Lamp" not in text, text


async def _sensitive_unknown_action(hub: HubEmulator, call_tool: ToolCaller) -> str:
    """A rule (nothing sensitive in what the spec reads) given, through the rule's own pages
    as the hub UI sends them, an action the decoder does not know: Set Private Boolean of
    this rule and of Goodnight (which commands the locks) -- read as a placeholder."""
    import aiohttp

    from hubitat_emulator.seed_specs import RULE_GOODNIGHT

    from ..rm_util import Wizard

    spec = {
        "name": "Hall helper",
        "triggers": [_motion(hub)],
        "actions": [{"log": "hello"}],
    }
    app_id = str((await ok(call_tool, "hub_create_rule", {"rule": spec}))["app_id"])
    async with aiohttp.ClientSession(base_url=hub.url) as session:
        w = Wizard(session, int(app_id))
        await w.add_action(
            "rulesActs",
            "getSetPrivateBoolean",
            ("pvRuleType.<N>", "Rule Machine"),
            ("pvTF.<N>", False),
            ("privateT.<N>", ["*", str(RULE_GOODNIGHT)]),
        )
        await w.click(None, "updateRule")
    read = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert set(read["spec"]["actions"][1]) == {"unknown"}, read
    return app_id


async def test_an_update_keeping_an_unknown_sensitive_action_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _sensitive_unknown_action(hub, call_tool)
    # setting that rule's private boolean directly needs confirm: the rule reaches the locks
    await refused(
        call_tool,
        "hub_update_app_settings",
        {"app_id": app_id, "press": "runRuleAct"},
        "confirmation_required",
    )
    # re-triggering it (a trigger the caller controls) through an update: same gate
    switch = dev_id(hub, "Vacation Mode")
    patch = [
        {
            "op": "replace",
            "path": "/triggers/0",
            "value": {"device_id": switch, "attribute": "switch", "is": "on"},
        }
    ]
    before = len(hub.requests)
    data = await refused(
        call_tool,
        "hub_update_rule",
        {"app_id": app_id, "patch": patch},
        "confirmation_required",
    )
    assert "Goodnight" in data["message"], data
    assert changes_since(hub, before) == []
    await ok(call_tool, "hub_update_rule", {"app_id": app_id, "patch": patch, "confirm": True})


async def test_resuming_a_paused_rule_through_an_update_is_gated_as_resuming_it(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _sensitive_unknown_action(hub, call_tool)
    await ok(call_tool, "hub_set_rule_paused", {"app_id": app_id, "paused": True})
    await refused(
        call_tool,
        "hub_set_rule_paused",
        {"app_id": app_id, "paused": False},
        "confirmation_required",
    )
    before = len(hub.requests)
    await refused(
        call_tool,
        "hub_update_rule",
        {"app_id": app_id, "patch": [{"op": "add", "path": "/paused", "value": False}]},
        "confirmation_required",
    )
    assert changes_since(hub, before) == []
    rule = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert rule["paused"] is True


async def test_a_restore_source_urls_credentials_stay_out_of_the_audit_trail(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    url = "https://bob:hunter2pw@example.com/b.lzf?token=sekrit42&x=1"
    args = {"location": "uploaded", "source_url": url}
    before = len(hub.requests)
    await refused(call_tool, "hub_restore_backup", args, "confirmation_required")
    assert changes_since(hub, before) == []
    import json

    got = await ok(call_tool, "hub_list_audit_entries", {"tool": "hub_restore_backup"})
    text = json.dumps(got)
    assert got["entries"] and "example.com" in text, text
    assert "hunter2pw" not in text and "sekrit42" not in text, text


async def test_a_patch_naming_an_outside_device_as_a_bare_id_in_a_new_field_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, outside = dev_id(hub, "Office Light"), dev_id(hub, "Guest Lamp")
    sensor, other = dev_id(hub, "Dining Room Sensor"), dev_id(hub, "Guest Room Sensor")
    motion = dev_id(hub, "Office Motion")
    spec = {
        "name": "patched",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "local_variables": [{"name": "t", "type": "bigdecimal", "value": 0}],
        "actions": [
            {"choose_per_mode": {"Day": {"on": [light]}}},
            {"set_variable": "t", "from_device": {"device_id": sensor, "attribute": "temperature"}},
        ],
    }
    app_id = str((await ok(call_tool, "hub_create_rule", {"rule": spec}))["app_id"])
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: [light, motion, sensor]})
    for patch in (
        [{"op": "replace", "path": "/actions/0/choose_per_mode/Day/on/0", "value": outside}],
        [{"op": "replace", "path": "/actions/1/from_device/device_id", "value": other}],
    ):
        before = len(hub.requests)
        await refused(
            call_tool,
            "hub_update_rule",
            {"app_id": app_id, "patch": patch, "validate_only": True},
            "device_not_allowed",
        )
        assert changes_since(hub, before) == []


async def test_a_redacted_secret_cannot_be_moved_to_where_a_read_shows_it(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    secret = "Zq9sEcReT7tok3nValue"
    url = f"https://maker.example.com/apps/api/5/devices?access_token={secret}"
    spec = {
        "name": "Caller",
        "triggers": [_motion(hub)],
        "actions": [{"http_get": url}],
    }
    app_id = str(
        (await ok(call_tool, "hub_create_rule", {"rule": spec, "confirm": True}))["app_id"]
    )
    read = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    shown = read["spec"]["actions"][0]["http_get"]
    assert secret not in shown, shown
    moved = {
        **read["spec"],
        "local_variables": [{"name": "leak", "type": "string", "value": shown}],
        "actions": [*read["spec"]["actions"], {"log": shown}],
    }
    result = await call_tool("hub_update_rule", {"app_id": app_id, "rule": moved, "confirm": True})
    import json

    assert secret not in json.dumps(result.data), result.data
    assert result.error and "redacted" in result.data["message"], result.data
    after = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert secret not in json.dumps(after), after
    model = hub.rule_machine.rules[int(app_id)]
    stored = json.dumps(model.settings, default=str)
    # the secret stays where the owner put it, nowhere else
    assert stored.count(secret) <= 1, stored


async def test_private_boolean_of_a_rule_reaching_outside_devices_is_refused_before_a_helper(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from hubitat_emulator.seed_specs import RULE_GOODNIGHT

    light = dev_id(hub, "Office Light")
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: [light]})
    apps, before = set(hub.state.apps), len(hub.requests)
    args = {"app_id": str(RULE_GOODNIGHT), "value": True, "confirm": True}
    await refused(call_tool, "hub_set_rule_private_boolean", args, "device_not_allowed")
    assert changes_since(hub, before) == [] and set(hub.state.apps) == apps


async def test_a_patch_naming_an_outside_device_in_a_nested_comparison_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, motion = dev_id(hub, "Office Light"), dev_id(hub, "Office Motion")
    sensor, other = dev_id(hub, "Dining Room Sensor"), dev_id(hub, "Basement Sensor")
    spec = {
        "name": "nested",
        "triggers": [
            {
                "device_id": motion,
                "attribute": "motion",
                "is": "active",
                "only_if": {"device_id": light, "attribute": "switch", "is": "on"},
            }
        ],
        "actions": [
            {
                "wait_until": {
                    "device_id": sensor,
                    "attribute": "temperature",
                    "op": "gt",
                    "compare_to": {"device_id": dev_id(hub, "Guest Room Sensor")},
                }
            },
            {"command": "on", "device_ids": [light]},
        ],
    }
    app_id = str((await ok(call_tool, "hub_create_rule", {"rule": spec}))["app_id"])
    set_options(
        hass,
        entry,
        **{OPT_ALLOWED_DEVICES: [light, motion, sensor, dev_id(hub, "Guest Room Sensor")]},
    )
    for patch in (
        [{"op": "replace", "path": "/actions/0/wait_until/compare_to/device_id", "value": other}],
        [{"op": "replace", "path": "/triggers/0/only_if/device_id", "value": other}],
    ):
        before = len(hub.requests)
        await refused(
            call_tool,
            "hub_update_rule",
            {"app_id": app_id, "patch": patch, "validate_only": True},
            "device_not_allowed",
        )
        assert changes_since(hub, before) == []


async def test_a_rule_naming_an_outside_device_cannot_be_updated_from_its_screened_read(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, outside = dev_id(hub, "Office Light"), dev_id(hub, "Guest Lamp")
    motion = dev_id(hub, "Office Motion")
    for action in (
        {"command": "on", "device_ids": [outside, light]},
        {"stop_level_change": [outside, light]},
    ):
        set_options(hass, entry, **{OPT_ALLOWED_DEVICES: []})
        spec = {
            "name": "owner's",
            "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
            "actions": [action],
        }
        app_id = str((await ok(call_tool, "hub_create_rule", {"rule": spec}))["app_id"])
        set_options(hass, entry, **{OPT_ALLOWED_DEVICES: [light, motion]})
        read = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
        given = {**read["spec"], "actions": [*read["spec"]["actions"], {"log": "x"}]}
        before = len(hub.requests)
        await refused(
            call_tool, "hub_update_rule", {"app_id": app_id, "rule": given}, "device_not_allowed"
        )
        assert changes_since(hub, before) == []


async def test_resuming_a_lock_triggered_rule_through_an_update_is_gated_as_resuming_it(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock, light = dev_id(hub, "Front Door Lock"), dev_id(hub, "Office Light")
    spec = {
        "name": "Unlocked light",
        "triggers": [{"device_id": lock, "attribute": "lock", "is": "unlocked"}],
        "actions": [{"command": "on", "device_ids": [light]}],
        "paused": True,
    }
    app_id = str((await ok(call_tool, "hub_create_rule", {"rule": spec}))["app_id"])
    resume = {"app_id": app_id, "paused": False}
    await refused(call_tool, "hub_set_rule_paused", resume, "confirmation_required")
    before = len(hub.requests)
    await refused(
        call_tool,
        "hub_update_rule",
        {"app_id": app_id, "patch": [{"op": "add", "path": "/paused", "value": False}]},
        "confirmation_required",
    )
    assert changes_since(hub, before) == []
    done = await ok(
        call_tool,
        "hub_update_rule",
        {
            "app_id": app_id,
            "patch": [{"op": "add", "path": "/paused", "value": False}],
            "confirm": True,
        },
    )
    assert done["paused"] is False, done
