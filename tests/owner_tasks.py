"""Owner-style tasks over the seeded home, each done as a model on the compact surface would.

Shared by ``tests/e2e/test_call_counts.py`` (each task's calls bounded) and
``benchmarks/calls.py`` (the total and the median printed). A task gets an :class:`Assistant`
that counts its calls; gateways count as one call, like any other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

Call = Callable[[str, dict[str, Any]], Awaitable[tuple[bool, Any]]]


class TaskFailed(AssertionError):
    """A task's answer was wrong or a call failed."""


class Assistant:
    """Calls tools by name through ``call``; ``gateway_of`` says where a tool sits."""

    def __init__(self, call: Call, gateway_of: Callable[[str], str | None]) -> None:
        self._call = call
        self._gateway_of = gateway_of
        self.calls = 0

    async def __call__(self, name: str, args: dict[str, Any] | None = None) -> Any:
        self.calls += 1
        gateway = self._gateway_of(name)
        if gateway is None:
            is_error, data = await self._call(name, args or {})
        else:
            is_error, data = await self._call(gateway, {"tool": name, "args": args or {}})
        if is_error:
            raise TaskFailed(f"{name} failed: {data}")
        return data


def check(ok: bool, what: str) -> None:
    """Fail the task unless ``ok``."""
    if not ok:
        raise TaskFailed(what)


def _by_label(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["label"]: d for d in data["devices"]}


async def back_door_locked(bot: Assistant) -> None:
    data = await bot("hub_list_devices", {"text": "back door lock", "fields": ["states.lock"]})
    check(len(data["devices"]) == 1 and "lock" in data["devices"][0]["states"], "lock state")


async def porch_light_on(bot: Assistant) -> None:
    found = await bot("hub_list_devices", {"text": "porch light", "fields": ["label"]})
    light = _by_label(found)["Porch Light"]["device_id"]
    await bot("hub_call_device_command", {"device_id": light, "command": "on"})


async def open_windows(bot: Assistant) -> None:
    data = await bot(
        "hub_list_devices",
        {"text": "window", "attribute": "contact", "fields": ["label", "states.contact"]},
    )
    check(all("Window" in d["label"] for d in data["devices"]), "only windows")


async def dining_temperature(bot: Assistant) -> None:
    data = await bot(
        "hub_list_devices",
        {"room": "Dining Room", "attribute": "temperature", "fields": ["states.temperature"]},
    )
    check(bool(data["devices"]), "a dining room temperature")


async def living_dimmer_half(bot: Assistant) -> None:
    found = await bot("hub_list_devices", {"text": "living room dimmer", "fields": ["label"]})
    dimmer = _by_label(found)["Living Room Dimmer"]["device_id"]
    await bot(
        "hub_call_device_command",
        {"device_id": dimmer, "command": "setLevel", "arguments": [50]},
    )


async def night_mode(bot: Assistant) -> None:
    await bot("hub_set_mode", {"mode": "Night"})


async def which_mode(bot: Assistant) -> None:
    data = await bot("hub_list_modes")
    check(bool(data.get("active_mode")), "the active mode")


async def alarm_armed(bot: Assistant) -> None:
    data = await bot("hub_get_hsm_status")
    check("status" in data or "hsm_status" in data, "the HSM status")


async def guest_count(bot: Assistant) -> None:
    data = await bot("hub_get_variable", {"name": "guestCount"})
    check("value" in data, "the variable's value")


async def set_guest_count(bot: Assistant) -> None:
    await bot("hub_set_variable", {"name": "guestCount", "value": 4})


async def paused_rules(bot: Assistant) -> None:
    data = await bot("hub_list_rules", {"engine": "rule_machine"})
    check(all("paused" in r for r in data["rules"]), "pause states")


async def pause_kitchen_rule(bot: Assistant) -> None:
    rules = await bot("hub_list_rules", {"with_status": False})
    rule = next(r for r in rules["rules"] if "Kitchen" in r["name"])
    await bot("hub_set_rule_paused", {"app_id": rule["app_id"], "paused": True})


async def kitchen_room(bot: Assistant) -> None:
    data = await bot("hub_get_room", {"room": "Kitchen"})
    check(bool(data.get("devices")), "the kitchen's devices")


async def movie_switch(bot: Assistant) -> None:
    await bot(
        "hub_create_device",
        {"driver": "Virtual Switch", "label": "Movie Time", "room": "Living Room"},
    )


async def firmware(bot: Assistant) -> None:
    data = await bot("hub_get_info")
    check("firmware" in str(data).lower() or "version" in str(data).lower(), "the firmware")


async def low_batteries(bot: Assistant) -> None:
    data = await bot(
        "hub_list_devices",
        {"attribute": "battery", "comparator": "lt", "value": 25, "fields": ["label"]},
    )
    check(bool(data["devices"]), "low batteries")


async def log_errors(bot: Assistant) -> None:
    await bot("hub_get_logs", {"level": "error", "hours_back": 24})


async def silent_devices(bot: Assistant) -> None:
    await bot("hub_get_device_health")


async def make_backup(bot: Assistant) -> None:
    await bot("hub_create_backup")


async def door_rule(bot: Assistant) -> None:
    found = await bot("hub_list_devices", {"fields": ["label"], "limit": 200})
    devs = _by_label(found)
    await bot(
        "hub_create_rule",
        {
            "rule": {
                "name": "Back door light at night",
                "triggers": [
                    {
                        "device_id": devs["Back Door"]["device_id"],
                        "attribute": "contact",
                        "is": "open",
                    }
                ],
                "conditions": {"between": {"from": "sunset", "to": "sunrise"}},
                "actions": [{"command": "on", "device_ids": [devs["Kitchen Light"]["device_id"]]}],
            }
        },
    )


async def what_rule_does(bot: Assistant) -> None:
    rules = await bot("hub_list_rules", {"engine": "rule_machine", "with_status": False})
    rule = next(r for r in rules["rules"] if "Kitchen" in r["name"])
    data = await bot("hub_get_rule", {"app_id": rule["app_id"]})
    check(bool(data["rule_text"]), "the rule text")


async def kitchen_lights_off(bot: Assistant) -> None:
    data = await bot("hub_call_room_command", {"room": "Kitchen", "command": "off"})
    check(data["counts"].get("ok", 0) >= 1, "a kitchen light confirmed off")
    check(not data["counts"].get("failed"), "no light failed")


async def movie_time(bot: Assistant) -> None:
    data = await bot("hub_call_scene", {"scene": "Movie Time"})
    check(data["activator_on"] is True and data["states"], "scene activated, states read back")


async def night_mode_time(bot: Assistant) -> None:
    data = await bot("hub_list_modes")
    check(isinstance(data.get("mode_manager"), dict), "the Mode Manager's triggers")


async def why_light_on(bot: Assistant) -> None:
    found = await bot("hub_list_devices", {"text": "kitchen light", "fields": ["label"]})
    light = _by_label(found)["Kitchen Light"]["device_id"]
    # "last night, around ten past midnight": the seeded story's snack (story.py)
    why = await bot(
        "hub_get_event_cause",
        {"device_id": light, "attribute": "switch", "value": "on", "at": "00:10"},
    )
    check(bool(why["producer"]["evidence"]) and bool(why["summary"]), "a producer, with evidence")
    check("Motion Lights" in str(why["producer"]), "the motion rule named as the producer")


async def any_rule_broken(bot: Assistant) -> None:
    data = await bot("hub_get_rule_health")
    kinds = {(f["rule"], f["kind"]) for f in data["findings"]}
    check(("Leak Alarm", "broken") in kinds, "the broken leak rule")
    check(("Goodnight", "never_runs") in kinds, "the rule its restriction keeps from running")


async def good_night(bot: Assistant) -> None:
    lights = await bot(
        "hub_list_devices",
        {"capability": "Light", "attribute": "switch", "value": "on", "fields": ["label"]},
    )
    locks = await bot(
        "hub_list_devices", {"attribute": "lock", "value": "unlocked", "fields": ["label"]}
    )
    commands = [{"device_id": d["device_id"], "command": "off"} for d in lights["devices"]]
    commands += [{"device_id": d["device_id"], "command": "lock"} for d in locks["devices"]]
    if commands:  # locking needs the owner's yes: "good night" is it
        await bot("hub_call_device_command", {"commands": commands[:20], "confirm": True})
    await bot("hub_set_mode", {"mode": "Night"})


async def changed_since_snapshot(bot: Assistant) -> None:
    listed = await bot("hub_list_snapshots")
    if not listed["snapshots"]:  # none yet: take one now, so the next question has a base
        await bot("hub_create_snapshot")
        listed = await bot("hub_list_snapshots")
    diff = await bot("hub_diff_snapshots", {"from_snapshot": listed["snapshots"][0]["name"]})
    check("changes" in diff, "a count of changes")


@dataclass(frozen=True, slots=True)
class Task:
    """One owner request, the function doing it, and the most calls it may take."""

    ask: str
    run: Callable[[Assistant], Awaitable[None]]
    max_calls: int


TASKS: tuple[Task, ...] = (
    Task("Is the back door locked?", back_door_locked, 1),
    Task("Turn on the porch light.", porch_light_on, 2),
    Task("Which windows are open?", open_windows, 1),
    Task("How warm is the dining room?", dining_temperature, 1),
    Task("Set the living room dimmer to half.", living_dimmer_half, 2),
    Task("Put the house in Night mode.", night_mode, 1),
    Task("What mode is the house in?", which_mode, 1),
    Task("Is the alarm armed?", alarm_armed, 1),
    Task("How many guests does the hub think we have?", guest_count, 1),
    Task("We have four guests now.", set_guest_count, 1),
    Task("Which rules are paused?", paused_rules, 1),
    Task("Pause the kitchen motion rule.", pause_kitchen_rule, 2),
    Task("What is in the kitchen?", kitchen_room, 1),
    Task("Add a virtual Movie Time switch in the living room.", movie_switch, 1),
    Task("What firmware is the hub on?", firmware, 1),
    Task("Any batteries under 25%?", low_batteries, 1),
    Task("Any errors in the log today?", log_errors, 1),
    Task("Which devices went silent?", silent_devices, 1),
    Task("Make a backup first.", make_backup, 1),
    Task("When the back door opens at night, turn on the kitchen light.", door_rule, 2),
    Task("What does the kitchen motion rule do?", what_rule_does, 2),
    Task("Turn off the kitchen lights.", kitchen_lights_off, 1),
    Task("Start movie time.", movie_time, 1),
    Task("When does the house switch to Night?", night_mode_time, 1),
    Task("What turned the kitchen light on last night?", why_light_on, 2),
    Task("Is any of my rules broken?", any_rule_broken, 1),
    Task("Good night: lights off, doors locked, Night mode.", good_night, 4),
    Task("What changed since my last snapshot?", changed_since_snapshot, 4),
)
