"""The seeded home's last days, produced by running them on the hub's one clock.

``seed_home`` builds the home as it stands now (devices and their current values, apps, rules,
modes); :func:`run_story` then plays the last :data:`DAYS` days through the same
:class:`~hubitat_emulator.home.Home` the live hub uses, with the emulated clock standing at each
moment. Every device event, mode and HSM change, rule log line and rule app event in that
window comes out of this run, so they agree with each other:

* **Sun and modes.** Sunrise and sunset come from :mod:`sun` for the hub's location and zone;
  Mode Manager sets Day 15 minutes after sunrise, Evening at sunset and Night at 10:30 PM (the
  seeded modes' triggers), and Away while everyone is out (once, two days ago, with HSM armed
  away). Outdoor light follows the sun; indoor light follows it and the room's lights.
* **People.** A day's routine (waking, breakfast, office hours on weekdays, dinner, the
  evening in the living room, bed) moves through the rooms: motion sensors and doors report
  first, then the lights a person switches (physical events) or a rule switches (command
  events whose ``producedBy`` names the rule).
* **Rules.** The seeded automations react to what they subscribe to, as they would on a hub:
  Motion Lights - Kitchen turns the kitchen light on at kitchen motion (its trace and action
  lines are logged at the motion's time), Office Lights sets the office scene at office motion,
  the porch Basic Rule turns the porch light on 15 minutes before sunset and off at 11 PM,
  Ecobee polls. Goodnight (triggered by Night, restricted to Day and Evening) never runs, and
  Leak Alarm (its sensor deleted) fails with the NullPointerException an owner must find.
* **Sensors.** Temperature and humidity follow a daily curve ending at their current value
  (a Zigbee sensor's parse line precedes each report), batteries run down to theirs (a low one
  logs a warning at that report), power meters wander around theirs.
* **Now.** In the last hour every device is brought to the value the home declares (a sensor
  or a rule first, so the kitchen light is on because someone is in the kitchen). A device that
  nothing above touches reports its value once. Devices that stopped reporting days ago
  (``days_old``) keep their older history from :mod:`seed` and get nothing here.

One consequence is the purpose: a log line that names a device has that device's event at the
same instant (``tests/emulator/test_story.py`` replays the window and checks it), and "what
turned the kitchen light on last night" has an answer in the device's own events.
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from functools import partial

from . import clock
from .app_events import add_app_event
from .clock import HUB_TZ
from .commands import Change
from .home import Home
from .model import Device, HomeState, MakerSettings
from .seed_specs import (
    APP_ECOBEE,
    APP_HSM,
    APP_MODE_MANAGER,
    BR_PORCH,
    HISTORY,
    RL_OFFICE,
    RULE_MOTION,
    SENSOR_ATTRS,
)
from .sun import sun_times
from .tasks import Tasks

DAYS = 3
NIGHT_AT = time(22, 30)
PORCH_OFF_AT = time(23, 0)
Frame = dict[str, object]


@dataclass(slots=True)
class _Beat:
    when: datetime
    act: Callable[[], None]


class Story:
    """One run of the home's last days (see the module docstring)."""

    def __init__(
        self, state: HomeState, now: datetime, rng: random.Random, stale: set[int]
    ) -> None:
        self.state = state
        self.stale = stale  # devices silent for days (their history is older)
        self.now = now
        self.start = now - timedelta(days=DAYS)
        self.rng = rng
        self.home = Home(state, maker=MakerSettings(0, ""), tasks=Tasks())
        self.home.event_listeners.append(self._react)
        self._beats: list[tuple[datetime, int, _Beat]] = []
        self._seq = itertools.count()
        self.touched: set[tuple[int, str]] = set()  # (device, attribute) some actor reports
        self._office_off: _Beat | None = None
        self._sun: dict[object, tuple[datetime, datetime]] = {}
        self.by_label = {d.label: d for d in state.devices.values() if d.label}
        # the values the home declares now, read before the story moves them
        self.declared: dict[tuple[int, str], object] = {
            (d.id, a): st.value for d in state.devices.values() for a, st in d.attrs.items()
        }

    # ------------------------------------------------------------------ the clock

    def at(self, when: datetime, act: Callable[[], None]) -> _Beat | None:
        """Run ``act`` at ``when`` (inside the window only)."""
        if not self.start <= when <= self.now:
            return None
        beat = _Beat(when, act)
        heapq.heappush(self._beats, (when, next(self._seq), beat))
        return beat

    def run(self) -> None:
        """Play every beat in time order, the hub's clock standing at each."""
        try:
            while self._beats:
                _, _, beat = heapq.heappop(self._beats)
                clock.freeze(beat.when)
                beat.act()
        finally:
            clock.freeze(None)

    def local(self, day: datetime, at: time) -> datetime:
        """``at`` (hub-local wall time) on the local day of ``day``."""
        d = day.astimezone(HUB_TZ).date()
        return datetime.combine(d, at, HUB_TZ)

    def days(self) -> list[datetime]:
        """Local midnights from the day before the window to today."""
        first = self.local(self.start - timedelta(days=1), time(0))
        return [first + timedelta(days=n) for n in range(DAYS + 2)]

    # ------------------------------------------------------------------ devices

    def fresh(self, dev: Device) -> bool:
        return dev.id not in self.stale

    def dev(self, label: str) -> Device | None:
        dev = self.by_label.get(label)
        return dev if dev is not None and not dev.disabled else None

    def claim(self, dev: Device | None, *attrs: str) -> None:
        if dev is not None:
            self.touched.update((dev.id, a) for a in attrs)

    def report(
        self, dev: Device | None, attr: str, value: object, *, etype: str | None = None
    ) -> None:
        """A device reports ``attr`` (physical unless it is a sensor reading)."""
        if dev is None or dev.id not in self.state.devices:
            return
        kind = etype if etype is not None else (None if attr in SENSOR_ATTRS else "physical")
        self.home.set_device_attribute(dev.id, attr, value, etype=kind)

    def command(
        self, dev: Device | None, name: str, args: list[object], app: tuple[int, str]
    ) -> None:
        if dev is not None and dev.id in self.state.devices:
            self.home.run_command(dev.id, name, args, producer=app)

    def app_name(self, app_id: int) -> str:
        app = self.state.apps.get(app_id)
        if app is None:
            return f"App {app_id}"
        return (app.label or app.name).replace("<b>", "").replace("</b>", "")

    def log_app(self, app_id: int, level: str, msg: str) -> None:
        app = self.state.apps.get(app_id)
        if app is not None:
            name = app.label or app.name
            self.home.add_log(level, msg, source_type="app", source_id=app_id, name=name)

    def app_event(self, app_id: int, name: str, value: str, text: str) -> None:
        if app_id in self.state.apps:
            add_app_event(self.state, app_id, name, value, text, clock.utcnow())

    # ------------------------------------------------------------------ rules reacting

    def _react(self, frame: Frame) -> None:
        if frame.get("source") != "DEVICE":
            return
        dev = self.state.devices.get(int(str(frame.get("deviceId"))))
        if dev is None:
            return
        name, value = frame.get("name"), frame.get("value")
        if name == "motion" and value == "active" and RULE_MOTION in dev.apps_using:
            self.after(1, lambda: self._motion_lights(dev))
        if name == "motion" and RL_OFFICE in dev.apps_using:
            if value == "active":
                self.after(1, self._office_on)
            elif value == "inactive":
                self._office_off = self.at(clock.utcnow() + timedelta(minutes=15), self._office_dim)

    def after(self, seconds: float, act: Callable[[], None]) -> None:
        self.at(clock.utcnow() + timedelta(seconds=seconds), act)

    def _motion_lights(self, sensor: Device) -> None:
        rule = (RULE_MOTION, self.app_name(RULE_MOTION))
        light = self.dev("Kitchen Light")
        self.app_event(RULE_MOTION, "ruleState", "triggered", f"{rule[1]}: trigger <b>motion</b>")
        self.log_app(RULE_MOTION, "trace", f"Event: {sensor.display_name} motion active")
        if light is not None:
            self.command(light, "on", [], rule)
            self.log_app(RULE_MOTION, "info", f"Action: On: {light.display_name}")
        done = partial(
            self.app_event, RULE_MOTION, "ruleState", "completed", f"{rule[1]}: actions done"
        )
        self.after(0.4, done)

    def _office_on(self) -> None:
        if self._office_off is not None:
            self._office_off.act = lambda: None  # the room is in use again
        lights = [self.dev("Office Light"), self.dev("Office Desk Lamp")]
        if all(d is not None and d.value("switch") == "on" for d in lights):
            return
        app = (RL_OFFICE, self.app_name(RL_OFFICE))
        self.log_app(RL_OFFICE, "debug", "Activating scene (level 100, CT 4000K)")
        self.command(lights[0], "setLevel", [100], app)
        self.command(lights[1], "setColorTemperature", [4000, 90], app)

    def _office_dim(self) -> None:
        app = (RL_OFFICE, self.app_name(RL_OFFICE))
        self.log_app(RL_OFFICE, "debug", "Turning off (no motion for 15 minutes)")
        for label in ("Office Light", "Office Desk Lamp"):
            self.command(self.dev(label), "off", [], app)

    # ------------------------------------------------------------------ the cast

    def plan(self) -> None:
        self._modes_and_sun()
        self._porch_rule()
        self._routines()
        self._climate()
        self._batteries()
        self._meters()
        self._ecobee()
        self._keypad()
        self._settle()
        self._untouched()

    def _modes_and_sun(self) -> None:
        st = self.state
        changes: list[tuple[datetime, str]] = []
        for midnight in self.days():
            rise, set_ = self.sun(midnight + timedelta(hours=12))
            changes += [
                (rise + timedelta(minutes=15), "Day"),
                (set_, "Evening"),
                (self.local(midnight, NIGHT_AT), "Night"),
            ]
        changes.sort()
        # the mode the window starts in: the last change before it
        before = [m for t, m in changes if t <= self.start]
        mode = st.mode_by_name(before[-1] if before else "Night")
        if mode is not None:
            st.current_mode_id = mode.id
        away = self.local(self.start + timedelta(days=1), time(9, 10 + self.rng.randint(0, 20)))
        back = away + timedelta(hours=4, minutes=self.rng.randint(10, 40))
        for t, name in changes:
            if not away <= t <= back:
                self.at(t, partial(self._mode, name))
        self._away(away, back, changes)
        self._outdoor_light()

    def _mode(self, name: str) -> None:
        mode = self.state.mode_by_name(name)
        if mode is not None and mode.id != self.state.current_mode_id:
            self.home.activate_mode(mode)
            self.log_app(APP_MODE_MANAGER, "info", f"Mode changed to {name}")

    def _away(self, away: datetime, back: datetime, changes: list[tuple[datetime, str]]) -> None:
        alice, car, family = self.dev("Alice's Phone"), self.dev("Car Arrival Sensor"), None
        family = self.dev("Family Phone")
        self.claim(alice, "presence")
        self.claim(car, "presence")
        self.claim(family, "presence")
        front, lock = self.dev("Front Door"), self.dev("Front Door Lock")

        def leave() -> None:
            for d in (alice, family, car):
                self.report(d, "presence", "not present", etype="digital")
            self._mode("Away")
            self.home.set_hsm("armingAway")
            self.log_app(APP_HSM, "info", "Arming away: 60 s exit delay")

        def armed() -> None:
            self.home.set_hsm("armedAway")
            self.log_app(APP_HSM, "info", "Intrusion monitoring: 12 sensors armed")

        def arrive() -> None:
            for d in (car, alice, family):
                self.report(d, "presence", "present", etype="digital")
            self.home.set_hsm("disarmed")
            self.log_app(APP_HSM, "info", "Disarmed")
            due = [m for t, m in changes if t <= back]
            self._mode(due[-1] if due else "Day")

        self.at(away - timedelta(minutes=3), lambda: self.report(front, "contact", "open"))
        self.at(away - timedelta(minutes=2), lambda: self.report(front, "contact", "closed"))
        self.at(away - timedelta(minutes=1), lambda: self.report(lock, "lock", "locked"))
        self.at(away, leave)
        self.at(away + timedelta(minutes=1), armed)
        self.at(back, arrive)
        self.at(back + timedelta(minutes=1), lambda: self.report(lock, "lock", "unlocked"))
        self.at(back + timedelta(minutes=2), lambda: self.report(front, "contact", "open"))
        self.at(back + timedelta(minutes=3), lambda: self.report(front, "contact", "closed"))
        self.at(back + timedelta(minutes=8), lambda: self.report(lock, "lock", "locked"))

    def sun(self, when: datetime) -> tuple[datetime, datetime]:
        """Sunrise and sunset of ``when``'s local day."""
        day = when.astimezone(HUB_TZ).date()
        got = self._sun.get(day)
        if got is None:
            got = self._sun[day] = sun_times(day, self.state.latitude, self.state.longitude, HUB_TZ)
        return got

    def daylight(self, when: datetime) -> float:
        """Outdoor lux: zero at night, rising to about 9,000 at midday."""
        rise, set_ = self.sun(when)
        if not rise < when < set_:
            return 0.0
        part = (when - rise) / (set_ - rise)
        return float(9000.0 * math.sin(math.pi * part) ** 1.5)

    def _outdoor_light(self) -> None:
        sensors = [
            d
            for d in self.state.devices.values()
            if "illuminance" in d.attr_defs() and self.fresh(d) and not d.disabled
        ]
        for dev in sensors:
            self.claim(dev, "illuminance")
        lights = [d for d in self.state.devices.values() if "lights" in d.tags]
        last: dict[int, float] = {}

        def measure() -> None:
            now = clock.utcnow()
            outdoor = self.daylight(now)
            lit_rooms = {d.room_id for d in lights if d.value("switch") == "on"}
            for dev in sensors:
                lux = outdoor
                if "outdoor" not in dev.tags:
                    lux = outdoor * 0.04 + (180 if dev.room_id in lit_rooms else 0)
                value = round(lux)
                old = last.get(dev.id)
                if old is None or abs(value - old) >= max(10.0, 0.15 * old):
                    last[dev.id] = value
                    self.report(dev, "illuminance", value)

        t = self.start
        while t <= self.now:
            self.at(t, measure)
            t += timedelta(minutes=30)

    def _porch_rule(self) -> None:
        light = self.dev("Porch Light")
        if light is None:
            return
        self.claim(light, "switch")
        app = (BR_PORCH, self.app_name(BR_PORCH))
        shown = light.display_name

        def on() -> None:
            self.log_app(BR_PORCH, "info", f"Turning on {shown} (sunset - 15 min)")
            self.command(light, "on", [], app)

        def off() -> None:
            self.log_app(BR_PORCH, "info", f"Turning off {shown} (11:00 PM)")
            self.command(light, "off", [], app)

        for midnight in self.days():
            _, set_ = self.sun(midnight + timedelta(hours=12))
            self.at(set_ - timedelta(minutes=15), on)
            self.at(self.local(midnight, PORCH_OFF_AT), off)

    def _routines(self) -> None:
        """The people's days; the last hour belongs to :meth:`_settle`."""
        end = self.now - timedelta(hours=1)
        for midnight in self.days():
            self._day(midnight, end)

    def _visit(self, sensor: str, at: datetime, minutes: float, end: datetime) -> None:
        dev = self.dev(sensor)
        self.claim(dev, "motion")
        if at + timedelta(minutes=minutes) > end:
            return
        self.at(at, lambda: self.report(dev, "motion", "active"))
        self.at(at + timedelta(minutes=minutes), lambda: self.report(dev, "motion", "inactive"))

    def _switch(self, label: str, value: str, at: datetime, end: datetime) -> None:
        dev = self.dev(label)
        self.claim(dev, "switch")
        if at <= end:
            self.at(at, lambda: self.report(dev, "switch", value))

    def _day(self, midnight: datetime, end: datetime) -> None:
        r = self.rng

        def jitter() -> timedelta:
            return timedelta(minutes=r.uniform(-12, 12))

        wake = self.local(midnight, time(6, 40)) + jitter()
        self._visit("Master Bedroom Motion", wake, 6, end)
        self._switch("Master Bedroom Lamp", "on", wake + timedelta(minutes=1), end)
        self._switch("Master Bedroom Lamp", "off", wake + timedelta(minutes=25), end)
        breakfast = wake + timedelta(minutes=20)
        self._visit("Kitchen Motion", breakfast, 25, end)
        self._switch("Coffee Maker", "on", breakfast + timedelta(minutes=2), end)
        self._switch("Coffee Maker", "off", breakfast + timedelta(minutes=20), end)
        self._switch("Kitchen Light", "off", breakfast + timedelta(minutes=31), end)
        if midnight.weekday() < 5:
            work = self.local(midnight, time(9, 0)) + jitter()
            for n in range(3):
                self._visit("Office Motion", work + timedelta(hours=2.5 * n), 100, end)
        dinner = self.local(midnight, time(18, 20)) + jitter()
        self._visit("Kitchen Motion", dinner, 40, end)
        self._switch("Kitchen Island Pendants", "on", dinner + timedelta(minutes=2), end)
        self._switch("Kitchen Island Pendants", "off", dinner + timedelta(minutes=70), end)
        evening = dinner + timedelta(minutes=75)
        self._switch("Living Room Lamp", "on", evening, end)
        self._switch("TV Outlet", "on", evening + timedelta(minutes=5), end)
        for n in range(4):
            self._visit("Living Room Motion", evening + timedelta(minutes=30 * n), 8, end)
        bed = self.local(midnight, time(22, 50)) + jitter()
        self._switch("TV Outlet", "off", bed - timedelta(minutes=5), end)
        self._switch("Living Room Lamp", "off", bed, end)
        self._switch("Kitchen Light", "off", bed + timedelta(minutes=1), end)
        self._visit("Master Bedroom Motion", bed + timedelta(minutes=3), 5, end)
        # a snack after midnight: the motion rule turns the kitchen light on; it is switched
        # off by hand on the way out
        snack = self.local(midnight + timedelta(days=1), time(0, 10)) + jitter()
        self._visit("Kitchen Motion", snack, 4, end)
        self._switch("Kitchen Light", "off", snack + timedelta(minutes=6), end)

    def _climate(self) -> None:
        for dev in list(self.state.devices.values()):
            if dev.disabled or not self.fresh(dev) or dev.parent_app_id == APP_ECOBEE:
                continue
            defs = dev.attr_defs()
            for attr, swing in (("temperature", 2.5), ("humidity", 4.0)):
                if attr not in defs or not isinstance(dev.value(attr), int | float):
                    continue
                self.claim(dev, attr)
                self._curve(dev, attr, float(str(dev.value(attr))), swing)

    def _curve(self, dev: Device, attr: str, final: float, swing: float) -> None:
        """Reports along a daily curve that ends at the device's value now."""
        phase = self.rng.uniform(0, 2 * math.pi)

        def at(t: datetime) -> float:
            hours = (t - self.now).total_seconds() / 3600
            return final + swing * (math.sin(phase + hours * math.pi / 12) - math.sin(phase))

        zigbee = dev.driver.protocol == "zigbee"
        is_int = isinstance(dev.value(attr), int)
        t, last = self.start, None
        while t < self.now:
            value: float = round(at(t)) if is_int else round(at(t), 1)
            if last is None or abs(value - last) >= (2 if attr == "humidity" else 1):
                last = value
                self.at(t, partial(self._reading, dev, attr, value, zigbee))
            t += timedelta(minutes=self.rng.uniform(30, 90))
        last_at = self.now - timedelta(minutes=self.rng.uniform(1, 14))
        self.at(last_at, partial(self._reading, dev, attr, int(final) if is_int else final, zigbee))

    def _reading(self, dev: Device, attr: str, value: float, zigbee: bool) -> None:
        current = dev.value(attr)
        if isinstance(current, int | float) and float(current) == float(value):
            return  # the same reading: no event, and the parse line with it stays in debug
        if zigbee and attr == "temperature":
            raw = f"{round((value - 32) * 500 / 9):04X}"
            self.home.add_log(
                "debug",
                f"parse description: read attr - raw: 0104000A01{raw}, dni: {dev.dni}, "
                f"endpoint: 01, cluster: 0402 | value: {raw}",
                source_type="dev",
                source_id=dev.id,
                name=dev.display_name,
            )
        self.report(dev, attr, value)

    def _batteries(self) -> None:
        for dev in self.state.devices.values():
            level = dev.value("battery")
            if dev.disabled or not self.fresh(dev) or not isinstance(level, int):
                continue
            self.claim(dev, "battery")
            # the report of today's level within the day (a low one warns in today's logs)
            steps = [self.rng.uniform(24, DAYS * 24 - 2), self.rng.uniform(1, 20)]
            for n, hours_ago in enumerate(steps):
                value = level + (1 - n) if level < 100 else 100
                self.at(
                    self.now - timedelta(hours=hours_ago),
                    partial(self._battery, dev, value),
                )

    def _battery(self, dev: Device, value: int) -> None:
        self.report(dev, "battery", value)
        if value < 20:
            self.home.add_log(
                "warn",
                f"battery is low ({value}%)",
                source_type="dev",
                source_id=dev.id,
                name=dev.display_name,
            )

    def _meters(self) -> None:
        for dev in self.state.devices.values():
            power = dev.value("power")
            if dev.disabled or not isinstance(power, int | float):
                continue
            self.claim(dev, "power")
            base = float(power)
            t = self.start + timedelta(minutes=self.rng.uniform(0, 60))
            while t < self.now - timedelta(hours=1):
                if base > 1:
                    value = round(base * self.rng.uniform(0.85, 1.15), 1)
                    self.at(t, partial(self.report, dev, "power", value))
                t += timedelta(minutes=self.rng.uniform(120, 300))

    def _ecobee(self) -> None:
        stats = [d for d in self.state.devices.values() if d.parent_app_id == APP_ECOBEE]
        for dev in stats:
            self.claim(dev, "temperature", "humidity", "thermostatOperatingState")
            final = float(str(dev.value("temperature")))
            setpoint = float(str(dev.value("heatingSetpoint") or final))
            end_state = str(dev.value("thermostatOperatingState") or "idle")
            t = self.start
            state = "idle"
            while t < self.now - timedelta(minutes=30):
                hours = (t - self.now).total_seconds() / 3600
                temp = round(final + 1.2 * math.sin(hours * math.pi / 12), 1)
                want = "heating" if temp < setpoint - 0.5 else "idle"

                def poll(d: Device = dev, v: float = temp, s: str = want, old: str = state) -> None:
                    self.log_app(
                        APP_ECOBEE,
                        "debug",
                        "poll(): thermostat revision unchanged"
                        if s == old
                        else "poll(): thermostat revision changed",
                    )
                    self.report(d, "temperature", v)
                    if s != old:
                        self.log_app(APP_ECOBEE, "trace", "Updates sent (2 / 1460ms)")
                        self.report(d, "thermostatOperatingState", s, etype="digital")

                self.at(t, poll)
                state = want
                t += timedelta(minutes=60)
            self.at(
                self.now - timedelta(minutes=12), partial(self.report, dev, "temperature", final)
            )
            self.at(
                self.now - timedelta(minutes=11),
                partial(self.report, dev, "thermostatOperatingState", end_state, etype="digital"),
            )

    def _keypad(self) -> None:
        """The dog walker's visit five hours ago: a wrong code, then the right one."""
        pad = self.dev("Security Keypad")
        if pad is None:
            return
        self.claim(pad, "securityKeypad")
        visit = self.now - timedelta(hours=5, minutes=self.rng.uniform(0, 20))

        def wrong() -> None:
            self.home.add_log(
                "warn",
                "Invalid code entered: <b>0000</b>",
                source_type="dev",
                source_id=pad.id,
                name=pad.display_name,
            )

        self.at(visit, wrong)
        self.at(
            visit + timedelta(seconds=25), partial(self._once, pad, "securityKeypad", "disarmed")
        )

    def _settle(self) -> None:
        """The last hour: every claimed value back to what the home declares now, sensors
        first (so a rule that reacts to them has done its part before a hand does)."""
        declared = self.declared
        order = sorted(
            self.touched,
            key=lambda k: (k[1] not in ("motion", "contact", "presence"), k),
        )
        base = self.now - timedelta(minutes=50)
        for n, (dev_id, attr) in enumerate(order):
            dev = self.state.devices.get(dev_id)
            if dev is None or attr in ("temperature", "humidity", "battery", "illuminance"):
                continue
            if attr == "thermostatOperatingState":
                continue
            want = declared.get((dev_id, attr))
            if want is None:
                continue
            at = base + timedelta(seconds=40 * n + self.rng.uniform(0, 30))

            self.at(at, partial(self._settle_one, dev, attr, want))

    def _settle_one(self, dev: Device, attr: str, want: object) -> None:
        if dev.value(attr) != want:
            self.report(dev, attr, want)

    def _untouched(self) -> None:
        """A device attribute nothing above reports: one report of its value now."""
        for dev in self.state.devices.values():
            if dev.disabled or not self.fresh(dev):
                continue
            for attr in HISTORY:
                if attr not in dev.attr_defs() or (dev.id, attr) in self.touched:
                    continue
                if dev.value(attr) is None:
                    continue
                value = dev.value(attr)
                at = self.now - timedelta(hours=self.rng.uniform(1, DAYS * 24 - 1))
                self.at(at, partial(self._once, dev, attr, value))

    def _once(self, dev: Device, attr: str, value: object) -> None:
        """A report of the value the device already holds (recorded all the same)."""
        kind = None if attr in SENSOR_ATTRS else "physical"
        self.home.apply_changes(dev, [Change(attr, value, True)], etype=kind)


def run_story(state: HomeState, now: datetime, rng: random.Random, stale: set[int]) -> None:
    """Play the last :data:`DAYS` days of the seeded home (see the module docstring);
    ``stale`` devices stopped reporting before the window."""
    story = Story(state, now, rng, stale)
    story.plan()
    story.run()
    for dev in state.devices.values():
        if dev.last_activity is None:  # heard from (a check-in) without a new value
            dev.last_activity = now - timedelta(hours=rng.uniform(1, 20))
            for st in dev.attrs.values():
                st.date = min(st.date, dev.last_activity)
