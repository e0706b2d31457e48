"""The restore planner (``managers/snapshot_restore.py``): which steps put a live hub back to
a snapshot, in which order, and which changes it refuses. Pure data in, steps out: the
documents here are small hand-made ones of the shape ``SnapshotManager.collect`` writes;
the last test plans over the emulated hub, no hass (the snapshot manager reading only the
categories a plan covers, as hub_get_restore_plan asks for them).

The restore itself (each step run through its own tool, the gates, the audit, the snapshot
store, approvals) is tested through the tools in tests/tools/test_snapshot_restore.py; the
over-the-hub planning here was added next to its test_a_plan_for_some_categories_reads_only_
those, which stays there (the tool's answer and the diff against the hub before it)."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterable
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.snapshot_restore import (
    BackupFinder,
    BackupIndex,
    Planner,
    Selection,
    Step,
    _copies_of,
    plan_id,
)
from custom_components.hubitat_dev_tools.managers.snapshots import HEADER
from custom_components.hubitat_dev_tools.redact import REDACTED
from hubitat_emulator import HubEmulator

SHA_A = "a" * 64
SHA_B = "b" * 64
SHA_C = "c" * 64

GOODNIGHT_SPEC: dict[str, Any] = {
    "name": "Goodnight",
    "triggers": [{"type": "mode", "modes": ["Night"]}],
    "actions": [
        {"type": "off", "devices": ["6"]},
        {"type": "set_variable", "variable": "guestCount", "value": 0},
    ],
}
PORCH_DEFINITION: dict[str, Any] = {
    "name": "Porch at dusk",
    "whenNodes": [{"type": "sunset", "offset": 0}],
    "thenNodes": [{"type": "device", "deviceIds": [7], "command": "on"}],
    "elseNodes": [],
    "rulePaused": False,
}


def _device(label: str, room: str | None, room_id: str | None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "label": label,
        "name": "Generic Zigbee Bulb",
        "type": "Generic Zigbee Bulb",
        "driver": "Generic Zigbee Bulb",
        "room": room,
        "room_id": room_id,
        "tags": [],
        "disabled": False,
        "parent_id": None,
        "preferences": {
            "transitionTime": {"type": "enum", "value": "1"},
            "logEnable": {"type": "bool", "value": True},
        },
    }
    out.update(extra)
    return out


def _app(name: str, kind: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": name,
        "type": kind,
        "parent_id": None,
        "disabled": False,
        "user": False,
    }
    out.update(extra)
    return out


def base() -> dict[str, Any]:
    """A small hub: two rooms, two devices, modes with Mode Manager triggers, variables, a
    user app, a Rule Machine rule, a Visual Rule, a dashboard, code and a file."""
    return {
        "snapshot": {
            "format": 1,
            "hub_uid": "uid-1",
            "hub_name": "Home",
            "taken": "2026-01-01T00:00:00+00:00",
        },
        "hub": {
            "location": {
                "name": "Home",
                "time_zone": "Europe/London",
                "latitude": 51.5,
                "longitude": -0.1,
                "zip_code": "SW1A",
                "temperature_scale": "C",
                "time_format": "24",
                "date_format": "dd/MM/yyyy",
            },
            "platform": {"firmware": "2.4.1.100", "model": "C-8"},
        },
        "devices": {
            "6": _device("Kitchen Light", "Kitchen", "1"),
            "7": _device("Porch Light", "Porch", "2"),
        },
        "rooms": {
            "1": {"name": "Kitchen", "device_ids": ["6"]},
            "2": {"name": "Porch", "device_ids": ["7"]},
        },
        "modes": {
            "1": {"name": "Day", "icon": "sun"},
            "2": {"name": "Night", "icon": "moon"},
            "current": {"active_mode": "Day"},
            "mode_manager": {
                "selected": "Mode Manager",
                "triggers": {
                    "Day": [{"type": "time", "time": "07:00"}],
                    "Night": [{"type": "time", "time": "22:00", "device_ids": ["7"]}],
                },
            },
        },
        "variables": {
            "guestCount": {"type": "integer", "value": 2},
            "awayMessage": {"type": "string", "value": "Out"},
        },
        "apps": {
            "30": _app("Mode Manager", "Mode Manager", settings={"useTime": True}),
            "40": _app(
                "My Notifier",
                "Notifier",
                user=True,
                settings={"delay": 5, "message": "Hello", "apiKey": REDACTED},
            ),
            "50": _app("Main", "Easy Dashboard", settings={"theme": "dark"}),
            "100": _app("Rule Machine", "Rule Machine"),
            "142": _app("Goodnight", "Rule-5.1", parent_id="100", settings={"x": 1}),
            "143": _app("Porch at dusk", "Visual Rule"),
        },
        "rules": {
            "142": {
                "name": "Goodnight",
                "engine": "rule_machine",
                "disabled": False,
                "parent_id": "100",
                "spec": copy.deepcopy(GOODNIGHT_SPEC),
                "rule_text": ["Trigger: Mode becomes Night", "Actions: Off: Kitchen Light"],
            },
            "143": {
                "name": "Porch at dusk",
                "engine": "visual",
                "disabled": False,
                "parent_id": None,
                "definition": copy.deepcopy(PORCH_DEFINITION),
            },
        },
        "dashboards": {"50": {"name": "Main", "type": "easy", "device_ids": ["6", "7"]}},
        "code": {
            "driver-12": {
                "kind": "driver",
                "name": "My Driver",
                "namespace": "me",
                "version": "3",
                "sha256": SHA_A,
            },
            "app-20": {
                "kind": "app",
                "name": "My App",
                "namespace": "me",
                "version": "1",
                "sha256": SHA_A,
            },
        },
        "files": {"notes.txt": {"size": 5, "sha256": SHA_A}},
    }


def plan(
    snapshot: dict[str, Any],
    live: dict[str, Any],
    selection: Selection | None = None,
    backups: BackupFinder | None = None,
) -> list[Step]:
    return Planner(snapshot, live, selection or Selection(), backups).plan()


def summary(steps: Iterable[Step]) -> list[tuple[str, str, str | None]]:
    return [(s.category, s.item, s.action) for s in steps]


def one(steps: list[Step]) -> Step:
    assert len(steps) == 1, summary(steps)
    return steps[0]


def no_marker_in_args(steps: Iterable[Step]) -> None:
    for step in steps:
        assert REDACTED not in json.dumps(step.args, default=str), step


# ------------------------------------------------------------------ baseline


def test_same_documents_give_no_step() -> None:
    assert plan(base(), base()) == []


def test_platform_and_timestamps_are_not_planned() -> None:
    live = base()
    live["hub"]["platform"]["firmware"] = "2.4.2.1"
    live["snapshot"]["taken"] = "2026-02-01T00:00:00+00:00"
    assert plan(base(), live) == []


# ------------------------------------------------------------------ order


def _everything_changed() -> tuple[dict[str, Any], dict[str, Any]]:
    """A snapshot and a live hub that differ in every category, with additions and
    removals, so every phase has a step."""
    snap = base()
    snap["rooms"]["3"] = {"name": "Garage", "device_ids": ["7"]}
    snap["devices"]["7"].update(room="Garage", room_id="3")
    snap["rooms"]["2"]["device_ids"] = []
    snap["modes"]["3"] = {"name": "Away", "icon": "car"}
    snap["modes"]["mode_manager"]["triggers"]["Away"] = [{"type": "presence", "all_away": True}]
    snap["variables"]["vacation"] = {"type": "boolean", "value": False}
    snap["rules"]["142"]["spec"]["actions"].append(
        {"type": "set_variable", "variable": "vacation", "value": True}
    )

    live = base()
    # removed since: room 3, mode 3, variable vacation; device 7 left Garage for no room
    live["devices"]["7"].update(room=None, room_id=None)
    live["rooms"]["2"]["device_ids"] = []
    live["modes"]["mode_manager"]["triggers"].pop("Night")
    live["rules"]["142"]["spec"] = copy.deepcopy(GOODNIGHT_SPEC)
    live["hub"]["location"]["name"] = "House"
    live["devices"]["6"]["label"] = "Lamp"
    live["apps"]["40"]["settings"]["delay"] = 9
    live["code"]["app-20"]["sha256"] = SHA_B
    live["files"]["notes.txt"]["sha256"] = SHA_B
    live["dashboards"]["50"]["name"] = "Main (old)"
    live["apps"]["50"]["name"] = "Main (old)"
    # added since, one of each
    live["rules"]["150"] = {
        "name": "Lights off",
        "engine": "rule_machine",
        "disabled": False,
        "parent_id": "100",
        "spec": {"name": "Lights off"},
    }
    live["apps"]["150"] = _app("Lights off", "Rule-5.1", parent_id="100")
    live["apps"]["41"] = _app("Other Notifier", "Notifier", user=True)
    live["dashboards"]["51"] = {"name": "Spare", "type": "easy", "device_ids": []}
    live["apps"]["51"] = _app("Spare", "Easy Dashboard")
    live["code"]["driver-13"] = {
        "kind": "driver",
        "name": "Other Driver",
        "namespace": "me",
        "version": "1",
        "sha256": SHA_C,
    }
    live["files"]["scratch.txt"] = {"size": 1, "sha256": SHA_C}
    live["devices"]["8"] = _device("New Plug", None, None)
    live["variables"]["newVar"] = {"type": "string", "value": "x"}
    live["modes"]["4"] = {"name": "Party", "icon": "cake"}
    live["rooms"]["5"] = {"name": "Attic", "device_ids": []}
    return snap, live


def _backups(kind: str, item: str, sha: str) -> str | None:
    return f"{kind}-{item}-{sha[:4]}"


def test_order_of_every_phase() -> None:
    snap, live = _everything_changed()
    steps = plan(snap, live, backups=_backups)
    got = summary(steps)
    assert all(s.possible for s in steps), [s for s in steps if not s.possible]
    position = {(c, i, a): n for n, (c, i, a) in enumerate(got)}

    def at(category: str, item: str, action: str) -> int:
        assert (category, item, action) in position, got
        return position[(category, item, action)]

    hub = at("hub", "location", "update_hub_settings")
    create_room = at("rooms", "3", "create_room")
    create_mode = at("modes", "3", "create_mode")
    create_var = at("variables", "vacation", "create_variable")
    move_device = at("devices", "7", "update_device")
    relabel = at("devices", "6", "update_device")
    triggers = [n for n, s in enumerate(steps) if s.action == "update_mode_manager"]
    rule = at("rules", "142", "update_rule")
    assert hub < create_room
    # rooms and modes exist before devices move into them / Mode Manager switches to them
    assert create_room < move_device and create_room < relabel
    assert create_mode < min(triggers)
    # variables before the rules that use them
    assert create_var < rule
    assert steps[move_device].args["room"] == "Garage"
    assert {steps[n].args["mode"] for n in triggers} == {"Away", "Night"}
    # removals last, users first
    removals = [
        ("rules", "150", "delete_app"),
        ("apps", "41", "delete_app"),
        ("dashboards", "51", "delete_dashboard"),
        ("devices", "8", "delete_device"),
        ("code", "driver-13", "delete_code"),
        ("files", "scratch.txt", "delete_file"),
        ("variables", "newVar", "delete_variable"),
        ("modes", "4", "delete_mode"),
        ("rooms", "5", "delete_room"),
    ]
    assert got[-len(removals) :] == removals
    assert all(s.phase >= 20 for s in steps[-len(removals) :])
    assert all(s.phase < 20 for s in steps[: -len(removals)])
    # the non-removal steps, by phase
    assert [s.phase for s in steps] == sorted(s.phase for s in steps)
    first_seen: list[str] = []
    for s in steps[: -len(removals)]:
        key = "mode_manager" if s.action == "update_mode_manager" else s.category
        if key not in first_seen:
            first_seen.append(key)
    assert first_seen == [
        "hub",
        "rooms",
        "modes",
        "variables",
        "devices",
        "mode_manager",
        "code",
        "files",
        "apps",
        "rules",
        "dashboards",
    ]


def test_plan_is_stable_whatever_the_key_order() -> None:
    snap, live = _everything_changed()
    reversed_live = {
        k: (dict(reversed(list(v.items()))) if isinstance(v, dict) and k != "hub" else v)
        for k, v in live.items()
    }
    first = plan(snap, live, backups=_backups)
    again = plan(snap, reversed_live, backups=_backups)
    assert summary(first) == summary(again)
    assert plan_id(first) == plan_id(again)


def test_a_device_added_since_is_removed_before_the_driver_it_uses() -> None:
    snap = base()
    live = base()
    live["code"]["driver-13"] = {
        "kind": "driver",
        "name": "Other Driver",
        "namespace": "me",
        "version": "1",
        "sha256": SHA_C,
    }
    live["devices"]["8"] = _device("New Plug", None, None, driver="Other Driver")
    got = summary(plan(snap, live))
    assert got.index(("devices", "8", "delete_device")) < got.index(
        ("code", "driver-13", "delete_code")
    )


# ------------------------------------------------------------------ selection


def _rules_and_devices_changed() -> tuple[dict[str, Any], dict[str, Any]]:
    snap = base()
    live = base()
    live["rules"]["142"]["spec"]["actions"] = []
    live["rules"]["143"]["definition"]["thenNodes"] = []
    live["devices"]["6"]["label"] = "Lamp"
    live["variables"]["guestCount"]["value"] = 5
    return snap, live


def test_selection_everything_by_default() -> None:
    snap, live = _rules_and_devices_changed()
    assert sorted(summary(plan(snap, live))) == [
        ("devices", "6", "update_device"),
        ("rules", "142", "update_rule"),
        ("rules", "143", "update_visual_rule"),
        ("variables", "guestCount", "set_variable"),
    ]


def test_selection_only_a_category() -> None:
    snap, live = _rules_and_devices_changed()
    got = summary(plan(snap, live, Selection(only=("rules",))))
    assert got == [("rules", "142", "update_rule"), ("rules", "143", "update_visual_rule")]


def test_selection_only_minus_an_item() -> None:
    snap, live = _rules_and_devices_changed()
    got = summary(plan(snap, live, Selection(only=("rules",), exclude=("rules:142",))))
    assert got == [("rules", "143", "update_visual_rule")]


def test_selection_exclude_an_item_keeps_the_rest() -> None:
    snap, live = _rules_and_devices_changed()
    got = summary(plan(snap, live, Selection(exclude=("rules:142",))))
    assert ("rules", "142", "update_rule") not in got
    assert ("rules", "143", "update_visual_rule") in got
    assert ("devices", "6", "update_device") in got


def test_selection_exclude_by_name_without_case() -> None:
    snap, live = _rules_and_devices_changed()
    got = summary(plan(snap, live, Selection(exclude=("GOODNIGHT", "devices:kitchen LIGHT"))))
    assert sorted(got) == [
        ("rules", "143", "update_visual_rule"),
        ("variables", "guestCount", "set_variable"),
    ]
    # the live name counts too (device 6 is "Lamp" now)
    got = summary(plan(snap, live, Selection(exclude=("lamp",))))
    assert ("devices", "6", "update_device") not in got


def test_selection_only_by_name_and_by_variable_name() -> None:
    snap, live = _rules_and_devices_changed()
    got = summary(plan(snap, live, Selection(only=("porch at dusk", "variables:GUESTCOUNT"))))
    assert sorted(got) == [
        ("rules", "143", "update_visual_rule"),
        ("variables", "guestCount", "set_variable"),
    ]


def test_selection_category_prefix_is_not_another_category() -> None:
    snap, live = _rules_and_devices_changed()
    # "rules:6" names rule 6, not device 6
    got = summary(plan(snap, live, Selection(exclude=("rules:6",))))
    assert ("devices", "6", "update_device") in got


def test_excluded_removals_and_impossible_items_give_no_step() -> None:
    snap = base()
    live = base()
    del live["devices"]["7"]  # impossible: removed device
    live["devices"]["8"] = _device("New Plug", None, None)  # delete_device
    live["rules"]["142"]["undecoded"] = ["some part"]  # impossible
    live["rules"]["142"]["spec"]["actions"] = []
    assert len(plan(snap, live)) == 3
    steps = plan(snap, live, Selection(exclude=("devices:7", "New Plug", "rules")))
    assert steps == []


def test_selection_of_hub_settings() -> None:
    snap = base()
    live = base()
    live["hub"]["location"]["time_zone"] = "UTC"
    assert summary(plan(snap, live, Selection(only=("hub",)))) == [
        ("hub", "location", "update_hub_settings")
    ]
    assert plan(snap, live, Selection(exclude=("hub",))) == []
    assert plan(snap, live, Selection(only=("rules",))) == []


# ------------------------------------------------------------------ devices


def test_device_changes_are_one_update_with_exactly_the_changed_fields() -> None:
    snap = base()
    live = base()
    dev = live["devices"]["6"]
    dev.update(label="Lamp", room="Porch", room_id="2", disabled=True)
    dev["preferences"]["transitionTime"]["value"] = "3"
    live["rooms"]["1"]["device_ids"] = []
    live["rooms"]["2"]["device_ids"] = ["6", "7"]
    step = one(plan(snap, live))
    assert step.action == "update_device"
    assert step.args == {
        "device_id": "6",
        "label": "Kitchen Light",
        "room": "Kitchen",
        "enabled": True,
        "preferences": {"transitionTime": "1"},
    }
    assert step.devices == ("6",)
    assert step.current["label"] == "Lamp"
    assert step.wanted["room"] == "Kitchen"


def test_device_one_field_only() -> None:
    snap = base()
    live = base()
    live["devices"]["7"]["tags"] = ["outside"]
    step = one(plan(snap, live))
    assert step.args == {"device_id": "7", "tags": []}


def test_device_back_to_no_room() -> None:
    snap = base()
    snap["devices"]["7"].update(room=None, room_id=None)
    snap["rooms"]["2"]["device_ids"] = []
    live = base()
    step = one(plan(snap, live))
    assert step.args == {"device_id": "7", "room": "unassigned"}


def test_a_room_made_again_under_a_new_id_is_matched_by_name() -> None:
    snap = base()
    live = base()
    live["rooms"]["9"] = live["rooms"].pop("1")
    live["devices"]["6"]["room_id"] = "9"
    planner = Planner(snap, live)
    assert planner.plan() == []
    assert planner.live_ids == {("rooms", "1"): "9"}


def test_a_renamed_room_is_renamed_back_before_devices_are_moved() -> None:
    snap = base()
    live = base()
    live["rooms"]["1"]["name"] = "Cooking"
    live["devices"]["6"]["room"] = "Cooking"
    steps = plan(snap, live)
    assert summary(steps)[0] == ("rooms", "1", "update_room")
    assert steps[0].args == {"room": "1", "new_name": "Kitchen"}
    for step in steps[1:]:
        assert step.action == "update_device"
        assert step.args.get("room") == "Kitchen"


def test_a_redacted_preference_is_a_separate_impossible_step() -> None:
    snap = base()
    snap["devices"]["6"]["preferences"]["password"] = {"type": "password", "value": REDACTED}
    live = base()
    live["devices"]["6"]["preferences"]["password"] = {"type": "password", "value": ""}
    live["devices"]["6"]["preferences"]["transitionTime"]["value"] = "2"
    live["devices"]["6"]["label"] = "Lamp"
    steps = plan(snap, live)
    assert len(steps) == 2
    update, secret = steps
    assert update.action == "update_device"
    assert update.args == {
        "device_id": "6",
        "label": "Kitchen Light",
        "preferences": {"transitionTime": "1"},
    }
    assert secret.action is None and not secret.possible
    assert secret.reason and "redacted" in secret.reason
    assert "password" in secret.change
    no_marker_in_args(steps)


def test_only_a_redacted_preference_changed() -> None:
    snap = base()
    snap["devices"]["6"]["preferences"]["password"] = {"type": "password", "value": REDACTED}
    live = base()
    live["devices"]["6"]["preferences"]["password"] = {"type": "password", "value": ""}
    step = one(plan(snap, live))
    assert step.action is None and step.reason
    assert step.args == {}


def test_a_driver_change_is_impossible() -> None:
    snap = base()
    live = base()
    live["devices"]["6"]["driver"] = "Generic Zigbee RGBW Light"
    live["devices"]["6"]["type"] = "Generic Zigbee RGBW Light"
    step = one(plan(snap, live))
    assert step.action is None and step.reason
    assert step.current == "Generic Zigbee RGBW Light"
    assert step.wanted == "Generic Zigbee Bulb"


def test_a_removed_device_is_impossible_with_a_reason() -> None:
    snap = base()
    live = base()
    del live["devices"]["7"]
    live["rooms"]["2"]["device_ids"] = []
    step = one(plan(snap, live))
    assert (step.category, step.item, step.action) == ("devices", "7", None)
    assert step.reason and "pair" in step.reason
    assert "preferences" not in step.wanted  # a brief of the device, not its settings


def test_an_added_device_is_deleted() -> None:
    snap = base()
    live = base()
    live["devices"]["8"] = _device("New Plug", None, None)
    step = one(plan(snap, live))
    assert step.action == "delete_device"
    assert step.args == {"device_id": "8"}
    assert step.phase >= 20


# ------------------------------------------------------------------ variables


def test_variable_value_is_set_back() -> None:
    snap = base()
    live = base()
    live["variables"]["guestCount"]["value"] = 7
    step = one(plan(snap, live))
    assert step.action == "set_variable"
    assert step.args == {"name": "guestCount", "value": 2}
    assert (step.current, step.wanted) == (7, 2)


def test_variable_deleted_since_is_created_with_type_and_value() -> None:
    snap = base()
    live = base()
    del live["variables"]["awayMessage"]
    step = one(plan(snap, live))
    assert step.action == "create_variable"
    assert step.args == {"name": "awayMessage", "type": "string", "value": "Out"}


def test_variable_type_change_is_delete_then_create() -> None:
    snap = base()
    live = base()
    live["variables"]["guestCount"] = {"type": "string", "value": "two"}
    steps = plan(snap, live)
    assert summary(steps) == [
        ("variables", "guestCount", "delete_variable"),
        ("variables", "guestCount", "create_variable"),
    ]
    assert steps[0].args["name"] == "guestCount"
    assert steps[1].args == {"name": "guestCount", "type": "integer", "value": 2}
    assert steps[0].phase == steps[1].phase < 20  # not with the removals


def test_variable_added_since_is_deleted() -> None:
    snap = base()
    live = base()
    live["variables"]["extra"] = {"type": "string", "value": "x"}
    step = one(plan(snap, live))
    assert step.action == "delete_variable"
    assert step.args == {"name": "extra"}


def test_a_redacted_variable_value_is_not_written() -> None:
    snap = base()
    snap["variables"]["apiToken"] = {"type": "string", "value": REDACTED}
    live = base()
    step = one(plan(snap, live))
    assert step.action is None and step.reason
    no_marker_in_args([step])


# ------------------------------------------------------------------ modes


def test_a_mode_rename_is_one_update_mode_and_no_trigger_step() -> None:
    snap = base()
    live = base()
    live["modes"]["1"]["name"] = "Daytime"
    triggers = live["modes"]["mode_manager"]["triggers"]
    triggers["Daytime"] = triggers.pop("Day")
    step = one(plan(snap, live))
    assert step.action == "update_mode"
    assert step.args == {"mode": "1", "new_name": "Day"}


def test_mode_manager_trigger_change_puts_back_the_snapshot_triggers() -> None:
    snap = base()
    live = base()
    live["modes"]["mode_manager"]["triggers"]["Night"] = [{"type": "time", "time": "23:30"}]
    step = one(plan(snap, live))
    assert step.action == "update_mode_manager"
    assert step.args == {
        "mode": "Night",
        "triggers": [{"type": "time", "time": "22:00", "device_ids": ["7"]}],
    }
    assert step.devices == ("7",)


def test_renamed_mode_with_changed_triggers_uses_the_snapshot_name_after_the_rename() -> None:
    snap = base()
    live = base()
    live["modes"]["1"]["name"] = "Daytime"
    triggers = live["modes"]["mode_manager"]["triggers"]
    triggers.pop("Day")
    triggers["Daytime"] = [{"type": "time", "time": "08:00"}]
    steps = plan(snap, live)
    assert summary(steps) == [
        ("modes", "1", "update_mode"),
        ("modes", "mode_manager", "update_mode_manager"),
    ]
    assert steps[1].args == {"mode": "Day", "triggers": [{"type": "time", "time": "07:00"}]}


def test_a_mode_made_again_under_a_new_id_compares_its_triggers() -> None:
    snap = base()
    live = base()
    live["modes"]["5"] = live["modes"].pop("2")
    planner = Planner(snap, live)
    assert planner.plan() == []
    assert planner.live_ids == {("modes", "2"): "5"}
    live["modes"]["mode_manager"]["triggers"]["Night"] = []
    steps = Planner(snap, live).plan()
    assert summary(steps) == [("modes", "mode_manager", "update_mode_manager")]
    assert steps[0].args["mode"] == "Night"


def test_the_active_mode_is_never_planned() -> None:
    snap = base()
    live = base()
    live["modes"]["current"] = {"active_mode": "Night"}
    assert plan(snap, live) == []


def test_mode_manager_selection_is_switched_back() -> None:
    snap = base()
    live = base()
    live["modes"]["mode_manager"]["selected"] = "Rule"
    step = one(plan(snap, live))
    assert step.action == "update_mode_manager"
    assert step.args == {"manager": "Mode Manager"}


def test_mode_removed_and_added() -> None:
    snap = base()
    live = base()
    del live["modes"]["2"]
    live["modes"]["mode_manager"]["triggers"].pop("Night")
    live["modes"]["7"] = {"name": "Party", "icon": "cake"}
    live["modes"]["mode_manager"]["triggers"]["Party"] = [{"type": "time", "time": "20:00"}]
    steps = plan(snap, live)
    assert summary(steps) == [
        ("modes", "2", "create_mode"),
        ("modes", "mode_manager", "update_mode_manager"),
        ("modes", "7", "delete_mode"),
    ]
    assert steps[0].args == {"name": "Night", "icon": "moon"}
    assert steps[1].args["mode"] == "Night"


# ------------------------------------------------------------------ rules


def test_rm_rule_spec_change_is_update_rule_in_place() -> None:
    snap = base()
    live = base()
    live["rules"]["142"]["spec"]["actions"] = [{"type": "on", "devices": ["6"]}]
    live["rules"]["142"]["rule_text"] = ["Actions: On: Kitchen Light"]
    step = one(plan(snap, live))
    assert step.action == "update_rule"
    assert step.args == {"app_id": "142", "rule": GOODNIGHT_SPEC}
    assert step.apps == ("142",)
    assert step.document == GOODNIGHT_SPEC


def test_rm_rule_deleted_since_is_created() -> None:
    snap = base()
    live = base()
    del live["rules"]["142"]
    del live["apps"]["142"]
    step = one(plan(snap, live))
    assert step.action == "create_rule"
    assert step.args == {"rule": GOODNIGHT_SPEC}


def test_rules_added_since_are_deleted() -> None:
    snap = base()
    live = base()
    live["rules"]["150"] = {
        "name": "Lights off",
        "engine": "rule_machine",
        "disabled": False,
        "parent_id": "100",
        "spec": {"name": "Lights off"},
    }
    live["apps"]["150"] = _app("Lights off", "Rule-5.1", parent_id="100")
    live["rules"]["151"] = {
        "name": "Hall",
        "engine": "visual",
        "disabled": False,
        "parent_id": None,
        "definition": {"name": "Hall"},
    }
    live["apps"]["151"] = _app("Hall", "Visual Rule")
    steps = plan(snap, live)
    assert summary(steps) == [
        ("rules", "150", "delete_app"),
        ("rules", "151", "delete_visual_rule"),
    ]
    assert steps[0].args == {"app_id": "150"}


@pytest.mark.parametrize("side", ["snapshot", "live"])
def test_rm_rule_with_undecoded_parts_is_impossible(side: str) -> None:
    snap = base()
    live = base()
    live["rules"]["142"]["spec"]["actions"] = []
    (snap if side == "snapshot" else live)["rules"]["142"]["undecoded"] = ["Custom Action x"]
    step = one(plan(snap, live))
    assert step.action is None
    assert step.reason and "Custom Action x" in step.reason


def test_rm_rule_deleted_with_undecoded_parts_is_impossible() -> None:
    snap = base()
    snap["rules"]["142"]["undecoded"] = ["Custom Action x"]
    live = base()
    del live["rules"]["142"]
    del live["apps"]["142"]
    step = one(plan(snap, live))
    assert step.action is None and step.reason


def test_rm_rule_without_spec_in_the_snapshot_is_impossible() -> None:
    snap = base()
    del snap["rules"]["142"]["spec"]
    live = base()
    step = one(plan(snap, live))
    assert step.action is None
    assert step.reason and "spec" in step.reason
    assert step.wanted == {"rule_text": snap["rules"]["142"]["rule_text"]}


def test_rm_rule_text_only_differs_gives_no_step() -> None:
    snap = base()
    live = base()
    live["rules"]["142"]["rule_text"] = ["Trigger: Mode becomes Night", "*BROKEN* Off"]
    live["rules"]["142"]["parent_id"] = "101"
    assert plan(snap, live) == []


def test_rm_rule_made_again_under_a_new_id_is_the_same_rule() -> None:
    snap = base()
    live = base()
    live["rules"]["150"] = live["rules"].pop("142")
    live["apps"]["150"] = live["apps"].pop("142")
    planner = Planner(snap, live)
    assert planner.plan() == []
    assert planner.live_ids[("rules", "142")] == "150"


def test_rm_rule_made_again_and_changed_is_updated_under_its_live_id() -> None:
    snap = base()
    live = base()
    live["rules"]["150"] = live["rules"].pop("142")
    live["apps"]["150"] = live["apps"].pop("142")
    live["rules"]["150"]["spec"]["actions"] = []
    live["rules"]["150"]["disabled"] = True
    steps = plan(snap, live)
    assert summary(steps) == [("rules", "142", "update_rule"), ("rules", "142", "set_app_disabled")]
    assert steps[0].args["app_id"] == "150"
    assert steps[1].args == {"app_id": "150", "disabled": False}


def test_visual_rule_definition_change_is_update_visual_rule() -> None:
    snap = base()
    live = base()
    live["rules"]["143"]["definition"]["thenNodes"] = [{"type": "notify", "text": "hi"}]
    step = one(plan(snap, live))
    assert step.action == "update_visual_rule"
    assert step.args == {
        "app_id": "143",
        "name": "Porch at dusk",
        "when_nodes": PORCH_DEFINITION["whenNodes"],
        "then_nodes": PORCH_DEFINITION["thenNodes"],
        "else_nodes": [],
        "paused": False,
    }


def test_visual_rule_deleted_since_is_created() -> None:
    snap = base()
    live = base()
    del live["rules"]["143"]
    del live["apps"]["143"]
    step = one(plan(snap, live))
    assert step.action == "create_visual_rule"
    assert step.args["when_nodes"] == PORCH_DEFINITION["whenNodes"]
    assert "app_id" not in step.args


@pytest.mark.parametrize("rule_id", ["142", "143"])
def test_rule_disabled_flip_is_set_app_disabled(rule_id: str) -> None:
    snap = base()
    live = base()
    live["rules"][rule_id]["disabled"] = True
    live["apps"][rule_id]["disabled"] = True
    step = one(plan(snap, live))
    assert step.action == "set_app_disabled"
    assert step.args == {"app_id": rule_id, "disabled": False}
    assert step.category == "rules"


def test_rule_of_another_engine_is_impossible() -> None:
    snap = base()
    snap["rules"]["160"] = {"name": "Old", "engine": "rule_4", "disabled": False}
    live = base()
    live["rules"]["160"] = {"name": "Old", "engine": "rule_4", "disabled": False, "x": 1}
    step = one(plan(snap, live))
    assert step.action is None and step.reason


def test_a_rule_spec_with_a_redacted_part_is_not_written_back() -> None:
    snap = base()
    snap["rules"]["142"]["spec"]["actions"].append(
        {"type": "http_get", "http_get": f"http://10.0.0.2/api?token={REDACTED}"}
    )
    live = base()
    del live["rules"]["142"]
    del live["apps"]["142"]
    step = one(plan(snap, live))
    assert step.action is None and step.reason
    no_marker_in_args([step])


# ------------------------------------------------------------------ apps


def test_user_app_setting_is_put_back_alone() -> None:
    snap = base()
    live = base()
    live["apps"]["40"]["settings"]["delay"] = 30
    step = one(plan(snap, live))
    assert step.action == "update_app_settings"
    assert step.args == {"app_id": "40", "settings": {"delay": 5}}
    assert step.current == {"delay": 30}


@pytest.mark.parametrize("change", ["added", "redacted"])
def test_app_setting_added_since_or_redacted_is_impossible(change: str) -> None:
    snap = base()
    live = base()
    if change == "added":
        live["apps"]["40"]["settings"]["extra"] = True
    else:
        live["apps"]["40"]["settings"]["apiKey"] = ""
    live["apps"]["40"]["settings"]["delay"] = 30
    steps = plan(snap, live)
    assert summary(steps) == [("apps", "40", "update_app_settings"), ("apps", "40", None)]
    assert steps[0].args == {"app_id": "40", "settings": {"delay": 5}}
    assert steps[1].reason
    no_marker_in_args(steps)


def test_app_setting_with_a_redacted_part_is_not_written_back() -> None:
    snap = base()
    snap["apps"]["40"]["settings"]["httper"] = f"http://10.0.0.2/hook?token={REDACTED}"
    live = base()
    live["apps"]["40"]["settings"]["httper"] = "http://10.0.0.3/hook"
    steps = plan(snap, live)
    no_marker_in_args(steps)


def test_app_disabled_and_renamed() -> None:
    snap = base()
    live = base()
    live["apps"]["40"]["disabled"] = True
    live["apps"]["40"]["name"] = "Notifier 2"
    steps = plan(snap, live)
    assert summary(steps) == [("apps", "40", "set_app_disabled"), ("apps", "40", None)]
    assert steps[0].args == {"app_id": "40", "disabled": False}


def test_rules_and_dashboards_are_left_to_their_own_categories() -> None:
    snap = base()
    live = base()
    for app_id in ("142", "143", "50"):
        live["apps"][app_id]["settings"] = {"changed": True}
    assert plan(snap, live) == []
    # removed from the app tree with the rule / dashboard: only their own steps
    del live["apps"]["142"]
    del live["rules"]["142"]
    del live["apps"]["50"]
    del live["dashboards"]["50"]
    assert summary(plan(snap, live)) == [
        ("rules", "142", "create_rule"),
        ("dashboards", "50", "create_dashboard"),
    ]


def test_mode_manager_app_gives_no_apps_step() -> None:
    snap = base()
    live = base()
    live["apps"]["30"]["settings"] = {"useTime": False}
    live["apps"]["30"]["disabled"] = True
    assert plan(snap, live) == []


def test_app_removed_since_is_impossible_and_added_is_deleted() -> None:
    snap = base()
    live = base()
    del live["apps"]["40"]
    live["apps"]["41"] = _app("Other", "Notifier", user=True)
    steps = plan(snap, live)
    assert summary(steps) == [("apps", "40", None), ("apps", "41", "delete_app")]
    assert steps[0].reason


def test_an_unavailable_rules_category_does_not_leak_into_apps() -> None:
    snap = base()
    live = base()
    live["snapshot"]["unavailable"] = {"rules": "hub_timeout: no answer"}
    del live["rules"]
    live["apps"]["150"] = _app("Lights off", "Rule-5.1", parent_id="100")
    assert plan(snap, live) == []


# ------------------------------------------------------------------ code and files


def test_code_with_a_backup_is_restored_from_it() -> None:
    snap = base()
    live = base()
    live["code"]["driver-12"]["sha256"] = SHA_B
    live["code"]["driver-12"]["version"] = "4"
    asked: list[tuple[str, str, str]] = []

    def finder(kind: str, item: str, sha: str) -> str | None:
        asked.append((kind, item, sha))
        return "driver_12_backup.json"

    step = one(plan(snap, live, backups=finder))
    assert asked == [("driver", "12", SHA_A)]
    # the source is read from the backup when the step runs, checked against the sha256
    assert step.action == "update_code"
    assert step.args == {"type": "driver", "id": "12"}
    assert step.source == "driver_12_backup.json" and step.sha256 == SHA_A
    assert step.wanted == {"sha256": SHA_A}


def test_code_deleted_since_with_a_backup_is_restored() -> None:
    snap = base()
    live = base()
    del live["code"]["app-20"]
    step = one(plan(snap, live, backups=_backups))
    assert step.action == "install_code" and step.args == {"type": "app"}
    assert step.source == f"app-20-{SHA_A[:4]}"


@pytest.mark.parametrize("finder", [None, lambda _k, _i, _s: None])
def test_code_without_a_backup_is_impossible(finder: BackupFinder | None) -> None:
    snap = base()
    live = base()
    live["code"]["driver-12"]["sha256"] = SHA_B
    step = one(plan(snap, live, backups=finder))
    assert step.action is None and step.reason
    assert step.source is None


def test_code_made_again_under_a_new_id_is_restored_into_the_live_item() -> None:
    snap = base()
    live = base()
    live["code"]["driver-14"] = {**live["code"].pop("driver-12"), "sha256": SHA_B}
    planner = Planner(snap, live, backups=_backups)
    step = one(planner.plan())
    assert planner.live_ids == {("code", "driver-12"): "driver-14"}
    assert step.action is None or "14" in json.dumps(step.args)


def test_code_version_only_gives_no_step() -> None:
    snap = base()
    live = base()
    live["code"]["driver-12"]["version"] = "9"
    assert plan(snap, live, backups=_backups) == []


def test_code_added_since_is_deleted() -> None:
    snap = base()
    live = base()
    live["code"]["library-3"] = {
        "kind": "library",
        "name": "Lib",
        "namespace": "me",
        "version": "1",
        "sha256": SHA_C,
    }
    step = one(plan(snap, live))
    assert step.action == "delete_code"
    assert step.args == {"type": "library", "id": "3"}


def test_file_with_a_backup_copy_is_written_back() -> None:
    snap = base()
    live = base()
    live["files"]["notes.txt"] = {"size": 9, "sha256": SHA_B}
    asked: list[tuple[str, str, str]] = []

    def finder(kind: str, item: str, sha: str) -> str | None:
        asked.append((kind, item, sha))
        return "notes_backup_20260101-000000-000-01.txt"

    step = one(plan(snap, live, backups=finder))
    assert asked == [("file", "notes.txt", SHA_A)]
    assert step.action == "write_file"
    assert step.args == {"file_name": "notes.txt"}
    assert step.source == "notes_backup_20260101-000000-000-01.txt"


def test_file_deleted_since_with_a_copy_is_written_again() -> None:
    snap = base()
    live = base()
    del live["files"]["notes.txt"]
    step = one(plan(snap, live, backups=_backups))
    assert step.action == "write_file"
    assert step.source == f"file-notes.txt-{SHA_A[:4]}"


def test_file_without_a_backup_is_impossible() -> None:
    snap = base()
    live = base()
    live["files"]["notes.txt"]["sha256"] = SHA_B
    step = one(plan(snap, live))
    assert step.action is None and step.reason


def test_file_added_since_is_deleted() -> None:
    snap = base()
    live = base()
    live["files"]["new.txt"] = {"size": 1, "sha256": SHA_C}
    step = one(plan(snap, live))
    assert step.action == "delete_file"
    assert step.args == {"file_name": "new.txt"}


def test_copies_of_a_file_newest_first() -> None:
    names = [
        "notes.txt",
        "notes_backup_20260101-000000-000-01.txt",
        "notes_backup_20260301-120000-500-01.txt",
        "notes_backup_20260301-120000-500-02.txt",
        "notes_backup_20260201-000000-000-01.csv",
        "mynotes_backup_20260401-000000-000-01.txt",
        "notes.v2_backup_20260401-000000-000-01.txt",
        "other.txt",
        "notes2.txt",
    ]
    assert _copies_of("notes.txt", names) == [
        "notes_backup_20260301-120000-500-02.txt",
        "notes_backup_20260301-120000-500-01.txt",
        "notes_backup_20260101-000000-000-01.txt",
    ]
    assert _copies_of("README", ["README", "README_backup_20260101-000000-000-01"]) == [
        "README_backup_20260101-000000-000-01"
    ]
    assert _copies_of("missing.txt", names) == []


# ------------------------------------------------------------------ dashboards


def test_dashboard_rename_and_devices_are_one_update() -> None:
    snap = base()
    live = base()
    live["dashboards"]["50"] = {"name": "Downstairs", "type": "easy", "device_ids": ["6"]}
    live["apps"]["50"]["name"] = "Downstairs"
    step = one(plan(snap, live))
    assert step.action == "update_dashboard"
    assert step.args == {"dashboard_id": "50", "name": "Main", "device_ids": ["6", "7"]}
    assert step.devices == ("6", "7")


def test_dashboard_devices_only() -> None:
    snap = base()
    live = base()
    live["dashboards"]["50"]["device_ids"] = ["7"]
    step = one(plan(snap, live))
    assert step.args == {"dashboard_id": "50", "device_ids": ["6", "7"]}


def test_dashboard_deleted_since_is_created() -> None:
    snap = base()
    live = base()
    del live["dashboards"]["50"]
    del live["apps"]["50"]
    step = one(plan(snap, live))
    assert step.action == "create_dashboard"
    assert step.args == {"name": "Main", "kind": "easy", "device_ids": ["6", "7"]}


# ------------------------------------------------------------------ hub settings


def test_hub_settings_are_one_step() -> None:
    snap = base()
    live = base()
    live["hub"]["location"]["name"] = "House"
    live["hub"]["location"]["temperature_scale"] = "F"
    step = one(plan(snap, live))
    assert step.action == "update_hub_settings"
    assert step.args == {"hub_name": "Home", "temperature_scale": "C"}
    assert step.current == {"name": "House", "temperature_scale": "F"}
    assert step.wanted == {"name": "Home", "temperature_scale": "C"}


def test_time_zone_is_a_step_of_its_own_after_everything_else() -> None:
    # the hub reboots to change its time zone: after every other step, removals too
    snap, live = _everything_changed()
    live["hub"]["location"]["time_zone"] = "UTC"
    steps = plan(snap, live, backups=_backups)
    hub = [s for s in steps if s.category == "hub"]
    assert [s.args for s in hub] == [{"hub_name": "Home"}, {"time_zone": "Europe/London"}]
    assert steps[-1] is hub[-1]
    assert steps[0] is hub[0]
    assert (steps[-1].current, steps[-1].wanted) == ("UTC", "Europe/London")
    tz_live = base()
    tz_live["hub"]["location"]["time_zone"] = "UTC"
    assert one(plan(base(), tz_live)).args == {"time_zone": "Europe/London"}


def test_hub_setting_without_a_writer_is_impossible() -> None:
    snap = base()
    live = base()
    live["hub"]["location"]["date_format"] = "MM/dd/yyyy"
    live["hub"]["location"]["zip_code"] = "N1"
    steps = plan(snap, live)
    assert summary(steps) == [("hub", "location", None), ("hub", "location", "update_hub_settings")]
    assert steps[0].reason and "date_format" in steps[0].reason
    assert steps[1].args == {"zip_code": "SW1A"}


# ------------------------------------------------------------------ unavailable categories


@pytest.mark.parametrize("side", ["snapshot", "live"])
def test_an_unavailable_category_is_not_planned(side: str) -> None:
    snap = base()
    live = base()
    live["devices"]["6"]["label"] = "Lamp"
    live["variables"]["guestCount"]["value"] = 9
    doc = snap if side == "snapshot" else live
    doc["snapshot"]["unavailable"] = {"devices": "hub_timeout: no answer"}
    # named unavailable: not compared even if a map is there
    assert summary(plan(snap, live)) == [("variables", "guestCount", "set_variable")]
    # and as collect writes it: the category left out
    del doc["devices"]
    assert summary(plan(snap, live)) == [("variables", "guestCount", "set_variable")]


def test_a_category_missing_from_one_side_is_not_planned() -> None:
    snap = base()
    live = base()
    del live["rooms"]
    live["devices"]["6"]["label"] = "Lamp"
    assert summary(plan(snap, live)) == [("devices", "6", "update_device")]


# ------------------------------------------------------------------ plan id


def test_plan_id_is_the_same_for_the_same_plan() -> None:
    snap, live = _everything_changed()
    first = plan(snap, live, backups=_backups)
    second = plan(copy.deepcopy(snap), copy.deepcopy(live), backups=_backups)
    assert plan_id(first) == plan_id(second)
    assert len(plan_id(first)) == 12


def test_plan_id_changes_with_a_step_args() -> None:
    snap = base()
    live = base()
    live["variables"]["guestCount"]["value"] = 7
    before = plan(snap, live)
    snap2 = base()
    snap2["variables"]["guestCount"]["value"] = 3
    after = plan(snap2, live)
    assert summary(before) == summary(after)
    assert plan_id(before) != plan_id(after)
    # wording is not part of the id, a backup source is
    reworded = [dataclasses.replace(s, change="something else", label="x") for s in before]
    assert plan_id(reworded) == plan_id(before)
    sourced = [dataclasses.replace(s, source="copy.txt") for s in before]
    assert plan_id(sourced) != plan_id(before)
    assert plan_id([]) != plan_id(before)


async def test_a_plan_for_some_categories_reads_only_those(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    snapshots = manager_hub.snapshots
    snap = await snapshots.collect(hub_uid=emu.hub_uid, hub_name="Home")
    await manager_hub.variables.set_variable("guestCount", 9)
    await manager_hub.variables.set_variable("houseStatus", "party")
    selection = Selection(("variables:guestCount",), ())
    before = len(emu.requests)
    live = await snapshots.collect(
        hub_uid=emu.hub_uid, hub_name="Home", categories=selection.categories()
    )
    read = [p for _m, p in emu.requests[before:]]
    assert read and all(m == "GET" for m, _p in emu.requests[before:])
    assert not [p for p in read if "fullJson" in p or "/device/" in p]
    assert set(live) == {HEADER, "variables"}
    assert set(live[HEADER]["unavailable"]) >= {"devices", "rules", "apps", "code", "files"}
    index = await BackupIndex.build(
        snap, live, selection, item_backups=manager_hub.item_backups, files=manager_hub.files
    )
    (step,) = Planner(snap, live, selection, index).plan()
    assert (step.category, step.item, step.action) == ("variables", "guestCount", "set_variable")
    assert step.args == {"name": "guestCount", "value": 2}
