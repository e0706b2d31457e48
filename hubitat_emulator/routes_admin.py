"""Admin (hub UI) endpoints: devices and drivers (rooms and modes: ``routes_rooms_modes.py``).

Decisions where the reference is silent or split:

* ``/device/fullJson`` ``commands[].capability`` is the capability NAME (kingpanther13 fixture
  variant; ``null`` for driver-specific commands); ``appsUsingCount`` is a STRING (hub-JS/live
  variant); driver preferences appear both as ``device.settings`` ``[{name,type,value}]`` and as
  the richer top-level ``settings`` list.
* ``POST /device/update`` is wholesale: every omitted field is blanked (name, label, DNI, room,
  tags, notes, flags...), except an empty ``deviceTypeId`` which keeps the driver; a stale
  ``version`` answers ``{"success": false, ...}``; each edit bumps ``device.version``. Its
  ``deviceTypeId`` (and ``/device/save``'s ``type.id``) may name a built-in or an installed
  (user) driver, as the device page's type list offers both. The hub UI's form (``saveDevice``
  from ``populateData``): ``roomId`` ``""`` for a device in no room (``null`` sent as ``""``),
  ``0`` when "No room assigned" is chosen (the on-hub server, live: ``roomId=0`` clears the room):
  both mean no room here; ``defaultIcon`` is the custom icon read as ``defaultIcon || icon``, and
  ``""`` removes it (the page's remove button sets ``""``).
* A device on an installed driver has the type its source declares (``devstate.driver_source``:
  the evidence for the fullJson shape is cited there) and follows the driver's saved code:
  every device read here re-reads the type when the code changed; its commands run the
  driver's methods (``commands.run_driver_method``).
* ``POST /device/runmethod``: non-JSON body or a bare (non ``{type,value}``) argument -> HTTP 500
  HTML; unknown device/method or bad argument values -> 200 ``{"success": false, "message"}``.
* ``GET /device/updateRoom`` matches room names case-sensitively; anything else creates a room.
* ``GET /device/setRoom`` answers ``true``/``false``; ``roomId=0`` unassigns.
* Unknown device ids on read endpoints -> 404 ``{"error": "Device not found"}``.
* ``GET /device/replace?oldId=&newId=``: the new device must be one of the old one's
  replacement options; the OLD device keeps its id, label, room and app references and takes
  the new device's hardware (DNI, Zigbee id, driver, driver data, current states); the new
  device record is removed. Otherwise ``{"success": false, "message"}``.
* ``/hub2/devicesList``: ``roomId``/``roomName`` are ``null`` for unassigned devices (the
  ``999999`` pseudo-room only exists in ``/hub2/roomsList``).
* Where the hub UI shows the request (README "Devices and rooms"):
  ``/device/forceDelete/<id>/json`` answering ``{status}``
  (``HomeState.force_delete_status``), ``/device/createVirtual`` ignoring any ``label``,
  ``/device/disable`` taking JSON ``{id, disable: bool}`` or form strings, and ``jsonValue``
  holding the parsed object of a JSON_OBJECT attribute in ``fullJson``.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import render
from .catalog import DRIVERS, DriverSpec
from .commands import CommandError
from .devstate import sync_user_driver, user_driver, user_driver_spec
from .home import Home
from .model import Device, Room, Setting
from .responses import Responses
from .routes_common import Routes, json_body, to_int

# Form fields of the wholesale POST /device/update (omitted ones are blanked).
UPDATE_FIELDS = (
    "name",
    "label",
    "zigbeeId",
    "maxEvents",
    "maxStates",
    "spammyThreshold",
    "deviceNetworkId",
    "deviceTypeId",
    "deviceTypeReadableType",
    "roomId",
    "meshEnabled",
    "retryEnabled",
    "meshFullSync",
    "homeKitEnabled",
    "locationId",
    "hubId",
    "groupId",
    "dashboardIds",
    "tags",
    "defaultIcon",
    "notes",
)


def setup(app: web.Application, home: Home, http: Responses) -> None:
    r = _AdminRoutes(home, http)
    add = app.router
    add.add_get("/hub2/devicesList", r.devices_list)
    add.add_get("/device/fullJson/{id}", r.full_json)
    add.add_get("/device/listWithCapabilities/json", r.list_with_capabilities)
    add.add_get("/device/listJson", r.list_json)
    add.add_get("/device/eventsJson/{id}", r.events_json)
    add.add_post("/device/runmethod", r.runmethod)
    add.add_post("/device/update", r.update)
    add.add_post("/device/save", r.save)
    add.add_post("/device/disable", r.disable)
    add.add_get("/device/disable", r.method_not_allowed)
    add.add_get("/device/setRoom", r.set_room)
    add.add_get("/device/updateRoom", r.update_room)
    add.add_post("/device/preference/save", r.preference_save)
    add.add_get("/device/drivers", r.drivers)
    add.add_get("/hub/compatibleDevices", r.compatible_devices)
    add.add_get("/device/sysDriverByIdJson/{typeId}", r.sys_driver_by_id)
    add.add_get("/device/createVirtual", r.create_virtual)
    add.add_get("/device/forceDelete/{id}/json", r.force_delete_json)
    add.add_get("/device/forceDelete/{id}/yes", r.force_delete)
    add.add_get("/device/availableTags", r.available_tags)
    add.add_get("/device/getReplacementOptions/{id}", r.replacement_options)
    add.add_get("/device/replace", r.replace)
    # /device/updateLabel deliberately absent (firmware-gated setter: 404 on this build)


def _bool_field(value: str | None) -> bool:
    return (value or "").strip().lower() in ("on", "true", "1")


class _AdminRoutes(Routes):
    def _device(self, raw: object) -> Device | None:
        dev_id = to_int(raw)
        dev = self.st.devices.get(dev_id) if dev_id is not None else None
        if dev is not None:
            sync_user_driver(self.dev, dev)  # a device on a user driver runs its saved code
        return dev

    def _type(self, raw: object) -> DriverSpec | None:
        """A device type by id for the device edit forms: a built-in driver, else an
        installed driver (the device page's type list offers both)."""
        type_id = to_int(raw)
        if type_id is None:
            return None
        return DRIVERS.get(type_id) or user_driver(self.dev, type_id)

    def _not_found(self) -> web.Response:
        return self.http.json({"error": "Device not found"}, status=404)

    # ------------------------------------------------------------------ device reads

    def _sync_all(self) -> None:
        for dev in self.st.devices.values():
            sync_user_driver(self.dev, dev)

    async def devices_list(self, request: web.Request) -> web.StreamResponse:
        self._sync_all()
        return self.http.json(render.devices_list(self.st))

    async def full_json(self, request: web.Request) -> web.StreamResponse:
        dev = self._device(request.match_info["id"])
        if dev is None:
            return self._not_found()
        return self.http.json(render.full_json(self.st, dev))

    async def list_with_capabilities(self, request: web.Request) -> web.StreamResponse:
        self._sync_all()
        out = [
            {"id": d.id, "label": d.display_name, "capabilities": list(d.driver.capabilities)}
            for d in self.st.devices.values()
        ]
        return self.http.json(out)

    async def list_json(self, request: web.Request) -> web.StreamResponse:
        cap = request.query.get("capability", "")
        cap = cap.split(".")[-1]
        self._sync_all()
        out = [
            {"id": d.id, "name": d.name, "label": d.display_name}
            for d in self.st.devices.values()
            if not cap or cap.lower() in (c.lower() for c in d.driver.capabilities)
        ]
        return self.http.json(out)

    async def events_json(self, request: web.Request) -> web.StreamResponse:
        dev = self._device(request.match_info["id"])
        if dev is None:
            return self._not_found()
        return self.http.json([render.admin_event(e) for e in reversed(dev.events)])

    # ------------------------------------------------------------------ device writes

    async def runmethod(self, request: web.Request) -> web.StreamResponse:
        try:
            body = await json_body(request)
            dev_raw = body["id"]
            method = str(body["method"])
            args_in = body.get("args") or []
            if not isinstance(args_in, list):
                raise TypeError("args must be a list")
            args: list[object] = []
            for a in args_in:
                if not isinstance(a, dict) or "value" not in a:
                    # the real hub throws on bare (non {type,value}) arguments
                    raise TypeError("argument is not a {type,value} map")
                args.append(a["value"])
        except (ValueError, KeyError, TypeError) as err:
            return self.http.html_page(
                f"<html><body><h2>HTTP ERROR 500</h2><p>{err}</p></body></html>", status=500
            )
        dev = self._device(dev_raw)
        if dev is None:
            return self.http.result(False, f"Device {dev_raw} not found")
        try:
            self.home.run_command(dev.id, method, args)
        except CommandError as err:
            return self.http.json({"success": False, "message": str(err)})
        return self.http.result(True)

    async def update(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        dev = self._device(form.get("id"))
        if dev is None:
            return self.http.result(False, "Device not found")
        version = to_int(form.get("version"))
        if version is not None and version != dev.version:
            return self.http.json(
                {
                    "success": False,
                    "message": "Device was modified by another process, please reload and retry",
                }
            )

        def f(key: str) -> str:
            value = form.get(key)
            return "" if value is None else str(value)

        # WHOLESALE: every field absent from the form is blanked (faithful trap).
        dev.name = f("name")
        dev.label = f("label") or None
        dev.zigbee_id = f("zigbeeId") or None
        dev.max_events = to_int(f("maxEvents"))
        dev.max_states = to_int(f("maxStates"))
        dev.spammy_threshold = to_int(f("spammyThreshold"))
        dev.dni = f("deviceNetworkId")
        driver = self._type(f("deviceTypeId"))
        if driver is not None:
            dev.driver = driver  # an empty (or unknown) deviceTypeId keeps the driver
        room_id = to_int(f("roomId"))
        dev.room_id = room_id if room_id and room_id in self.st.rooms else None
        dev.mesh_enabled = _bool_field(f("meshEnabled"))
        dev.retry_enabled = _bool_field(f("retryEnabled"))
        dev.mesh_full_sync = _bool_field(f("meshFullSync"))
        dev.homekit_enabled = _bool_field(f("homeKitEnabled"))
        dev.group_id = to_int(f("groupId"))
        dev.dashboards = [
            i for i in (to_int(x) for x in f("dashboardIds").split(",")) if i is not None
        ]
        dev.tags = [t.strip() for t in f("tags").split(",") if t.strip()]
        dev.default_icon = f("defaultIcon") or None
        dev.notes = f("notes")
        dev.version += 1
        return self.http.result(True)

    async def save(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        dev = self._device(form.get("id"))
        if dev is None:
            return self.http.result(False, "Device not found")
        if "label" in form:
            dev.label = str(form["label"]) or None
        if "name" in form:
            dev.name = str(form["name"])
        if "deviceNetworkId" in form:
            dev.dni = str(form["deviceNetworkId"])
        driver = self._type(form.get("type.id"))
        if driver is not None:
            dev.driver = driver
        # roomId is silently ignored here (use /room/save)
        dev.version += 1
        return self.http.result(True)

    async def disable(self, request: web.Request) -> web.StreamResponse:
        # the hub UI posts JSON {id, disable: bool}; a form with strings works too (on-hub server)
        if request.content_type.startswith("application/json"):
            try:
                body = await json_body(request)
            except ValueError:
                body = None
            if not isinstance(body, dict):
                return self.http.html_page("<html><body>HTTP ERROR 500</body></html>", status=500)
        else:
            body = dict(await request.post())
        dev = self._device(body.get("id"))
        if dev is None:
            return self.http.result(False, "Device not found")
        flag = body.get("disable", True)
        dev.disabled = flag is True or str(flag).lower() == "true"
        dev.version += 1
        return self.http.result(True)

    async def method_not_allowed(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=405, text="Method Not Allowed", headers={"Allow": "POST"})

    async def set_room(self, request: web.Request) -> web.StreamResponse:
        dev = self._device(request.query.get("deviceId"))
        room_id = to_int(request.query.get("roomId"))
        if dev is None or room_id is None or (room_id and room_id not in self.st.rooms):
            return self.http.text("false")
        dev.room_id = room_id or None
        return self.http.text("true")

    async def update_room(self, request: web.Request) -> web.StreamResponse:
        dev = self._device(request.query.get("deviceId"))
        name = request.query.get("room", "")
        if dev is None or not name:
            return self.http.text("false")
        room = next((r for r in self.st.rooms.values() if r.name == name), None)
        if room is None:
            # faithful trap: an unknown name (or an id passed by mistake) creates a new room
            room = Room(self.st.next_room_id, name)
            self.st.next_room_id += 1
            self.st.rooms[room.id] = room
        dev.room_id = room.id
        return self.http.text("true")

    async def preference_save(self, request: web.Request) -> web.StreamResponse:
        try:
            body = await json_body(request)
            dev = self._device(body.get("deviceId"))
        except (ValueError, AttributeError):
            return self.http.html_page("<html><body>HTTP ERROR 500</body></html>", status=500)
        if dev is None:
            return self.http.result(False, "Device not found")
        if "showOnHome" in body:
            dev.show_on_home = bool(body["showOnHome"])
        if "defaultCurrentState" in body:
            dev.default_current_state = body["defaultCurrentState"] or None
        if "commandRetry" in body:
            # the hub UI fills commandRetry from the device's retryEnabled
            dev.retry_enabled = bool(body["commandRetry"])
        for pref in body.get("preferences") or []:
            if isinstance(pref, dict) and "name" in pref:
                ptype = str(pref.get("type") or "text")
                dev.settings[str(pref["name"])] = Setting(
                    str(pref["name"]), ptype, _pref_value(ptype, pref.get("value"))
                )
        # any other flat key (a driver preference sent flat) is a silent no-op
        return self.http.json({"success": True})

    # ------------------------------------------------------------------ drivers / create

    async def compatible_devices(self, request: web.Request) -> web.StreamResponse:
        """The static catalog (a small slice of the real ~1083 entries, same fields)."""
        return self.http.json(COMPATIBLE_DEVICES)

    async def drivers(self, request: web.Request) -> web.StreamResponse:
        out = [
            {
                "id": d.id,
                "version": 1,
                "name": d.name,
                "namespace": d.namespace,
                "author": d.author,
                "type": d.type,
                "category": d.category,
            }
            for d in (
                *DRIVERS.values(),
                *(user_driver_spec(c) for c in self.dev.items("driver")),
            )
        ]
        return self.http.json({"drivers": out})

    async def sys_driver_by_id(self, request: web.Request) -> web.StreamResponse:
        driver = self.home.driver(request.match_info["typeId"])
        if driver is None or driver.type == "dep":
            return self.http.json(
                {"success": False, "deviceId": None, "errorMessage": "Driver not found"}
            )
        dev = self.home.create_device(driver)
        return self.http.json({"success": True, "deviceId": dev.id, "errorMessage": None})

    async def create_virtual(self, request: web.Request) -> web.StreamResponse:
        type_id = request.query.get("deviceTypeId", "")
        # the hub UI's virtual device page offers system AND user drivers
        driver = self.home.driver(type_id) or user_driver(self.dev, type_id)
        if driver is None or driver.type == "dep":
            return self.http.json({"deviceId": None, "error": "Invalid device type"})
        # the hub UI sends only deviceTypeId: the device is named after its driver
        dev = self.home.create_device(driver)
        return self.http.json({"deviceId": dev.id})

    async def force_delete_json(self, request: web.Request) -> web.StreamResponse:
        ok = self.home.delete_device(to_int(request.match_info["id"]) or -1)
        return self.http.json({"status": self.st.force_delete_status if ok else "failed"})

    async def force_delete(self, request: web.Request) -> web.StreamResponse:
        # the older confirm link: its answer is not in evidence (a page; read nothing from it)
        self.home.delete_device(to_int(request.match_info["id"]) or -1)
        return self.http.html_page("<html><body>Device deleted</body></html>")

    async def available_tags(self, request: web.Request) -> web.StreamResponse:
        tags = sorted({t for d in self.st.devices.values() for t in d.tags})
        return self.http.json(tags)

    async def replacement_options(self, request: web.Request) -> web.StreamResponse:
        dev = self._device(request.match_info["id"])
        if dev is None:
            return self.http.json([])
        out = [
            {"id": d.id, "name": d.display_name, "deviceTypes": [d.driver.name]}
            for d in (self.st.devices[i] for i in self._replacement_ids(dev))
        ]
        return self.http.json(out)

    def _replacement_ids(self, dev: Device) -> list[int]:
        primary = set(dev.driver.capabilities) - {"Actuator", "Sensor", "Refresh", "Configuration"}
        return [
            d.id
            for d in self.st.devices.values()
            if d.id != dev.id and primary & set(d.driver.capabilities)
        ]

    async def replace(self, request: web.Request) -> web.StreamResponse:
        old = self._device(request.query.get("oldId"))
        new = self._device(request.query.get("newId"))
        if old is None or new is None:
            return self.http.result(False, "Device not found")
        if new.id not in self._replacement_ids(old):
            return self.http.json(
                {"success": False, "message": "Device is not a valid replacement"}
            )
        old.dni, old.zigbee_id, old.driver = new.dni, new.zigbee_id, new.driver
        old.data = dict(new.data)
        old.attrs = dict(new.attrs)
        old.version += 1
        self.home.delete_device(new.id)
        return self.http.result(True)


def _pref_value(ptype: str, value: object) -> object:
    if ptype == "bool":
        return str(value).lower() == "true" if not isinstance(value, bool) else value
    if ptype in ("number", "decimal"):
        try:
            f = float(str(value))
        except ValueError:
            return value
        return int(f) if ptype == "number" and f.is_integer() else f
    return value


def _compat(
    n: int, brand: str, name: str, kind: str, product: str, protocol: str, driver: str
) -> dict[str, Any]:
    return {
        "id": str(n),
        "brand": brand,
        "name": name,
        "deviceType": kind,
        "productNumber": product,
        "protocol": protocol,
        "driverName": driver,
        "deviceTypeId": str(100 + n),
        "appTypeId": None,
        "integrationAppName": None,
        "supportedHubs": "C-7, C-8, C-8 Pro",
        "joinInstructions": f"<p>Start inclusion, then press the {name} button <b>3 times</b>.</p>",
        "excludeInstructions": "<p>Start exclusion, then press the button 3 times.</p>",
        "factoryResetInstructions": "<p>Hold the button for 20 seconds.</p>",
        "notes": "",
        "additionalHardware": None,
        "affiliateLink": None,
        "zwaveAllianceId": None,
        "zwaveAllianceXml": None,
    }


COMPATIBLE_DEVICES = [
    _compat(1, "Aeotec", "Smart Switch 7", "Outlet", "ZWA025", "Z-Wave", "Generic Z-Wave Outlet"),
    _compat(2, "Sonoff", "Zigbee Plug", "Outlet", "S31 Lite zb", "Zigbee", "Generic Zigbee Outlet"),
    _compat(3, "Zooz", "ZEN77 Dimmer", "Dimmer", "ZEN77", "Z-Wave", "Zooz Z-Wave Dimmer"),
    _compat(4, "Inovelli", "Blue Series Dimmer", "Dimmer", "VZM31-SN", "Zigbee", "Inovelli Dimmer"),
    _compat(5, "Schlage", "Connect Deadbolt", "Lock", "BE469ZP", "Z-Wave", "Generic Z-Wave Lock"),
    _compat(6, "Eve", "Energy", "Outlet", "20EBO8301", "Matter", "Generic Matter Outlet"),
    _compat(7, "Hue", "Bridge", "Hub", "BSB002", "LAN", "Hue Bridge Integration"),
    _compat(
        8,
        "Aqara",
        "Door and Window Sensor",
        "Contact",
        "MCCGQ11LM",
        "Zigbee",
        "Generic Zigbee Contact Sensor",
    ),
    _compat(9, "Zooz", "ZSE41 Open/Close XS", "Contact", "ZSE41", "Z-Wave", "Zooz Contact Sensor"),
    _compat(
        10, "Ecobee", "Smart Thermostat", "Thermostat", "EB-STATE5", "Cloud", "Ecobee Thermostat"
    ),
]
