"""Hostile calls against the tiers (issue 13, items 3-5), through the real mcp_server.

Each case is a finding of the issue: the call is refused (or made safe) and the emulated hub
is unchanged (its requests and its state).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import (
    OPT_ALLOW_LOCAL_CODE_URLS,
    OPT_ALLOWED_DEVICES,
)
from custom_components.hubitat_dev_tools.device_refs import device_refs, is_device_key
from hubitat_emulator import HubEmulator
from hubitat_emulator.model import Backup, Device

from ..dns_util import use_fake_dns
from ..mcp_client import Mcp

APP_HSM = "3"
APP_MODE_MANAGER = "4"
RULE_MOTION = "140"
RULE_GOODNIGHT = "142"  # "Lock: Front Door" among its actions
WRITE_PATHS = (
    "/installedapp/disable",
    "/installedapp/update",
    "/installedapp/btn",
    "/device/disable",
    "/device/update",
    "/device/forceDelete",
    "/app/saveOrUpdateJson",
    "/driver/saveOrUpdateJson",
    "/library/saveOrUpdateJson",
    "/app/ruleBuilderJson",
    "/app/createVisualRuleBuilderRule",
    "/bundle2/uploadZipFromUrl",
    "/hub2/restoreLocalBackup",
    "/hub2/deleteLocalBackup",
)


@pytest.fixture(autouse=True)
def _fake_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    use_fake_dns(monkeypatch)


# Visual Rule nodes in the builder's classic shapes (docs/visual-rules.md)
AT_SEVEN = {"triggerType": "timeOfDay", "timeOfDay": "0700"}


def turn_on(device_id: int) -> dict[str, Any]:
    return {"actionType": "turnOn", "switches": [device_id]}


def device(hub: HubEmulator, label: str) -> Device:
    return next(d for d in hub.state.devices.values() if d.label == label)


def writes_since(hub: HubEmulator, before: int) -> list[tuple[str, str]]:
    """Requests since ``before`` that change something on the hub."""
    return [(m, p) for m, p in hub.requests[before:] if p.startswith(WRITE_PATHS)]


async def refused(mcp: Mcp, name: str, args: dict[str, Any], code: str) -> dict[str, Any]:
    is_error, data = await mcp.call(name, args)
    assert is_error, data
    assert isinstance(data, dict) and data["error"] == code, data
    return data


async def ok(mcp: Mcp, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    is_error, data = await mcp.call(name, args or {})
    assert not is_error, data
    assert isinstance(data, dict)
    return data


async def delete_refused_for_backup(mcp: Mcp, hub: HubEmulator) -> str:
    """hub_delete_device (confirmed) is refused with backup_required; the device stays."""
    target = device(hub, "Garage Light")
    before = len(hub.requests)
    data = await refused(
        mcp, "hub_delete_device", {"device_id": str(target.id), "confirm": True}, "backup_required"
    )
    assert "Nothing was changed" in data["message"]
    assert writes_since(hub, before) == [] and target.id in hub.state.devices
    return str(data["message"])


# ------------------------------------------------------------------ 3: the destructive tier


async def test_deleted_backup_no_longer_satisfies_the_gate(mcp: Mcp, hub: HubEmulator) -> None:
    made = await ok(mcp, "hub_create_backup")
    assert made["verified"] is True
    name = made["backup"]["name"]
    await ok(mcp, "hub_delete_backup", {"file_name": name, "confirm": True})
    listed = await ok(mcp, "hub_list_backups")
    assert listed["destructive_tier_satisfied"] is False
    await delete_refused_for_backup(mcp, hub)


async def test_created_backup_counts_only_once_listed(
    mcp: Mcp, hub: HubEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    def vanishing_backup() -> Backup:  # the hub answers, but keeps no file
        return Backup("latest.lzf", dt_util.utcnow(), 1)

    monkeypatch.setattr(hub.home, "mark_backup_now", vanishing_backup)
    made = await ok(mcp, "hub_create_backup")
    assert made["verified"] is False and made["backup"] is None
    await delete_refused_for_backup(mcp, hub)


async def test_future_dated_backup_does_not_count(mcp: Mcp, hub: HubEmulator) -> None:
    hub.state.backups.append(Backup("future.lzf", dt_util.utcnow() + timedelta(days=3), 10))
    listed = await ok(mcp, "hub_list_backups")
    assert listed["destructive_tier_satisfied"] is False
    assert "future" in await delete_refused_for_backup(mcp, hub)
    target = device(hub, "Garage Light")
    # a few seconds of clock skew are tolerated
    hub.state.backups.append(Backup("skew.lzf", dt_util.utcnow() + timedelta(seconds=30), 10))
    await ok(mcp, "hub_delete_device", {"device_id": str(target.id), "confirm": True})


async def test_backup_made_on_the_hub_counts_at_once(mcp: Mcp, hub: HubEmulator) -> None:
    target = device(hub, "Garage Light")
    args = {"device_id": str(target.id), "confirm": True}
    await refused(mcp, "hub_delete_device", args, "backup_required")
    hub.mark_backup_now()  # a refused check is never served from the cache
    await ok(mcp, "hub_delete_device", args)
    assert target.id not in hub.state.devices


async def test_restore_backs_up_the_current_state_first(mcp: Mcp, hub: HubEmulator) -> None:
    hub.reboot_downtime = 0.2
    hub.reboot_starting_time = 0.1
    old = hub.mark_backup_now()
    count = len(hub.backups)
    before = len(hub.requests)
    data = await ok(mcp, "hub_restore_backup", {"file_name": old.name, "confirm": True})
    assert data["current_state_backup"]["fresh_for_destructive"] is True
    assert "Backed up the current state" in data["summary"]
    assert len(hub.backups) == count + 1
    sent = [p for _m, p in hub.requests[before:]]
    backup_at = next(i for i, p in enumerate(sent) if p.startswith("/hub/backupDB"))
    restore_at = next(i for i, p in enumerate(sent) if p.startswith("/hub2/restoreLocalBackup"))
    assert backup_at < restore_at


async def test_restore_refused_when_the_current_state_cannot_be_backed_up(
    mcp: Mcp, hub: HubEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = hub.mark_backup_now()
    monkeypatch.setattr(hub.home, "mark_backup_now", lambda: old)  # nothing new appears
    before = len(hub.requests)
    await refused(
        mcp, "hub_restore_backup", {"file_name": old.name, "confirm": True}, "backup_required"
    )
    assert writes_since(hub, before) == [] and hub.status == "running"


# ------------------------------------------------------------------ 4: safety systems


@pytest.mark.parametrize("app_id", [APP_HSM, APP_MODE_MANAGER, "maker"])
async def test_disabling_a_safety_system_needs_confirm(
    mcp: Mcp, hub: HubEmulator, app_id: str
) -> None:
    app_id = str(hub.maker_app_id) if app_id == "maker" else app_id
    before = len(hub.requests)
    args = {"app_id": app_id, "disabled": True}
    await refused(mcp, "hub_set_app_disabled", args, "confirmation_required")
    assert writes_since(hub, before) == []
    assert hub.state.apps[int(app_id)].disabled is False
    await ok(mcp, "hub_set_app_disabled", {**args, "confirm": True})
    assert hub.state.apps[int(app_id)].disabled is True
    # switching it back on makes it act again: the sensitivity model asks for confirm too
    await refused(mcp, "hub_set_app_disabled", {"app_id": app_id, "disabled": False},
                  "confirmation_required")  # fmt: skip
    await ok(mcp, "hub_set_app_disabled", {"app_id": app_id, "disabled": False, "confirm": True})


async def test_ordinary_app_disables_without_confirm(mcp: Mcp, hub: HubEmulator) -> None:
    await ok(mcp, "hub_set_app_disabled", {"app_id": "200", "disabled": True})
    assert hub.state.apps[200].disabled is True


async def test_editing_hsm_settings_needs_confirm(mcp: Mcp, hub: HubEmulator) -> None:
    before = len(hub.requests)
    data = await refused(
        mcp,
        "hub_update_app_settings",
        {"app_id": APP_HSM, "settings": {"anything": "x"}},
        "confirmation_required",
    )
    assert "Safety Monitor" in data["message"]
    assert writes_since(hub, before) == []
    assert not [p for _m, p in hub.requests[before:] if "fileManager" in p.lower()]


@pytest.mark.parametrize("label", ["Front Door Lock", "Basement Siren", "Basement Smoke/CO"])
async def test_disabling_a_sensitive_device_needs_confirm(
    mcp: Mcp, hub: HubEmulator, label: str
) -> None:
    target = device(hub, label)
    before = len(hub.requests)
    args = {"device_id": str(target.id), "enabled": False}
    await refused(mcp, "hub_update_device", args, "confirmation_required")
    assert writes_since(hub, before) == [] and target.disabled is False
    await ok(mcp, "hub_update_device", {**args, "confirm": True})
    assert target.disabled is True


async def test_disabling_a_light_needs_no_confirm(mcp: Mcp, hub: HubEmulator) -> None:
    target = device(hub, "Garage Light")
    await ok(mcp, "hub_update_device", {"device_id": str(target.id), "enabled": False})
    assert target.disabled is True


async def test_run_actions_that_unlock_need_confirm(mcp: Mcp, hub: HubEmulator) -> None:
    internals = hub.state.dev.internals[int(RULE_GOODNIGHT)]
    runs = internals.runs
    before = len(hub.requests)
    args = {"app_id": RULE_GOODNIGHT, "action": "run_actions"}
    data = await refused(mcp, "hub_call_rule", args, "confirmation_required")
    assert "Lock: Front Door" in data["message"]
    assert writes_since(hub, before) == [] and internals.runs == runs
    await ok(mcp, "hub_call_rule", {**args, "confirm": True})
    assert internals.runs == runs + 1
    # a rule that only switches lights runs as before
    await ok(mcp, "hub_call_rule", {"app_id": RULE_MOTION, "action": "run_actions"})


async def test_run_actions_of_a_rule_with_a_sensitive_device_input(
    mcp: Mcp, hub: HubEmulator
) -> None:
    lock = device(hub, "Front Door Lock")
    internals = hub.state.dev.internals[int(RULE_MOTION)]
    internals.inputs.append(
        {"name": "actDev1", "type": "capability.lock", "multiple": True, "value": str(lock.id)}
    )
    before = len(hub.requests)
    data = await refused(
        mcp,
        "hub_call_rule",
        {"app_id": RULE_MOTION, "action": "run_actions"},
        "confirmation_required",
    )
    assert "Front Door Lock" in data["message"]
    assert writes_since(hub, before) == []


# ------------------------------------------------------------------ 4: the code tier

CODE_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("hub_install_code", {"type": "driver", "source": 'definition(name: "X", namespace: "y")\n'}),
    ("hub_update_code", {"type": "driver", "id": "1", "source": "// rewritten lock driver\n"}),
    ("hub_restore_item_backup", {"backup": "hdt-backup_driver-1_20260101-120000.json"}),
    ("hub_install_bundle", {"url": "https://example.com/bundles/acme-tools.zip"}),
]


@pytest.mark.parametrize(("name", "args"), CODE_CALLS, ids=[c[0] for c in CODE_CALLS])
async def test_code_tier_needs_confirm(
    mcp: Mcp, hub: HubEmulator, name: str, args: dict[str, Any]
) -> None:
    code_before = {k: (v.version, v.source) for k, v in hub.state.dev.code.items()}
    bundles_before = set(hub.state.dev.bundles)
    before = len(hub.requests)
    data = await refused(mcp, name, args, "confirmation_required")
    assert "confirm=true" in data["message"]
    assert hub.requests[before:] == []  # refused before anything was read or sent
    assert {k: (v.version, v.source) for k, v in hub.state.dev.code.items()} == code_before
    assert set(hub.state.dev.bundles) == bundles_before


BAD_URLS = [
    ("http://example.com/bundles/acme-tools.zip", "https"),
    ("https://127.0.0.1/x.zip", "local"),
    ("https://localhost/x.zip", "local"),
    ("https://[::1]/x.zip", "local"),
    ("https://192.168.1.5/x.zip", "local"),
    ("https://10.0.0.8:8443/x.zip", "local"),
    ("https://169.254.169.254/latest/meta-data", "local"),
    ("https://[::ffff:127.0.0.1]/x.zip", "local"),
    ("https://hubitat.lan/x.zip", "local"),
    ("https://rebind.example.net/x.zip", "local"),
    ("https://no-such-host.invalid/x.zip", "resolve"),
]


@pytest.mark.parametrize(("url", "why"), BAD_URLS, ids=[u for u, _ in BAD_URLS])
async def test_bundle_url_refused(mcp: Mcp, hub: HubEmulator, url: str, why: str) -> None:
    before = len(hub.requests)
    data = await refused(
        mcp, "hub_install_bundle", {"url": url, "confirm": True}, "url_not_allowed"
    )
    assert why in data["message"]
    assert writes_since(hub, before) == []
    assert not [p for _m, p in hub.requests[before:] if p.startswith("/bundle2/")]


async def test_local_bundle_urls_with_the_option(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator
) -> None:
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_LOCAL_CODE_URLS: True})
    before = len(hub.requests)
    is_error, _data = await mcp.call(
        "hub_install_bundle", {"url": "http://192.168.1.5/x.zip", "confirm": True}
    )
    assert is_error  # the emulator cannot download it, but the hub was asked this time
    assert [p for _m, p in hub.requests[before:] if p.startswith("/bundle2/uploadZipFromUrl")]


async def test_bundle_install_backs_up_every_code_item(mcp: Mcp, hub: HubEmulator) -> None:
    items = len(hub.state.dev.code)
    data = await ok(
        mcp,
        "hub_install_bundle",
        {"url": "https://example.com/bundles/acme-tools.zip", "confirm": True},
    )
    saved = {b["backup"] for b in data["item_backups"]}
    assert len(data["item_backups"]) == items
    assert all(hub.files.read(name) is not None for name in saved)


ONCE_CASES: list[tuple[str, dict[str, Any], str]] = [
    (
        "hub_install_bundle",
        {"url": "https://example.com/bundles/acme-tools.zip", "confirm": True},
        "/bundle2/uploadZipFromUrl",
    ),
    (
        "hub_delete_code",
        {"type": "driver", "id": "2", "confirm": True},
        "/driver/editor/deleteJson",
    ),
    ("hub_delete_bundle", {"bundle_id": "1", "confirm": True}, "/bundle/delete"),
    ("hub_delete_app", {"app_id": "160", "confirm": True}, "/installedapp/forcedelete/160/"),
    ("hub_delete_device", {"device_id": "LIGHT", "confirm": True}, "/device/forceDelete"),
    ("hub_create_visual_rule", {"name": "Once"}, "/app/createVisualRuleBuilderRule"),
    ("hub_delete_backup", {"file_name": "B", "confirm": True}, "/hub2/deleteLocalBackup"),
]


@pytest.mark.parametrize(("name", "args", "path"), ONCE_CASES, ids=[c[0] for c in ONCE_CASES])
async def test_installs_and_deletes_are_never_retried(
    mcp: Mcp, hub: HubEmulator, name: str, args: dict[str, Any], path: str
) -> None:
    fresh = hub.mark_backup_now()
    if args.get("file_name") == "B":
        args = {**args, "file_name": fresh.name}
    if args.get("device_id") == "LIGHT":
        args = {**args, "device_id": str(device(hub, "Garage Light").id)}
    if name == "hub_create_visual_rule":  # a runnable rule: nodes are checked before sending
        light = device(hub, "Garage Light").id
        args = {**args, "when_nodes": [AT_SEVEN], "then_nodes": [turn_on(light)]}
    hub.faults.fail_paths = {path: 503}  # a busy hub: a GET would be retried once
    before = len(hub.requests)
    is_error, data = await mcp.call(name, args)
    assert is_error, data
    assert len([p for _m, p in hub.requests[before:] if p.startswith(path)]) == 1


# ------------------------------------------------------------------ 5: every device reference


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"device_id": "12"}, {"12"}),
        ({"deviceId": 12}, {"12"}),
        ({"DEVICE-ID": " 12 "}, {"12"}),
        ({"device_ids": ["1", "2"]}, {"1", "2"}),
        ({"deviceIds": [3, "4"]}, {"3", "4"}),
        ({"old_device_id": "5", "new_device_id": "6"}, {"5", "6"}),
        ({"commands": [{"device_id": "7", "command": "on"}]}, {"7"}),
        ({"then_nodes": [{"type": "command", "deviceIds": [8], "command": "unlock"}]}, {"8"}),
        ({"when_nodes": [{"if": {"and": [{"deviceIds": ["9"]}]}}]}, {"9"}),
        ({"nodes": [{"devices": [{"id": 10, "label": "Lock"}, 11]}]}, {"10", "11"}),
        ({"device": "Front Door Lock"}, set()),  # a name is not an id
        ({"settings": {"lockDevs": ["13", "14"], "label": "x"}}, {"13", "14"}),
        ({"settings": {"lockDev": 15}}, set()),  # one number: not known to be a device
        ({"settings": {"count": [1, 2]}}, {"1", "2"}),  # lists of ids are taken as devices
        ({"inputs": [{"type": "capability.lock", "value": "16,17"}]}, {"16", "17"}),
        ({"input": {"deviceIdsForDeviceList": [18]}}, {"18"}),
        ({"deviceIdList": "19, 20"}, {"19", "20"}),
        ({"text": "device 21", "limit": 22}, set()),
    ],
)
def test_device_refs_shapes(value: Any, expected: set[str]) -> None:
    assert device_refs(value) == expected


def test_device_refs_with_known_device_inputs() -> None:
    settings = {"settings": {"lockDev": 15, "delay": 30}}
    assert device_refs(settings, device_inputs={"lockDev"}) == {"15"}
    assert is_device_key("deviceIds") and is_device_key("room_device_ids")
    assert not is_device_key("device_name")


def allow_only_the_light(hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator) -> Device:
    """Allowlist only the Garage Light; return the (now outside) Front Door Lock."""
    light = device(hub, "Garage Light")
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [str(light.id)]})
    return device(hub, "Front Door Lock")


async def test_visual_rule_cannot_unlock_an_allowlisted_out_lock(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator
) -> None:
    lock = allow_only_the_light(hass, entry, hub)
    rules_before = dict(hub.state.dev.vrb)
    before = len(hub.requests)
    node = {"actionType": "unlock", "locks": [lock.id], "deviceIds": [lock.id]}
    data = await refused(
        mcp,
        "hub_create_visual_rule",
        {"name": "Sneaky", "when_nodes": [AT_SEVEN], "then_nodes": [node]},
        "device_not_allowed",
    )
    assert str(lock.id) in data["message"]
    assert hub.requests[before:] == []
    assert hub.state.dev.vrb == rules_before


async def test_app_settings_device_list_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator
) -> None:
    lock = allow_only_the_light(hass, entry, hub)
    before = len(hub.requests)
    await refused(
        mcp,
        "hub_update_app_settings",
        {"app_id": RULE_MOTION, "settings": {"tDev0": [str(lock.id)]}},
        "device_not_allowed",
    )
    assert hub.requests[before:] == []


async def test_visual_rule_commanding_a_lock_needs_confirm(mcp: Mcp, hub: HubEmulator) -> None:
    lock = device(hub, "Front Door Lock")
    rules_before = dict(hub.state.dev.vrb)
    before = len(hub.requests)
    node = {"actionType": "unlock", "locks": [lock.id]}
    args = {"name": "Open up", "when_nodes": [AT_SEVEN], "then_nodes": [node]}
    await refused(mcp, "hub_create_visual_rule", args, "confirmation_required")
    assert writes_since(hub, before) == [] and hub.state.dev.vrb == rules_before
    created = await ok(mcp, "hub_create_visual_rule", {**args, "confirm": True})
    assert int(created["app_id"]) in hub.state.dev.vrb


async def test_app_settings_giving_an_app_a_lock_need_confirm(mcp: Mcp, hub: HubEmulator) -> None:
    lock = device(hub, "Front Door Lock")
    internals = hub.state.dev.internals[int(RULE_MOTION)]
    before_inputs = [dict(i) for i in internals.inputs]
    before = len(hub.requests)
    data = await refused(
        mcp,
        "hub_update_app_settings",
        {"app_id": RULE_MOTION, "settings": {"tDev0": [str(lock.id)]}},
        "confirmation_required",
    )
    assert "Front Door Lock" in data["message"]
    assert writes_since(hub, before) == []
    assert internals.inputs == before_inputs
