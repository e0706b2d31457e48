"""Undo on the hub: an evening of changes, planned and put back from a snapshot.

Every change is made through the tools; the plan reads only; the restore runs each step
through its own tool (gates and audit as direct calls), stops at the first failure, and
checks the live hub against the snapshot afterwards. All of it stays here: the restore is
run by the tools (tools/snapshots.py) over the snapshots Home Assistant stores, with the
confirmation, allowlist and approval gates. Which steps the planner makes from two
documents, in which order, is tested without hass in tests/managers/test_snapshot_restore_plan.py,
with a plan over the emulated hub that reads only the categories it covers.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
from ruamel.yaml import YAML

from custom_components.hubitat_dev_tools import snapshots as store_mod
from custom_components.hubitat_dev_tools.tools.base import HUB_TEXT_KEY
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused, setup_mcp_server
from ..helpers.approvals import approval_issues, decide, repairs_client
from ..helpers.hostile import allow_only
from ..helpers.rule_authoring import porch_rule
from ..home_util import dev_id
from ..mcp_client import Mcp
from .snapshot_restore_util import APPROVE


def _steps(plan: dict[str, Any], category: str | None = None) -> list[dict[str, Any]]:
    return [s for s in plan["steps"] if category is None or s["category"] == category]


async def _rules(call_tool: ToolCaller) -> dict[str, str]:
    listed = await ok(call_tool, "hub_list_rules")
    return {r["name"]: r["app_id"] for r in listed["rules"]}


async def _prepare(hub: HubEmulator, call_tool: ToolCaller) -> dict[str, Any]:
    """Two rules of our own, a backup from today, then the snapshot."""
    motion, porch = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Porch Light")
    await ok(call_tool, "hub_create_rule", {"rule": porch_rule(motion, porch)})
    hall = porch_rule(motion, porch) | {"name": "Hall rule"}
    await ok(call_tool, "hub_create_rule", {"rule": hall})
    await ok(call_tool, "hub_create_backup")
    return await ok(call_tool, "hub_create_snapshot")


async def _evening(hub: HubEmulator, call_tool: ToolCaller) -> None:
    """The owner's evening of tinkering, across every kind the restore covers."""
    light = dev_id(hub, "Kitchen Light")
    porch = dev_id(hub, "Porch Light")
    await ok(
        call_tool,
        "hub_update_device",
        {
            "device_id": light,
            "label": "Kitchen Ceiling",
            "room": "Living Room",
            "preferences": {"logEnable": True},
            "tags": ["lights", "evening"],
            "show_on_home": False,
        },
    )
    await ok(call_tool, "hub_update_device", {"device_id": porch, "enabled": False})
    office = dev_id(hub, "Office Light")
    await ok(call_tool, "hub_update_device", {"device_id": office, "hub_mesh": True})
    await ok(call_tool, "hub_create_room", {"name": "Sunroom"})
    await ok(call_tool, "hub_update_room", {"room": "Office", "new_name": "Study"})
    await ok(call_tool, "hub_delete_room", {"room": "Basement", "confirm": True})
    await ok(call_tool, "hub_create_mode", {"name": "Party"})
    await ok(call_tool, "hub_update_mode", {"mode": "Away", "new_name": "Vacation"})
    await ok(
        call_tool,
        "hub_update_mode_manager",
        {"mode": "Night", "triggers": [{"type": "time", "at": "23:15"}], "confirm": True},
    )
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 5})
    await ok(call_tool, "hub_delete_variable", {"name": "lastArrival", "confirm": True})
    # a type changed: the owner deleted it and made it again as a string
    await ok(call_tool, "hub_delete_variable", {"name": "vacationMode", "confirm": True})
    await ok(
        call_tool,
        "hub_create_variable",
        {"name": "vacationMode", "type": "string", "value": "no"},
    )
    await ok(call_tool, "hub_update_hub_settings", {"tts_voice": "Matthew"})
    rules = await _rules(call_tool)
    await ok(
        call_tool,
        "hub_update_rule",
        {
            "app_id": rules["Porch light at night"],
            "patch": [{"op": "replace", "path": "/actions/3/delay", "value": {"minutes": 10}}],
        },
    )
    await ok(call_tool, "hub_delete_app", {"app_id": rules["Hall rule"], "confirm": True})
    motion = dev_id(hub, "Kitchen Motion")
    extra = porch_rule(motion, porch) | {"name": "Evening Extra"}
    await ok(call_tool, "hub_create_rule", {"rule": extra})
    await ok(call_tool, "hub_update_app_settings", {"app_id": "200", "settings": {"volume": 30}})
    await ok(call_tool, "hub_update_visual_rule", {"app_id": "170", "name": "Porch motion"})
    await ok(call_tool, "hub_update_dashboard", {"dashboard_id": "401", "name": "Bedroom Pad"})
    await ok(call_tool, "hub_update_dashboard", {"dashboard_id": "400", "add_device_ids": [office]})
    code = await ok(call_tool, "hub_get_code", {"type": "app", "id": "1"})
    source = str(code["source"]) + "\n// tinkered\n"
    await ok(
        call_tool, "hub_update_code", {"type": "app", "id": "1", "source": source, "confirm": True}
    )
    await ok(
        call_tool,
        "hub_write_file",
        {"file_name": "energy-2026.csv", "content": "day,kwh\n1,99\n", "confirm": True},
    )


async def test_an_evening_is_planned_and_put_back(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    snap = await _prepare(hub, call_tool)
    rules_before = await _rules(call_tool)
    await _evening(hub, call_tool)
    before = len(hub.requests)
    plan = await ok(
        call_tool,
        "hub_get_restore_plan",
        {"snapshot": snap["name"], "exclude": ["Evening Extra"]},
    )
    assert all(method == "GET" for method, _p in _sent(hub, before)), "planning only reads"
    kinds = {(s["category"], s["tool"]) for s in plan["steps"] if "tool" in s}
    for expected in (
        ("devices", "hub_update_device"),
        ("rooms", "hub_create_room"),
        ("rooms", "hub_update_room"),
        ("rooms", "hub_delete_room"),
        ("modes", "hub_update_mode"),
        ("modes", "hub_delete_mode"),
        ("modes", "hub_update_mode_manager"),
        ("variables", "hub_set_variable"),
        ("variables", "hub_create_variable"),
        ("variables", "hub_delete_variable"),
        ("hub", "hub_update_hub_settings"),
        ("rules", "hub_update_rule"),
        ("rules", "hub_create_rule"),
        ("rules", "hub_update_visual_rule"),
        ("apps", "hub_update_app_settings"),
        ("dashboards", "hub_update_dashboard"),
        ("code", "hub_update_code"),
        ("files", "hub_write_file"),
    ):
        assert expected in kinds, (expected, plan["steps"])
    assert not any("Evening Extra" in s["item"] for s in plan["steps"])
    by_id = {(s["category"], s["id"]): s for s in plan["steps"]}
    office = dev_id(hub, "Office Light")
    assert by_id[("devices", office)]["arguments"] == {"device_id": office, "hub_mesh": False}
    assert by_id[("dashboards", "400")]["arguments"]["device_ids"] == []
    light = dev_id(hub, "Kitchen Ceiling")
    assert by_id[("devices", light)]["arguments"] == {
        "device_id": light,
        "label": "Kitchen Light",
        "room": "Kitchen",
        "preferences": {"logEnable": False},
        "tags": ["lights"],
        "show_on_home": True,
    }
    assert [s for s in plan["steps"] if s.get("possible") is False] == []
    order = [s["tool"] for s in plan["steps"]]
    assert order.index("hub_create_room") < order.index("hub_update_device")
    assert order.index("hub_delete_room") == len(order) - 1  # removals last, rooms the last
    assert plan["needs_confirm"] and plan["recent_backup"] is True

    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {
            "snapshot": snap["name"],
            "exclude": ["Evening Extra"],
            "plan_id": plan["plan_id"],
            "confirm": True,
        },
    )
    assert "failed" not in done, done
    assert len(done["done"]) == plan["counts"]["possible"]
    # labels, names and rule text in them are hub text: the answers say so
    assert "steps" in plan[HUB_TEXT_KEY] and "done" in done[HUB_TEXT_KEY]
    assert done["matches_snapshot"] is True, done["still_differs"]
    # the excluded new rule is still there; the deleted one is back under a new id
    rules = await _rules(call_tool)
    assert "Evening Extra" in rules and "Hall rule" in rules
    got = await ok(call_tool, "hub_get_device", {"device_id": dev_id(hub, "Kitchen Light")})
    light = got["device"]
    assert light["label"] == "Kitchen Light" and light["room"] == "Kitchen"
    assert light["show_on_home"] is True and light["tags"] == ["lights"]
    # every step was its own audited call, through the restore
    audit = await ok(call_tool, "hub_list_audit_entries", {"limit": 100})
    via = [e for e in audit["entries"] if e.get("gateway") == "hub_restore_snapshot"]
    assert len(via) == len(done["done"]), audit
    # what each overwritten rule, app, code item and file was is kept
    kept = {d["tool"]: d for d in done["done"]}
    for tool in ("hub_update_rule", "hub_update_app_settings", "hub_update_code"):
        assert kept[tool].get("item_backup"), kept[tool]
    assert kept["hub_write_file"].get("backup_file"), kept["hub_write_file"]
    # the live diff names only the kept new rule and items made again under new ids
    diff = await ok(call_tool, "hub_diff_snapshots", {"from_snapshot": snap["name"]})
    made_again = done["made_again_under_new_ids"]
    hall = rules_before["Hall rule"]
    assert set(made_again) == {"rooms:8", f"rules:{hall}", f"apps:{hall}"}, made_again
    explained = {
        *(key.split(":")[1] for key in made_again),
        *made_again.values(),
        rules["Evening Extra"],
    }
    for category, kinds in diff["categories"].items():
        for kind, entries in kinds.items():
            for change in entries:
                # a device now in the room made again: only its room id differs
                moved = [
                    f
                    for f in change.get("fields", [])
                    if f["field"] == "room_id" and made_again.get(f"rooms:{f['old']}") == f["new"]
                ]
                # a rule rebuilt to its spec: Rule Machine numbers its inputs anew, so only
                # the raw settings of its app entry differ (the rule itself is the same)
                rebuilt = (
                    category == "apps"
                    and change["id"] in rules.values()
                    and not any(e["id"] == change["id"] for e in _entries(diff, "rules"))
                    and all(f["field"].startswith("settings.") for f in change.get("fields", []))
                )
                assert (
                    change["id"] in explained or (moved and moved == change["fields"]) or rebuilt
                ), (category, kind, change)
    # nothing is left to plan, except the new rule the owner kept; chosen, it goes too
    again = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    (last,) = again["steps"]
    assert "Evening Extra" in last["item"] and last["tool"] == "hub_delete_app"
    gone = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": again["plan_id"], "confirm": True},
    )
    assert gone["matches_snapshot"] is True and "Evening Extra" not in await _rules(call_tool)
    # and the restore itself can be undone: the hub before it was kept as a snapshot
    back = await ok(
        call_tool, "hub_get_restore_plan", {"snapshot": done["snapshot_before_restore"]}
    )
    assert len(back["steps"]) >= len(done["done"]) - 2, back["steps"]


def _entries(diff: dict[str, Any], category: str) -> list[dict[str, Any]]:
    kinds = diff["categories"].get(category, {})
    return [e for kind in ("added", "removed", "changed") for e in kinds.get(kind, [])]


def _sent(hub: HubEmulator, since: int) -> list[tuple[str, str]]:
    return list(hub.requests[since:])


async def test_a_sensitive_step_needs_confirm(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    lock = dev_id(hub, "Front Door Lock")
    await ok(call_tool, "hub_update_device", {"device_id": lock, "label": "Door", "confirm": True})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    (step,) = plan["steps"]
    assert step["tier"] == "sensitive" and plan["needs_confirm"]
    before = len(hub.requests)
    data = await refused(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"]},
        "confirmation_required",
    )
    assert "Front Door" in data["message"] or "Door" in data["message"]
    assert all(m == "GET" for m, _p in _sent(hub, before))
    assert hub.find_device("Door") is not None
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    assert done["matches_snapshot"] is True


async def test_what_cannot_be_put_back_says_why(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    gone = dev_id(hub, "Porch Light")
    await ok(call_tool, "hub_delete_device", {"device_id": gone, "confirm": True})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    step = next(s for s in plan["steps"] if s["category"] == "devices" and s["id"] == gone)
    assert step["possible"] is False and "pair it again" in step["reason"]
    assert "tool" not in step
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    assert done["done"] == [] and done["cannot"][0]["id"] == gone


async def test_a_step_that_fails_stops_the_rest(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_update_room", {"room": "Office", "new_name": "Study"})
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    light = dev_id(hub, "Kitchen Light")
    await ok(call_tool, "hub_update_device", {"device_id": light, "label": "Ceiling"})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    assert [s["tool"] for s in plan["steps"]] == [
        "hub_update_room",
        "hub_set_variable",
        "hub_update_device",
    ]
    # the variable write fails on the hub: the room is done, the device is not started
    hub.faults.fail_paths["/apps/api/12/hubvariables/guestCount/"] = 500
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"]},
    )
    assert [d["step"] for d in done["done"]] == [1]
    assert done["failed"]["step"] == 2 and done["not_run"] == [3]
    assert hub.find_device("Ceiling") is not None
    assert "failed" in done["summary"]


async def test_a_snapshot_of_another_hub_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    snap = await ok(call_tool, "hub_create_snapshot")
    path = Path(hass.config.path(store_mod.SNAPSHOT_DIR, hub.hub_uid, f"{snap['name']}.yaml"))
    yaml = YAML()
    doc = yaml.load(path.read_text(encoding="utf-8"))
    doc["snapshot"]["hub_uid"] = "another-hub"
    out = io.StringIO()
    yaml.dump(doc, out)
    path.write_text(out.getvalue(), encoding="utf-8")
    data = await refused(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]}, "wrong_hub")
    assert "another hub" in data["message"]
    await refused(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": "x", "confirm": True},
        "wrong_hub",
    )


async def test_a_plan_is_applied_only_as_shown(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    # the same plan whatever the current value; another change makes it another plan
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 7})
    again = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    assert again["plan_id"] == plan["plan_id"]
    await ok(call_tool, "hub_set_variable", {"name": "houseStatus", "value": "party"})
    data = await refused(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"]},
        "plan_changed",
    )
    assert data["plan_id"] != plan["plan_id"]
    await refused(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": data["plan_id"], "steps": [4]},
        "invalid_arguments",
    )
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": data["plan_id"], "steps": [1]},
    )
    assert [d["item"] for d in done["done"]] == ["variable guestCount"]
    assert done["matches_snapshot"] is False  # the other step was not chosen
    assert [d["item"] for d in done["still_differs"]] == ["variable houseStatus"]
    variable = await ok(call_tool, "hub_get_variable", {"name": "guestCount"})
    assert variable["value"] == 2


# ---------------------------------------------------------------------- through mcp_server


async def test_undo_except_the_new_rule_in_three_calls_through_mcp_server(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    hass_client: ClientSessionGenerator,
    call_tool: ToolCaller,
) -> None:
    """The owner: "undo what changed since the snapshot, except the new rule"."""
    snap = await _prepare_direct(hub, call_tool)
    await setup_mcp_server(hass)
    hass.config_entries.async_update_entry(entry, options={**entry.options, **APPROVE})
    client = await repairs_client(hass, hass_client)
    mcp = Mcp(client)
    calls = 0

    async def call(gateway: str, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
        nonlocal calls
        calls += 1
        return await mcp.call(gateway, {"tool": tool, "args": args})

    choice = {"snapshot": snap, "exclude": ["Evening Extra"]}
    is_error, plan = await call("hub_read_backups", "hub_get_restore_plan", choice)
    assert not is_error, plan
    assert plan["counts"]["possible"] == len(plan["steps"]) >= 3
    apply = {**choice, "plan_id": plan["plan_id"], "confirm": True}
    is_error, held = await call("hub_manage_backups", "hub_restore_snapshot", apply)
    assert is_error and held["error"] == "approval_required", held
    await decide(hass, client, entry, held["approval_id"])  # the owner, in Home Assistant
    is_error, done = await call("hub_manage_backups", "hub_restore_snapshot", apply)
    assert not is_error, done
    assert calls == 3
    assert done["matches_snapshot"] is True, done
    assert len(done["done"]) == len(plan["steps"])
    # one approval for the whole restore: no step asked for its own
    assert approval_issues(hass) == set()
    assert "Evening Extra" in await _rules(call_tool)


async def _prepare_direct(hub: HubEmulator, call_tool: ToolCaller) -> str:
    """A snapshot, then a few of the evening's changes, made through the tools."""
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 5})
    await ok(call_tool, "hub_update_room", {"room": "Office", "new_name": "Study"})
    await ok(call_tool, "hub_create_room", {"name": "Sunroom"})  # deleting it is destructive
    light = dev_id(hub, "Kitchen Light")
    await ok(call_tool, "hub_update_device", {"device_id": light, "label": "Ceiling"})
    motion, porch = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Porch Light")
    await ok(
        call_tool,
        "hub_create_rule",
        {"rule": porch_rule(motion, porch) | {"name": "Evening Extra"}},
    )
    return str(snap["name"])


async def test_outside_the_allowlist_nothing_is_shown_or_done(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, lamp = dev_id(hub, "Kitchen Light"), dev_id(hub, "Porch Light")
    allow_only(hass, entry, light)
    await hass.async_block_till_done()
    await ok(call_tool, "hub_create_backup")
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_update_device", {"device_id": light, "label": "Ceiling"})
    hub.home.device_obj(lamp).label = "Front Porch"  # made on the hub, outside the list
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    assert [s["id"] for s in plan["steps"]] == [light]
    assert "Front Porch" not in str(plan) and "Porch Light" not in str(plan)
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"]},
    )
    assert len(done["done"]) == 1
    assert hub.find_device("Front Porch") is not None


async def test_enabling_a_lock_rule_again_needs_confirm(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A rule that locks a door, disabled since the snapshot: enabling it is sensitive."""
    snap = await ok(call_tool, "hub_create_snapshot")
    goodnight = (await _rules(call_tool))["Goodnight"]
    await ok(
        call_tool, "hub_set_app_disabled", {"app_id": goodnight, "disabled": True, "confirm": True}
    )
    plan = await ok(call_tool, "hub_get_restore_plan", {"snapshot": snap["name"]})
    (step,) = plan["steps"]
    assert (step["tool"], step["tier"]) == ("hub_set_app_disabled", "sensitive"), step
    before = len(hub.requests)
    await refused(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"]},
        "confirmation_required",
    )
    assert [m for m, _p in _sent(hub, before) if m != "GET"] == []
    done = await ok(
        call_tool,
        "hub_restore_snapshot",
        {"snapshot": snap["name"], "plan_id": plan["plan_id"], "confirm": True},
    )
    assert done["matches_snapshot"] is True


async def test_a_plan_for_some_categories_reads_only_those(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    snap = await ok(call_tool, "hub_create_snapshot")
    await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": 9})
    before = len(hub.requests)
    choice = {"snapshot": snap["name"], "only": ["variables"]}
    plan = await ok(call_tool, "hub_get_restore_plan", choice)
    assert [s["item"] for s in plan["steps"]] == ["variable guestCount"]
    assert not [p for _m, p in _sent(hub, before) if "fullJson" in p or "/device/" in p]
    done = await ok(call_tool, "hub_restore_snapshot", {**choice, "plan_id": plan["plan_id"]})
    assert done["matches_snapshot"] is True
    # the hub as it was is kept; a diff against it skips what that restore did not read
    diff = await ok(
        call_tool, "hub_diff_snapshots", {"from_snapshot": done["snapshot_before_restore"]}
    )
    assert set(diff["categories"]) == {"variables"}, diff
    assert "devices" in diff["skipped_categories"]
