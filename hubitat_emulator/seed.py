"""The deterministic seeded home (devices, rooms, modes, variables, history, logs, backups)."""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta

from .app_events import seed_app_events
from .catalog import (
    CAPABILITIES,
    DRIVERS,
    DRIVERS_BY_NAME,
    DriverSpec,
)
from .clock import HUB_TZ, fmt_event, utcnow
from .commands import describe, to_attr_value, value_str
from .device_factory import new_device
from .model import (
    AttrState,
    Backup,
    Device,
    DeviceEvent,
    HomeState,
    HubEvent,
    LocationEvent,
    LogEntry,
    Mode,
    Room,
    Setting,
    Variable,
)
from .scenes import seed_scenes
from .seed_dev import seed_apps, seed_dev
from .seed_modes import seed_mode_manager
from .seed_specs import (
    APP_ECOBEE,
    APP_RULE_MACHINE,
    DASH_MAIN,
    HISTORY,
    HOME,
    PAD_DRIVERS,
    ROOMS,
    RULE_GOODNIGHT,
    RULE_LEAK,
    RULE_MOTION,
    SENSOR_ATTRS,
    DeviceSpec,
)
from .story import DAYS as STORY_DAYS
from .story import run_story

SEEDED_PREF_PASSWORD = "lock-bridge-pw-6b2d"

__all__ = [
    "APP_RULE_MACHINE",
    "DASH_MAIN",
    "RULE_GOODNIGHT",
    "RULE_LEAK",
    "RULE_MOTION",
    "SEEDED_PREF_PASSWORD",
    "new_device",
    "seed_home",
]


class _Ids:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.device = 2
        self.zwave_node = 5

    def next_device(self) -> int:
        self.device += self.rng.randint(1, 6)
        return self.device


def _make_dni(
    driver: DriverSpec, ids: _Ids, rng: random.Random, label: str
) -> tuple[str, str | None]:
    if driver.protocol == "zwave":
        ids.zwave_node += rng.randint(1, 3)
        return f"{ids.zwave_node:02X}", None
    if driver.protocol == "zigbee":
        ieee = "00158D000" + "".join(rng.choice("0123456789ABCDEF") for _ in range(7))
        return f"{rng.randint(0x1000, 0xFFFE):04X}", ieee
    if driver.protocol == "cloud":
        return f"ecobee|{rng.randint(311000000000, 311999999999)}", None
    if driver.protocol == "lan":
        return f"Lutron-{rng.randint(2, 60)}", None
    slug = "".join(ch if ch.isalnum() else "-" for ch in label.lower()).strip("-")
    return f"virtual-{slug}", None


def _history_values(
    current: object, adef_values: tuple[str, ...] | None, attr: str, n: int, rng: random.Random
) -> list[object]:
    """``n`` values ending with ``current`` (oldest first)."""
    if n <= 0:
        return []
    if attr in ("pushed", "held"):
        top = 4
        return [rng.randint(1, top) for _ in range(n - 1)] + [current if current else 1]
    if isinstance(current, (int, float)) and not isinstance(current, bool):
        vals: list[object] = [current]
        v = float(current)
        for _ in range(n - 1):
            if attr == "battery":
                v = min(100.0, v + rng.randint(0, 2))
            elif attr in ("power",):
                v = max(0.0, v + rng.uniform(-20, 20))
            elif attr == "energy":
                v = max(0.0, v - rng.uniform(0.1, 0.8))
            elif attr == "illuminance":
                v = max(0.0, v + rng.uniform(-80, 80))
            else:
                v = v + rng.uniform(-0.8, 0.8)
            vals.append(round(v) if isinstance(current, int) else round(v, 1))
        vals.reverse()
        return vals
    cycle: tuple[str, ...]
    if attr == "door" or attr == "windowShade":
        cycle = ("open", "closed")
    elif attr == "speed":
        cycle = ("medium", "off", "high", "low")
    elif attr == "thermostatOperatingState":
        cycle = ("heating", "idle")
    elif attr == "securityKeypad":
        cycle = ("armed away", "disarmed", "armed home")
    elif adef_values:
        cycle = tuple(
            v for v in adef_values if v not in ("unknown", "tested", "unlocked with timeout")
        )
        cycle = cycle[:2] if len(cycle) >= 2 else cycle
    else:
        return [current] * n
    cur = str(current)
    others = [c for c in cycle if c != cur] or [cur]
    out: list[object] = []
    for i in range(n - 1):
        out.append(others[i % len(others)] if (n - 1 - i) % 2 == 1 else cur)
    out.append(cur)
    return out


def _seed_history(
    state: HomeState,
    dev: Device,
    spec: DeviceSpec,
    now: datetime,
    rng: random.Random,
    events: list[DeviceEvent],
    *,
    light: bool,
) -> None:
    defs = dev.attr_defs()
    newest = now - timedelta(days=spec.days_old) if spec.days_old is not None else now
    window = timedelta(days=7)
    last_seen: datetime | None = None
    for attr, (per_week, chatty) in HISTORY.items():
        if attr not in defs or dev.value(attr) is None:
            continue
        n = 1 if light else max(1, int(per_week * rng.uniform(0.6, 1.3)))
        if spec.days_old is not None:
            last = newest - timedelta(minutes=rng.uniform(1, 90))
        elif chatty:
            last = now - timedelta(minutes=rng.uniform(2, 50))
        else:
            last = now - timedelta(minutes=rng.uniform(20, 60 * 30))
        start = last - window
        times = [*sorted(start + (last - start) * rng.random() for _ in range(n - 1)), last]
        adef = defs[attr]
        values = _history_values(dev.value(attr), adef.values, attr, n, rng)
        for t, v in zip(times, values, strict=True):
            etype: str | None = (
                None if attr in SENSOR_ATTRS else rng.choice(("digital", "physical"))
            )
            events.append(
                DeviceEvent(
                    id=0,
                    device_id=dev.id,
                    name=attr,
                    value=value_str(v),
                    unit=adef.unit,
                    description=describe(dev, attr, v, adef.unit),
                    date=t,
                    type=etype,
                )
            )
        dev.attrs[attr] = AttrState(dev.value(attr), last)
        if last_seen is None or last > last_seen:
            last_seen = last
    if last_seen is None:
        last_seen = newest - timedelta(hours=rng.uniform(1, 48))
    dev.last_activity = last_seen
    for st in dev.attrs.values():
        if st.date > last_seen:
            st.date = last_seen


def _build_device(
    state: HomeState,
    spec: DeviceSpec,
    ids: _Ids,
    rng: random.Random,
    now: datetime,
    maker_app_id: int,
    events: list[DeviceEvent],
    parent: Device | None = None,
    light: bool = False,
) -> list[Device]:
    driver = DRIVERS_BY_NAME[spec.driver]
    dev_id = ids.next_device()
    if parent is not None:
        dni, zb = f"{parent.dni}-ep{len(state.children_of(parent.id)) + 1:03d}", None
    else:
        dni, zb = _make_dni(driver, ids, rng, spec.label)
    dev = new_device(
        state, driver, device_id=dev_id, label=spec.label, dni=dni, now=now, name=spec.name
    )
    dev.zigbee_id = zb
    dev.room_id = spec.room
    dev.parent_id = parent.id if parent else None
    dev.disabled = spec.disabled
    dev.tags = list(spec.tags)
    dev.notes = spec.notes
    dev.created = now - timedelta(days=rng.randint(60, 900))
    defs = dev.attr_defs()
    for k, v in spec.attrs.items():
        dev.attrs[k] = AttrState(to_attr_value(defs.get(k), v), now)
    dev.apps_using = [maker_app_id, *spec.apps]
    dev.apps_using += [d for d in spec.dashboards]
    dev.dashboards = list(spec.dashboards)
    if driver.name == "Ecobee Thermostat":
        dev.parent_app_id = APP_ECOBEE
    if driver.protocol == "zwave":
        dev.data.update(
            {
                "firmwareVersion": f"{rng.randint(1, 9)}.{rng.randint(0, 40):02d}",
                "zwNodeInfo": "53 9C 00 04 10 01 5E 86 72 5A 85 59 73 26 27 70",
            }
        )
    elif driver.protocol == "zigbee":
        dev.data.update(
            {
                "application": f"{rng.randint(1, 80):02X}",
                "endpointId": "01",
                "softwareBuild": f"{rng.randint(1000000, 9999999)}",
            }
        )
    if "Light" in driver.capabilities or "SwitchLevel" in driver.capabilities:
        dev.default_current_state = "switch"
    state.devices[dev.id] = dev
    if light or spec.days_old is not None:
        _seed_history(state, dev, spec, now, rng, events, light=light)
    else:
        # the story (story.py) makes this device's history; the draws of the old one are
        # still made (and dropped) so that the device ids and addresses after it stay put
        _seed_history(state, dev, spec, now, rng, [], light=light)
        dev.last_activity = None
    out = [dev]
    for child in spec.children:
        out += _build_device(state, child, ids, rng, now, maker_app_id, events, parent=dev)
    return out


def _seed_location(state: HomeState, now: datetime, rng: random.Random) -> None:
    """Hub variable updates (modes and HSM come from the story)."""
    evs: list[LocationEvent] = []
    for name, var in state.variables.items():
        for k in range(rng.randint(1, 4)):
            t = now - timedelta(hours=rng.uniform(3, 160)) + timedelta(minutes=k)
            evs.append(
                LocationEvent(
                    0,
                    f"variable:{name}",
                    value_str(var.value) or "",
                    "hub variable updated",
                    "HUB_VARIABLE_SET",
                    t,
                )
            )
    evs.append(
        LocationEvent(
            0,
            "variable:guestCount",
            "2",
            "hub variable updated",
            "HUB_VARIABLE_SET",
            now - timedelta(minutes=20),
        )
    )
    evs.sort(key=lambda e: e.date)
    state.location_events = evs


_RULE_CLASS = "user_app_hubitat_Rule_5_1_341"


def _seed_logs(state: HomeState, now: datetime) -> None:
    """The Leak Alarm rule's crash (its trigger device is gone); the story logs the rest."""
    logs: list[LogEntry] = []
    t_err = now - timedelta(hours=3, minutes=12)
    logs.append(
        LogEntry(
            t_err,
            "error",
            "app",
            RULE_LEAK,
            "<b>Leak Alarm</b>",
            "java.lang.NullPointerException: Cannot invoke method toInteger() on null object"
            " on line 412 (method handleWater)",
            [
                f"\tat {_RULE_CLASS}.handleWater({_RULE_CLASS}.groovy:412)",
                f"\tat {_RULE_CLASS}.eventHandler({_RULE_CLASS}.groovy:98)",
            ],
        )
    )
    state.logs = logs


def _chronological(state: HomeState) -> None:
    """Event ids in time order across devices, location and hub (as the hub allocates them),
    device histories and logs oldest first."""
    dated: list[tuple[datetime, int, object]] = []
    for dev in state.devices.values():
        dev.events.sort(key=lambda e: (e.date, e.id))
        dated += [(e.date, e.id, e) for e in dev.events]
    state.location_events.sort(key=lambda e: (e.date, e.id))
    dated += [(e.date, e.id, e) for e in state.location_events]
    dated += [(e.date, e.id, e) for e in state.hub_events]
    dated.sort(key=lambda x: (x[0], x[1]))
    for n, (_, _, ev) in enumerate(dated, start=1):
        ev.id = n  # type: ignore[attr-defined]
    state.next_event_id = len(dated) + 1
    state.logs.sort(key=lambda e: e.date)


def _seed_variables(now: datetime) -> dict[str, Variable]:
    alarm = now.astimezone(HUB_TZ).replace(hour=6, minute=30, second=0, microsecond=0)
    return {
        v.name: v
        for v in (
            Variable("guestCount", "integer", 2),
            Variable("doorOpenCount", "integer", 17),
            Variable("thermostatOffset", "bigdecimal", 1.5),
            Variable("outsideTemp", "bigdecimal", 48.7),
            Variable("vacationMode", "boolean", False),
            Variable("nightLightsEnabled", "boolean", True),
            Variable("lastArrival", "string", "Alice"),
            Variable("houseStatus", "string", "normal"),
            Variable("wakeUpTime", "datetime", fmt_event(alarm)),
        )
    }


def seed_home(
    seed: int = 1,
    device_count: int | None = None,
    *,
    maker_app_id: int = 12,
    now: datetime | None = None,
) -> HomeState:
    """Build the seeded home.

    ``device_count=None`` gives the realistic home (about 60 devices); an int pads it with generic
    devices up to that many (or truncates it).
    """
    rng = random.Random(seed)
    now = now or utcnow()
    hub_uid = str(uuid.UUID(int=random.Random(f"hub-uid-{seed}").getrandbits(128), version=4))
    mac = "34:E1:D1:" + ":".join(f"{rng.randint(0, 255):02X}" for _ in range(3))
    boot = now - timedelta(days=3, hours=4, minutes=rng.randint(0, 59))
    state = HomeState(
        seed=seed,
        hub_name="Home Hub",
        hub_uid=hub_uid,
        mac=mac,
        devices={},
        rooms={rid: Room(rid, name) for rid, name in ROOMS},
        modes=[
            Mode(1, "Day", "fa-sun", ["At <b>15 minutes</b> after sunrise"]),
            Mode(2, "Evening", "fa-cloud-sun", ["At sunset"]),
            Mode(3, "Night", "fa-moon", ["At 10:30 PM"]),
            Mode(4, "Away", "fa-car", ["When all presence sensors are not present"]),
        ],
        current_mode_id=1,
        hsm_status="disarmed",
        variables=_seed_variables(now),
        apps={},
        dashboards={},
        location_events=[],
        hub_events=[],
        logs=[],
        backups=[],
        boot_time=boot,
    )
    state.next_room_id = max(state.rooms) + 1
    state.next_mode_id = 5
    seed_apps(state, maker_app_id)
    seed_app_events(state, now)
    ids = _Ids(rng)
    events: list[DeviceEvent] = []
    built: list[Device] = []
    padded: set[int] = set()
    for spec in HOME:
        built += _build_device(state, spec, ids, rng, now, maker_app_id, events)
    if device_count is not None:
        if device_count < len(built):
            keep = {d.id for d in built[:device_count]}
            for d in built[device_count:]:
                del state.devices[d.id]
            for d in list(state.devices.values()):
                if d.parent_id is not None and d.parent_id not in keep:
                    del state.devices[d.id]
            events = [e for e in events if e.device_id in state.devices]
        n = len(state.devices)
        while n < device_count:
            kind, drv = PAD_DRIVERS[n % len(PAD_DRIVERS)]
            room = ROOMS[n % len(ROOMS)][0] if n % 5 else None
            spec = DeviceSpec(f"Bench {kind} {n + 1:03d}", drv, room)
            padded |= {
                d.id
                for d in _build_device(state, spec, ids, rng, now, maker_app_id, events, light=True)
            }
            n += 1
    # the hub logs and event ids are global and chronological
    events.sort(key=lambda e: e.date)
    for ev in events:
        ev.id = state.alloc_event_id()
        state.devices[ev.device_id].events.append(ev)
    _seed_location(state, now, rng)
    for lev in state.location_events:
        lev.id = state.alloc_event_id()
    prev_boot = boot - timedelta(days=3, hours=7)
    for t in (prev_boot, boot):
        state.hub_events.append(
            HubEvent(
                state.alloc_event_id(),
                "systemStart",
                state.version,
                f"System startup with build: {state.version}",
                t,
            )
        )
    _seed_logs(state, now)
    created = now - timedelta(hours=30)
    stamp = created.astimezone(HUB_TZ).strftime("%Y-%m-%d~%H-%M")
    state.backups.append(
        Backup(f"{stamp}~{state.version}.lzf", created, 18_874_368 + rng.randint(0, 999_999))
    )
    state.next_device_id = max(state.devices) + 1
    for dev in state.devices.values():
        if dev.label == "Front Door Lock":  # a password-type driver preference
            dev.settings["bridgeLogin"] = Setting("bridgeLogin", "password", SEEDED_PREF_PASSWORD)
    seed_dev(state)
    if device_count is None:  # the realistic home only: trimmed homes keep their exact count
        seed_scenes(state)
    seed_mode_manager(state)
    window = now - timedelta(days=STORY_DAYS)
    stale = {d.id for d in built if d.last_activity is not None and d.last_activity < window}
    stale |= padded  # benchmark padding keeps its one-event history
    run_story(state, now, rng, stale | {d.id for d in state.devices.values() if d.disabled})
    _chronological(state)
    assert all(c in CAPABILITIES for d in DRIVERS.values() for c in d.capabilities)
    return state
