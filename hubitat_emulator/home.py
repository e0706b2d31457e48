"""The emulated hub's behaviour: state changes and the events and logs they emit (no HTTP).

:class:`Home` owns the :class:`HomeState` (devices, rooms, modes, HSM, variables, apps, code),
the File Manager store and the operations state. Every change goes through it, and every event
or log line it records is handed, as an eventsocket/logsocket frame, to the listeners the
server registers (``event_listeners``, ``log_listeners``).
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from .catalog import DRIVERS, AttrDef, DriverSpec
from .clock import HUB_TZ, fmt_event, fmt_log_local, parse_hub_datetime, utcnow
from .commands import Change, describe, execute, number, to_attr_value, value_str
from .device_factory import new_device
from .devstate import DevState
from .files import FileStore, seed_files
from .model import (
    App,
    AttrState,
    Backup,
    Device,
    DeviceEvent,
    HomeState,
    HubEvent,
    LocationEvent,
    LogEntry,
    MakerSettings,
    Mode,
    Variable,
)
from .ops import OpsState, seed_ops
from .scenes import activate, scene_of
from .tasks import Tasks

HSM_STATUSES = (
    "armedAway",
    "armingAway",
    "armedHome",
    "armingHome",
    "armedNight",
    "armingNight",
    "disarmed",
    "allDisarmed",
)
HSM_COMMANDS = (
    "armAway",
    "armHome",
    "armNight",
    "disarm",
    "armAll",
    "disarmAll",
    "armRules",
    "disarmRules",
    "cancelAlerts",
)
VARIABLE_TYPES = ("integer", "bigdecimal", "boolean", "string", "datetime")
MAX_DEVICE_EVENTS = 500
MAX_LOGS = 5000

Frame = dict[str, Any]
Listener = Callable[[Frame], None]


def _camel_words(text: str) -> str:
    out = "".join(" " + c.lower() if c.isupper() else c for c in text)
    return out.strip()


class OnHome:
    """Something that works on a :class:`Home` (route groups, Rule Machine): its state,
    installed apps and development state by name."""

    home: Home

    @property
    def st(self) -> HomeState:
        return self.home.state

    @property
    def apps(self) -> dict[int, App]:
        return self.st.apps

    @property
    def dev(self) -> DevState:
        return self.st.dev


class Home:
    """The hub's state and every change to it (see the module docstring)."""

    def __init__(
        self,
        state: HomeState,
        *,
        maker: MakerSettings,
        tasks: Tasks,
        command_delay: float = 0.0,
        hsm_arming_delay: float = 0.2,
        door_travel_time: float = 0.2,
    ) -> None:
        self.state = state
        self.maker = maker
        self.tasks = tasks
        self.command_delay = command_delay
        self.hsm_arming_delay = hsm_arming_delay
        self.door_travel_time = door_travel_time
        self.files: FileStore = seed_files()
        # what the rules' HTTP and ping actions would have sent (nothing leaves the machine)
        self.outbound: list[dict[str, str]] = []
        self.ops: OpsState = seed_ops(state)
        self.backup_in_progress = False
        # keys left out of /hub/details/json (older firmwares lack some, e.g. ttsCurrent)
        self.details_omit: set[str] = set()
        self.event_listeners: list[Listener] = []
        self.log_listeners: list[Listener] = []
        self._pending: dict[tuple[int, str], asyncio.Task[Any]] = {}
        self._hsm_task: asyncio.Task[Any] | None = None

    def cancel_pending(self) -> None:
        """Forget every delayed device change (a reboot loses them)."""
        for key, task in list(self._pending.items()):
            task.cancel()
            self._pending.pop(key, None)

    def _event_frame(
        self,
        source: str,
        name: str,
        value: str | None,
        *,
        display_name: str | None = None,
        etype: str | None = None,
        unit: str | None = None,
        device_id: int = 0,
        app_id: int = 0,
        description: str | None = None,
    ) -> None:
        """Hand an eventsocket frame to every event listener."""
        frame: Frame = {
            "source": source,
            "name": name,
            "displayName": display_name or "null",
            "value": value if value is not None else "null",
            "type": etype or "null",
            "unit": unit or "null",
            "deviceId": device_id,
            "hubId": 0,
            "installedAppId": app_id,
            "descriptionText": description or "null",
        }
        for listener in self.event_listeners:
            listener(frame)

    # ------------------------------------------------------------------ device state

    def _dev(self, device_id: int | str) -> Device:
        try:
            return self.state.devices[int(device_id)]
        except (KeyError, ValueError):
            raise KeyError(f"no device {device_id}") from None

    def device_obj(self, device_id: int | str) -> Device:
        """The live :class:`Device` model object (mutable)."""
        return self._dev(device_id)

    def apply_changes(
        self, dev: Device, changes: list[Change], *, etype: str | None = "digital"
    ) -> list[DeviceEvent]:
        """Apply attribute changes to a device, recording events and notifying listeners."""
        out: list[DeviceEvent] = []
        defs = dev.attr_defs()
        for ch in changes:
            adef = defs.get(ch.attr)
            if adef is None:
                is_num = isinstance(ch.value, (int, float)) and not isinstance(ch.value, bool)
                adef = AttrDef(ch.attr, "NUMBER" if is_num else "STRING")
                dev.extra_attr_defs[ch.attr] = adef
                defs[ch.attr] = adef
            value = to_attr_value(adef, ch.value)
            if ch.attr in dev.attrs and dev.attrs[ch.attr].value == value and not ch.force:
                continue
            now = utcnow()
            dev.attrs[ch.attr] = AttrState(value, now)
            dev.last_activity = now
            if ch.attr == "speed" and value not in ("off", "on", "auto"):
                dev.state["lastSpeed"] = value
            desc = describe(dev, ch.attr, value, adef.unit)
            ev = DeviceEvent(
                id=self.state.alloc_event_id(),
                device_id=dev.id,
                name=ch.attr,
                value=value_str(value),
                unit=adef.unit,
                description=desc,
                date=now,
                type=etype,
            )
            dev.events.append(ev)
            if len(dev.events) > MAX_DEVICE_EVENTS:
                del dev.events[: len(dev.events) - MAX_DEVICE_EVENTS]
            out.append(ev)
            self._event_frame(
                "DEVICE",
                ch.attr,
                ev.value,
                display_name=dev.display_name,
                etype=etype,
                unit=adef.unit,
                device_id=dev.id,
                description=desc,
            )
            txt = dev.settings.get("txtEnable")
            if txt is None or txt.value in (True, "true"):
                self.add_log(
                    "info", desc, source_type="dev", source_id=dev.id, name=dev.display_name
                )
        return out

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
        dev = self._dev(device_id)
        self.apply_changes(dev, [Change(name, value, force)], etype=etype)

    def run_command(
        self,
        device_id: int | str,
        command: str,
        args: list[object],
        *,
        producer: tuple[int, str] | None = None,
    ) -> None:
        """Run a device command (raises CommandError / UnknownCommand); effects may be delayed by
        ``command_delay`` and, for doors/shades, by ``door_travel_time``.

        The hub records the call itself as a ``command-<name>`` event (type ``command``, not
        a state change) before its effects; ``producer`` (app id, name) is what called it,
        shown as the event's ``producedBy`` link (live sample: jbaruch's client,
        ``"producedBy":"<a href='/installedapp/configure/583' ...>HomeKit Integration</a>"``).
        """
        dev = self._dev(device_id)
        outcome = execute(dev, command, args, travel=self.door_travel_time)
        if dev.disabled:
            return  # a disabled device ignores commands: nothing is recorded
        self._command_event(dev, command, args, producer)
        if command == "on" and (scene_id := scene_of(self.state, dev)) is not None:
            activate(self.state, scene_id, self.run_command)  # a scene's activator device
        for ch in outcome.changes:
            self._cancel_pending(dev.id, ch.attr)
        if self.command_delay > 0:
            self.tasks.spawn(self._apply_later(dev, self.command_delay, outcome.changes))
        else:
            self.apply_changes(dev, outcome.changes)
        for delay, later in outcome.later:
            task = self.tasks.spawn(self._apply_later(dev, self.command_delay + delay, later))
            for ch in later:
                self._pending[(dev.id, ch.attr)] = task

    def _command_event(
        self, dev: Device, command: str, args: list[object], producer: tuple[int, str] | None
    ) -> None:
        shown = ", ".join(str(a) for a in args)
        produced = (
            f"<a href='/installedapp/configure/{producer[0]}' target='_blank'>{producer[1]}</a>"
            if producer is not None
            else None
        )
        dev.events.append(
            DeviceEvent(
                id=self.state.alloc_event_id(),
                device_id=dev.id,
                name=f"command-{command}",
                value=None,
                unit=None,
                description=f"Command called: {command}({shown})",
                date=utcnow(),
                type="command",
                is_state_change=False,
                produced_by=produced,
            )
        )
        if len(dev.events) > MAX_DEVICE_EVENTS:
            del dev.events[: len(dev.events) - MAX_DEVICE_EVENTS]

    def _cancel_pending(self, device_id: int, attr: str) -> None:
        task = self._pending.pop((device_id, attr), None)
        if task is not None:
            task.cancel()

    async def _apply_later(self, dev: Device, delay: float, changes: list[Change]) -> None:
        await asyncio.sleep(delay)
        for ch in changes:
            if self._pending.get((dev.id, ch.attr)) is asyncio.current_task():
                self._pending.pop((dev.id, ch.attr), None)
        if dev.id in self.state.devices:
            self.apply_changes(dev, changes)

    def create_device(self, driver: DriverSpec, *, label: str | None = None) -> Device:
        dev_id = self.state.next_device_id
        self.state.next_device_id += 1
        dev = new_device(
            self.state,
            driver,
            device_id=dev_id,
            label=label,
            dni=f"{dev_id:X}" if not driver.virtual else str(1_700_000_000_000 + dev_id),
            now=utcnow(),
        )
        self.state.devices[dev_id] = dev
        self.add_log("info", f"Device created: {driver.name}", source_id=dev_id, name=dev.name)
        return dev

    def delete_device(self, device_id: int) -> bool:
        dev = self.state.devices.pop(int(device_id), None)
        if dev is None:
            return False
        for child in [d for d in self.state.devices.values() if d.parent_id == dev.id]:
            self.state.devices.pop(child.id, None)
        return True

    def driver(self, type_id: int | str) -> DriverSpec | None:
        try:
            return DRIVERS.get(int(type_id))
        except ValueError:
            return None

    # ------------------------------------------------------------------ location

    def _location_event(self, name: str, value: str, description: str, etype: str) -> None:
        now = utcnow()
        self.state.location_events.append(
            LocationEvent(self.state.alloc_event_id(), name, value, description, etype, now)
        )
        self._event_frame(
            "LOCATION",
            name,
            value,
            display_name=self.state.location_name,
            description=description,
        )

    def hub_event(self, name: str, value: str, description: str) -> None:
        self.state.hub_events.append(
            HubEvent(self.state.alloc_event_id(), name, value, description, utcnow())
        )
        self._event_frame(
            "HUB", name, value, display_name=self.state.hub_name, description=description
        )

    def emit_app_event(
        self, app_id: int, name: str, value: object, description: str | None = None
    ) -> None:
        """Broadcast an APP-source eventsocket frame (e.g. from a rule)."""
        self._event_frame("APP", name, value_str(value), app_id=app_id, description=description)

    def activate_mode(self, mode: Mode) -> None:
        if mode.id == self.state.current_mode_id:
            return
        self.state.current_mode_id = mode.id
        self._location_event("mode", mode.name, f"Mode changed to {mode.name}", "API")

    def set_mode(self, name: str) -> None:
        """Change the location mode by name ('on the hub')."""
        mode = self.state.mode_by_name(name)
        if mode is None:
            raise ValueError(f"unknown mode {name!r}")
        self.activate_mode(mode)

    def _set_hsm_status(self, status: str) -> None:
        if status == self.state.hsm_status:
            return
        self.state.hsm_status = status
        self._location_event("hsmStatus", status, f"HSM {_camel_words(status)}", "API")

    def set_hsm(self, status: str) -> None:
        """Set the HSM status directly ('on the hub')."""
        if status not in HSM_STATUSES:
            raise ValueError(f"unknown HSM status {status!r}")
        self._cancel_hsm()
        self._set_hsm_status(status)

    def hsm_alert(self, alert: str) -> None:
        """Raise an HSM alert (intrusion, smoke, water, rule, cancel...)."""
        self.state.hsm_alert = None if alert == "cancel" else alert
        self._location_event("hsmAlert", alert, f"HSM alert: {alert}", "API")

    def _cancel_hsm(self) -> None:
        if self._hsm_task is not None:
            self._hsm_task.cancel()
            self._hsm_task = None

    def hsm_command(self, cmd: str) -> str:
        """Run a Maker ``/hsm/<cmd>``; returns the status right after the command."""
        if cmd not in HSM_COMMANDS:
            raise ValueError(cmd)
        arm = {"armAway": "Away", "armHome": "Home", "armNight": "Night", "armAll": "Away"}
        if cmd in arm:
            self._cancel_hsm()
            target = arm[cmd]
            if self.state.hsm_status != f"armed{target}":
                self._set_hsm_status(f"arming{target}")
                self._hsm_task = self.tasks.spawn(self._finish_arming(target))
        elif cmd == "disarm":
            self._cancel_hsm()
            self._set_hsm_status("disarmed")
        elif cmd == "disarmAll":
            self._cancel_hsm()
            self._set_hsm_status("allDisarmed")
        elif cmd == "cancelAlerts" and self.state.hsm_alert is not None:
            self.hsm_alert("cancel")
        return self.state.hsm_status

    async def _finish_arming(self, target: str) -> None:
        await asyncio.sleep(self.hsm_arming_delay)
        self._hsm_task = None
        self._set_hsm_status(f"armed{target}")

    # ------------------------------------------------------------------ variables

    @staticmethod
    def convert_variable(vtype: str, value: object) -> object:
        """Convert/validate a value for a hub variable type; raises ValueError."""
        if vtype == "integer":
            if isinstance(value, bool):
                raise ValueError("not an integer")
            if isinstance(value, float):
                if not value.is_integer():
                    raise ValueError("not an integer")
                return int(value)
            return int(str(value).strip())
        if vtype == "bigdecimal":
            if isinstance(value, bool):
                raise ValueError("not a number")
            return number(value)
        if vtype == "boolean":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text not in ("true", "false"):
                raise ValueError("not a boolean")
            return text == "true"
        if vtype == "datetime":
            if isinstance(value, datetime):
                return fmt_event(value)
            text = str(value).strip()
            if re.match(r"^\d{4}-\d{2}-\d{2}T99:99:99\.999-9999$", text):
                # date-only: the hub keeps this time part (the on-hub server issue #447)
                return text
            if re.match(r"^9999-99-99T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4}$", text):
                return text  # time-only: the date part stays nines (evcallia schedule-manager)
            return fmt_event(parse_hub_datetime(text))
        return str(value)

    def set_variable(self, name: str, value: object, *, vtype: str | None = None) -> None:
        """Set (or create, with ``vtype`` or an inferred type) a hub variable ('on the hub')."""
        var = self.state.variables.get(name)
        if var is None:
            if vtype is None:
                vtype = (
                    "boolean"
                    if isinstance(value, bool)
                    else "integer"
                    if isinstance(value, int)
                    else "bigdecimal"
                    if isinstance(value, float)
                    else "string"
                )
            if vtype not in VARIABLE_TYPES:
                raise ValueError(vtype)
            var = Variable(name, vtype, None)
            self.state.variables[name] = var
        converted = self.convert_variable(var.type, value)
        changed = converted != var.value
        var.value = converted
        if changed:
            self._location_event(
                f"variable:{name}",
                value_str(converted) or "",
                "hub variable updated",
                "HUB_VARIABLE_SET",
            )

    # ------------------------------------------------------------------ logs & backups

    def add_log(
        self,
        level: str,
        msg: str,
        *,
        source_type: str = "dev",
        source_id: int = 0,
        name: str = "",
    ) -> None:
        """Append a hub log line (past logs + a /logsocket frame). Extra lines of a multi-line
        ``msg`` become continuation lines."""
        first, *rest = msg.split("\n")
        now = utcnow()
        entry = LogEntry(now, level.lower(), source_type, source_id, name, first, rest)
        self.state.logs.append(entry)
        if len(self.state.logs) > MAX_LOGS:
            del self.state.logs[: len(self.state.logs) - MAX_LOGS]
        if not self.log_listeners:
            return
        frame: Frame = {
            "name": name,
            "msg": html.escape(msg),
            "id": source_id,
            "time": fmt_log_local(now, self.state.time_zone),
            "type": source_type,
            "level": level.lower(),
        }
        for listener in self.log_listeners:
            listener(frame)

    def mark_backup_now(self) -> Backup:
        """Add a fresh local backup created now."""
        now = utcnow()
        stamp = now.astimezone(HUB_TZ).strftime("%Y-%m-%d~%H-%M-%S")
        backup = Backup(
            f"{stamp}~{self.state.version}.lzf", now, 18_900_000 + len(self.state.backups)
        )
        self.state.backups.append(backup)
        return backup
