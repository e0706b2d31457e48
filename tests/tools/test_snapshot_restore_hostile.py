"""Hostile review of "undo from a snapshot" (hub_get_restore_plan / hub_restore_snapshot).

Each test is one attack by a caller with tool calls only, written so that it passes when the
attack fails (a defended path). The first review found 14 holes (a removed or renamed device
outside the allowlist shown, a planted item backup redirecting a code step, backup content
changed between plan and step, a truncated snapshot deleting what it did not hold, a rule
made again judged by its old id, sensitive steps hidden from the approving owner, a disabled
rule coming back live, a room delete moving an outside device, verify errors losing the
report, the call budget, names that read as secrets, a rename back to a name taken since,
approval asked before the backup check); each is now a defended path here.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools.const import OPT_DISABLED_TOOLS
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.managers import snapshots as snap_mod
from custom_components.hubitat_dev_tools.redact import REDACTED
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..helpers.approvals import approval_issues, decide, repairs_client
from ..helpers.hostile import allow_only
from ..home_util import dev_id
from .snapshot_restore_util import APPROVE


def _acting(hub: HubEmulator, before: int) -> list[tuple[str, str]]:
    return [(m, p) for m, p in hub.requests[before:] if m != "GET"]


def _audit(hass: HomeAssistant) -> list[dict[str, Any]]:
    shared = get_domain_data(hass)
    assert shared is not None
    return shared.audit.recent(None)


async def _approve_on(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    hass.config_entries.async_update_entry(entry, options={**entry.options, **APPROVE})
    await hass.async_block_till_done()


# ------------------------------------------------------------------ 3. device allowlist


async def test_a_removed_device_outside_the_allowlist_is_not_shown_in_the_plan(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A device outside the allowlist, removed on the hub since the snapshot: the plan's
    'bring the device back' step must not show its id, label, driver or room."""
    light = dev_id(hub, "Kitchen Light")
    garage = dev_id(hub, "Garage Door")
    driver = hub.find_device("Garage Door")
    allow_only(hass, entry, light)
    await hass.async_block_till_done()
    snap = await ok(call_tool, "hub_create_snapshot")
    hub.delete_device(int(garage))  # removed in the hub's UI
    await ok(call_tool, "hub_update_device", {"device_id": light, "label": "Ceiling"})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    text = json.dumps(plan)
    assert [s["id"] for s in plan["steps"]] == [light], plan["steps"]
    assert "Garage Door" not in text, [s for s in plan["steps"] if s["id"] == garage]
    assert str(driver.get("type") or "Garage Door Opener") not in text


async def test_the_old_label_of_an_outside_device_renamed_since_is_not_shown(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Visual Rule 170 names the Porch Light (outside the allowlist) in its node text. The
    device was renamed on the hub since the snapshot: the plan's screen knows only live
    labels (hub_diff_snapshots also learns the snapshot's), so the old label must still be
    hidden."""
    light, porch = dev_id(hub, "Kitchen Light"), dev_id(hub, "Porch Light")
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_update_visual_rule", {"app_id": "170", "name": "Porch motion"})
    hub.device_obj(porch).label = "Veranda Lamp"  # renamed in the hub's UI
    allow_only(hass, entry, light)
    await hass.async_block_till_done()
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    rule = next(s for s in plan["steps"] if s["category"] == "rules")
    assert rule.get("possible") is False  # it reaches an outside device: not done
    assert "Porch Light" not in json.dumps(plan), rule


async def test_an_outside_device_does_not_leak_through_the_restore_answer(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Same removed outside device, through hub_restore_snapshot's cannot/still_differs."""
    light, garage = dev_id(hub, "Kitchen Light"), dev_id(hub, "Garage Door")
    allow_only(hass, entry, light)
    await hass.async_block_till_done()
    snap = await ok(call_tool, "hub_create_snapshot")
    hub.delete_device(int(garage))
    await ok(call_tool, "hub_update_device", {"device_id": light, "label": "Ceiling"})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"]},
    )
    assert "Garage Door" not in json.dumps(done), done.get("cannot")


# ------------------------------------------------------------------ 6./7. losing things


async def test_a_truncated_snapshot_does_not_delete_what_it_did_not_hold(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A category over its cap (MAX_ITEMS: 500 variables/files/apps, 300 rules/code) is cut
    in the snapshot (header 'truncated'). When an item in the kept part is removed, an item
    that was beyond the cut enters the live view: the plan must not call it 'added since'
    and delete it. Scaled down: variables capped at 5 (of 9)."""
    monkeypatch.setitem(snap_mod.MAX_ITEMS, "variables", 5)
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    assert snap.get("truncated", {}).get("variables") == 9, snap
    await ok(call_tool, "hub_delete_variable", {"name": "doorOpenCount", "confirm": True})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    deletes = [s["id"] for s in plan["steps"] if s.get("tool") == "hub_delete_variable"]
    result = await call_tool(
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    names = {v["name"] for v in (await ok(call_tool, "hub_list_variables"))["variables"]}
    assert "outsideTemp" in names, ("deleted by the restore", deletes, result.data)
    assert deletes == [], deletes


# ------------------------------------------------------------------ 5. planted content


async def test_a_planted_item_backup_cannot_redirect_a_code_step_to_another_item(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Item backups live in the File Manager (readable and writable on the LAN). Driver 2
    was deleted since the snapshot; its genuine item backup is on the hub. Someone copies it
    under a newer backup name of driver 2, with "id": "1" inside. BackupIndex picks it (name
    and source sha match), the plan says "driver 2: install it again (new id)", and
    hub_restore_item_backup writes to the id INSIDE the file: driver 1 (Acme Smart Plug,
    used by devices) gets driver 2's source."""
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    spare = await ok(call_tool, "hub_get_code", {"type": "driver", "id": "2"})
    await ok(call_tool, "hub_delete_code", {"type": "driver", "id": "2", "confirm": True})
    genuine = [n for n in hub.files.names() if n.startswith("hdt-backup_driver-2_")]
    assert genuine, hub.files.names()
    doc = json.loads(hub.files.read(genuine[0]) or b"{}")
    assert doc["source"] == spare["source"]
    forged = "hdt-backup_driver-2_20991231-235959-999-99.json"
    hub.files.put(forged, json.dumps({**doc, "id": "1"}))  # planted over the LAN
    plug = (await ok(call_tool, "hub_get_code", {"type": "driver", "id": "1"}))["source"]

    choice = {"snapshot": snap["name"], "only": ["code"]}
    plan = await ok(call_tool, "hub_get_restore_plan", choice)
    (step,) = plan["steps"]
    assert step["id"] == "driver-2" and "new id" in step["change"], step
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {**choice, "plan_id": plan["plan_id"], "confirm": True},
    )
    after = (await ok(call_tool, "hub_get_code", {"type": "driver", "id": "1"}))["source"]
    assert after == plug, ("driver 1 was overwritten with driver 2's source", step, done)


# ------------------------------------------------------------------ 2. destructive


async def test_a_destructive_step_needs_a_recent_backup_even_confirmed(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The emulator's newest backup is 30 h old: a plan deleting a room added since is
    refused whole with confirm=true, and with steps=[that step]."""
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_create_room", {"name": "Sunroom"})
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    assert plan["needs_recent_backup"] and plan["recent_backup"] is False
    n = next(s["step"] for s in plan["steps"] if s.get("tool") == "hub_delete_room")
    before = len(hub.requests)
    for extra in ({}, {"steps": [n]}):
        data = await refused(
            call_tool,
            "hub_restore_snapshot",
            {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True, **extra},
        )
        assert "backup" in json.dumps(data).lower(), data
    assert _acting(hub, before) == []
    rooms = await ok(call_tool, "hub_list_rooms")
    assert "Sunroom" in json.dumps(rooms)


async def test_a_destructive_step_without_confirm_is_refused_even_when_chosen_alone(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_create_room", {"name": "Sunroom"})
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    n = next(s["step"] for s in plan["steps"] if s.get("tool") == "hub_delete_room")
    before = len(hub.requests)
    for extra in ({}, {"steps": [n]}, {"confirm": False}):
        await refused(
            call_tool,
            "hub_restore_snapshot",
            {"snapshot": snap["name"], "plan_id": plan["plan_id"], **extra},
            "confirmation_required",
        )
    assert _acting(hub, before) == []
    # choosing only the write step runs only it
    w = next(s["step"] for s in plan["steps"] if s.get("tool") == "hub_set_variable")
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "steps": [w]},
    )
    assert [d["tool"] for d in done["done"]] == ["hub_set_variable"]
    assert "Sunroom" in json.dumps(await ok(call_tool, "hub_list_rooms"))


# ------------------------------------------------------------------ 1. approvals


async def test_an_approved_plan_cannot_run_after_the_hub_changed(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    lock = dev_id(hub, "Front Door Lock")
    await ok(call_tool, "hub_update_device", {"device_id": lock, "label": "Door", "confirm": True})
    await _approve_on(hass, entry)
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    args = {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True}
    held = await refused(call_tool, "hub_restore_snapshot", args, "approval_required")
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, entry, held["approval_id"])
    # between the approval and the run, the hub changes (planted: a lock rule disabled)
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    before = len(hub.requests)
    await refused(call_tool, "hub_restore_snapshot", args, "plan_changed")
    assert _acting(hub, before) == []
    # the approval was used up: with the hub as approved again, the same call asks again
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 2})
    before = len(hub.requests)
    await refused(call_tool, "hub_restore_snapshot", args, "approval_required")
    assert _acting(hub, before) == []
    assert hub.find_device("Door") is not None


async def test_an_approval_binds_the_choice_of_steps_and_does_not_outlive_the_restore(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    lock = dev_id(hub, "Front Door Lock")
    await ok(call_tool, "hub_update_device", {"device_id": lock, "label": "Door", "confirm": True})
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    await _approve_on(hass, entry)
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    var = next(s["step"] for s in plan["steps"] if s.get("tool") == "hub_set_variable")
    dev = next(s["step"] for s in plan["steps"] if s.get("tool") == "hub_update_device")
    base = {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True}
    # the owner approves only the harmless step... which needs no approval at all
    done = await ok(call_tool, "hub_restore_snapshot", {**base, "steps": [var]})
    assert [d["tool"] for d in done["done"]] == ["hub_set_variable"]
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    base["plan_id"] = plan["plan_id"]
    (dev,) = [s["step"] for s in plan["steps"]]
    held = await refused(call_tool, "hub_restore_snapshot", base, "approval_required")
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, entry, held["approval_id"])
    before = len(hub.requests)
    # the approved call with another choice of steps, or another exclude, is another call
    for other in ({"steps": [dev]}, {"exclude": ["nothing"]}, {"only": ["devices"]}):
        await refused(call_tool, "hub_restore_snapshot", {**base, **other}, "approval_required")
    assert _acting(hub, before) == []
    done = await ok(call_tool, "hub_restore_snapshot", base)
    assert done["matches_snapshot"] is True
    # a later, unrelated sensitive call is not in the restore's approval scope
    before = len(hub.requests)
    await refused(
        call_tool,
        "hub_call_device_command",
        {"device_id": lock, "command": "unlock", "confirm": True},
        "approval_required",
    )
    assert _acting(hub, before) == []


async def test_every_sensitive_step_is_named_to_the_owner_who_approves(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    """The owner approves what the approval shows (effect, arguments = snapshot + plan_id).
    With 15 harmless steps first (device labels), a 16th that re-enables the Goodnight rule
    (it locks the front door) is only 'and 1 more' in what the owner reads."""
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    devices = (await ok(call_tool, "hub_list_devices", {"limit": 200}))["devices"]
    harmless = {"Switch", "SwitchLevel", "MotionSensor", "TemperatureMeasurement", "Bulb"}
    plain = [
        d
        for d in devices
        if d.get("label")
        and harmless & set(d.get("capabilities") or ())
        and d["label"] not in ("Porch Light", "Kitchen Light")
    ][:15]
    assert len(plain) == 15
    for d in plain:
        await ok(
            call_tool,
            "hub_update_device",
            {"device_id": str(d["device_id"]), "label": d["label"] + " X", "confirm": True},
        )
    rules = {r["name"]: r["app_id"] for r in (await ok(call_tool, "hub_list_rules"))["rules"]}
    await ok(
        call_tool,
        "hub_set_app_disabled",
        {"app_id": rules["Goodnight"], "disabled": True, "confirm": True},
    )
    await _approve_on(hass, entry)
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    sensitive = [s for s in plan["steps"] if s.get("tier") == "sensitive"]
    assert [s["item"] for s in sensitive] == [f"rule {rules['Goodnight']} (Goodnight)"], sensitive
    held = await refused(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
        "approval_required",
    )
    client = await repairs_client(hass, hass_client)
    resp = await client.post(
        "/api/repairs/issues/fix",
        json={
            "handler": "hubitat_dev_tools",
            "issue_id": f"approval_{entry.entry_id}_{held['approval_id']}",
        },
    )
    flow = await resp.json()
    shown = json.dumps(flow["description_placeholders"])
    assert "Goodnight" in shown, flow["description_placeholders"]


# ------------------------------------------------------------------ 6. audit, disable list


async def test_a_disabled_step_tool_stays_disabled_inside_a_restore(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    hass.config_entries.async_update_entry(
        entry, options={**entry.options, OPT_DISABLED_TOOLS: ["hub_set_variable"]}
    )
    await hass.async_block_till_done()
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    before = len(hub.requests)
    done = await ok(
        call_tool, "hub_restore_snapshot", {"snapshot": snap["name"], "plan_id": plan["plan_id"]}
    )
    assert done["done"] == [] and done["failed"]["tool"] == "hub_set_variable", done
    assert _acting(hub, before) == []
    records = [r for r in _audit(hass) if r.get("tool") == "hub_set_variable"]
    assert records and records[0].get("gateway") == "hub_restore_snapshot", records[:2]


async def test_every_step_is_audited_with_the_user(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    await ok(call_tool, "hub_update_room", {"room": "Office", "new_name": "Study"})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    before = len(hub.requests)
    done = await ok(
        call_tool, "hub_restore_snapshot", {"snapshot": snap["name"], "plan_id": plan["plan_id"]}
    )
    writes = _acting(hub, before)
    assert len(done["done"]) == 2 and writes
    via = [r for r in _audit(hass) if r.get("gateway") == "hub_restore_snapshot"]
    assert len(via) == 2 and all(r.get("user") and r.get("outcome") == "ok" for r in via), via
    assert done.get("snapshot_before_restore")


# ------------------------------------------------------------------ 4. secrets


async def test_a_redacted_preference_is_never_written_back_nor_shown(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from hubitat_emulator.seed import SEEDED_PREF_PASSWORD

    lock = dev_id(hub, "Front Door Lock")
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    hub.device_obj(lock).settings["bridgeLogin"].value = "new-secret-9876"
    await ok(call_tool, "hub_update_device", {"device_id": lock, "label": "Door", "confirm": True})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    text = json.dumps(plan)
    assert SEEDED_PREF_PASSWORD not in text and "new-secret-9876" not in text
    for s in plan["steps"]:
        assert REDACTED not in json.dumps(s.get("arguments", {})), s
    before = len(hub.requests)
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    assert REDACTED.encode() not in json.dumps(_acting(hub, before)).encode()
    assert hub.device_obj(lock).settings["bridgeLogin"].value == "new-secret-9876", done
    assert "new-secret-9876" not in json.dumps(_audit(hass))


# ------------------------------------------------------------------ 7. after the steps


async def test_a_hub_error_after_the_steps_still_reports_what_was_done(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The restore re-plans after its steps (_verify). If the hub stumbles then (busy,
    rebooting), the steps already ran; the answer must still say which, not an error that
    invites a retry."""
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    before = len(hub.requests)

    def flaky_after_a_write(data: Any) -> Any:
        sets = [p for _m, p in hub.requests[before:] if "/hubvariables/guestCount/" in p]
        if sets:
            raise RuntimeError("hub busy")  # the emulator answers 500
        return data

    hub.faults.reshape_paths["/hub2/appsList"] = flaky_after_a_write
    result = await call_tool(
        "hub_restore_snapshot", {"snapshot": snap["name"], "plan_id": plan["plan_id"]}
    )
    hub.faults.reset()
    value = (await ok(call_tool, "hub_get_variable", {"name": "guestCount"}))["value"]
    assert value == 2  # the step ran
    assert not result.error, result.data
    assert [d["tool"] for d in result.data["done"]] == ["hub_set_variable"]


async def test_the_time_zone_step_reboots_and_the_restore_still_answers_what_it_did(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The planner puts the time zone (the hub reboots) last, then _verify reads the hub
    that is rebooting."""
    hub.reboot_downtime = 3.0
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    hub.state.time_zone = "America/Chicago"  # changed in the hub's UI
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    assert [s["tool"] for s in plan["steps"]] == ["hub_update_hub_settings"], plan["steps"]
    result = await call_tool(
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    await asyncio.sleep(4)
    assert hub.state.time_zone == "America/Denver"  # the step ran
    assert not result.error, result.data
    assert [d["tool"] for d in result.data["done"]] == ["hub_update_hub_settings"]


async def test_the_restore_answers_within_the_call_budget_on_a_slow_hub(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """STEP_RESERVE_S (15 s) keeps room for one step, none for _verify, which reads the
    whole hub again (a full snapshot). A hub answering each read in 0.45 s (a busy C-7):
    the restore must still answer within the call's budget (50 s, here cut to 30 s so the
    test runs in seconds; mcp_server cancels at 60)."""
    from custom_components.hubitat_dev_tools.tools import base

    monkeypatch.setattr(base, "CALL_BUDGET_S", 30.0)
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    hub.faults.delay = 0.45
    started = time.monotonic()
    result = await call_tool(
        "hub_restore_snapshot", {"snapshot": snap["name"], "plan_id": plan["plan_id"]}
    )
    took = time.monotonic() - started
    hub.faults.reset()
    assert took < base.CALL_BUDGET_S, (round(took, 1), result.data.get("summary"))


# ------------------------------------------------------------------ 1. tiers as judged


async def test_enabling_a_lock_rule_made_again_under_a_new_id_is_judged_sensitive(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    """The owner deleted Goodnight (it locks the front door) and imported it back from its
    item backup (a new id, disabled). The plan enables it again under the new id; _judge
    looks up the rule's reach by its snapshot id, which is gone, so the step is 'write'.
    The step's own gate refuses (fail-closed), but under "Approve in Home Assistant" the
    restore never asks the owner, so it can never be done."""
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    rules = {r["name"]: r["app_id"] for r in (await ok(call_tool, "hub_list_rules"))["rules"]}
    deleted = await ok(call_tool, "hub_delete_app", {"app_id": rules["Goodnight"], "confirm": True})
    backup = deleted["item_backup"]["backup"]
    await ok(call_tool, "hub_import_app", {"from_backup": backup})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    enable = [s for s in plan["steps"] if s.get("tool") == "hub_set_app_disabled"]
    assert enable, plan["steps"]
    await _approve_on(hass, entry)
    result = await call_tool(
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    assert result.error and result.data["error"] == "approval_required", (enable, result.data)
    assert enable[0]["tier"] == "sensitive", enable


# ------------------------------------------------------------------ 5. content read late


async def test_code_put_back_is_the_source_the_plan_verified(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """BackupIndex checks the item backup's source against the snapshot's sha256 when the
    restore plans; hub_restore_item_backup reads the file again when its step runs, steps
    later. A file written in between (anyone on the LAN, or a parallel hub_write_file) is
    installed unverified."""
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    original = (await ok(call_tool, "hub_get_code", {"type": "app", "id": "1"}))["source"]
    await ok(
        call_tool,
        "hub_update_code",
        {"type": "app", "id": "1", "source": original + "\n// tinkered\n", "confirm": True},
    )
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})  # step 1
    (genuine,) = [n for n in hub.files.names() if n.startswith("hdt-backup_app-1_")]
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    assert [s["tool"] for s in plan["steps"]] == ["hub_set_variable", "hub_update_code"]

    def swap_backup(data: Any) -> Any:  # while step 1 runs
        doc = json.loads(hub.files.read(genuine) or b"{}")
        doc["source"] = original + "\n// planted between plan and step\n"
        hub.files.put(genuine, json.dumps(doc))
        return data

    hub.faults.reshape_paths["/apps/api/12/hubvariables/guestCount/"] = swap_backup
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    hub.faults.reset()
    now = (await ok(call_tool, "hub_get_code", {"type": "app", "id": "1"}))["source"]
    assert "planted" not in now, done


# ------------------------------------------------------------------ 7. odd names


async def test_a_mode_whose_name_reads_as_a_secret_does_not_break_the_plan(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """redact() replaces the value under a secret-like key: a mode named 'Secret' has its
    Mode Manager triggers stored as '**REDACTED**' (a string). Renamed since, the planner
    iterates that string as a trigger list."""
    await ok(call_tool, "hub_create_mode", {"name": "Secret"})
    await ok(
        call_tool,
        "hub_update_mode_manager",
        {"mode": "Secret", "triggers": [{"type": "time", "at": "21:00"}], "confirm": True},
    )
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_update_mode", {"mode": "Secret", "new_name": "Quiet"})
    result = await call_tool("hub_get_restore_plan", {"snapshot": snap["name"]})
    assert not result.error, result.data
    for s in result.data["steps"]:
        assert REDACTED not in json.dumps(s.get("arguments", {})), s


async def test_a_file_whose_name_reads_as_a_secret_does_not_break_the_plan(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The files category is keyed by file name: a file named 'token' is stored as
    '**REDACTED**' instead of {size, sha256}; deleted since, the planner calls .get on it."""
    hub.files.put("token", "abc")
    snap = await ok(call_tool, "hub_create_snapshot")
    hub.files.delete("token")
    result = await call_tool("hub_get_restore_plan", {"snapshot": snap["name"]})
    assert not result.error, result.data


async def test_deleting_a_room_added_since_does_not_move_an_outside_device(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The owner made a room since the snapshot and put the Porch Light (outside the
    allowlist) in it. The plan leaves the Porch Light's own step out (outside), but deletes
    the room, which unassigns the Porch Light: a change to a device outside the list."""
    light, porch = dev_id(hub, "Kitchen Light"), dev_id(hub, "Porch Light")
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_create_room", {"name": "Sunroom"})
    await ok(call_tool, "hub_update_device", {"device_id": porch, "room": "Sunroom"})
    allow_only(hass, entry, light)
    await hass.async_block_till_done()
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    result = await call_tool(
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    room = hub.device_obj(porch).room_id
    assert room is not None, ("the outside device was unassigned", plan["steps"], result.data)


# ------------------------------------------------------------------ 1. what comes back


async def test_a_disabled_lock_rule_deleted_since_does_not_come_back_enabled(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """In the snapshot the rule 'Lock on motion' (it locks the front door) is disabled. It
    was deleted since. The plan says 'create the rule again'; hub_create_rule leaves a rule
    running, so the undo brings back a live lock automation the snapshot had switched off."""
    motion, lock = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Front Door Lock")
    spec = {
        "name": "Lock on motion",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"command": "lock", "device_ids": [lock]}],
    }
    created = await ok(call_tool, "hub_create_rule", {"rule": spec, "confirm": True})
    app_id = str(created["app_id"])
    await ok(call_tool, "hub_set_app_disabled", {"app_id": app_id, "disabled": True})
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_delete_app", {"app_id": app_id, "confirm": True})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    # made again paused, then disabled, then resumed (it stays disabled): never live
    tools = [(s["tool"], s["tier"]) for s in plan["steps"]]
    assert tools == [
        ("hub_create_rule", "sensitive"),
        ("hub_set_app_disabled", "sensitive"),
        ("hub_set_rule_paused", "sensitive"),
    ], plan["steps"]
    assert plan["steps"][0]["arguments"]["rule"]["paused"] is True
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    rules = {r["name"]: r for r in (await ok(call_tool, "hub_list_rules"))["rules"]}
    assert rules["Lock on motion"]["disabled"] is True, (rules["Lock on motion"], done)
    assert done["matches_snapshot"] is True, done


async def test_an_approval_does_not_show_a_lock_rule_enable_as_a_plain_write(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    """As above (Goodnight deleted, imported back: new id, disabled), plus a room added
    since, so the restore asks the owner (destructive). What the owner reads lists the
    Goodnight enable as [write]; once approved, every step runs with confirm=true, so the
    lock rule is enabled under an approval that called it a plain write."""
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    rules = {r["name"]: r["app_id"] for r in (await ok(call_tool, "hub_list_rules"))["rules"]}
    deleted = await ok(call_tool, "hub_delete_app", {"app_id": rules["Goodnight"], "confirm": True})
    await ok(call_tool, "hub_import_app", {"from_backup": deleted["item_backup"]["backup"]})
    await ok(call_tool, "hub_create_room", {"name": "Sunroom"})
    await _approve_on(hass, entry)
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    args = {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True}
    held = await refused(call_tool, "hub_restore_snapshot", args, "approval_required")
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, entry, held["approval_id"])
    done = await ok(call_tool, "hub_restore_snapshot", args)
    enabled = [d for d in done["done"] if d["tool"] == "hub_set_app_disabled"]
    goodnight = [p for p in held["effect"].split("; ") if "Goodnight" in p]
    assert not enabled or all("[sensitive]" in p for p in goodnight), (goodnight, enabled)


# ------------------------------------------------------------------ 7. step order


async def test_a_name_taken_since_does_not_block_the_rename_back(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Since the snapshot: room Office renamed Study, and a new room named Office made.
    The plan renames Study back to Office first (phase 1) and deletes the new Office last
    (phase 28): the rename meets the name still taken."""
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_update_room", {"room": "Office", "new_name": "Study"})
    await ok(call_tool, "hub_create_room", {"name": "Office"})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    assert "failed" not in done and done["matches_snapshot"] is True, (plan["steps"], done)


# ------------------------------------------------------------------ 5. another hub


async def test_a_snapshot_of_another_hub_is_refused_by_plan_and_restore(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from pathlib import Path

    from custom_components.hubitat_dev_tools import snapshots as store_mod

    snap = await ok(call_tool, "hub_create_snapshot")
    path = Path(hass.config.path(store_mod.SNAPSHOT_DIR, hub.hub_uid, f"{snap['name']}.yaml"))
    for uid_line in ("  hub_uid: another-hub\n", ""):
        text = "".join(
            (uid_line if line.startswith("  hub_uid:") else line)
            for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
        )
        path.write_text(text, encoding="utf-8")
        before = len(hub.requests)
        await refused(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]}, "wrong_hub")
        await refused(
            call_tool,
            "hub_restore_snapshot",
            {"snapshot": snap["name"], "plan_id": "x", "confirm": True},
            "wrong_hub",
        )
        assert _acting(hub, before) == []
    for bad in ("../20261201T120000Z", "20261201T120000Z/../../x", "*"):
        await refused(call_tool, "hub_get_restore_plan", {"snapshot": bad})


async def test_mode_manager_triggers_of_outside_devices_are_neither_shown_nor_put_back(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Kitchen Light")
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(
        call_tool,
        "hub_update_mode_manager",
        {"mode": "Away", "triggers": [{"type": "time", "at": "09:00"}], "confirm": True},
    )
    allow_only(hass, entry, light)
    await hass.async_block_till_done()
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    text = json.dumps(plan)
    for leak in ("218", "223", "Alice's Phone", "Bob's Phone"):
        # a whole word: the snapshot's name holds the time (20261203T223512Z at 22:35)
        assert not re.search(rf"\b{re.escape(leak)}\b", text), leak
    (step,) = plan["steps"]
    assert step.get("possible") is False
    before = len(hub.requests)
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    assert done["done"] == [] and _acting(hub, before) == []
    assert "Alice" not in json.dumps(done)


async def test_an_approved_restore_stops_when_the_snapshot_file_changed(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    from pathlib import Path

    from custom_components.hubitat_dev_tools import snapshots as store_mod

    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    lock = dev_id(hub, "Front Door Lock")
    await ok(call_tool, "hub_update_device", {"device_id": lock, "label": "Door", "confirm": True})
    await _approve_on(hass, entry)
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    args = {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True}
    held = await refused(call_tool, "hub_restore_snapshot", args, "approval_required")
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, entry, held["approval_id"])
    path = Path(hass.config.path(store_mod.SNAPSHOT_DIR, hub.hub_uid, f"{snap['name']}.yaml"))
    path.write_text(
        path.read_text(encoding="utf-8").replace("label: Front Door Lock", "label: Back Gate"),
        encoding="utf-8",
    )
    before = len(hub.requests)
    await refused(call_tool, "hub_restore_snapshot", args, "plan_changed")
    assert _acting(hub, before) == [] and hub.find_device("Door") is not None
    assert approval_issues(hass) == set()


async def test_no_recent_backup_means_no_approval_request_for_a_destructive_restore(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Direct destructive calls check the 24 h backup before asking the owner
    (test_approvals.test_no_backup_means_no_approval_request); the restore asks first, so
    the owner approves a restore that is then refused (and the approval is used up)."""
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_create_room", {"name": "Sunroom"})
    await _approve_on(hass, entry)
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    assert plan["recent_backup"] is False
    result = await call_tool(
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    assert result.error and result.data["error"] != "approval_required", result.data
    assert approval_issues(hass) == set()
