"""The seeded home's last days come from one run on one clock (hubitat_emulator/story.py).

Replayed here: every log line that names a device has that device's event at that instant,
rules' commands name their producer and follow their trigger, modes follow the sun and the
clock of the hub's zone, outdoor light is dark at night, and the home ends as it is declared.
"""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime, time, timedelta

import pytest

from hubitat_emulator import seed_home
from hubitat_emulator.clock import HUB_TZ
from hubitat_emulator.model import Device, DeviceEvent, HomeState
from hubitat_emulator.seed_specs import HOME, RL_OFFICE, RULE_MOTION, DeviceSpec
from hubitat_emulator.story import DAYS
from hubitat_emulator.sun import sun_times

NOW = datetime(2026, 12, 3, 14, 20, tzinfo=UTC)  # 07:20 in Denver


def _home(now: datetime = NOW) -> HomeState:
    return seed_home(1, now=now)


def _window(state: HomeState, now: datetime) -> list[tuple[Device, DeviceEvent]]:
    start = now - timedelta(days=DAYS)
    return [(d, e) for d in state.devices.values() for e in d.events if start <= e.date <= now]


def _specs() -> dict[str, DeviceSpec]:
    out: dict[str, DeviceSpec] = {}
    stack = list(HOME)
    while stack:
        spec = stack.pop()
        out[spec.label] = spec
        stack += spec.children
    return out


@pytest.mark.parametrize("now", [NOW, NOW + timedelta(hours=9), NOW + timedelta(hours=17)])
def test_every_log_line_naming_a_device_has_its_event(now: datetime) -> None:
    state = _home(now)
    events = _window(state, now)
    at: dict[tuple[int, datetime], list[DeviceEvent]] = {}
    for dev, ev in events:
        at.setdefault((dev.id, ev.date), []).append(ev)
    labels = {
        d.display_name: d for d in state.devices.values() if d.display_name and not d.disabled
    }
    checked = 0
    for line in state.logs:
        if line.date < now - timedelta(days=DAYS):
            continue
        if line.type == "dev":
            # a reading's line is its event's own text, at its instant; a driver's debug or
            # warning line comes before the event it leads to, within a minute
            after = [
                e
                for d, e in events
                if d.id == line.source_id
                and timedelta(0) <= e.date - line.date <= timedelta(seconds=60)
            ]
            assert after, f"no event of device {line.source_id} for {line}"
            if line.level == "info":
                same = at.get((line.source_id, line.date), [])
                assert any(e.description == line.msg for e in same), line
            checked += 1
            continue
        for label, dev in labels.items():
            if re.search(rf"\b{re.escape(label)}\b", line.msg):
                window = [
                    e
                    for d, e in events
                    if d.id == dev.id and abs(e.date - line.date) <= timedelta(seconds=2)
                ]
                assert window, f"{line.name}: '{line.msg}' has no event of {label}"
                checked += 1
    assert checked > 500


def test_rule_commands_name_their_producer_and_follow_their_trigger() -> None:
    state = _home()
    events = _window(state, NOW)
    motion = next(d for d in state.devices.values() if d.label == "Kitchen Motion")
    by_rule = [
        (d, e)
        for d, e in events
        if e.name.startswith("command-") and e.produced_by and f"/{RULE_MOTION}'" in e.produced_by
    ]
    assert len(by_rule) >= DAYS  # breakfast, dinner, the snack after midnight, ...
    for dev, ev in by_rule:
        assert dev.label == "Kitchen Light" and ev.name == "command-on"
        assert "Motion Lights - Kitchen" in str(ev.produced_by)
        trigger = [
            e
            for e in motion.events
            if e.name == "motion"
            and e.value == "active"
            and timedelta(0) <= ev.date - e.date <= timedelta(seconds=5)
        ]
        assert trigger, f"the rule acted at {ev.date} without its trigger"
        rule_events = state.apps[RULE_MOTION].events
        assert any(
            a.value == "triggered"
            and timedelta(0) <= a.date - trigger[-1].date <= timedelta(seconds=5)
            for a in rule_events
        )
    office = [e for _, e in events if e.produced_by and f"/{RL_OFFICE}'" in e.produced_by]
    assert office
    # the light the owner asks about: on after midnight, by the rule, after motion
    night = [e for d, e in by_rule if e.date.astimezone(HUB_TZ).time() < time(1, 0)]
    assert night, "no kitchen light turned on by the rule after midnight"


@pytest.mark.parametrize("now", [NOW, NOW + timedelta(hours=6), NOW + timedelta(hours=15)])
def test_modes_and_light_follow_the_sun_and_the_hubs_clock(now: datetime) -> None:
    state = _home(now)
    start = now - timedelta(days=DAYS)
    modes = [e for e in state.location_events if e.name == "mode" and e.date >= start]
    assert modes
    for ev in modes:
        local = ev.date.astimezone(HUB_TZ)
        rise, set_ = sun_times(local.date(), state.latitude, state.longitude, HUB_TZ)
        if ev.value == "Day" and abs(ev.date - (rise + timedelta(minutes=15))) > timedelta(
            seconds=1
        ):
            # the only other way into Day: coming home from Away
            earlier = [m for m in modes if m.date < ev.date]
            assert earlier and earlier[-1].value == "Away", ev
        if ev.value == "Evening":
            assert abs(ev.date - set_) <= timedelta(seconds=1), ev
        if ev.value == "Night":
            assert (local.hour, local.minute) == (22, 30), ev
    assert state.current_mode.name == modes[-1].value
    porch = next(d for d in state.devices.values() if d.label == "Front Porch Motion")
    for lux in porch.events:
        if lux.name != "illuminance" or lux.date < start:
            continue
        rise, set_ = sun_times(
            lux.date.astimezone(HUB_TZ).date(), state.latitude, state.longitude, HUB_TZ
        )
        if not rise <= lux.date <= set_:
            assert float(str(lux.value)) == 0, lux


def test_the_home_ends_as_declared_and_keeps_its_faults() -> None:
    state = _home()
    specs = _specs()
    for dev in state.devices.values():
        spec = specs.get(dev.label or "")
        if spec is None or dev.disabled:
            continue
        for attr in ("switch", "contact", "motion", "lock", "presence", "battery", "water"):
            if attr in spec.attrs:
                assert dev.value(attr) == spec.attrs[attr], (dev.label, attr, dev.value(attr))
        if spec.days_old is not None:
            assert dev.last_activity is not None
            assert NOW - dev.last_activity > timedelta(days=spec.days_old - 0.2), dev.label
        else:
            assert dev.last_activity is not None
            assert NOW - dev.last_activity < timedelta(days=DAYS), dev.label
    low = [line for line in state.logs if "battery is low" in line.msg]
    assert len(low) >= 3
    assert any("NullPointerException" in line.msg for line in state.logs)
    ids = [e.id for d in state.devices.values() for e in d.events]
    assert len(ids) == len(set(ids))
    dated = [(e.id, e.date) for d in state.devices.values() for e in d.events]
    dated += [(e.id, e.date) for e in state.location_events]
    dated.sort()
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(dated))
