"""Admin (hub UI) endpoints: rooms and modes (the device-side room setters, ``/device/setRoom``
and ``/device/updateRoom``, are in ``routes_admin.py``).

Decisions where the reference is silent or split:

* ``POST /room/save``: ``deviceIds`` is the complete membership (omitting it empties the room);
  a non-zero unknown ``roomId`` or a missing ``roomId`` -> ``{"roomId": null, "error": "Invalid
  room id"}``; room names are unique case-insensitively.
* ``GET /room/delete/<id>`` (POST is not served), where the hub UI shows the request (README
  "Devices and rooms").
* ``POST /modes/jsonUpdate`` takes the hub UI's ``{name, icon, daysOfWeek, id}``; the posted
  days are the mode's day schedule and a body without them drops it (assumptions: see
  ``mode_update``).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import render
from .home import Home
from .model import Mode, Room
from .responses import Responses
from .routes_common import Routes, json_body, to_int

ALL_DAYS = (0, 1, 2, 3, 4, 5, 6)  # the hub UI's day ids (jbe: 0 = Sun ... 6 = Sat)
DAY_NAMES = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")


def setup(app: web.Application, home: Home, http: Responses) -> None:
    r = _RoomModeRoutes(home, http)
    add = app.router
    add.add_get("/hub2/roomsList", r.rooms_list)
    add.add_get("/room/listRoomsJson", r.list_rooms)
    add.add_get("/room/listRoomNamesJson", r.list_room_names)
    add.add_post("/room/save", r.room_save)
    add.add_get("/room/delete/{id}", r.room_delete)
    add.add_get("/modes/json", r.modes_json)
    add.add_get("/modes/list/json", r.modes_list)
    add.add_post("/modes/jsonCreate", r.mode_create)
    add.add_post("/modes/jsonUpdate", r.mode_update)
    add.add_get("/modes/jsonDelete/{id}", r.mode_delete)
    add.add_post("/location/mode/update", r.mode_activate)


class _RoomModeRoutes(Routes):
    # ------------------------------------------------------------------ rooms

    async def rooms_list(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(render.rooms_list(self.st))

    async def list_rooms(self, request: web.Request) -> web.StreamResponse:
        return self.http.json([{"id": r.id, "name": r.name} for r in self.st.rooms.values()])

    async def list_room_names(self, request: web.Request) -> web.StreamResponse:
        return self.http.json([r.name for r in self.st.rooms.values()])

    async def room_save(self, request: web.Request) -> web.StreamResponse:
        if not request.content_type.startswith("application/json"):
            return self.http.html_page(
                "<html><body><h2>HTTP ERROR 500</h2><p>Unsupported content</p></body></html>",
                status=500,
            )
        try:
            body = await json_body(request)
            if not isinstance(body, dict):
                raise ValueError("not an object")
        except ValueError:
            return self.http.html_page("<html><body>HTTP ERROR 500</body></html>", status=500)
        room_id = to_int(body.get("roomId")) if "roomId" in body else None
        if room_id is None or (room_id != 0 and room_id not in self.st.rooms):
            return self.http.json({"roomId": None, "error": "Invalid room id"})
        name = str(body.get("name") or "").strip()
        if not name:
            return self.http.json({"roomId": None, "error": "Room name is required"})
        if any(r.name.lower() == name.lower() and r.id != room_id for r in self.st.rooms.values()):
            return self.http.json({"roomId": None, "error": f"A room named {name} already exists"})
        if room_id == 0:
            room = Room(self.st.next_room_id, name)
            self.st.next_room_id += 1
            self.st.rooms[room.id] = room
        else:
            room = self.st.rooms[room_id]
            room.name = name
        # deviceIds is the complete membership (missing = empty: the room is emptied)
        wanted = {i for i in (to_int(x) for x in body.get("deviceIds") or []) if i is not None}
        for dev in self.st.devices.values():
            if dev.id in wanted:
                dev.room_id = room.id
            elif dev.room_id == room.id:
                dev.room_id = None
        return self.http.json({"roomId": room.id})

    async def room_delete(self, request: web.Request) -> web.StreamResponse:
        # the hub UI GETs this and reads nothing from the answer (not in evidence: a page)
        room_id = to_int(request.match_info["id"])
        if room_id is not None and room_id in self.st.rooms:
            del self.st.rooms[room_id]
            for dev in self.st.devices.values():
                if dev.room_id == room_id:
                    dev.room_id = None
        return self.http.html_page("<html><body></body></html>")

    # ------------------------------------------------------------------ modes

    async def modes_json(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(
            {
                "modes": [
                    {"id": m.id, "name": m.name, "icon": m.icon, "conditions": m.conditions}
                    for m in self.st.modes
                ],
                "currentModeId": self.st.current_mode_id,
                "selectedModeManager": self.st.mode_manager.selected,
                "modeManagerAppId": self.st.mode_manager.app_id,
                "legacyModeManagerAppId": self.st.mode_manager.legacy_app_id,
                "easyModeManagerAppId": self.st.mode_manager.integrated_app_id,
            }
        )

    async def modes_list(self, request: web.Request) -> web.StreamResponse:
        return self.http.json([{"id": m.id, "name": m.name} for m in self.st.modes])

    async def _mode_body(self, request: web.Request) -> dict[str, Any] | None:
        try:
            body = await json_body(request)
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    async def mode_create(self, request: web.Request) -> web.StreamResponse:
        """``{name, icon, daysOfWeek}`` (hub UI ``ModeController.postBody``); an empty icon
        gets the default one and the days (every day, the editor's start) set no schedule
        *(assumed)*."""
        body = await self._mode_body(request)
        name = str((body or {}).get("name") or "").strip()
        if not name:
            return self.http.result(False, "Mode name is required")
        if self.st.mode_by_name(name) is not None:
            return self.http.result(False, f"Mode {name} already exists")
        mode = Mode(self.st.next_mode_id, name, str((body or {}).get("icon") or "fa-circle"))
        self.st.next_mode_id += 1
        self.st.modes.append(mode)
        return self.http.result(True)

    async def mode_update(self, request: web.Request) -> web.StreamResponse:
        """``{name, icon, daysOfWeek, id}`` (hub UI ``ModeController.postBody``).

        Evidence: the hub UI posts the mode's icon (``""`` when it has none) and
        ``daysOfWeek`` with every edit: the days of the mode's ``daysOfWeek`` entry in
        ``/modes/easyModeManager/json``, or every day when there is none; the on-hub server (live)
        posts ``{id, name, icon?}`` and reads the new name and icon back. Assumptions (what the
        hub does with the days is not shown): the posted days are the mode's schedule, kept
        as the UI keeps it (its entry and the complementary ``alt-<id>`` one); a body
        WITHOUT ``daysOfWeek`` takes the UI's default, every day, so the mode's day
        schedule is dropped (a client that leaves it out loses it); a ``daysOfWeek`` that is
        not a list of days 0-6 is refused.
        """
        body = await self._mode_body(request) or {}
        mode = self.st.mode_by_id(to_int(body.get("id")) or -1)
        if mode is None:
            return self.http.result(False, "Mode not found")
        name = str(body.get("name") or "").strip()
        if not name:
            return self.http.result(False, "Mode name is required")
        other = self.st.mode_by_name(name)
        if other is not None and other.id != mode.id:
            return self.http.result(False, f"Mode {name} already exists")
        days = body.get("daysOfWeek", list(ALL_DAYS))
        if not isinstance(days, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) and 0 <= d < 7 for d in days
        ):
            return self.http.result(False, "Invalid daysOfWeek")
        mode.name = name
        if body.get("icon"):
            mode.icon = str(body["icon"])
        self._schedule_days(mode.id, sorted(set(days)))
        return self.http.result(True)

    def _schedule_days(self, mode_id: int, days: list[int]) -> None:
        """The mode's days entry (and its ``alt-`` complement) as the hub UI writes them
        (``updateDaysOfWeek``/``appendDaysOfWeekCondition``); every day with no entry is
        no schedule, and every day drops the entries (assumption, see ``mode_update``)."""
        conditions = self.st.mode_manager.conditions
        own_key, alt_key = str(mode_id), f"alt-{mode_id}"
        current = next(
            (
                t.get("daysOfWeek")
                for t in conditions.get(own_key) or []
                if t.get("triggerType") == "daysOfWeek"
            ),
            None,
        )
        if isinstance(current, list) and sorted(current) == days:
            return
        if current is None and days == list(ALL_DAYS):
            return
        for key, wanted in ((own_key, days), (alt_key, [d for d in ALL_DAYS if d not in days])):
            items = [t for t in conditions.get(key) or [] if t.get("triggerType") != "daysOfWeek"]
            if days != list(ALL_DAYS):
                names = ", ".join(DAY_NAMES[d] for d in wanted)
                items.append(
                    {
                        "deviceIds": [],
                        "index": len(items),
                        "triggerType": "daysOfWeek",
                        "daysOfWeek": wanted,
                        "description": f"When day is {names}",
                        "type": "when",
                    }
                )
            if items:
                conditions[key] = items
            else:
                conditions.pop(key, None)

    async def mode_delete(self, request: web.Request) -> web.StreamResponse:
        mode = self.st.mode_by_id(to_int(request.match_info["id"]) or -1)
        if mode is None:
            return self.http.result(False, "Mode not found")
        if mode.id == self.st.current_mode_id:
            return self.http.result(False, "Cannot delete the current mode")
        self.st.modes.remove(mode)
        return self.http.result(True)

    async def mode_activate(self, request: web.Request) -> web.StreamResponse:
        body = await self._mode_body(request) or {}
        mode = self.st.mode_by_id(to_int(body.get("modeId")) or -1)
        if mode is None:
            return self.http.result(False, "Mode not found")
        self.home.activate_mode(mode)
        return self.http.result(True)
