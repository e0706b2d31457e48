"""The deterministic seeded home (devices, rooms, modes, variables, history, logs, backups)."""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .catalog import (
    CAPABILITIES,
    DRIVERS,
    DRIVERS_BY_NAME,
    FAN_MODES,
    THERMOSTAT_MODES,
    DriverSpec,
    unique_attributes,
)
from .clock import HUB_TZ, utcnow
from .commands import describe, to_attr_value, value_str
from .devstate import seed_dev
from .model import (
    App,
    AttrState,
    Backup,
    Dashboard,
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

ROOMS: tuple[tuple[int, str], ...] = (
    (1, "Kitchen"),
    (2, "Living Room"),
    (3, "Dining Room"),
    (4, "Master Bedroom"),
    (5, "Guest Bedroom"),
    (6, "Office"),
    (7, "Garage"),
    (8, "Basement"),
    (9, "Front Porch"),
)

# App ids used by the seeded home (the Maker API instance gets ``maker_app_id``).
APP_HSM = 3
APP_MODE_MANAGER = 4
APP_RULE_MACHINE = 5
APP_ROOM_LIGHTING = 7
APP_BASIC_RULES = 9
APP_ECOBEE = 20
APP_DASHBOARD = 30
RULE_MOTION = 140
RULE_LEAK = 141
RULE_GOODNIGHT = 142
RL_OFFICE = 150
BR_PORCH = 160
DASH_MAIN = 31
DASH_TABLET = 32

ATTR_DEFAULTS: dict[str, object] = {
    "switch": "off",
    "level": 100,
    "colorTemperature": 2700,
    "colorName": "Soft White",
    "hue": 0,
    "saturation": 0,
    "RGB": "#FFFFFF",
    "color": "#FFFFFF",
    "colorMode": "CT",
    "power": 0,
    "energy": 0,
    "voltage": 120.4,
    "frequency": 60,
    "contact": "closed",
    "motion": "inactive",
    "tamper": "clear",
    "temperature": 70.2,
    "humidity": 44,
    "illuminance": 120,
    "battery": 100,
    "water": "dry",
    "smoke": "clear",
    "carbonMonoxide": "clear",
    "presence": "present",
    "lock": "locked",
    "codeChanged": None,
    "codeLength": 4,
    "lockCodes": "{}",
    "maxCodes": 30,
    "door": "closed",
    "valve": "open",
    "windowShade": "closed",
    "position": 0,
    "alarm": "off",
    "coolingSetpoint": 76,
    "heatingSetpoint": 68,
    "schedule": None,
    "supportedThermostatFanModes": json.dumps(list(FAN_MODES)),
    "supportedThermostatModes": json.dumps(list(THERMOSTAT_MODES)),
    "thermostatFanMode": "auto",
    "thermostatMode": "heat",
    "thermostatOperatingState": "idle",
    "thermostatSetpoint": 68,
    "numberOfButtons": 1,
    "pushed": None,
    "held": None,
    "released": None,
    "doubleTapped": None,
    "securityKeypad": "disarmed",
    "speed": "off",
    "supportedFanSpeeds": json.dumps(["low", "medium", "high", "off", "auto"]),
    "checkInterval": 7200,
    "rssi": -62,
    "lqi": 255,
}

# attribute -> (events per week, chatty): chatty attributes report within the last hour.
HISTORY: dict[str, tuple[int, bool]] = {
    "switch": (14, False),
    "level": (6, False),
    "contact": (12, False),
    "motion": (30, True),
    "temperature": (24, True),
    "humidity": (16, True),
    "illuminance": (12, True),
    "battery": (2, False),
    "power": (14, True),
    "energy": (6, False),
    "lock": (10, False),
    "door": (6, False),
    "presence": (6, False),
    "pushed": (5, False),
    "held": (2, False),
    "valve": (2, False),
    "water": (2, False),
    "speed": (6, False),
    "windowShade": (6, False),
    "thermostatOperatingState": (20, True),
    "securityKeypad": (4, False),
}

SENSOR_ATTRS = {
    "contact",
    "motion",
    "temperature",
    "humidity",
    "illuminance",
    "battery",
    "power",
    "energy",
    "water",
    "presence",
    "thermostatOperatingState",
}


@dataclass
class _Spec:
    label: str
    driver: str
    room: int | None
    attrs: dict[str, object] = field(default_factory=dict)
    days_old: float | None = None  # last activity this many days ago (stale device)
    disabled: bool = False
    apps: tuple[int, ...] = ()
    dashboards: tuple[int, ...] = ()
    tags: tuple[str, ...] = ()
    name: str | None = None
    children: tuple[_Spec, ...] = ()
    notes: str = ""


_LOCK_CODES = json.dumps(
    {
        "1": {"name": "Alice", "code": "4821"},
        "2": {"name": "Bob", "code": "7312"},
        "3": {"name": "Dog Walker", "code": "5550"},
    },
    separators=(",", ":"),
)

HOME: tuple[_Spec, ...] = (
    # Kitchen
    _Spec(
        "Kitchen Light",
        "Generic Z-Wave Dimmer",
        1,
        {"switch": "on", "level": 80},
        apps=(RULE_MOTION, RULE_GOODNIGHT),
        dashboards=(DASH_MAIN,),
        tags=("lights",),
    ),
    _Spec(
        "Kitchen Island Pendants",
        "Generic Zigbee RGBW Light",
        1,
        {"switch": "off", "level": 60, "colorTemperature": 3000, "colorMode": "CT"},
        apps=(RULE_GOODNIGHT,),
        dashboards=(DASH_MAIN,),
        tags=("lights",),
    ),
    _Spec(
        "Coffee Maker", "Generic Zigbee Outlet", 1, {"switch": "off", "power": 0.4, "energy": 12.7}
    ),
    _Spec(
        "Kitchen Motion",
        "Generic Zigbee Motion Sensor",
        1,
        {"motion": "active", "temperature": 71.3, "illuminance": 240, "battery": 87},
        apps=(RULE_MOTION,),
    ),
    _Spec(
        "Kitchen Sink Leak",
        "Generic Zigbee Moisture Sensor",
        1,
        {"water": "dry", "temperature": 68.9, "battery": 93},
        apps=(RULE_LEAK,),
        tags=("leak",),
    ),
    _Spec(
        "Back Door Lock",
        "Generic Zigbee Lock",
        1,
        {"lock": "locked", "battery": 64},
        apps=(RULE_GOODNIGHT,),
        dashboards=(DASH_MAIN, DASH_TABLET),
        tags=("security",),
    ),
    _Spec(
        "Back Door",
        "Generic Zigbee Contact Sensor",
        1,
        {"contact": "closed", "temperature": 66.1, "battery": 78},
        tags=("security",),
    ),
    # Living Room
    _Spec(
        "Living Room Lamp",
        "Generic Zigbee RGBW Light",
        2,
        {
            "switch": "on",
            "level": 45,
            "hue": 8,
            "saturation": 72,
            "colorMode": "RGB",
            "colorName": "Orange",
            "RGB": "#733B20",
            "color": "#733B20",
        },
        dashboards=(DASH_MAIN,),
        tags=("lights",),
    ),
    _Spec(
        "Living Room Dimmer",
        "Generic Z-Wave Smart Dimmer",
        2,
        {"switch": "off", "level": 70},
        apps=(RULE_GOODNIGHT,),
        tags=("lights",),
    ),
    _Spec(
        "Living Room Fan",
        "GE Enbrighten Z-Wave Smart Fan Control",
        2,
        {"switch": "on", "speed": "medium"},
        dashboards=(DASH_MAIN,),
    ),
    _Spec(
        "Living Room Shades",
        "Generic Zigbee Window Shade",
        2,
        {"windowShade": "open", "position": 100, "level": 100, "battery": 71},
    ),
    _Spec(
        "Living Room Motion",
        "Generic Zigbee Motion Sensor",
        2,
        {"motion": "inactive", "temperature": 70.8, "illuminance": 310, "battery": 66},
    ),
    _Spec("Living Room Pico", "Lutron Fast Pico", 2, {"numberOfButtons": 5, "pushed": 1}),
    _Spec("TV Outlet", "Generic Zigbee Outlet", 2, {"switch": "on", "power": 96.3, "energy": 41.2}),
    _Spec(
        "Living Room Window",
        "Generic Zigbee Contact Sensor",
        2,
        {"contact": "open", "temperature": 69.0, "battery": 82},
    ),
    _Spec(
        "Downstairs Thermostat",
        "Ecobee Thermostat",
        2,
        {
            "temperature": 69.5,
            "humidity": 41,
            "thermostatMode": "heat",
            "heatingSetpoint": 70,
            "coolingSetpoint": 76,
            "thermostatSetpoint": 70,
            "thermostatOperatingState": "heating",
        },
        dashboards=(DASH_MAIN, DASH_TABLET),
        tags=("climate",),
    ),
    # Dining Room
    _Spec(
        "Dining Chandelier",
        "Generic Z-Wave Dimmer",
        3,
        {"switch": "off", "level": 50},
        tags=("lights",),
    ),
    _Spec(
        "Dining Room Window",
        "Generic Z-Wave Contact Sensor",
        3,
        {"contact": "closed", "battery": 90},
    ),
    _Spec(
        "Dining Room Sensor",
        "Generic Zigbee Temperature/Humidity Sensor",
        3,
        {"temperature": 70.1, "humidity": 43, "battery": 12},
        tags=("climate",),
    ),
    # Master Bedroom
    _Spec(
        "Master Bedroom Lamp",
        "Generic Zigbee CT Bulb",
        4,
        {"switch": "off", "level": 30, "colorTemperature": 2200, "colorName": "Incandescent"},
        tags=("lights",),
    ),
    _Spec(
        "Master Bedroom Ceiling Light",
        "Generic Z-Wave Switch",
        4,
        {"switch": "off"},
        apps=(RULE_GOODNIGHT,),
        tags=("lights",),
    ),
    _Spec(
        "Upstairs Thermostat",
        "Ecobee Thermostat",
        4,
        {
            "temperature": 71.2,
            "humidity": 39,
            "thermostatMode": "heat",
            "heatingSetpoint": 68,
            "thermostatSetpoint": 68,
            "thermostatOperatingState": "idle",
        },
        tags=("climate",),
    ),
    _Spec(
        "Master Bedroom Motion",
        "Generic Zigbee Motion Sensor",
        4,
        {"motion": "inactive", "temperature": 70.4, "illuminance": 35, "battery": 58},
    ),
    _Spec(
        "Master Bedroom Window",
        "Generic Zigbee Contact Sensor",
        4,
        {"contact": "closed", "temperature": 67.2, "battery": 8},
    ),
    _Spec(
        "Bedside Button",
        "Generic Zigbee Button",
        4,
        {"numberOfButtons": 1, "pushed": 1, "battery": 95},
        apps=(RULE_GOODNIGHT,),
    ),
    # Guest Bedroom
    _Spec(
        "Guest Lamp", "Generic Zigbee CT Bulb", 5, {"switch": "off", "level": 100}, tags=("lights",)
    ),
    _Spec(
        "Guest Room Window",
        "Generic Zigbee Contact Sensor",
        5,
        {"contact": "closed", "temperature": 64.8, "battery": 51},
        days_old=5.5,
    ),
    _Spec(
        "Guest Room Sensor",
        "Generic Zigbee Temperature/Humidity Sensor",
        5,
        {"temperature": 65.3, "humidity": 47, "battery": 34},
    ),
    # Office
    _Spec(
        "Office Light",
        "Generic Z-Wave Dimmer",
        6,
        {"switch": "on", "level": 100},
        apps=(RL_OFFICE,),
        tags=("lights",),
    ),
    _Spec(
        "Office Desk Lamp",
        "Generic Zigbee RGBW Light",
        6,
        {"switch": "on", "level": 90, "colorTemperature": 4000, "colorName": "Moonlight"},
        apps=(RL_OFFICE,),
        tags=("lights",),
    ),
    _Spec(
        "Office Door",
        "Generic Zigbee Contact Sensor",
        6,
        {"contact": "open", "temperature": 72.4, "battery": 88},
    ),
    _Spec(
        "Office Motion",
        "Generic Zigbee Motion Sensor",
        6,
        {"motion": "active", "temperature": 72.9, "illuminance": 410, "battery": 76},
        apps=(RL_OFFICE,),
    ),
    _Spec(
        "Office Monitor Outlet",
        "Generic Zigbee Outlet",
        6,
        {"switch": "on", "power": 38.6, "energy": 22.9},
    ),
    # Garage
    _Spec(
        "Garage Door",
        "Linear GoControl Garage Door Opener",
        7,
        {"door": "closed", "contact": "closed"},
        apps=(RULE_GOODNIGHT,),
        dashboards=(DASH_MAIN, DASH_TABLET),
        tags=("security",),
    ),
    _Spec("Garage Light", "Generic Z-Wave Switch", 7, {"switch": "off"}, tags=("lights",)),
    _Spec(
        "Garage Motion",
        "Generic Zigbee Motion Sensor",
        7,
        {"motion": "inactive", "temperature": 58.2, "illuminance": 12, "battery": 15},
        days_old=4.2,
    ),
    _Spec(
        "Garage Freezer Sensor",
        "Generic Zigbee Temperature/Humidity Sensor",
        7,
        {"temperature": 3.2, "humidity": 61, "battery": 69},
    ),
    # Basement
    _Spec(
        "Water Main Valve",
        "Generic Z-Wave Valve",
        8,
        {"valve": "open"},
        apps=(RULE_LEAK,),
        tags=("leak", "security"),
    ),
    _Spec(
        "Water Heater Leak",
        "Generic Zigbee Moisture Sensor",
        8,
        {"water": "dry", "temperature": 62.7, "battery": 74},
        apps=(RULE_LEAK,),
        tags=("leak",),
    ),
    _Spec(
        "Sump Pump Leak",
        "Generic Zigbee Moisture Sensor",
        8,
        {"water": "dry", "temperature": 59.9, "battery": 18},
        apps=(RULE_LEAK,),
        days_old=6.3,
        tags=("leak",),
    ),
    _Spec(
        "Basement Siren",
        "Generic Zigbee Siren",
        8,
        {"alarm": "off", "battery": 100},
        apps=(RULE_LEAK,),
        tags=("security",),
    ),
    _Spec(
        "Basement Smoke/CO", "First Alert Smoke/CO Alarm", 8, {"battery": 85}, tags=("security",)
    ),
    _Spec("Basement Light", "Generic Z-Wave Switch", 8, {"switch": "off"}, tags=("lights",)),
    _Spec(
        "Basement Sensor",
        "Generic Zigbee Temperature/Humidity Sensor",
        8,
        {"temperature": 63.4, "humidity": 58, "battery": 41},
    ),
    _Spec(
        "Basement Double Plug",
        "Zooz ZEN25 Double Plug Advanced",
        8,
        {"switch": "on", "power": 212.5, "energy": 96.4, "voltage": 121.1},
        name="Zooz ZEN25 Double Plug",
        children=(
            _Spec(
                "Dehumidifier",
                "Generic Component Metering Switch",
                8,
                {"switch": "on", "power": 208.3, "energy": 88.1},
            ),
            _Spec(
                "Chest Freezer",
                "Generic Component Metering Switch",
                8,
                {"switch": "on", "power": 4.2, "energy": 8.3},
            ),
        ),
    ),
    # Front Porch
    _Spec(
        "Front Door Lock",
        "Generic Z-Wave Lock",
        9,
        {"lock": "locked", "battery": 72, "lockCodes": _LOCK_CODES, "codeLength": 4},
        apps=(RULE_GOODNIGHT, BR_PORCH),
        dashboards=(DASH_MAIN, DASH_TABLET),
        tags=("security",),
    ),
    _Spec(
        "Front Door",
        "Generic Zigbee Contact Sensor",
        9,
        {"contact": "closed", "temperature": 61.5, "battery": 91},
        tags=("security",),
    ),
    _Spec(
        "Porch Light",
        "Generic Z-Wave Switch",
        9,
        {"switch": "off"},
        apps=(BR_PORCH,),
        tags=("lights", "outdoor"),
    ),
    _Spec(
        "Front Porch Motion",
        "Generic Zigbee Motion Sensor",
        9,
        {"motion": "inactive", "temperature": 48.7, "illuminance": 1450, "battery": 63},
        apps=(BR_PORCH,),
        tags=("outdoor",),
    ),
    _Spec(
        "Holiday Lights",
        "Generic Zigbee Outlet",
        9,
        {"switch": "off", "power": 0, "energy": 3.1},
        tags=("outdoor",),
    ),
    # Unassigned
    _Spec(
        "Security Keypad",
        "Centralite Keypad",
        None,
        {
            "securityKeypad": "disarmed",
            "battery": 67,
            "temperature": 69.8,
            "lockCodes": _LOCK_CODES,
            "maxCodes": 10,
        },
        tags=("security",),
    ),
    _Spec("Alice's Phone", "Virtual Presence", None, {"presence": "present"}),
    _Spec("Bob's Phone", "Virtual Presence", None, {"presence": "not present"}),
    _Spec(
        "Car Arrival Sensor",
        "Generic Zigbee Presence Sensor",
        None,
        {"presence": "present", "battery": 19},
    ),
    _Spec("Vacation Mode", "Virtual Switch", None, {"switch": "off"}),
    _Spec("Guest Mode", "Virtual Switch", None, {"switch": "on"}),
    _Spec(
        "Old Hallway Sensor",
        "Generic Zigbee Motion Sensor",
        None,
        {"motion": "inactive", "temperature": 68.0, "illuminance": 40, "battery": 0},
        disabled=True,
        days_old=41.0,
        notes="Replaced by Living Room Motion",
    ),
)

_PAD_DRIVERS = (
    ("Switch", "Virtual Switch"),
    ("Dimmer", "Generic Z-Wave Dimmer"),
    ("Contact", "Generic Zigbee Contact Sensor"),
    ("Motion", "Generic Zigbee Motion Sensor"),
    ("Outlet", "Generic Zigbee Outlet"),
    ("Bulb", "Generic Zigbee CT Bulb"),
)


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


def _settings_for(driver: DriverSpec) -> dict[str, Setting]:
    return {p.name: Setting(p.name, p.type, p.default) for p in driver.prefs}


def new_device(
    state: HomeState,
    driver: DriverSpec,
    *,
    device_id: int,
    label: str | None,
    dni: str,
    now: datetime,
    name: str | None = None,
) -> Device:
    """A device as freshly created from a driver (default attribute values, no history)."""
    dev = Device(
        id=device_id,
        name=name or driver.name,
        label=label,
        driver=driver,
        dni=dni,
        created=now,
        last_activity=None,
        settings=_settings_for(driver),
    )
    for aname, adef in unique_attributes(driver).items():
        dev.attrs[aname] = AttrState(to_attr_value(adef, ATTR_DEFAULTS.get(aname)), now)
    if driver.manufacturer:
        dev.data["manufacturer"] = driver.manufacturer
    if driver.model:
        dev.data["model"] = driver.model
    return dev


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
    spec: _Spec,
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
    spec: _Spec,
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
    _seed_history(state, dev, spec, now, rng, events, light=light)
    out = [dev]
    for child in spec.children:
        out += _build_device(state, child, ids, rng, now, maker_app_id, events, parent=dev)
    return out


def _seed_location(state: HomeState, now: datetime, rng: random.Random) -> None:
    evs: list[LocationEvent] = []
    local_now = now.astimezone(HUB_TZ)
    for day in range(7, -1, -1):
        base = (local_now - timedelta(days=day)).replace(hour=0, minute=0, second=0, microsecond=0)
        for hour, minute, mode in ((6, 45, "Day"), (18, 30, "Evening"), (22, 40, "Night")):
            t = base + timedelta(hours=hour, minutes=minute + rng.randint(-10, 10))
            if now - timedelta(days=7) < t < now - timedelta(hours=2):
                evs.append(LocationEvent(0, "mode", mode, f"Mode changed to {mode}", "API", t))
        if day in (5, 2):
            t1 = base + timedelta(hours=9, minutes=rng.randint(0, 50))
            if t1 < now - timedelta(hours=2):
                for delta, status, txt in (
                    (0, "armingAway", "HSM arming away"),
                    (1, "armedAway", "HSM armed away"),
                    (300, "disarmed", "HSM disarmed"),
                ):
                    evs.append(
                        LocationEvent(
                            0, "hsmStatus", status, txt, "API", t1 + timedelta(minutes=delta)
                        )
                    )
                evs.append(LocationEvent(0, "mode", "Away", "Mode changed to Away", "API", t1))
                evs.append(
                    LocationEvent(
                        0, "mode", "Day", "Mode changed to Day", "API", t1 + timedelta(minutes=300)
                    )
                )
    evs.append(
        LocationEvent(0, "mode", "Day", "Mode changed to Day", "API", now - timedelta(minutes=45))
    )
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


_APP_LOG_LINES = (
    (RULE_MOTION, "<b>Motion Lights - Kitchen</b>", "trace", "Event: Kitchen Motion motion active"),
    (RULE_MOTION, "<b>Motion Lights - Kitchen</b>", "info", "Action: On: Kitchen Light"),
    (RULE_GOODNIGHT, "Goodnight", "info", "Action: Lock: Front Door Lock, Back Door Lock"),
    (RL_OFFICE, "Office Lights", "debug", "Activating scene (level 100, CT 4000K)"),
    (APP_ECOBEE, "Ecobee Integration", "trace", "Updates sent (2 / 1460ms)"),
    (
        APP_ECOBEE,
        "Ecobee Integration",
        "debug",
        "poll(): thermostat revision 211126|211126 unchanged",
    ),
    (BR_PORCH, "Porch light at sunset", "info", "Turning on Porch Light (sunset - 15 min)"),
    (APP_HSM, "HSM", "info", "Intrusion monitoring: 12 sensors armed"),
)


_RULE_CLASS = "user_app_hubitat_Rule_5_1_341"


def _seed_logs(
    state: HomeState, events: list[DeviceEvent], now: datetime, rng: random.Random
) -> None:
    logs: list[LogEntry] = []
    cutoff = now - timedelta(hours=24)
    for ev in events:
        if ev.date >= cutoff and ev.description:
            dev = state.devices[ev.device_id]
            logs.append(LogEntry(ev.date, "info", "dev", dev.id, dev.display_name, ev.description))
    for _ in range(160):
        app_id, name, level, msg = rng.choice(_APP_LOG_LINES)
        t = now - timedelta(seconds=rng.uniform(30, 86000))
        logs.append(LogEntry(t, level, "app", app_id, name, msg))
    zb = [d for d in state.devices.values() if d.driver.protocol == "zigbee"][:6]
    for dev in zb:
        for _ in range(4):
            t = now - timedelta(seconds=rng.uniform(60, 86000))
            logs.append(
                LogEntry(
                    t,
                    "debug",
                    "dev",
                    dev.id,
                    dev.display_name,
                    "parse description: read attr - raw: 0104000A01, dni: "
                    f"{dev.dni}, endpoint: 01, cluster: 0402 | value: 0A2C",
                )
            )
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
    keypad = next((d for d in state.devices.values() if d.driver.name == "Centralite Keypad"), None)
    if keypad is not None:
        logs.append(
            LogEntry(
                now - timedelta(hours=5),
                "warn",
                "dev",
                keypad.id,
                keypad.display_name,
                "Invalid code entered: <b>0000</b>",
            )
        )
    low = [
        d
        for d in state.devices.values()
        if isinstance(d.value("battery"), int) and int(str(d.value("battery"))) < 20
    ]
    for dev in low:
        logs.append(
            LogEntry(
                now - timedelta(hours=rng.uniform(1, 20)),
                "warn",
                "dev",
                dev.id,
                dev.display_name,
                f"battery is low ({dev.value('battery')}%)",
            )
        )
    logs.sort(key=lambda e: e.date)
    state.logs = logs


def _seed_apps(state: HomeState, maker_app_id: int) -> None:
    apps = [
        App(APP_HSM, "Hubitat® Safety Monitor", None, "Hubitat® Safety Monitor", app_type_id=1),
        App(APP_MODE_MANAGER, "Mode Manager", None, "Mode Manager", app_type_id=2),
        App(APP_RULE_MACHINE, "Rule Machine", None, "Rule Machine", app_type_id=3),
        App(
            RULE_MOTION,
            "Rule-5.1",
            "<b>Motion Lights - Kitchen</b>",
            "Rule-5.1",
            parent_id=APP_RULE_MACHINE,
            app_type_id=4,
        ),
        App(
            RULE_LEAK,
            "Rule-5.1",
            "<b>Leak Alarm</b>",
            "Rule-5.1",
            parent_id=APP_RULE_MACHINE,
            app_type_id=4,
        ),
        App(
            RULE_GOODNIGHT,
            "Rule-5.1",
            "Goodnight",
            "Rule-5.1",
            parent_id=APP_RULE_MACHINE,
            app_type_id=4,
        ),
        App(APP_ROOM_LIGHTING, "Room Lighting", None, "Room Lighting", app_type_id=5),
        App(
            RL_OFFICE,
            "Room Lights",
            "Office Lights",
            "Room Lights",
            parent_id=APP_ROOM_LIGHTING,
            app_type_id=6,
        ),
        App(APP_BASIC_RULES, "Basic Rules", None, "Basic Rules", app_type_id=7),
        App(
            BR_PORCH,
            "Basic Rule",
            "Porch light at sunset",
            "Basic Rule",
            parent_id=APP_BASIC_RULES,
            app_type_id=8,
        ),
        App(APP_ECOBEE, "Ecobee Integration", None, "Ecobee Integration", app_type_id=9),
        App(APP_DASHBOARD, "Hubitat® Dashboard", None, "Hubitat® Dashboard", app_type_id=10),
        App(DASH_MAIN, "Dashboard", "Main", "Dashboard", parent_id=APP_DASHBOARD, app_type_id=11),
        App(
            DASH_TABLET,
            "Dashboard",
            "Kitchen Tablet",
            "Dashboard",
            parent_id=APP_DASHBOARD,
            app_type_id=11,
        ),
        App(maker_app_id, "Maker API", "Maker API - Home Assistant", "Maker API", app_type_id=15),
    ]
    state.apps = {a.id: a for a in apps}
    state.dashboards = {
        DASH_MAIN: Dashboard(DASH_MAIN, "Main"),
        DASH_TABLET: Dashboard(DASH_TABLET, "Kitchen Tablet"),
    }


def _seed_variables(now: datetime) -> dict[str, Variable]:
    from .clock import fmt_event

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
    _seed_apps(state, maker_app_id)
    ids = _Ids(rng)
    events: list[DeviceEvent] = []
    built: list[Device] = []
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
            kind, drv = _PAD_DRIVERS[n % len(_PAD_DRIVERS)]
            room = ROOMS[n % len(ROOMS)][0] if n % 5 else None
            spec = _Spec(f"Bench {kind} {n + 1:03d}", drv, room)
            _build_device(state, spec, ids, rng, now, maker_app_id, events, light=True)
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
    _seed_logs(state, events, now, rng)
    created = now - timedelta(hours=30)
    stamp = created.astimezone(HUB_TZ).strftime("%Y-%m-%d~%H-%M")
    state.backups.append(
        Backup(f"{stamp}~{state.version}.lzf", created, 18_874_368 + rng.randint(0, 999_999))
    )
    state.next_device_id = max(state.devices) + 1
    seed_dev(state)
    assert all(c in CAPABILITIES for d in DRIVERS.values() for c in d.capabilities)
    return state
