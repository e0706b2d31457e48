"""Plain data model of the emulated hub (no I/O)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .catalog import AttrDef, DriverSpec, unique_attributes
from .devstate import DevState
from .mesh_state import MeshState

HUB_VERSION = "2.5.0.143"  # the firmware the hub UI evidence was captured from
UNASSIGNED_ROOM_ID = 999999


@dataclass
class AttrState:
    value: object
    date: datetime


@dataclass
class DeviceEvent:
    id: int
    device_id: int
    name: str
    value: str | None
    unit: str | None
    description: str | None
    date: datetime
    source: str = "DEVICE"
    type: str | None = "digital"
    is_state_change: bool = True
    # what called the command (a ``command-<name>`` event): the hub's HTML link to the app
    produced_by: str | None = None


@dataclass
class Setting:
    name: str
    type: str
    value: object


@dataclass
class Device:
    id: int
    name: str
    label: str | None
    driver: DriverSpec
    dni: str
    room_id: int | None = None
    parent_id: int | None = None
    zigbee_id: str | None = None
    disabled: bool = False
    tags: list[str] = field(default_factory=list)
    notes: str = ""
    attrs: dict[str, AttrState] = field(default_factory=dict)
    extra_attr_defs: dict[str, AttrDef] = field(default_factory=dict)
    settings: dict[str, Setting] = field(default_factory=dict)
    data: dict[str, str] = field(default_factory=dict)
    last_activity: datetime | None = None
    created: datetime | None = None
    version: int = 1
    events: list[DeviceEvent] = field(default_factory=list)
    state: dict[str, object] = field(default_factory=dict)
    apps_using: list[int] = field(default_factory=list)
    parent_app_id: int | None = None
    dashboards: list[int] = field(default_factory=list)
    show_on_home: bool = True
    default_current_state: str | None = None
    max_events: int | None = None
    max_states: int | None = None
    spammy_threshold: int | None = None
    mesh_enabled: bool = False
    retry_enabled: bool = False
    mesh_full_sync: bool = False
    homekit_enabled: bool = False
    command_retry: bool = False
    default_icon: str | None = None
    group_id: int | None = None

    @property
    def display_name(self) -> str:
        return self.label or self.name

    def attr_defs(self) -> dict[str, AttrDef]:
        defs = unique_attributes(self.driver)
        for k, v in self.extra_attr_defs.items():
            defs.setdefault(k, v)
        return defs

    def value(self, attr: str) -> object:
        st = self.attrs.get(attr)
        return None if st is None else st.value


@dataclass
class Room:
    id: int
    name: str


@dataclass
class Mode:
    id: int
    name: str
    icon: str = "fa-sun"
    conditions: list[str] = field(default_factory=list)


@dataclass
class ModeManagerState:
    """The hub's Mode Manager: the selection, the apps' ids (0 = not installed) and the
    Integrated Mode Manager's trigger object (``routes_modemanager.py``)."""

    selected: str = "builtIn"
    app_id: int = 0  # the classic Mode Manager app (selection "app")
    legacy_app_id: int = 0  # selection "legacy"
    integrated_app_id: int = 4
    conditions: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    # fault knob: the next POSTs answer success and store nothing (counts down)
    drop_saves: int = 0


@dataclass
class Variable:
    name: str
    type: str  # integer | bigdecimal | boolean | string | datetime
    value: object


@dataclass
class LocationEvent:
    id: int
    name: str
    value: str
    description: str
    type: str  # API | HUB_VARIABLE_SET | LOCATION_MODE_CHANGE ...
    date: datetime
    unit: str | None = None


@dataclass
class HubEvent:
    id: int
    name: str
    value: str
    description: str
    date: datetime


@dataclass
class LogEntry:
    date: datetime
    level: str  # error | warn | info | debug | trace
    type: str  # dev | app
    source_id: int
    name: str
    msg: str
    continuation: list[str] = field(default_factory=list)


@dataclass
class Backup:
    name: str
    created: datetime
    size: int


@dataclass
class AppEvent:
    name: str
    value: str | None
    description: str | None
    date: datetime


@dataclass
class App:
    id: int
    name: str
    label: str | None
    type: str
    parent_id: int | None = None
    user: bool = False
    disabled: bool = False
    hidden: bool = False
    app_type_id: int = 0
    events: list[AppEvent] = field(default_factory=list)  # its own event history

    @property
    def true_label(self) -> str | None:
        if self.label is None:
            return None
        import re

        plain = re.sub(r"<[^>]+>", "", self.label)
        return plain if plain != self.label else None


@dataclass
class Dashboard:
    id: int
    name: str


@dataclass
class HomeState:
    """Everything the hub knows. Built by :func:`hubitat_emulator.seed_home`."""

    seed: int
    hub_name: str
    hub_uid: str
    mac: str
    devices: dict[int, Device]
    rooms: dict[int, Room]
    modes: list[Mode]
    current_mode_id: int
    hsm_status: str
    variables: dict[str, Variable]
    apps: dict[int, App]
    dashboards: dict[int, Dashboard]
    location_events: list[LocationEvent]
    hub_events: list[HubEvent]
    logs: list[LogEntry]
    backups: list[Backup]
    boot_time: datetime
    next_event_id: int = 1
    next_device_id: int = 1
    next_room_id: int = 1
    next_mode_id: int = 1
    hsm_alert: str | None = None
    location_name: str = "Home"
    zip_code: str = "80202"
    latitude: float = 39.7392
    longitude: float = -104.9903
    temp_scale: str = "F"
    time_format: str = "12"
    date_format: str = "MDY"
    tts_voice: str = "Joanna"
    mdns_name: str = "hubitat"
    time_zone: str | None = None  # None: the emulator's own zone (clock.HUB_TZ_NAME)
    version: str = HUB_VERSION
    # the hardware: /hub/details/json hardwareVersion is "Rev " + model; baseModel drops " Pro"
    model: str = "C-8 Pro"
    # what /device/forceDelete/<id>/json answers after deleting: "success", or what a real hub
    # may also say ("partial": leftovers; any other status: the hub UI's "failed")
    force_delete_status: str = "success"
    # apps/drivers/libraries code, app internals, rules, dashboards (devstate.py)
    dev: DevState = field(default_factory=DevState)
    mode_manager: ModeManagerState = field(default_factory=ModeManagerState)
    # Hub Mesh: peers, what they share, this hub's links (mesh_state.py)
    mesh: MeshState = field(default_factory=MeshState)

    def alloc_event_id(self) -> int:
        n = self.next_event_id
        self.next_event_id += 1
        return n

    def room_name(self, room_id: int | None) -> str | None:
        if room_id is None:
            return None
        room = self.rooms.get(room_id)
        return room.name if room else None

    def mode_by_id(self, mode_id: int) -> Mode | None:
        return next((m for m in self.modes if m.id == mode_id), None)

    def mode_by_name(self, name: str) -> Mode | None:
        return next((m for m in self.modes if m.name == name), None)

    @property
    def current_mode(self) -> Mode:
        mode = self.mode_by_id(self.current_mode_id)
        assert mode is not None
        return mode

    def children_of(self, device_id: int) -> list[Device]:
        return [d for d in self.devices.values() if d.parent_id == device_id]


@dataclass
class MakerSettings:
    """The Maker API instance: its app id and token, and its configuration."""

    app_id: int
    token: str
    device_ids: set[int] | None = None  # None = every device is authorised
    variable_names: set[str] | None = None  # hub variables it may see (None = all)
    post_url: str | None = None  # postURL (deliveries only to loopback hosts)
    post_location_events: bool = False  # "Include location events"
