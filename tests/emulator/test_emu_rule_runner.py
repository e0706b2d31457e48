"""The emulated hub's rule runner and clock: rules built by hand from stored settings, run on a
real emulator whose clock the tests move (nothing here sleeps for emulated minutes)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import HUB_TZ, utcnow
from hubitat_emulator.rule_definition import RuleDefinition, RuleEngine

from .emu_rule_runner_util import attr, dev, on_off

MIDSUMMER = date(2026, 6, 21)  # Denver: sunrise 05:32, sunset 20:31 MDT


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """These tests need no Home Assistant instance (overrides the suite's autouse one)."""


@pytest.fixture
async def emu(socket_enabled: None) -> AsyncIterator[HubEmulator]:
    hub = HubEmulator(hsm_arming_delay=0.05, door_travel_time=0.05)
    await hub.start()
    try:
        yield hub
    finally:
        await hub.stop()


def at(hour: int, minute: int = 0, day: date = MIDSUMMER) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=HUB_TZ)


def porch_rule(motion: int, light: int, *, paused: bool = False) -> RuleDefinition:
    settings: dict[str, Any] = {
        "origLabel": "Porch",
        "tCapab1": "Motion",
        "tDev1": str(motion),
        "tstate1": "active",
        "useST": True,
        "rCapab_1": "Between two times",
        "starting1": "Sunset",
        "startSunsetOffset1": 0,
        "ending1": "Sunrise",
        "endSunriseOffset1": 0,
        "actType.1": "delayActs",
        "actSubType.1": "getCancelDelay",
        **on_off(2, light, True),
        "actType.3": "delayActs",
        "actSubType.3": "getWaitEvents",
        "tCapab-1": "Motion",
        "tDev-1": [motion],
        "tstate-1": "inactive",
        "actType.4": "delayActs",
        "actSubType.4": "getDelay",
        "delayHour.4": 0,
        "delayMinute.4": 5,
        "delaySecond.4": 0,
        "cancelAct.4": True,
        **on_off(5, light, False),
    }
    return RuleDefinition(
        app_id=900,
        name="Porch",
        settings=settings,
        triggers=[1],
        actions=[1, 2, 3, 4, 5],
        required=[1],
        wait_events=[1],
        paused=paused,
    )


# ---------------------------------------------------------------------------------- the clock


async def test_clock_advance_fires_in_order_and_dates_follow(emu: HubEmulator) -> None:
    emu.clock.set(at(12))
    assert abs((utcnow() - at(12)).total_seconds()) < 1
    fired: list[tuple[str, datetime]] = []
    emu.clock.call_at(at(12, 10), lambda: fired.append(("b", emu.clock.now())))
    emu.clock.call_at(at(12, 5), lambda: fired.append(("a", emu.clock.now())))
    gone = emu.clock.call_at(at(12, 7), lambda: fired.append(("x", emu.clock.now())))
    gone.cancel()
    await emu.clock.advance(minutes=6)
    assert [name for name, _ in fired] == ["a"]
    await emu.clock.advance(minutes=5)
    assert [name for name, _ in fired] == ["a", "b"]
    # each timer fired with the clock standing at its own instant
    assert abs((fired[0][1] - at(12, 5)).total_seconds()) < 1
    assert abs((fired[1][1] - at(12, 10)).total_seconds()) < 1
    # things the hub dates follow the emulated clock
    lamp = dev(emu, "Porch Light")
    emu.run_command(lamp, "on", [])
    assert abs((emu.device_events(lamp)[-1].date - at(12, 11)).total_seconds()) < 2
    with pytest.raises(ValueError, match="forward"):
        await emu.clock.advance(-1)


async def test_clock_real_time_timers_and_stop_resets(socket_enabled: None) -> None:
    hub = HubEmulator()
    await hub.start()
    hit: list[int] = []
    hub.clock.call_later(0.05, lambda: hit.append(1))
    await hub.clock.sleep(0.0)
    for _ in range(100):
        if hit:
            break
        await hub.clock.sleep(0.01)
    assert hit == [1]  # nobody advanced the clock: the timer fired in real time
    hub.clock.set(datetime(2030, 1, 1, tzinfo=HUB_TZ))
    assert utcnow().year == 2030
    await hub.stop()
    assert abs((utcnow() - datetime.now(HUB_TZ)).total_seconds()) < 1


def test_sun_times_denver(emu: HubEmulator) -> None:
    # published (NOAA solar calculator) Denver times, to the minute
    rise, sset = emu.sun_times(MIDSUMMER)
    assert (rise.hour, rise.minute) == (5, 32) and (sset.hour, sset.minute) == (20, 31)
    assert rise.utcoffset() == timedelta(hours=-6)
    rise, sset = emu.sun_times(date(2026, 12, 21))
    assert (rise.hour, rise.minute) == (7, 17) and (sset.hour, sset.minute) == (16, 38)
    assert rise.utcoffset() == timedelta(hours=-7)


# ---------------------------------------------------------------------------------- the porch


async def test_porch_rule_after_sunset(emu: HubEmulator) -> None:
    motion, light = dev(emu, "Front Porch Motion"), dev(emu, "Porch Light")
    emu.clock.set(at(21))  # after sunset (20:31)
    engine: RuleEngine = emu.rule_engine  # what the Rule Machine pages are handed
    engine.install(porch_rule(motion, light))
    emu.set_device_attribute(motion, "motion", "active")
    await emu.clock.settle()
    assert attr(emu, light, "switch") == "on"
    await emu.clock.advance(minutes=10)
    assert attr(emu, light, "switch") == "on"  # still waiting for motion to stop
    emu.set_device_attribute(motion, "motion", "inactive")
    stopped = emu.clock.now()
    await emu.clock.advance(seconds=299)
    assert attr(emu, light, "switch") == "on"  # not before 5 minutes
    await emu.clock.advance(seconds=2)
    assert attr(emu, light, "switch") == "off"
    off = emu.device_events(light)[-1]
    assert off.value == "off"
    assert abs((off.date - stopped).total_seconds() - 300) < 1.5  # dated on the emulated clock

    # motion again during the delay: Cancel Delayed Actions keeps the light on
    emu.set_device_attribute(motion, "motion", "active")
    await emu.clock.settle()
    emu.set_device_attribute(motion, "motion", "inactive")
    await emu.clock.advance(minutes=3)
    emu.set_device_attribute(motion, "motion", "active")
    await emu.clock.advance(minutes=4)  # past the first delay's end
    assert attr(emu, light, "switch") == "on"
    emu.set_device_attribute(motion, "motion", "inactive")
    await emu.clock.advance(minutes=4)
    assert attr(emu, light, "switch") == "on"
    await emu.clock.advance(minutes=1, seconds=1)
    assert attr(emu, light, "switch") == "off"


async def test_porch_rule_before_sunset_does_nothing(emu: HubEmulator) -> None:
    motion, light = dev(emu, "Front Porch Motion"), dev(emu, "Porch Light")
    emu.clock.set(at(19))
    emu.rule_engine.install(porch_rule(motion, light))
    emu.set_device_attribute(motion, "motion", "active")
    await emu.clock.advance(minutes=1)
    assert attr(emu, light, "switch") == "off"
    emu.set_device_attribute(motion, "motion", "inactive")
    await emu.clock.advance(hours=2)  # now 21:01, after sunset: an active event counts again
    emu.set_device_attribute(motion, "motion", "active")
    await emu.clock.settle()
    assert attr(emu, light, "switch") == "on"


async def test_paused_and_removed_rules_are_inert(emu: HubEmulator) -> None:
    motion, light = dev(emu, "Front Porch Motion"), dev(emu, "Porch Light")
    emu.clock.set(at(22))
    emu.rule_engine.install(porch_rule(motion, light, paused=True))
    emu.set_device_attribute(motion, "motion", "active")
    emu.rule_engine.run_actions(900)
    await emu.clock.advance(minutes=1)
    assert attr(emu, light, "switch") == "off"
    emu.set_device_attribute(motion, "motion", "inactive")
    emu.rule_engine.install(porch_rule(motion, light))  # resumed
    emu.set_device_attribute(motion, "motion", "active")
    await emu.clock.settle()
    assert attr(emu, light, "switch") == "on"
    emu.set_device_attribute(motion, "motion", "inactive")
    await emu.clock.advance(minutes=1)
    emu.rule_engine.remove(900)  # the pending 5-minute delay goes with the rule
    await emu.clock.advance(minutes=10)
    assert attr(emu, light, "switch") == "on"
    assert emu.clock.pending == 0


# ---------------------------------------------------------------------------------- triggers


async def test_time_trigger_at_sunset_offset(emu: HubEmulator) -> None:
    lights = dev(emu, "Holiday Lights")
    emu.clock.set(at(12))
    settings = {
        "tCapab1": "Certain Time (and optional date)",
        "time1": "Sunset",
        "atSunsetOffset1": -15,
        **on_off(1, lights, True),
    }
    emu.rule_engine.install(RuleDefinition(901, "Dusk", settings, triggers=[1], actions=[1]))
    due = emu.sun_times(MIDSUMMER)[1] - timedelta(minutes=15)
    await emu.clock.advance((due - emu.clock.now()).total_seconds() - 5)
    assert attr(emu, lights, "switch") == "off"
    await emu.clock.advance(10)
    assert attr(emu, lights, "switch") == "on"
    assert abs((emu.device_events(lights)[-1].date - due).total_seconds()) < 1.5
    # daily: it fires again the next evening
    emu.run_command(lights, "off", [])
    await emu.clock.advance(days=1, seconds=-20)  # the 22nd's sunset is a few seconds later
    assert attr(emu, lights, "switch") == "off"
    await emu.clock.advance(minutes=1)
    assert attr(emu, lights, "switch") == "on"


async def test_specific_time_and_periodic_triggers(emu: HubEmulator) -> None:
    emu.clock.set(at(21, 30))
    settings = {
        "tCapab1": "Certain Time (and optional date)",
        "time1": "A specific time",
        "atTime1": "2000-01-01T22:00:00.000-0700",
        "actType.1": "messageActs",
        "actSubType.1": "getLogMsg",
        "logmsg.1": "ten o'clock",
    }
    emu.rule_engine.install(RuleDefinition(902, "Ten", settings, triggers=[1], actions=[1]))
    periodic = {
        "tCapab1": "Periodic Schedule",
        "whichPeriod1": "Minutes",
        "everyNMinutesC1": True,
        "everyNC1": "10",
        "actType.1": "messageActs",
        "actSubType.1": "getLogMsg",
        "logmsg.1": "every ten",
    }
    emu.rule_engine.install(RuleDefinition(903, "Tick", periodic, triggers=[1], actions=[1]))
    await emu.clock.advance(minutes=29)
    msgs = [e.msg for e in emu.logs if e.source_id in (902, 903)]
    assert msgs == ["every ten", "every ten"]  # 21:40, 21:50
    await emu.clock.advance(minutes=2)
    msgs = [e.msg for e in emu.logs if e.source_id in (902, 903)]
    assert msgs[2:] == ["every ten", "ten o'clock"] or msgs[2:] == ["ten o'clock", "every ten"]
    line = next(e for e in emu.logs if e.msg == "ten o'clock")
    assert line.date.astimezone(HUB_TZ).strftime("%H:%M") == "22:00"


async def test_stays_trigger(emu: HubEmulator) -> None:
    door, lamp = dev(emu, "Front Door"), dev(emu, "Porch Light")
    emu.clock.set(at(12))
    settings = {
        "tCapab1": "Contact",
        "tDev1": str(door),
        "tstate1": "open",
        "stays1": True,
        "SHours1": 0,
        "SMins1": 0,
        "SSecs1": 30,
        **on_off(1, lamp, True),
    }
    emu.rule_engine.install(RuleDefinition(904, "Door ajar", settings, triggers=[1], actions=[1]))
    emu.set_device_attribute(door, "contact", "open")
    await emu.clock.advance(20)
    emu.set_device_attribute(door, "contact", "closed")  # left before the time: cancelled
    await emu.clock.advance(20)
    assert attr(emu, lamp, "switch") == "off"
    emu.set_device_attribute(door, "contact", "open")
    await emu.clock.advance(29)
    assert attr(emu, lamp, "switch") == "off"
    await emu.clock.advance(2)
    assert attr(emu, lamp, "switch") == "on"


async def test_mode_trigger_locks(emu: HubEmulator) -> None:
    lock = dev(emu, "Front Door Lock")
    emu.run_command(lock, "unlock", [])
    settings = {
        "tCapab1": "Mode",
        "modesX1": ["3"],  # Night
        "actType.1": "lockActs",
        "actSubType.1": "getLULock",
        "lockRL.1": False,
        "lockLockUnlock.1": str(lock),
    }
    emu.rule_engine.install(RuleDefinition(905, "Night lock", settings, triggers=[1], actions=[1]))
    emu.set_mode("Evening")
    await emu.clock.settle()
    assert attr(emu, lock, "lock") == "unlocked"
    emu.set_mode("Night")
    await emu.clock.settle()
    assert attr(emu, lock, "lock") == "locked"


async def test_button_numeric_and_variable_triggers(emu: HubEmulator) -> None:
    button, sensor = dev(emu, "Living Room Pico"), dev(emu, "Front Porch Motion")
    lamp, dimmer = dev(emu, "Porch Light"), dev(emu, "Living Room Dimmer")
    emu.set_variable("away", "no", vtype="string")
    settings = {
        "tCapab1": "Button",
        "tDev1": str(button),
        "ButtontDev1": 1,
        "tstate1": "pushed",
        "tCapab2": "Temperature",
        "tDev2": str(sensor),
        "ReltDev2": ">",
        "tstate2": 80,
        "tCapab3": "Variable",
        "xVar3": "away",
        "ReltDev3": "=",
        "tstate3": "yes",
        "actType.1": "switchActs",
        "actSubType.1": "getToggleSwitch",
        "toggleSwitch.1": str(lamp),
        "actType.2": "modeActs",
        "actSubType.2": "getDefinedAction",
        "useLastDev.2": False,
        "myCapab.2": "SwitchLevel",
        "devices.2": str(dimmer),
        "cCmd.2": "setLevel",
        "cpType2.2": "number",
        "cpVal2.2": "42",
    }
    rule = RuleDefinition(906, "Many", settings, triggers=[1, 2, 3], actions=[1, 2])
    emu.rule_engine.install(rule)
    emu.run_command(button, "push", [2])  # another button number: no trigger
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "off"
    emu.run_command(button, "push", [1])
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "on" and attr(emu, dimmer, "level") == 42
    emu.set_device_attribute(sensor, "temperature", 75)
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "on"
    emu.set_device_attribute(sensor, "temperature", 85)
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "off"
    emu.set_variable("away", "yes")
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "on"


# ---------------------------------------------------------------------------------- actions


def _if_else_rule(trigger: int, guest: int, dimmer: int) -> RuleDefinition:
    settings = {
        "tCapab1": "Switch",
        "tDev1": str(trigger),
        "tstate1": "*changed*",
        "actType.1": "condActs",
        "actSubType.1": "getIfThen",
        "rCapab_1": "Switch",
        "rDev_1": str(guest),
        "state_1": "on",
        "actType.2": "dimmerActs",
        "actSubType.2": "getSetDimmer",
        "dimA.2": str(dimmer),
        "dimLA.2": 30,
        "actType.3": "condActs",
        "actSubType.3": "getElse",
        "actType.4": "dimmerActs",
        "actSubType.4": "getSetDimmer",
        "dimA.4": str(dimmer),
        "dimLA.4": 80,
        "actType.5": "condActs",
        "actSubType.5": "getEndIf",
        "actType.6": "messageActs",
        "actSubType.6": "getLogMsg",
        "logmsg.6": "after the IF",
    }
    return RuleDefinition(
        907,
        "If else",
        settings,
        triggers=[1],
        actions=[1, 2, 3, 4, 5, 6],
        action_expressions={1: [1]},
    )


async def test_if_else(emu: HubEmulator) -> None:
    trigger, guest = dev(emu, "Vacation Mode"), dev(emu, "Guest Mode")
    dimmer = dev(emu, "Living Room Dimmer")
    emu.rule_engine.install(_if_else_rule(trigger, guest, dimmer))
    assert attr(emu, guest, "switch") == "on"
    emu.run_command(trigger, "on", [])
    await emu.clock.settle()
    assert attr(emu, dimmer, "level") == 30
    emu.run_command(guest, "off", [])
    emu.run_command(trigger, "off", [])
    await emu.clock.settle()
    assert attr(emu, dimmer, "level") == 80
    assert [e.msg for e in emu.logs if e.source_id == 907] == ["after the IF"] * 2


async def test_repeat_variables_delayed_actions_and_run_rule(emu: HubEmulator) -> None:
    lamp, lights = dev(emu, "Porch Light"), dev(emu, "Holiday Lights")
    emu.clock.set(at(12))
    emu.set_variable("count", 0, vtype="integer")
    emu.set_variable("copy", 0, vtype="integer")
    emu.set_variable("target", 3, vtype="integer")
    # rule 908: Repeat While count < 3 every 10 s: toggle the lamp, count := 3 on the 2nd pass
    repeat = {
        "actType.1": "repeatActs",
        "actSubType.1": "getWhile",
        "rCapab_1": "Variable",
        "xVar_1": "count",
        "RelrDev_1": "<",
        "state_1": 3,
        "repeatHour.1": 0,
        "repeatMinute.1": 0,
        "repeatSecond.1": 10,
        "actType.2": "switchActs",
        "actSubType.2": "getToggleSwitch",
        "toggleSwitch.2": str(lamp),
        "actType.3": "modeActs",
        "actSubType.3": "getSetVariable",
        "xVarV.3": "count",
        "numOp.3": "variable",
        "xVar3.3": "target",
        "delayAct.3": "hrs:min:sec",
        "delayHor.3": 0,
        "delayMin.3": 0,
        "delaySec.3": 15,
        "actType.4": "repeatActs",
        "actSubType.4": "getStopRepeat",
        "actType.5": "modeActs",
        "actSubType.5": "getSetVariable",
        "xVarV.5": "copy",
        "numOp.5": "number",
        "valNumber.5": 7,
    }
    emu.rule_engine.install(
        RuleDefinition(908, "Repeat", repeat, actions=[1, 2, 3, 4, 5], action_expressions={1: [1]})
    )
    # rule 909: run rule 908's actions, then a cancelable delayed "on" cancelled right away
    caller = {
        "actType.1": "rulesActs",
        "actSubType.1": "getRuleActions",
        "runRuleType.1": "Rule Machine",
        "ruleAct.1": ["908"],
        **on_off(2, lights, True),
        "delayAct.2": "hrs:min:sec",
        "delayHor.2": 0,
        "delayMin.2": 1,
        "delaySec.2": 0,
        "cancelAct.2": True,
        "actType.3": "delayActs",
        "actSubType.3": "getCancelDelay",
    }
    emu.rule_engine.install(RuleDefinition(909, "Caller", caller, actions=[1, 2, 3]))
    emu.rule_engine.run_actions(909)
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "on"  # first pass
    await emu.clock.advance(10)
    assert attr(emu, lamp, "switch") == "off"  # second pass; count := 3 is 15 s off
    await emu.clock.advance(10)  # 20 s: count is 3 since 15 s: the repeat ends
    assert emu.variables["count"]["value"] == 3 and emu.variables["copy"]["value"] == 7
    await emu.clock.advance(minutes=2)
    assert attr(emu, lamp, "switch") == "off"  # no third toggle
    assert attr(emu, lights, "switch") == "off"  # the cancelable delayed "on" was cancelled


async def test_new_trigger_ends_a_pending_wait(emu: HubEmulator) -> None:
    switch, door = dev(emu, "Vacation Mode"), dev(emu, "Front Door")
    settings = {
        "tCapab1": "Switch",
        "tDev1": str(switch),
        "tstate1": "*changed*",
        "actType.1": "delayActs",
        "actSubType.1": "getWaitEvents",
        "tCapab-1": "Contact",
        "tDev-1": str(door),
        "tstate-1": "open",
        "actType.2": "messageActs",
        "actSubType.2": "getLogMsg",
        "logmsg.2": "opened",
    }
    rule = RuleDefinition(910, "Waiter", settings, triggers=[1], actions=[1, 2], wait_events=[1])
    emu.rule_engine.install(rule)
    emu.run_command(switch, "on", [])
    await emu.clock.settle()
    emu.run_command(switch, "off", [])  # a second trigger: the first run's wait ends
    await emu.clock.settle()
    emu.set_device_attribute(door, "contact", "open")
    await emu.clock.settle()
    assert [e.msg for e in emu.logs if e.source_id == 910] == ["opened"]


async def test_required_expression_operators_and_custom_attribute(emu: HubEmulator) -> None:
    sensor, lamp = dev(emu, "Front Porch Motion"), dev(emu, "Porch Light")
    guest, vacation = dev(emu, "Guest Mode"), dev(emu, "Vacation Mode")
    emu.set_mode("Day")  # not Night, whatever hour the seeded story left the hub in
    emu.clock.set(at(23, 30))
    settings = {
        "tCapab1": "Custom Attribute",
        "tDev1": str(sensor),
        "tCustomAttr1": "illuminance",
        "ReltDev1": "<=",
        "tstate1": "10",
        # Night mode OR guest on, AND NOT vacation on, AND between 23:00 and 06:00
        "rCapab_1": "Mode",
        "modes1": ["3"],
        "rCapab_2": "Switch",
        "rDev_2": str(guest),
        "state_2": "on",
        "rCapab_3": "Switch",
        "rDev_3": str(vacation),
        "state_3": "on",
        "not3": True,
        "rCapab_4": "Between two times",
        "starting4": "A specific time",
        "startingA4": "2000-01-01T23:00:00.000-0700",
        "ending4": "A specific time",
        "endingA4": "2000-01-01T06:00:00.000-0700",
        **on_off(1, lamp, True),
    }
    required: list[int | str] = [1, "OR", 2, "AND", 3, "AND", 4]
    rule = RuleDefinition(911, "Dark", settings, triggers=[1], actions=[1], required=required)
    emu.rule_engine.install(rule)
    emu.run_command(vacation, "on", [])  # NOT vacation is false: nothing
    emu.set_device_attribute(sensor, "illuminance", 5)
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "off"
    emu.run_command(vacation, "off", [])
    emu.set_device_attribute(sensor, "illuminance", 50)  # not <= 10: no trigger
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "off"
    await emu.clock.advance(hours=7)  # 06:30: outside the window across midnight
    emu.set_device_attribute(sensor, "illuminance", 4)
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "off"
    await emu.clock.advance(hours=17)  # 23:30 again
    emu.set_device_attribute(sensor, "illuminance", 3)
    await emu.clock.settle()
    assert attr(emu, lamp, "switch") == "on"


def test_expression_and_window_helpers() -> None:
    from hubitat_emulator.rule_conditions import DayTime, eval_tokens, id_list, in_window

    truth = {1: True, 2: False, 3: True}.__getitem__
    assert eval_tokens([1, "AND", 2, "OR", 3], truth) is True  # (T and F) or T
    assert eval_tokens([2, "OR", 1, "AND", 2], truth) is False  # (F or T) and F
    assert eval_tokens([1, "XOR", 3], truth) is False
    assert eval_tokens([1, "XOR", 2], truth) is True
    # Rule Machine stops at the first false before an AND, the first true before an OR
    # (live: F AND F OR T is false; T AND T OR F AND F is true); brackets stand alone
    f_, t_ = {1: False, 2: False, 3: True}.__getitem__, {1: True, 2: True, 3: False}.__getitem__
    assert eval_tokens([1, "AND", 2, "OR", 3], f_) is False
    assert eval_tokens([1, "AND", 2, "OR", 3, "AND", 3], t_) is True
    assert eval_tokens([1, "AND", "(", 2, "OR", 3, ")"], f_) is False
    assert eval_tokens(["(", 1, "OR", 3, ")", "AND", "(", 2, "OR", 3, ")"], f_) is True
    assert eval_tokens(["(", 1, "AND", 2, ")", "OR", 3], f_) is True
    assert id_list("5,7") == [5, 7] and id_list([5, "7"]) == [5, 7] and id_list(None) == []

    def sun(day: date) -> tuple[datetime, datetime]:
        return at(6, 0, day), at(20, 0, day)

    night = (DayTime("Sunset"), DayTime("Sunrise"))
    assert in_window(at(23), *night, sun) and in_window(at(5, 59), *night, sun)
    assert not in_window(at(6), *night, sun) and not in_window(at(12), *night, sun)
    early = (DayTime("Sunset", offset_min=-30), DayTime("Sunrise", offset_min=30))
    assert in_window(at(19, 45), *early, sun) and in_window(at(6, 15), *early, sun)


async def test_notify_and_set_mode_actions(emu: HubEmulator) -> None:
    lamp = dev(emu, "Porch Light")  # no Notification capability: the command is refused
    settings = {
        "actType.1": "messageActs",
        "actSubType.1": "getMsg",
        "msg.1": "hello",
        "note.1": str(lamp),
        "actType.2": "modeActs",
        "actSubType.2": "getSetMode",
        "mode.2": "4",
    }
    emu.rule_engine.install(RuleDefinition(912, "Notify", settings, actions=[1, 2]))
    emu.rule_engine.run_actions(912)
    await emu.clock.settle()
    warns = [e.msg for e in emu.logs if e.source_id == 912 and e.level == "warn"]
    assert len(warns) == 1 and "deviceNotification" in warns[0]
    assert emu.current_mode == "Away"  # the run went on after the failed command
