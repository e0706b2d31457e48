"""Typed models for the hub payloads we parse, tolerant of the hub's shape drift.

Ids are normalised to strings (the Maker API uses strings, admin endpoints ints).
Every model has ``as_dict()`` returning JSON-safe data.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, NotRequired, TypedDict, cast

UNASSIGNED_ROOM_ID = "999999"


def dict_list(value: Any) -> list[dict[str, Any]]:
    """The dict items of a JSON list (anything else: an empty list)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def norm_id(value: Any) -> str | None:
    """Normalise a hub id (int, str, "null", 0) to a string, or None when absent."""
    if value is None or isinstance(value, bool):
        return None
    text = str(value).strip()
    if text in ("", "null", "None", "0"):
        return None
    return text


def parse_csv(value: Any) -> list[str]:
    """Parse a comma-separated string (or a list) into a clean list of strings."""
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return []


def coerce_state(value: Any, data_type: str | None = None) -> Any:
    """Return an attribute value typed by its data type (numbers as numbers)."""
    if value is None or value == "null":
        return None
    dtype = (data_type or "").upper()
    if dtype == "NUMBER" and isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() and "." not in value else number
    if dtype == "JSON_OBJECT" and isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def state_value(entry: dict[str, Any]) -> Any:
    """The typed value of one current-state entry (``fullJson``/``devicesList``).

    For ``dataType`` JSON_OBJECT the hub UI reads ``jsonValue`` (an object, or its JSON
    text); ``value`` is the fallback when it is absent. Otherwise ``value`` by its type.
    """
    data_type = entry.get("dataType")
    if str(data_type or "").upper() == "JSON_OBJECT" and entry.get("jsonValue") is not None:
        return coerce_state(entry["jsonValue"], data_type)
    if data_type is None:
        return coerce_numeric_text(entry.get("value"))
    return coerce_state(entry.get("value"), data_type)


@dataclass(slots=True)
class CommandParam:
    """One argument of a device command."""

    name: str
    type: str
    constraints: list[str] | None = None
    required: bool = False


class CommandArgumentEntry(TypedDict):
    """One argument of a command, as a device entry lists it."""

    name: str
    type: str
    constraints: NotRequired[list[str]]
    required: NotRequired[bool]  # only when true


class CommandEntry(TypedDict):
    """A declared command, as a device entry lists it (``Command.as_dict``)."""

    name: str
    arguments: NotRequired[list[CommandArgumentEntry]]
    capability: NotRequired[str]


class AttributeEntry(TypedDict):
    """An attribute with its current value, as a device entry lists it
    (``AttributeState.as_dict``; absent keys: the hub did not say)."""

    name: str
    value: NotRequired[Any]  # typed by its data type (number, text, object); absent: none
    data_type: NotRequired[str]
    unit: NotRequired[str]
    date: NotRequired[str]
    values: NotRequired[list[str]]


@dataclass(slots=True)
class Command:
    """A command a device declares."""

    name: str
    params: list[CommandParam] = field(default_factory=list)
    capability: str | None = None

    def as_dict(self) -> CommandEntry:
        """Return JSON-safe data."""
        out: CommandEntry = {"name": self.name}
        if self.params:
            out["arguments"] = [
                cast(
                    CommandArgumentEntry,
                    {
                        k: v
                        for k, v in asdict(p).items()
                        if v is not None and not (k == "required" and v is False)
                    },
                )
                for p in self.params
            ]
        if self.capability:
            out["capability"] = self.capability
        return out


def parse_commands(raw: Any) -> list[Command]:
    """Parse commands from /device/fullJson (both shapes) or the Maker API."""
    result: dict[str, Command] = {}
    if not isinstance(raw, list):
        return []
    for item in raw:
        if isinstance(item, str):  # Maker /devices/<id>: plain names (with duplicates)
            result.setdefault(item, Command(item))
            continue
        if not isinstance(item, dict):
            continue
        name = item.get("name") or item.get("command")
        if not name:
            continue
        params: list[CommandParam] = []
        raw_params = item.get("parameters")
        if isinstance(raw_params, list) and raw_params:
            for idx, p in enumerate(raw_params):
                if isinstance(p, dict):
                    constraints = p.get("constraints")
                    # A driver marks a required parameter with a trailing "*" in its name
                    # ([name: "level*", type: "NUMBER"]); the hub sends the name as declared
                    # and its own UI strips the "*" and requires the field (vue-hub2
                    # ActionController: getCleanParamName / isRequired). A parameter
                    # declared by its type alone (["NUMBER"]) has no name.
                    pname = str(p.get("name") or "").strip()
                    starred = pname.endswith("*")
                    pname = pname.rstrip("*").strip()
                    params.append(
                        CommandParam(
                            name=pname or f"arg{idx + 1}",
                            type=str(p.get("type") or "STRING").upper(),
                            constraints=[str(c) for c in constraints]
                            if isinstance(constraints, list)
                            else None,
                            required=starred or bool(p.get("required", False)),
                        )
                    )
        else:
            arg_types = item.get("arguments") or item.get("type") or []
            if isinstance(arg_types, list):
                for idx, t in enumerate(arg_types):
                    if t in (None, "n/a"):
                        continue
                    params.append(CommandParam(name=f"arg{idx + 1}", type=str(t).upper()))
        capability = item.get("capability")
        result[str(name)] = Command(
            name=str(name),
            params=params,
            capability=capability if isinstance(capability, str) else None,
        )
    return list(result.values())


class DeviceEntry(TypedDict):
    """A device as listed (``DeviceSummary.as_dict``)."""

    device_id: str
    label: str
    name: str
    room: str | None
    type: str | None
    states: dict[str, Any]
    capabilities: NotRequired[list[str]]
    disabled: NotRequired[bool]
    last_activity: NotRequired[str]
    parent_id: NotRequired[str]
    child_ids: NotRequired[list[str]]
    tags: NotRequired[list[str]]


class AppUse(TypedDict):
    """An app or rule that uses a device."""

    app_id: str | None
    label: Any
    name: Any
    disabled: bool


class DevicePage(TypedDict, total=False):
    """The device page's own fields (``/device/fullJson``): Home page, status, sharing, data."""

    show_on_home: bool
    default_current_state: str | None
    hub_mesh: bool
    hub_mesh_offered: bool  # only when the page does not offer it (False)
    homekit: bool
    homekit_offered: bool  # only when the page does not offer it (False)
    data: dict[str, Any]


def _is_true(value: Any) -> bool:
    return value is True or str(value).strip().lower() in ("true", "on")


def _is_false(value: Any) -> bool:
    return value is False or str(value).strip().lower() == "false"


def parse_device_page(payload: Any) -> DevicePage:
    """The device page's fields of a ``/device/fullJson`` payload.

    The hub UI shows Show on Home unless ``device.showOnHome`` is false, the Hub Mesh switch
    only when ``device.meshSelectionEnabled`` and the HomeKit one only when the top-level
    ``homeKitSelectionEnabled`` (absent keys count as offered); the data section is
    ``device.data``.
    """
    if not isinstance(payload, dict) or not isinstance(payload.get("device"), dict):
        return {}
    dev: dict[str, Any] = payload["device"]
    state = dev.get("defaultCurrentState")
    page: DevicePage = {
        "show_on_home": not _is_false(dev.get("showOnHome")),
        "default_current_state": str(state) if state not in (None, "", "None", "null") else None,
        "hub_mesh": _is_true(dev.get("meshEnabled")),
        "homekit": _is_true(payload.get("homeKitEnabled")),
    }
    if _is_false(dev.get("meshSelectionEnabled")):
        page["hub_mesh_offered"] = False
    if _is_false(payload.get("homeKitSelectionEnabled")):
        page["homekit_offered"] = False
    data = dev.get("data")
    if isinstance(data, dict) and data:
        page["data"] = {str(k): v for k, v in data.items()}
    return page


class DevicePreferenceEntry(TypedDict, total=False):
    """One preference as the device page lists it (``settings[]``; an older page's
    ``settings`` object gives only name and value). Values are the hub's own, password inputs
    included: the managers redact before anything leaves."""

    name: str
    type: str  # bool, number, decimal, text, enum, password, ...
    value: object
    title: str
    options: object  # an enum's choices, as the page lists them


class ParentAppRecord(TypedDict, total=False):
    """The device page's ``parentApp``: the app that made this (child) device, as the hub
    wrote it."""

    id: object
    name: object
    label: object


class DeviceDetailEntry(DeviceEntry, DevicePage):
    """A device in full (``DeviceDetail.as_dict``, plus what the device tools add)."""

    driver: NotRequired[str | None]
    attributes: NotRequired[list[AttributeEntry]]
    commands: NotRequired[list[CommandEntry]]
    preferences: NotRequired[list[DevicePreferenceEntry]]
    apps_using: NotRequired[list[AppUse]]
    parent_app: NotRequired[ParentAppRecord]
    room_id: NotRequired[str | None]
    dni: NotRequired[str | None]


def add_page(entry: DeviceDetailEntry, page: DevicePage) -> None:
    """Put the device page's fields into a device entry (its keys are the entry's own)."""
    entry.update(cast(DeviceDetailEntry, page))


@dataclass(slots=True)
class DeviceSummary:
    """A device as listed: identity, room and current states in one record."""

    id: str
    label: str
    name: str
    room: str | None = None
    room_id: str | None = None
    type: str | None = None
    disabled: bool = False
    states: dict[str, Any] = field(default_factory=dict)
    capabilities: list[str] = field(default_factory=list)
    last_activity: str | None = None
    parent_id: str | None = None
    child_ids: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    dni: str | None = None

    @property
    def display_name(self) -> str:
        """Return the label, or the name when there is no label."""
        return self.label or self.name

    def as_dict(self) -> DeviceEntry:
        """Return JSON-safe data (empty optional fields left out)."""
        out: DeviceEntry = {
            "device_id": self.id,
            "label": self.display_name,
            "name": self.name,
            "room": self.room,
            "type": self.type,
            "states": self.states,
        }
        if self.capabilities:
            out["capabilities"] = self.capabilities
        if self.disabled:
            out["disabled"] = True
        if self.last_activity:
            out["last_activity"] = self.last_activity
        if self.parent_id:
            out["parent_id"] = self.parent_id
        if self.child_ids:
            out["child_ids"] = self.child_ids
        if self.tags:
            out["tags"] = self.tags
        return out

    def detail_entry(self) -> DeviceDetailEntry:
        """``as_dict()`` as the start of a detail entry (whose further keys are optional)."""
        return cast(DeviceDetailEntry, self.as_dict())


def _states_from_list(raw: Any) -> dict[str, Any]:
    states: dict[str, Any] = {}
    if isinstance(raw, list):
        for item in raw:
            if isinstance(item, dict) and "key" in item:
                key = item["key"]
                # the device list's states carry no data type: ``state_value``'s own case,
                # without the call
                states[key if type(key) is str else str(key)] = (
                    coerce_numeric_text(item.get("value"))
                    if item.get("dataType") is None
                    else state_value(item)
                )
    elif isinstance(raw, dict):
        for key, value in raw.items():
            if isinstance(value, dict):
                states[str(key)] = state_value(value)
            else:
                states[str(key)] = coerce_numeric_text(value)
    return states


def coerce_numeric_text(value: Any) -> Any:
    """Turn "42"/"21.5" into numbers when no data type is known; keep other text."""
    if value is None or value == "null":
        return None
    if isinstance(value, str):
        text = value.strip()
        # most states are words ("on", "active"): a first character that is no digit, sign
        # or point rules a number out before the fuller test
        if (
            text
            and (text[0].isdigit() or text[0] in "-.")
            and (text.lstrip("-").replace(".", "", 1).isdigit())
        ):
            try:
                number = float(text)
            except ValueError:
                return value
            return int(number) if "." not in text else number
    return value


def parse_device_tree(payload: Any) -> list[DeviceSummary]:
    """Flatten /hub2/devicesList (a tree: children only inside ``children``)."""
    nodes = payload.get("devices", []) if isinstance(payload, dict) else payload
    out: list[DeviceSummary] = []

    def walk(node: Any, parent: str | None) -> None:
        if not isinstance(node, dict):
            return
        data = node.get("data")
        if not isinstance(data, dict):
            data = node
        dev_id = norm_id(data.get("id"))
        if dev_id is None:
            return
        children = node.get("children") or []
        child_ids = [
            cid
            for c in children
            if isinstance(c, dict)
            and (cid := norm_id((c.get("data") or c).get("id") if isinstance(c, dict) else None))
        ]
        room_id = norm_id(data.get("roomId"))
        out.append(
            DeviceSummary(
                id=dev_id,
                label=str(data.get("label") or data.get("name") or ""),
                name=str(data.get("name") or ""),
                room=(data.get("roomName") or None) if room_id != UNASSIGNED_ROOM_ID else None,
                room_id=room_id if room_id != UNASSIGNED_ROOM_ID else None,
                type=data.get("type") or data.get("typeName"),
                disabled=bool(data.get("disabled", False)),
                states=_states_from_list(data.get("currentStates")),
                last_activity=data.get("lastActivity"),
                parent_id=parent,
                child_ids=child_ids,
                tags=parse_csv(data.get("tags")),
                dni=data.get("dni") or data.get("deviceNetworkId"),
            )
        )
        for child in children:
            walk(child, dev_id)

    if isinstance(nodes, list):
        for node in nodes:
            walk(node, None)
    return out


@dataclass(slots=True)
class AttributeState:
    """A device attribute with its current value."""

    name: str
    value: Any
    data_type: str | None = None
    unit: str | None = None
    date: str | None = None
    values: list[str] | None = None

    def as_dict(self) -> AttributeEntry:
        """Return JSON-safe data."""
        return cast(AttributeEntry, {k: v for k, v in asdict(self).items() if v is not None})


@dataclass(slots=True)
class DeviceDetail:
    """Full detail of one device (from /device/fullJson)."""

    summary: DeviceSummary
    attributes: list[AttributeState]
    commands: list[Command]
    driver: str | None = None
    preferences: list[DevicePreferenceEntry] = field(default_factory=list)
    apps_using: list[AppUse] = field(default_factory=list)
    parent_app: ParentAppRecord | None = None
    version: int | None = None
    raw_device: dict[str, Any] = field(default_factory=dict)
    page: DevicePage = field(default_factory=lambda: DevicePage())

    def command(self, name: str) -> Command | None:
        """Return the declared command called ``name``."""
        for cmd in self.commands:
            if cmd.name == name:
                return cmd
        return None

    def as_dict(self) -> DeviceDetailEntry:
        """Return JSON-safe data."""
        out = self.summary.detail_entry()
        out["driver"] = self.driver
        out["attributes"] = [a.as_dict() for a in self.attributes]
        out["commands"] = [c.as_dict() for c in self.commands]
        if self.preferences:
            out["preferences"] = self.preferences
        out["apps_using"] = self.apps_using
        if self.parent_app:
            out["parent_app"] = self.parent_app
        return out


def parse_device_full(payload: Any) -> DeviceDetail:
    """Parse /device/fullJson/<id>."""
    if not isinstance(payload, dict) or not isinstance(payload.get("device"), dict):
        raise ValueError("unexpected fullJson shape")
    dev: dict[str, Any] = payload["device"]
    attributes: list[AttributeState] = []
    raw_states = dev.get("currentStates") or {}
    if isinstance(raw_states, dict):
        for key, st in raw_states.items():
            if isinstance(st, dict):
                attributes.append(
                    AttributeState(
                        name=str(st.get("name") or key),
                        value=state_value(st),
                        data_type=st.get("dataType"),
                        unit=st.get("unit") if st.get("unit") not in (None, "null") else None,
                        date=st.get("date"),
                    )
                )
    elif isinstance(raw_states, list):
        for st in raw_states:
            if isinstance(st, dict) and "key" in st:
                attributes.append(AttributeState(name=str(st["key"]), value=state_value(st)))
    room_id = norm_id(dev.get("roomId"))
    children_raw = payload.get("childDevices")
    child_ids: list[str] = []
    if isinstance(children_raw, dict):
        for kids in children_raw.values():
            if isinstance(kids, list):
                child_ids.extend(
                    cid for k in kids if isinstance(k, dict) and (cid := norm_id(k.get("id")))
                )
    elif isinstance(children_raw, list):
        child_ids = [
            cid for k in children_raw if isinstance(k, dict) and (cid := norm_id(k.get("id")))
        ]
    summary = DeviceSummary(
        id=norm_id(dev.get("id")) or "",
        label=str(dev.get("label") or dev.get("name") or ""),
        name=str(dev.get("name") or ""),
        room=dev.get("roomName") if room_id not in (None, UNASSIGNED_ROOM_ID) else None,
        room_id=room_id if room_id != UNASSIGNED_ROOM_ID else None,
        type=dev.get("typeName") or dev.get("deviceTypeName") or dev.get("type"),
        disabled=bool(dev.get("disabled", False)),
        states={a.name: a.value for a in attributes},
        capabilities=[c for c in (dev.get("capabilities") or []) if isinstance(c, str)],
        last_activity=dev.get("lastActivity"),
        parent_id=norm_id(dev.get("parentDeviceId")),
        child_ids=child_ids,
        tags=parse_csv(dev.get("tags")),
        dni=dev.get("deviceNetworkId"),
    )
    prefs_raw = payload.get("settings") or dev.get("settings") or []
    preferences: list[DevicePreferenceEntry] = []
    if isinstance(prefs_raw, list):
        preferences = [
            cast(
                DevicePreferenceEntry,
                {k: p.get(k) for k in ("name", "type", "value", "title", "options") if k in p},
            )
            for p in prefs_raw
            if isinstance(p, dict)
        ]
    elif isinstance(prefs_raw, dict):
        preferences = [{"name": str(k), "value": v} for k, v in prefs_raw.items()]
    apps = payload.get("appsUsing") or []
    parent_app = payload.get("parentApp")
    version = dev.get("version")
    return DeviceDetail(
        summary=summary,
        attributes=attributes,
        commands=parse_commands(payload.get("commands")),
        driver=summary.type,
        preferences=preferences,
        apps_using=[
            {
                "app_id": norm_id(a.get("id")),
                "label": a.get("trueLabel") or a.get("label"),
                "name": a.get("name"),
                "disabled": bool(a.get("disabled", False)),
            }
            for a in apps
            if isinstance(a, dict)
        ],
        parent_app=cast(ParentAppRecord, parent_app) if isinstance(parent_app, dict) else None,
        version=version if isinstance(version, int) else None,
        raw_device=dev,
        page=parse_device_page(payload),
    )


@dataclass(slots=True)
class Room:
    """A room with its device ids."""

    id: str
    name: str
    device_ids: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        return {"room_id": self.id, "name": self.name, "device_ids": self.device_ids}


def parse_rooms_tree(payload: Any) -> list[Room]:
    """Parse /hub2/roomsList (tree) or a Maker-style ``[{id,name,deviceIds}]`` list."""
    rooms: list[Room] = []
    if isinstance(payload, dict) and isinstance(payload.get("roomNodes"), list):
        for node in payload["roomNodes"]:
            if not isinstance(node, dict):
                continue
            data = node.get("data") or {}
            room_id = norm_id(data.get("id")) or str(node.get("key", "")).removeprefix("ROOM-")
            if not room_id or room_id == UNASSIGNED_ROOM_ID:
                continue
            ids: list[str] = []

            def walk(children: Any, ids: list[str] = ids) -> None:
                for child in children or []:
                    if isinstance(child, dict):
                        cid = norm_id((child.get("data") or {}).get("id"))
                        if cid:
                            ids.append(cid)
                        walk(child.get("children"))

            walk(node.get("children"))
            rooms.append(Room(id=room_id, name=str(data.get("name") or ""), device_ids=ids))
    elif isinstance(payload, list):
        for item in payload:
            if isinstance(item, dict) and (rid := norm_id(item.get("id"))):
                rooms.append(
                    Room(
                        id=rid,
                        name=str(item.get("name") or ""),
                        device_ids=[
                            did for d in item.get("deviceIds") or [] if (did := norm_id(d))
                        ],
                    )
                )
    return rooms


def parse_hub_time(value: Any) -> datetime | None:
    """Parse the hub's date forms (``...000-0600``, ``...+0000``, ISO, ``Z``); None if not."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        for fmt in ("%Y-%m-%dT%H:%M:%S.%f%z", "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%d %H:%M:%S.%f"):
            try:
                parsed = datetime.strptime(text, fmt)
                break
            except ValueError:
                continue
        else:
            return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed
