"""The emulated hub: :class:`HubEmulator`, the public entry point, built from its parts.

Layers: :class:`~hubitat_emulator.home.Home` (state, changes, events; no HTTP),
:class:`~hubitat_emulator.server.HubServer` (app, middleware, Hub Security, faults, request
log, websockets) and the ``routes_*`` modules (handlers given the typed objects they need).
:class:`HubEmulator` wires them and keeps one flat surface for tests and demos.

Behaviour decisions where the reference is silent (tests pin them):

* **Failed ``POST /login``** answers ``200 text/html`` with the login page carrying the text
  ``The login information you supplied was incorrect.`` (the real page's words) and NO
  ``Set-Cookie`` header at all. A successful login answers ``302 Location: /`` with
  ``Set-Cookie: HUBSESSION=<new id>; Path=/``.
* **Security on, no valid session**: admin ``GET``/``HEAD`` answer ``200 text/html`` with the
  login page (the trap); any other method answers ``401``; websocket upgrades: see below.
  ``/login``, ``/logout`` and ``/hubStatus`` are always open; the Maker API uses its token only.
* **Every response sets ``HUBSESSION``**: a valid session cookie is echoed back unchanged,
  anything else gets a fresh random (never valid) id. Only ids issued by a successful login are
  valid; ``expire_sessions()`` invalidates them all.
* **Content type**: every JSON body (Maker and admin) is served as ``text/html;charset=utf-8``
  (set ``HubEmulator.json_content_type`` to change the admin one); plain-text endpoints are
  ``text/plain``.
* **Disabled devices** silently ignore commands (Maker answers the pre-command JSON as usual,
  ``runmethod`` answers success) - no state change and no event.
* **Unchanged values** produce no event (like a driver's ``sendEvent`` without
  ``isStateChange``), except button events and ``force=True``.
* **Reboot**: the listening socket is closed (connection refused) for ``downtime`` seconds, then
  the hub answers ``/hubStatus`` with ``starting`` and every other path with ``503`` for
  ``starting`` seconds (websocket upgrades are already accepted then, so a reconnecting client
  sees the frame), then runs again and emits a HUB ``systemStart`` event.
* ``/hubStatus`` keeps answering ``running`` once booted (the reference says it may 404 then).
* **HSM**: ``/hsm/<cmd>`` answers the status right after the command (``armingAway``), which
  becomes ``armedAway`` after ``hsm_arming_delay``; ``armAll`` arms away, ``disarmAll`` gives
  ``allDisarmed``, ``armRules``/``disarmRules`` leave the status alone, ``cancelAlerts`` emits
  ``hsmAlert=cancel`` only while an alert is active. Only ``hsmStatus``/``hsmAlert`` events are
  emitted (no ``hsmSetArm``).
* **Accounting**: ``requests`` records every request (websocket upgrades and requests killed
  by faults included); ``in_flight``/``max_in_flight_seen`` count HTTP requests only (an open
  websocket is not "in flight").
* **Pings**: aiohttp's heartbeat: a ping after ``ping_interval`` s of silence; a client that does
  not answer with a pong within ``ping_interval / 2`` is disconnected.
* ``/logsocket`` ``time`` is hub-LOCAL (no offset); ``/logs/past/json`` is UTC.
* **Websocket upgrade without a valid session** answers ``server.ws_refusal_status``: 401
  (default), 403, 302 to ``/login`` or 200 with the login page (no evidence says which).
* Admin writes whose answer is undocumented (``/device/update``, ``/device/save``,
  ``/device/disable``, ``/location/mode/update``) answer
  ``{"success": bool, "message": str|null}``; ``/room/delete`` answers a page (read nothing).
"""

from __future__ import annotations

import asyncio
from datetime import date, datetime
from typing import Any, overload

from aiohttp import web

from . import (
    backups_cloud_state,
    model,
    routes_admin,
    routes_app_events,
    routes_apps,
    routes_backups_cloud,
    routes_cloner,
    routes_code,
    routes_dashboards,
    routes_files,
    routes_hub,
    routes_hubvars,
    routes_maker,
    routes_mesh,
    routes_modemanager,
    routes_ops,
    routes_radios,
    routes_rooms_modes,
    routes_rule_machine,
    sun,
)
from .button_controller import ButtonControllers
from .catalog import DriverSpec
from .clock import HUB_TZ
from .commands import Change
from .emuclock import EmuClock
from .faults import Faults
from .files import FileStore
from .home import Home
from .model import Device, MakerSettings, Mode
from .network_state import NetworkState
from .ops import OpsState
from .postdelivery import PostDelivery
from .responses import Responses
from .routes_apps import AppRoutes
from .routes_cloner import ClonerRoutes
from .routes_hubvars import HubVarRoutes
from .routes_network import setup as setup_network
from .routes_rule_machine import RuleMachineRoutes
from .rule_definition import RuleEngine
from .rule_machine import RuleMachine
from .rule_runner import RuleRunner
from .security import HubSecurity
from .seed import seed_home
from .server import HubServer, is_maker
from .tasks import Tasks


class _Forward[T]:
    """A read/write attribute of :class:`HubEmulator` that lives on one of its parts."""

    def __init__(self, part: str, name: str) -> None:
        self.part = part
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> _Forward[T]: ...
    @overload
    def __get__(self, obj: object, owner: type[Any]) -> T: ...
    def __get__(self, obj: object, owner: type[Any]) -> T | _Forward[T]:
        if obj is None:
            return self
        value: T = getattr(getattr(obj, self.part), self.name)
        return value

    def __set__(self, obj: object, value: T) -> None:
        setattr(getattr(obj, self.part), self.name, value)


class HubEmulator:
    """A stateful fake Hubitat Elevation hub served by aiohttp (see the package docstring)."""

    # Hub Security and the server
    security = _Forward[bool]("_security", "enabled")
    username = _Forward[str]("_security", "username")
    password = _Forward[str]("_security", "password")
    ping_interval = _Forward[float]("server", "ping_interval")
    reboot_starting_time = _Forward[float]("server", "reboot_starting_time")
    reboot_downtime = _Forward[float]("server", "reboot_downtime")  # used by POST /hub/reboot
    requests = _Forward[list[tuple[str, str]]]("server", "requests")
    max_in_flight_seen = _Forward[int]("server", "max_in_flight_seen")
    in_flight = _Forward[int]("server", "in_flight")
    url = _Forward[str]("server", "url")
    status = _Forward[str]("server", "status")  # running | starting | down
    json_content_type = _Forward[str]("http", "json_content_type")
    # the home
    state = _Forward[model.HomeState]("home", "state")
    files = _Forward[FileStore]("home", "files")  # the File Manager (files.py)
    outbound = _Forward[list[dict[str, str]]]("home", "outbound")  # rules' HTTP and pings
    ops = _Forward[OpsState]("home", "ops")  # alerts, radios, firmware (ops.py)
    command_delay = _Forward[float]("home", "command_delay")
    hsm_arming_delay = _Forward[float]("home", "hsm_arming_delay")
    door_travel_time = _Forward[float]("home", "door_travel_time")
    backup_in_progress = _Forward[bool]("home", "backup_in_progress")
    # keys left out of /hub/details/json (older firmwares lack some, e.g. ttsCurrent)
    details_omit = _Forward[set[str]]("home", "details_omit")
    # the Maker API instance
    maker_app_id = _Forward[int]("maker", "app_id")
    maker_token = _Forward[str]("maker", "token")
    # None = every device is authorised in the Maker API instance
    maker_device_ids = _Forward["set[int] | None"]("maker", "device_ids")
    maker_variable_names = _Forward["set[str] | None"]("maker", "variable_names")  # None = all
    post_url = _Forward["str | None"]("maker", "post_url")  # deliveries only to loopback hosts
    post_location_events = _Forward[bool]("maker", "post_location_events")
    # what runs the native Rule Machine rules (rule_definition.RuleEngine; tests replace it)
    rule_engine = _Forward[RuleEngine]("rule_machine", "engine")

    def __init__(
        self,
        *,
        security: bool = False,
        username: str = "admin",
        password: str = "hubpass",
        maker_app_id: int = 12,
        maker_token: str = "maker-token-0001",
        device_count: int | None = None,
        seed: int = 1,
        ping_interval: float = 120.0,
        command_delay: float = 0.0,
        hsm_arming_delay: float = 0.2,
        door_travel_time: float = 0.2,
        reboot_starting_time: float = 0.5,
    ) -> None:
        tasks = Tasks()
        self.maker = MakerSettings(maker_app_id, maker_token)
        self.home = Home(
            seed_home(seed, device_count, maker_app_id=maker_app_id),
            maker=self.maker,
            tasks=tasks,
            command_delay=command_delay,
            hsm_arming_delay=hsm_arming_delay,
            door_travel_time=door_travel_time,
        )
        self.http = Responses()
        self._security = HubSecurity(enabled=security, username=username, password=password)
        self.faults = Faults()
        self.server = HubServer(
            self.home,
            http=self.http,
            security=self._security,
            faults=self.faults,
            tasks=tasks,
            ping_interval=ping_interval,
            reboot_starting_time=reboot_starting_time,
        )
        self.home.event_listeners.append(PostDelivery(self.maker, tasks))
        # the hub's clock (tests move it: ``await emu.clock.advance(minutes=5)``) and the Rule
        # Machine runner the rule pages hand their rules to (``rule_runner.py``)
        self.clock = EmuClock()
        self.app = self.server.app
        home, http = self.home, self.http
        app_routes = AppRoutes(home, http)
        self.rule_machine = RuleMachine(home)
        app_routes.rule_machine = self.rule_machine
        # knob: .spawns; its Button Rules run on the hub's rule engine
        self.buttons = app_routes.buttons = ButtonControllers(
            home.state, lambda: self.rule_machine.engine
        )
        runner = RuleRunner(self.home, self.clock)
        runner.pause_hook = self.rule_machine.set_paused  # the Pause Rules action
        runner.private_hook = self.rule_machine.set_private  # Set Private Boolean
        self.rule_engine = runner
        # the Hub Variables singleton and the App Cloner fall through to the generic app pages
        self.hubvar_routes = HubVarRoutes(home, http, fallback=app_routes)
        self.cloner = ClonerRoutes(home, http, fallback=self.hubvar_routes)
        app = self.app
        routes_hub.setup(app, home, http, self.server)
        routes_admin.setup(app, home, http)
        routes_rooms_modes.setup(app, home, http)
        routes_modemanager.setup(app, home, http)
        routes_mesh.setup(app, home, http)
        routes_app_events.setup(app, home, http)
        routes_dashboards.setup(app, home, http)  # before Maker: legacy layouts under /apps/api
        routes_cloner.setup(app, self.cloner)  # before Maker and the app routes it falls to
        routes_maker.setup(app, home, http)
        routes_files.setup(app, home.files, http)
        routes_ops.setup(app, home, http, self.server)
        setup_network(app, self.server)
        # cloud backups, uploaded restores, the backup schedule (knobs: emu.cloud)
        self.cloud = backups_cloud_state.seed_cloud(home)
        routes_backups_cloud.setup(app, self.cloud, home, http, self.server)
        routes_radios.setup(app, home, http, self.server)
        routes_code.setup(app, home, http)
        routes_hubvars.setup(app, self.hubvar_routes)  # before routes_apps: the singleton
        routes_apps.setup(app, app_routes)
        # createchild: rules to the Rule Machine, other child apps to the app routes
        rm_routes = RuleMachineRoutes(home, http, self.rule_machine, app_routes.create_child)
        routes_rule_machine.setup(app, rm_routes)

    # ------------------------------------------------------------------ lifecycle and faults

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Start serving on a real TCP socket; returns the base URL."""
        return await self.server.start(host, port)

    async def stop(self) -> None:
        """Stop serving; cancels background work and closes every connection. The rules are
        forgotten and the clock goes back to real time."""
        self.rule_engine.shutdown()
        await self.server.stop()
        self.clock.close()

    async def __aenter__(self) -> HubEmulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def reboot(self, downtime: float = 10.0, *, starting: float | None = None) -> asyncio.Task[Any]:
        """Simulate a reboot. Synchronously drops sockets and stops listening (connection refused);
        the returned task completes once the hub is ``running`` again (awaiting it is optional)."""
        return self.server.reboot(downtime, starting=starting)

    @property
    def network(self) -> NetworkState:
        """Settings > Network, the links, the cloud, LED and memory (``network_state.py``;
        the endpoints: ``routes_network.py``)."""
        return self.server.network

    def expire_sessions(self) -> None:
        """Invalidate every HUBSESSION cookie issued so far."""
        self._security.expire_all()

    def drop_sockets(self) -> None:
        """Abruptly close (TCP abort, no close frame) every /eventsocket and /logsocket."""
        self.server.drop_sockets()

    @property
    def event_socket_count(self) -> int:
        return len(self.server.event_sockets)

    @property
    def log_socket_count(self) -> int:
        return len(self.server.log_sockets)

    # ------------------------------------------------------------------ HTTP helpers

    def json(self, data: object, *, status: int = 200, maker: bool = False) -> web.Response:
        return self.http.json(data, status=status, maker=maker)

    text = staticmethod(Responses.text)
    html_page = staticmethod(Responses.html_page)
    is_maker = staticmethod(is_maker)

    def session_valid(self, request: web.Request) -> bool:
        return self.server.session_valid(request)

    def new_session(self) -> str:
        return self._security.new_session()

    # ------------------------------------------------------------------ changes "on the hub"

    def apply_changes(
        self, dev: Device, changes: list[Change], *, etype: str | None = "digital"
    ) -> list[model.DeviceEvent]:
        """Apply attribute changes to a device, recording events and notifying listeners."""
        return self.home.apply_changes(dev, changes, etype=etype)

    def set_device_attribute(
        self,
        device_id: int,
        name: str,
        value: object,
        *,
        force: bool = False,
        etype: str | None = "physical",
    ) -> None:
        """An 'on the hub' attribute change (a physical event by default)."""
        self.home.set_device_attribute(device_id, name, value, force=force, etype=etype)

    def run_command(self, device_id: int | str, command: str, args: list[object]) -> None:
        """Run a device command (raises CommandError / UnknownCommand)."""
        self.home.run_command(device_id, command, args)

    def create_device(self, driver: DriverSpec, *, label: str | None = None) -> Device:
        return self.home.create_device(driver, label=label)

    def delete_device(self, device_id: int) -> bool:
        return self.home.delete_device(device_id)

    def driver(self, type_id: int | str) -> DriverSpec | None:
        return self.home.driver(type_id)

    def device_obj(self, device_id: int | str) -> Device:
        """The live :class:`Device` model object (mutable)."""
        return self.home.device_obj(device_id)

    def emit_app_event(
        self, app_id: int, name: str, value: object, description: str | None = None
    ) -> None:
        """Broadcast an APP-source eventsocket frame (e.g. from a rule)."""
        self.home.emit_app_event(app_id, name, value, description)

    def activate_mode(self, mode: Mode) -> None:
        self.home.activate_mode(mode)

    def set_mode(self, name: str) -> None:
        """Change the location mode by name ('on the hub')."""
        self.home.set_mode(name)

    def set_hsm(self, status: str) -> None:
        """Set the HSM status directly ('on the hub')."""
        self.home.set_hsm(status)

    def hsm_alert(self, alert: str) -> None:
        """Raise an HSM alert (intrusion, smoke, water, rule, cancel...)."""
        self.home.hsm_alert(alert)

    def hsm_command(self, cmd: str) -> str:
        """Run a Maker ``/hsm/<cmd>``; returns the status right after the command."""
        return self.home.hsm_command(cmd)

    convert_variable = staticmethod(Home.convert_variable)

    def set_variable(self, name: str, value: object, *, vtype: str | None = None) -> None:
        """Set (or create, with ``vtype`` or an inferred type) a hub variable ('on the hub')."""
        self.home.set_variable(name, value, vtype=vtype)

    def add_log(
        self,
        level: str,
        msg: str,
        *,
        source_type: str = "dev",
        source_id: int = 0,
        name: str = "",
    ) -> None:
        """Append a hub log line (past logs + a /logsocket frame)."""
        self.home.add_log(level, msg, source_type=source_type, source_id=source_id, name=name)

    def mark_backup_now(self) -> model.Backup:
        """Add a fresh local backup created now."""
        return self.home.mark_backup_now()

    def sun_times(self, day: date) -> tuple[datetime, datetime]:
        """(sunrise, sunset) on the hub-local date ``day`` at the hub's location (``sun.py``)."""
        st = self.home.state
        return sun.sun_times(day, st.latitude, st.longitude, HUB_TZ)

    # ------------------------------------------------------------------ snapshots for assertions

    def device(self, device_id: int | str) -> dict[str, Any]:
        """A plain-dict snapshot of a device for assertions."""
        dev = self.home.device_obj(device_id)
        return {
            "id": dev.id,
            "name": dev.name,
            "label": dev.label,
            "type": dev.driver.name,
            "deviceTypeId": dev.driver.id,
            "dni": dev.dni,
            "room_id": dev.room_id,
            "room": self.home.state.room_name(dev.room_id),
            "parent_id": dev.parent_id,
            "disabled": dev.disabled,
            "tags": list(dev.tags),
            "notes": dev.notes,
            "version": dev.version,
            "capabilities": list(dev.driver.capabilities),
            "attributes": {k: st.value for k, st in dev.attrs.items()},
            "settings": {k: s.value for k, s in dev.settings.items()},
            "last_activity": dev.last_activity,
            "events": len(dev.events),
        }

    def device_ids(self) -> list[int]:
        return sorted(self.home.state.devices)

    def find_device(self, label: str) -> dict[str, Any]:
        """Snapshot of the device with this label (or name)."""
        for dev in self.home.state.devices.values():
            if label in (dev.label, dev.name):
                return self.device(dev.id)
        raise KeyError(label)

    def device_events(self, device_id: int) -> list[model.DeviceEvent]:
        return list(self.home.device_obj(device_id).events)

    @property
    def hub_uid(self) -> str:
        return self.home.state.hub_uid

    @property
    def hub_name(self) -> str:
        return self.home.state.hub_name

    @property
    def rooms(self) -> dict[int, dict[str, Any]]:
        return {
            r.id: {
                "id": r.id,
                "name": r.name,
                "deviceIds": sorted(
                    d.id for d in self.home.state.devices.values() if d.room_id == r.id
                ),
            }
            for r in self.home.state.rooms.values()
        }

    @property
    def modes(self) -> list[dict[str, Any]]:
        cur = self.home.state.current_mode_id
        return [{"id": m.id, "name": m.name, "active": m.id == cur} for m in self.home.state.modes]

    @property
    def current_mode(self) -> str:
        return self.home.state.current_mode.name

    @property
    def hsm_status(self) -> str:
        return self.home.state.hsm_status

    @property
    def variables(self) -> dict[str, dict[str, Any]]:
        return {
            v.name: {"name": v.name, "type": v.type, "value": v.value}
            for v in self.home.state.variables.values()
        }

    @property
    def backups(self) -> list[model.Backup]:
        return list(self.home.state.backups)

    @property
    def location_events(self) -> list[model.LocationEvent]:
        return list(self.home.state.location_events)

    @property
    def hub_events(self) -> list[model.HubEvent]:
        return list(self.home.state.hub_events)

    @property
    def logs(self) -> list[model.LogEntry]:
        return list(self.home.state.logs)
