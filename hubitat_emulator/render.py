"""JSON shapes the hub serves, built from the model (Maker API and admin views)."""

from __future__ import annotations

import json
from typing import Any

from .catalog import (
    CAPABILITIES,
    AttrDef,
    capability_attributes,
    capability_commands,
    unique_commands,
)
from .clock import fmt_event, fmt_utc
from .commands import value_str
from .model import UNASSIGNED_ROOM_ID, Device, DeviceEvent, HomeState

JSON = dict[str, Any]

# --------------------------------------------------------------------------- Maker API


def typed_value(adef: AttrDef | None, value: object) -> object:
    """Maker ``currentValue``: a number for NUMBER attributes, otherwise a string (or null)."""
    if value is None:
        return None
    if adef is not None and adef.data_type == "NUMBER" and isinstance(value, (int, float)):
        return value
    return value_str(value)


def _attr_entry(dev: Device, adef: AttrDef) -> JSON:
    entry: JSON = {
        "name": adef.name,
        "currentValue": typed_value(adef, dev.value(adef.name)),
        "dataType": adef.data_type,
    }
    if adef.data_type == "ENUM" and adef.values:
        entry["values"] = list(adef.values)
    return entry


def _interleaved_caps(dev: Device, *, with_values: bool) -> list[object]:
    out: list[object] = []
    for cap_name in dev.driver.capabilities:
        out.append(cap_name)
        cap = CAPABILITIES[cap_name]
        if cap.attributes:
            if with_values:
                attrs = [_attr_entry(dev, a) for a in cap.attributes]
            else:
                attrs = [{"name": a.name, "dataType": None} for a in cap.attributes]
            out.append({"attributes": attrs})
    return out


def maker_device(state: HomeState, dev: Device) -> JSON:
    """``/devices/<id>``: attributes array WITH duplicates, commands WITH duplicates, capabilities
    interleaved with ``{"attributes":[...]}`` blocks (the real hub's quirks)."""
    attrs = [_attr_entry(dev, a) for _cap, a in capability_attributes(dev.driver)]
    attrs += [_attr_entry(dev, a) for a in dev.extra_attr_defs.values()]
    return {
        **maker_device_summary(state, dev),
        "capabilities": _interleaved_caps(dev, with_values=False),
        "attributes": attrs,
        "commands": sorted(c.name for _cap, c in capability_commands(dev.driver)),
        "model": dev.data.get("model"),
        "manufacturer": dev.data.get("manufacturer"),
    }


def maker_device_all(state: HomeState, dev: Device) -> JSON:
    """``/devices/all`` entry: a FLAT attributes map, with the stray ``dataType``/``values`` keys
    (they carry the definition of the last attribute the hub serialised)."""
    flat: JSON = {}
    last: AttrDef | None = None
    for _cap, adef in capability_attributes(dev.driver):
        flat[adef.name] = value_str(dev.value(adef.name))
        last = adef
    for adef in dev.extra_attr_defs.values():
        flat[adef.name] = value_str(dev.value(adef.name))
        last = adef
    attributes: JSON = {
        "dataType": last.data_type if last else None,
        "values": list(last.values) if last and last.values else None,
    }
    attributes.update(flat)
    return {
        "name": dev.name,
        "label": dev.display_name,
        "type": dev.driver.name,
        "id": str(dev.id),
        "date": fmt_utc(dev.last_activity) if dev.last_activity else None,
        "model": dev.data.get("model"),
        "manufacturer": dev.data.get("manufacturer"),
        "room": state.room_name(dev.room_id),
        "capabilities": list(dev.driver.capabilities),
        "attributes": attributes,
        "commands": [
            {"command": n} for n in sorted({c.name for _x, c in capability_commands(dev.driver)})
        ],
    }


def maker_device_summary(state: HomeState, dev: Device) -> JSON:
    return {
        "id": str(dev.id),
        "name": dev.name,
        "label": dev.display_name,
        "type": dev.driver.name,
        "room": state.room_name(dev.room_id),
    }


def maker_commands(dev: Device) -> list[JSON]:
    out: list[JSON] = []
    for _cap, cmd in sorted(unique_commands(dev.driver), key=lambda p: p[1].name):
        types = [p.type for p in cmd.params] or ["n/a"]
        out.append({"command": cmd.name, "type": types})
    return out


def maker_capabilities(dev: Device) -> JSON:
    return {"capabilities": _interleaved_caps(dev, with_values=True)}


def maker_event(dev: Device, ev: DeviceEvent) -> JSON:
    return {
        "device_id": str(dev.id),
        "label": dev.display_name,
        "name": ev.name,
        "value": ev.value,
        "date": fmt_utc(ev.date),
        "unit": ev.unit,
        "isStateChange": ev.is_state_change,
        "source": ev.source,
    }


# --------------------------------------------------------------------------- admin


def current_states_list(dev: Device) -> list[JSON]:
    return [{"key": k, "value": value_str(st.value)} for k, st in dev.attrs.items()]


def _node_data(state: HomeState, dev: Device) -> JSON:
    return {
        "id": dev.id,
        "name": dev.name,
        "label": dev.label,
        "secondaryName": "",
        "type": dev.driver.name,
        "source": dev.driver.type,
        "dni": dev.dni,
        "zigbeeId": dev.zigbee_id,
        "isZwave": dev.driver.protocol == "zwave",
        "lastActivity": fmt_utc(dev.last_activity) if dev.last_activity else None,
        "disabled": dev.disabled,
        "roomId": dev.room_id,
        "roomName": state.room_name(dev.room_id),
        "currentStates": current_states_list(dev),
        "defaultCurrentState": dev.default_current_state,
        "tags": ",".join(dev.tags),
        "notes": dev.notes,
        "hubMesh": False,
        "homekit": dev.homekit_enabled,
        "showOnHome": dev.show_on_home,
        "deviceTypeId": dev.driver.id,
    }


def device_node(state: HomeState, dev: Device, *, same_room_children: bool = False) -> JSON:
    children = state.children_of(dev.id)
    if same_room_children:
        children = [c for c in children if c.room_id == dev.room_id]
    return {
        "key": f"DEV-{dev.id}",
        "data": _node_data(state, dev),
        "children": [
            device_node(state, c, same_room_children=same_room_children) for c in children
        ],
        "parent": bool(state.children_of(dev.id)),
        "child": dev.parent_id is not None,
    }


def devices_list(state: HomeState) -> JSON:
    top = [
        d for d in state.devices.values() if d.parent_id is None or d.parent_id not in state.devices
    ]
    return {
        "suggestBackup": False,
        "devices": [device_node(state, d) for d in top],
        "smartStart": [],
    }


def rooms_list(state: HomeState) -> JSON:
    nodes: list[JSON] = []
    room_ids: list[int | None] = [
        *sorted(state.rooms, key=lambda r: state.rooms[r].name.lower()),
        None,
    ]
    for rid in room_ids:
        members = [d for d in state.devices.values() if d.room_id == rid]
        ids = {d.id for d in members}
        tops = [d for d in members if d.parent_id is None or d.parent_id not in ids]
        if rid is None:
            if not members:
                continue
            data: JSON = {"id": UNASSIGNED_ROOM_ID, "name": "Unassigned", "type": "Room"}
        else:
            data = {"id": rid, "name": state.rooms[rid].name, "type": "Room"}
        nodes.append(
            {
                "key": f"ROOM-{data['id']}",
                "data": data,
                "children": [device_node(state, d, same_room_children=True) for d in tops],
            }
        )
    return {"roomNodes": nodes, "devices": []}


def _json_object(value: object) -> object:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _current_state_entry(dev: Device, name: str, adef: AttrDef | None) -> JSON:
    st = dev.attrs[name]
    value = st.value
    is_num = adef is not None and adef.data_type == "NUMBER" and isinstance(value, (int, float))
    is_json = adef is not None and adef.data_type == "JSON_OBJECT"
    return {
        "name": name,
        "attributeName": name,
        "value": value_str(value),
        "dataType": adef.data_type if adef else "STRING",
        "unit": adef.unit if adef else None,
        "numberValue": value if is_num else None,
        "stringValue": None if is_num or is_json else value_str(value),
        # the hub UI reads jsonValue (not value) for JSON_OBJECT attributes: the parsed object
        "jsonValue": _json_object(value) if is_json else None,
        "date": fmt_event(st.date),
        "deviceId": dev.id,
    }


def _param_json(p: Any) -> JSON:
    out: JSON = {"name": p.name, "type": p.type}
    if p.constraints:
        out["constraints"] = list(p.constraints)
    return out


def full_commands(dev: Device) -> list[JSON]:
    out: list[JSON] = []
    for cap, cmd in unique_commands(dev.driver):
        out.append(
            {
                "capability": cap,
                "name": cmd.name,
                "arguments": [p.type for p in cmd.params],
                "parameters": [_param_json(p) for p in cmd.params],
                "relatedAttribute": cmd.related,
            }
        )
    return out


def _pref_defs(dev: Device) -> list[JSON]:
    out: list[JSON] = []
    known = {p.name for p in dev.driver.prefs}
    for p in dev.driver.prefs:
        s = dev.settings.get(p.name)
        entry: JSON = {
            "name": p.name,
            "type": p.type,
            "title": p.title,
            "description": None,
            "defaultValue": p.default,
            "required": False,
            "value": s.value if s else p.default,
        }
        if p.options:
            entry["options"] = list(p.options)
        out.append(entry)
    for name, s in dev.settings.items():
        if name not in known:
            out.append({"name": name, "type": s.type, "title": name, "value": s.value})
    return out


def apps_using(state: HomeState, dev: Device) -> list[JSON]:
    out: list[JSON] = []
    for app_id in dev.apps_using:
        app = state.apps.get(app_id)
        if app is None:
            continue
        out.append(
            {
                "id": app.id,
                "name": app.name,
                "label": app.label or app.name,
                "trueLabel": app.true_label,
                "disabled": app.disabled,
            }
        )
    return out


def child_summary(state: HomeState, dev: Device) -> JSON:
    return {
        "id": dev.id,
        "name": dev.name,
        "label": dev.label,
        "deviceNetworkId": dev.dni,
        "typeName": dev.driver.name,
        "disabled": dev.disabled,
        "roomId": dev.room_id,
    }


def full_json(state: HomeState, dev: Device) -> JSON:
    defs = dev.attr_defs()
    current = {name: _current_state_entry(dev, name, defs.get(name)) for name in dev.attrs}
    settings = [{"name": s.name, "type": s.type, "value": s.value} for s in dev.settings.values()]
    device: JSON = {
        "id": dev.id,
        "name": dev.name,
        "label": dev.label,
        "displayName": dev.display_name,
        "deviceNetworkId": dev.dni,
        "zigbeeId": dev.zigbee_id,
        "typeName": dev.driver.name,
        "deviceTypeId": dev.driver.id,
        "deviceTypeName": dev.driver.name,
        "deviceTypeReadableType": dev.driver.category or "Device",
        "roomId": dev.room_id,
        "roomName": state.room_name(dev.room_id),
        "disabled": dev.disabled,
        "tags": ",".join(dev.tags),
        "notes": dev.notes,
        "version": dev.version,
        "capabilities": list(dev.driver.capabilities),
        "currentStates": current,
        "settings": settings,
        "data": dict(dev.data),
        "maxEvents": dev.max_events,
        "maxStates": dev.max_states,
        "spammyThreshold": dev.spammy_threshold,
        "meshEnabled": dev.mesh_enabled,
        # the device page offers its Hub Mesh switch only when this is true
        "meshSelectionEnabled": state.mesh.offers_sharing(dev.id),
        "retryEnabled": dev.retry_enabled,
        "meshFullSync": dev.mesh_full_sync,
        "locationId": 1,
        "hubId": 1,
        "groupId": dev.group_id,
        "defaultIcon": dev.default_icon,
        "controllerType": {"zwave": "ZWV", "zigbee": "ZGB"}.get(dev.driver.protocol, "LNK"),
        "showOnHome": dev.show_on_home,
        "defaultCurrentState": dev.default_current_state,
        "virtual": dev.driver.virtual,
        "parentDeviceId": dev.parent_id,
        "lastActivity": fmt_event(dev.last_activity) if dev.last_activity else None,
    }
    using = apps_using(state, dev)
    children = state.children_of(dev.id)
    parent_app = state.apps.get(dev.parent_app_id) if dev.parent_app_id else None
    return {
        "device": device,
        "settings": _pref_defs(dev),
        "commands": full_commands(dev),
        "scheduledJobs": [],
        "inputValues": {},
        "childDevices": {str(dev.id): [child_summary(state, c) for c in children]}
        if children
        else {},
        "deviceState": dict(dev.state),
        # the hub serialises this count as a STRING
        "appsUsing": using,
        "appsUsingCount": str(len(using)),
        "appsUsingForDialog": using,
        "parentApp": (
            {"id": parent_app.id, "name": parent_app.name, "label": parent_app.label}
            if parent_app
            else None
        ),
        "dashboards": [
            {"id": d.id, "name": d.name, "selected": d.id in dev.dashboards}
            for d in state.dashboards.values()
        ],
        "homeKitEnabled": dev.homekit_enabled,
        "homeKitSelectionEnabled": state.mesh.homekit_available,
        "extraBreadcrumb": dev.display_name,
        "name": dev.name,
        "label": dev.label,
    }


def admin_event(ev: DeviceEvent) -> JSON:
    out: JSON = {
        "id": ev.id,
        "name": ev.name,
        "value": ev.value,
        "unit": ev.unit,
        "descriptionText": ev.description,
        "source": ev.source,
        "type": ev.type,
        "date": fmt_event(ev.date),
        "isStateChange": ev.is_state_change,
        "deviceId": ev.device_id,
    }
    if ev.produced_by is not None:
        out["producedBy"] = ev.produced_by
    return out
