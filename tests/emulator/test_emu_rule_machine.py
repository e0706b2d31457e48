"""The emulated Rule Machine 5.1 wizard (docs/rule-machine-pages.md), walked over loopback HTTP
the way the doc says a client walks it: one field per settings submit, re-reading the page,
wizard buttons with page context, ``_action_href_...`` markers and ``_action_previous=Done``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from hubitat_emulator import HubEmulator
from hubitat_emulator.rule_machine import RecordingRuleEngine
from hubitat_emulator.seed_specs import APP_BASIC_RULES, APP_RULE_MACHINE

from ..rm_util import create_rule, dev_id
from .emu_rule_machine_util import porch_rule


@pytest.fixture(autouse=True)
def recording_engine(hub: HubEmulator) -> RecordingRuleEngine:
    """These tests check what the pages hand the engine, not what the runner then does."""
    engine = RecordingRuleEngine()
    hub.rule_engine = engine
    return engine


@pytest.fixture
async def session(hub: HubEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url=hub.url) as s:
        yield s


async def test_walk_the_porch_rule(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    motion, light = dev_id(hub, "Front Porch Motion"), dev_id(hub, "Porch Light")
    w = await porch_rule(hub, session)
    main = await w.page()
    names = {e["name"]: e for e in main["configPage"]["sections"][0]["input"]}
    assert names["origLabel"]["value"] == "Porch Light on Motion"
    assert main["app"]["label"] == "Porch Light on Motion"
    assert main["app"]["parentAppId"] == APP_RULE_MACHINE
    assert w.text(main) == [
        "<b>Trigger Events</b>",
        "Front Porch Motion motion active",
        "<b>Required Expression</b>",
        "Time between Sunset and Sunrise",
        "<b>Actions</b>",
        "Cancel Delayed Actions",
        "On: Porch Light",
        "Wait for event: Front Porch Motion motion inactive",
        "Delay 0:05:00 (cancelable)",
        "Off: Porch Light",
    ]
    s = main["settings"]
    assert s["tCapab1"] == "Motion" and s["tDev1"] == str(motion) and s["tstate1"] == "active"
    assert s["actType.2"] == "switchActs" and s["onOffSwitch.2"] == str(light)
    assert s["onOff.2"] is True and s["onOff.5"] is False
    assert s["delayMinute.4"] == 5 and s["cancelAct.4"] is True
    assert s["tCapab-1"] == "Motion" and s["tstate-1"] == "inactive"
    assert s["rCapab_1"] == "Between two times" and s["useST"] is True
    assert "cond" not in s

    engine = hub.rule_engine
    assert isinstance(engine, RecordingRuleEngine)
    rule = engine.installed[w.id]
    assert rule.name == "Porch Light on Motion"
    assert rule.triggers == [1]
    assert rule.actions == [1, 2, 3, 4, 5]
    assert rule.required == [1]
    assert rule.wait_events == [1]
    assert rule.action_expressions == {}
    assert not rule.paused and not rule.stopped
    assert rule.settings["tDev1"] == str(motion)

    async with session.get(f"/installedapp/statusJson/{w.id}") as resp:
        status = json.loads(await resp.text())
    settings = {e["name"]: e for e in status["appSettings"]}
    assert settings["tDev1"]["deviceIdsForDeviceList"] == [motion]
    assert settings["tDev1"]["multiple"] is True
    assert settings["tDev1"]["type"] == "capability.motionSensor"
    state = {e["name"]: e["value"] for e in status["appState"]}
    assert state["actionList"] == ["1", "2", "3", "4", "5"]
    assert state["actions"]["1"]["rule"] is None and state["hasPredicate"] is True
    assert state["eval"] == {"0": [1]} and state["parens"] == {"0": 0}
    assert state["predCapabs"] == [1] and "between" in state["capabsfalse"]["1"]
    assert status["eventSubscriptions"] == [{"name": "motion"}]
    assert w.id in hub.device_obj(motion).apps_using

    await w.click(None, "pausRule")
    assert engine.installed[w.id].paused is True
    async with session.get(f"/installedapp/statusJson/{w.id}") as resp:
        assert json.loads(await resp.text())["eventSubscriptions"] == []
    await w.click(None, "runRuleAct")
    assert engine.runs == [w.id]
    async with session.get(f"/installedapp/forcedelete/{w.id}/quiet", allow_redirects=False):
        pass
    assert engine.removed == [w.id] and w.id not in engine.installed
    assert w.id not in hub.device_obj(motion).apps_using


async def test_fields_before_reveal_and_wrong_options_are_ignored(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    motion = dev_id(hub, "Front Porch Motion")
    w = await create_rule(session)
    await w.go("mainPage", "selectTriggers")
    assert "tCapab1" not in w.inputs(await w.page("selectTriggers"))
    await w.click("selectTriggers", "true", "moreCond")
    answer = await w.raw_write(
        "selectTriggers",
        {"settings[tDev1]": str(motion), "tDev1.type": "capability.motionSensor"},
    )
    assert "tDev1" not in answer["settings"]  # not on the page yet
    await w.write("selectTriggers", "tCapab1", "motion")  # not the exact option
    assert "tCapab1" not in (await w.page("selectTriggers"))["settings"]
    assert "tDev1" not in w.inputs(await w.page("selectTriggers"))
    await w.write("selectTriggers", "tCapab1", "Motion")
    await w.write("selectTriggers", "tDev1", str(motion))
    await w.write("selectTriggers", "tstate1", "on")  # not a motion state
    page = await w.page("selectTriggers")
    assert "tstate1" not in page["settings"] and "hasAll" not in w.inputs(page)
    await w.write("selectTriggers", "tstate1", "*changed*")
    # a hasAll click without page context leaves the "Conditional trigger?" prompt (on-hub server)
    await w.click(None, "hasAll")
    assert "isCondTrig.1" in w.inputs(await w.page("selectTriggers"))
    await w.write("selectTriggers", "isCondTrig.1", False)
    assert "isCondTrig.1" not in w.inputs(await w.page("selectTriggers"))
    assert "Front Porch Motion motion *changed*" in w.text(await w.page("selectTriggers"))
    # a trigger is committed only by hasAll
    await w.click("selectTriggers", "true", "moreCond")
    await w.write("selectTriggers", "tCapab2", "Switch")
    await w.go("selectTriggers", "mainPage")
    assert "switch" not in " ".join(w.text(await w.page()))


async def test_hasrule_click_does_not_seal(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await create_rule(session)
    c = await w.required_expression()
    await w.write("STPage", f"rCapab_{c}", "Mode")
    modes = (await w.shows("STPage", f"modes{c}"))["options"]
    assert {"1": "Day"} in modes
    await w.write("STPage", f"modes{c}", ["1"])
    await w.click("STPage", "hasAll")
    await w.click("STPage", "hasRule")  # a click: the conditions stay unused
    assert "hasRule" in w.inputs(await w.page("STPage"))
    await w.click(None, "updateRule")
    engine = hub.rule_engine
    assert isinstance(engine, RecordingRuleEngine)
    assert engine.installed[w.id].required is None
    await w.write("STPage", "hasRule", "clicked")
    await w.click(None, "updateRule")
    assert engine.installed[w.id].required == [c]
    assert "Mode is Day" in w.text(await w.page())


async def test_createchild_needs_rule_machine(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    for url in (
        f"/installedapp/createchild/hubitat/Rule-5.1/parent/{APP_BASIC_RULES}",
        f"/installedapp/createchild/hubitat/Rule-9.9/parent/{APP_RULE_MACHINE}",
        "/installedapp/createchild/hubitat/Rule-5.1/parent/99999",
    ):
        async with session.get(url, allow_redirects=False) as resp:
            assert resp.status == 404, url
    before = set(hub.state.apps)
    w = await create_rule(session)
    assert set(hub.state.apps) - before == {w.id}
    assert hub.state.apps[w.id].type == "Rule-5.1"


async def test_multiple_is_honoured(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    lights = [dev_id(hub, "Porch Light"), dev_id(hub, "Holiday Lights")]
    w = await create_rule(session)
    await w.go("mainPage", "selectActions")
    assert await w.new_action() == 1
    await w.write("doActPage", "actType.1", "switchActs")
    await w.write("doActPage", "actSubType.1", "getOnOffSwitch")
    ids = ",".join(str(i) for i in lights)
    await w.write("doActPage", "onOffSwitch.1", ids, multiple=False)
    page = await w.page("doActPage")
    assert page["settings"]["onOffSwitch.1"] == str(lights[0])  # a single device now
    assert page["configPage"]["error"] == "Command 'size' is not supported by device"
    w2 = await create_rule(session)
    await w2.go("mainPage", "selectActions")
    n = await w2.new_action()
    await w2.write("doActPage", f"actType.{n}", "switchActs")
    await w2.write("doActPage", f"actSubType.{n}", "getOnOffSwitch")
    await w2.write("doActPage", f"onOffSwitch.{n}", ids)
    assert (await w2.page("doActPage"))["settings"][f"onOffSwitch.{n}"] == ids


async def test_if_then_else_and_broken_devices(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    light, guest = dev_id(hub, "Porch Light"), dev_id(hub, "Guest Mode")
    w = await create_rule(session)
    await w.go("mainPage", "selectActions")
    assert await w.new_action() == 1
    await w.write("doActPage", "actType.1", "condActs")
    await w.write("doActPage", "actSubType.1", "getIfThen")
    assert await w.open_condition("doActPage") == 1
    await w.write("doActPage", "rCapab_1", "Switch")
    await w.write("doActPage", "rDev_1", str(guest))
    assert (await w.shows("doActPage", "state_1"))["options"] == ["on", "off"]
    await w.write("doActPage", "state_1", "on")
    await w.click("doActPage", "hasAll")
    assert "actionDone" not in w.inputs(await w.page("doActPage"))
    await w.click(None, "hasRule")  # without page context: nothing
    assert "actionDone" not in w.inputs(await w.page("doActPage"))
    await w.click("doActPage", "hasRule")  # the on-hub server seals an IF's expression so
    await w.click("doActPage", "actionDone")
    await w.go("doActPage", "selectActions")
    await w.add_action(
        "switchActs", "getOnOffSwitch", ("onOffSwitch.<N>", str(light)), ("onOff.<N>", True)
    )
    await w.add_action("condActs", "getElse")
    await w.add_action(
        "switchActs", "getOnOffSwitch", ("onOffSwitch.<N>", str(light)), ("onOff.<N>", False)
    )
    await w.add_action("condActs", "getEndIf")
    await w.go("selectActions", "mainPage")
    pad = "&nbsp;" * 4
    assert w.text(await w.page())[-5:] == [
        "IF (Guest Mode is on) THEN",
        f"{pad}On: Porch Light",
        "ELSE",
        f"{pad}Off: Porch Light",
        "END-IF",
    ]
    await w.click(None, "updateRule")
    engine = hub.rule_engine
    assert isinstance(engine, RecordingRuleEngine)
    assert engine.installed[w.id].action_expressions == {1: [1]}
    async with session.get(f"/installedapp/statusJson/{w.id}") as resp:
        state = {e["name"]: e["value"] for e in json.loads(await resp.text())["appState"]}
    assert state["eval"] == {"1": [1]} and state["hasPredicate"] is False
    assert state["actions"]["1"] == {"method": "getIfThen", "indent": "", "quick": False, "rule": 1}
    assert state["actionList"] == ["1", "2", "3", "4", "5"]
    async with session.get(f"/app/ruleBuilderJson/{w.id}") as resp:
        compiled = json.loads(await resp.text())
    assert compiled["eval"] == {"1": [1]} and compiled["actionList"] == state["actionList"]
    hub.delete_device(light)
    text = w.text(await w.page())
    assert f"{pad}**BROKEN** On: **BROKEN**" in text


async def test_engine_is_replaceable(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    mine = RecordingRuleEngine()
    hub.rule_engine = mine
    w = await create_rule(session)
    await w.write("mainPage", "origLabel", "Night Watch")
    assert hub.state.apps[w.id].label is None  # RM copies origLabel on updateRule (on-hub server)
    await w.click(None, "stopRule")
    assert mine.installed[w.id].stopped is True
    await w.click(None, "updateRule")
    assert hub.state.apps[w.id].label == "Night Watch"
    assert mine.installed[w.id].name == "Night Watch" and mine.installed[w.id].stopped
    await w.click("mainPage", "stopRule")  # page context: a settings save, no toggle
    assert mine.installed[w.id].stopped is True


async def test_time_and_periodic_triggers(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    w = await create_rule(session)
    await w.go("mainPage", "selectTriggers")
    await w.click("selectTriggers", "true", "moreCond")
    await w.write("selectTriggers", "tCapab1", "Certain Time (and optional date)")
    assert (await w.shows("selectTriggers", "time1"))["options"] == [
        "A specific time",
        "Sunrise",
        "Sunset",
    ]
    await w.write("selectTriggers", "time1", "Sunset")
    await w.write("selectTriggers", "atSunsetOffset1", -10)
    await w.click("selectTriggers", "hasAll")
    await w.click("selectTriggers", "true", "moreCond")
    await w.write("selectTriggers", "tCapab2", "Periodic Schedule")
    page = await w.page("selectTriggers")
    hrefs = [b for sec in page["configPage"]["sections"] for b in sec["body"]]
    periodic = next(h for h in hrefs if h.get("page") == "periodic")
    assert periodic["name"] == "periodic2" and periodic["params"] == {"n": 2}
    assert "hasAll" not in w.inputs(page)
    # a plain GET of the sub-page has no params (RM: "Cannot get property 'n' on null")
    assert (await w.page("periodic"))["configPage"]["error"] is not None
    answer = await w.raw_write(
        "selectTriggers",
        {
            "_action_href_periodic2|periodic|4": "",
            "params_for_action_href_periodic2|periodic|4": '{"n": 2}',
        },
    )
    assert answer["configPage"]["name"] == "periodic"
    assert "whichPeriod2" in w.inputs(answer)
    await w.write("periodic", "whichPeriod2", "Minutes")
    await w.write("periodic", "everyNMinutesC2", True)
    opts = (await w.shows("periodic", "everyNC2"))["options"]
    assert opts == ["1", "2", "3", "4", "5", "6", "10", "12", "15", "20", "30"]
    await w.write("periodic", "everyNC2", "7")  # not an option
    await w.write("periodic", "everyNC2", "15")
    back = await w.raw_write("periodic", {"_action_previous": "Done", "paramsForPage": '{"n": 2}'})
    assert back["configPage"]["name"] == "selectTriggers"
    await w.click("selectTriggers", "hasAll")
    await w.go("selectTriggers", "mainPage")
    text = w.text(await w.page())
    assert "Time of day: Sunset-10 minutes" in text
    assert "Periodic Schedule: every 15 minutes" in text
    await w.click(None, "updateRule")
    engine = hub.rule_engine
    assert isinstance(engine, RecordingRuleEngine)
    rule = engine.installed[w.id]
    assert rule.triggers == [1, 2]
    assert rule.settings["everyNC2"] == "15" and rule.settings["atSunsetOffset1"] == -10


async def test_indexes_come_from_the_rule(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    motion = dev_id(hub, "Front Porch Motion")
    first = await create_rule(session)
    assert await first.required_expression() == 1
    # condition numbers run on across Rule Machine's rules (on-hub server)
    second = await create_rule(session)
    assert await second.required_expression() == 2
    # an abandoned action's number is not reused
    await second.go("mainPage", "selectActions")
    assert await second.new_action() == 1
    await second.go("doActPage", "selectActions")
    n = await second.add_action("delayActs", "getCancelDelay")
    assert n == 2
    # the Wait for Events rows are the rule's: a second wait edits event 1 again
    for _ in range(2):
        k = await second.new_action()
        await second.write("doActPage", f"actType.{k}", "delayActs")
        await second.write("doActPage", f"actSubType.{k}", "getWaitEvents")
        assert "tCapab-1" in second.inputs(await second.page("doActPage"))
        await second.write("doActPage", "tCapab-1", "Motion")
        await second.write("doActPage", "tDev-1", str(motion))
        await second.write("doActPage", "tstate-1", "active")
        await second.click("doActPage", "hasAll")
        await second.click("doActPage", "actionDone")
        await second.go("doActPage", "selectActions")
    await second.click(None, "updateRule")
    engine = hub.rule_engine
    assert isinstance(engine, RecordingRuleEngine)
    assert engine.installed[second.id].wait_events == [1]
    assert engine.installed[second.id].actions == [2, 3, 4]


async def test_action_after_required_expression_is_wrapped(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await create_rule(session)
    assert await w.required_expression() == 1
    await w.write("STPage", "rCapab_1", "Mode")
    await w.write("STPage", "modes1", ["3"])
    await w.click("STPage", "hasAll")
    await w.write("STPage", "hasRule", "clicked")
    await w.leave("STPage")
    await w.go("mainPage", "selectActions")
    await w.add_action("messageActs", "getLogMsg", ("logmsg.<N>", "hello"))
    text = w.text(await w.page())
    assert "IF (**Broken Condition**) Log: 'hello'" in text
    assert "Mode is Night" in text


async def test_enum_options_come_from_the_hub(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    porch = dev_id(hub, "Front Porch Motion")
    w = await create_rule(session)
    await w.go("mainPage", "selectTriggers")
    await w.click("selectTriggers", "true", "moreCond")
    await w.write("selectTriggers", "tCapab1", "Temperature")
    await w.write("selectTriggers", "tDev1", str(porch))
    rel = (await w.shows("selectTriggers", "ReltDev1"))["options"]
    assert rel == ["=", "≠", "<", ">", "<=", ">=", "*changed*"]
    await w.write("selectTriggers", "ReltDev1", ">")
    await w.write("selectTriggers", "tstate1", "50.5")
    await w.click("selectTriggers", "hasAll")
    await w.click("selectTriggers", "true", "moreCond")
    await w.write("selectTriggers", "tCapab2", "Custom Attribute")
    await w.write("selectTriggers", "tDev2", str(porch))
    attrs = (await w.shows("selectTriggers", "tCustomAttr2"))["options"]
    assert attrs == sorted(hub.device(porch)["attributes"])
    await w.write("selectTriggers", "tCustomAttr2", "battery")
    await w.write("selectTriggers", "ReltDev2", "<")
    await w.write("selectTriggers", "tstate2", "20")
    await w.click("selectTriggers", "hasAll")
    await w.click("selectTriggers", "true", "moreCond")
    await w.write("selectTriggers", "tCapab3", "Variable")
    names = (await w.shows("selectTriggers", "xVar3"))["options"]
    assert names == sorted(hub.variables)
    await w.write("selectTriggers", "xVar3", "noSuchVariable")
    assert "ReltDev3" not in w.inputs(await w.page("selectTriggers"))
    await w.write("selectTriggers", "xVar3", "guestCount")
    await w.write("selectTriggers", "ReltDev3", "*changed*")
    await w.click("selectTriggers", "hasAll")
    await w.click("selectTriggers", "true", "moreCond")
    await w.write("selectTriggers", "tCapab4", "Mode")
    modes = (await w.shows("selectTriggers", "modesX4"))["options"]
    assert modes == [{str(m["id"]): m["name"]} for m in hub.modes]
    await w.write("selectTriggers", "modesX4", ["9"])  # no such mode
    assert "hasAll" not in w.inputs(await w.page("selectTriggers"))
    await w.write("selectTriggers", "modesX4", ["1", "3"])
    await w.click("selectTriggers", "hasAll")
    text = w.text(await w.page("selectTriggers"))
    assert text == [
        "Front Porch Motion temperature > 50.5",
        "Front Porch Motion battery < 20",
        "Variable guestCount *changed*",
        "Mode becomes Day, Night",
    ]
    settings = (await w.page("selectTriggers"))["settings"]
    assert settings["tstate1"] == 50.5 and settings["modesX4"] == ["1", "3"]


async def test_more_action_kinds(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    lamp, lock = dev_id(hub, "Living Room Lamp"), dev_id(hub, "Front Door Lock")
    other = await create_rule(session)
    await other.write("mainPage", "origLabel", "Other")
    await other.click(None, "updateRule")
    w = await create_rule(session)
    await w.go("mainPage", "selectActions")
    n = await w.new_action()
    await w.write("doActPage", f"actType.{n}", "modeActs")
    await w.write("doActPage", f"actSubType.{n}", "getDefinedAction")
    await w.write("doActPage", f"useLastDev.{n}", False)
    await w.write("doActPage", f"myCapab.{n}", "SwitchLevel")
    await w.write("doActPage", f"devices.{n}", str(lamp))
    assert "setLevel" in (await w.shows("doActPage", f"cCmd.{n}"))["options"]
    await w.write("doActPage", f"cCmd.{n}", "setLevel")
    await w.click("doActPage", "moreParams")
    assert "actionDone" not in w.inputs(await w.page("doActPage"))
    await w.write("doActPage", f"cpType2.{n}", "number")  # P starts at 2
    await w.write("doActPage", f"cpVal2.{n}", "40")
    await w.click("doActPage", "actionDone")
    await w.go("doActPage", "selectActions")
    await w.add_action("lockActs", "getLULock", ("lockRL.<N>", True), ("lockLockUnlock.<N>", lock))
    await w.add_action("modeActs", "getSetMode", ("mode.<N>", "2"))
    await w.add_action(
        "modeActs",
        "getSetVariable",
        ("xVarV.<N>", "guestCount"),
        ("numOp.<N>", "number"),
        ("valNumber.<N>", 4),
    )
    await w.add_action(
        "rulesActs",
        "getRuleActions",
        ("runRuleType.<N>", "Rule Machine"),
        ("ruleAct.<N>", [str(other.id)]),
    )
    await w.add_action("messageActs", "getLogMsg", ("logmsg.<N>", "done"))
    await w.go("selectActions", "mainPage")
    assert w.text(await w.page())[-6:] == [
        "setLevel(40) on Living Room Lamp",
        "Unlock: Front Door Lock",
        "Set Mode: Evening",
        "Set guestCount to 4",
        "Run Actions: Other",
        "Log: 'done'",
    ]


async def test_wait_for_several_events(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    motion, door = dev_id(hub, "Front Porch Motion"), dev_id(hub, "Front Door")
    w = await create_rule(session)
    n = await w.new_action()
    await w.write("doActPage", f"actType.{n}", "delayActs")
    await w.write("doActPage", f"actSubType.{n}", "getWaitEvents")
    for e, (cap, dev, state) in enumerate(
        (("Motion", motion, "inactive"), ("Contact", door, "closed")), start=1
    ):
        if e > 1:
            await w.click("doActPage", "anotherWait")  # without stateAttribute: no new row
            assert f"tCapab-{e}" not in w.inputs(await w.page("doActPage"))
            await w.click("doActPage", "anotherWait", "anotherWait")
        await w.write("doActPage", f"tCapab-{e}", cap)
        await w.write("doActPage", f"tDev-{e}", str(dev))
        await w.write("doActPage", f"tstate-{e}", state)
        await w.click("doActPage", "hasAll")
        page = w.inputs(await w.page("doActPage"))
        assert {"anotherWait", "doneWaits", "actionDone"} <= set(page)
    # a timeout is the action's delay
    await w.write("doActPage", f"delayAct.{n}", "hrs:min:sec")
    for f, v in (("delayHor", 0), ("delayMin", 10), ("delaySec", 0)):
        await w.write("doActPage", f"{f}.{n}", v)
    await w.click("doActPage", "actionDone")
    await w.go("doActPage", "selectActions")
    assert w.text(await w.page())[-1] == (
        "Wait for event: Front Porch Motion motion inactive or Front Door contact closed"
        " --> delayed: 0:10:00"
    )


async def test_custom_attribute_condition_and_fade(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    porch, lamp = dev_id(hub, "Front Porch Motion"), dev_id(hub, "Living Room Lamp")
    w = await create_rule(session)
    await w.add_action(
        "dimmerActs",
        "getSetDimmer",
        ("dimA.<N>", str(lamp)),
        ("dimLA.<N>", 30),
        ("dimRA.<N>", 2),
    )
    c = await w.required_expression()
    await w.write("STPage", f"rCapab_{c}", "Custom Attribute")
    assert (await w.shows("STPage", f"rDev_{c}"))["type"] == "capability.*"
    await w.write("STPage", f"rDev_{c}", str(porch))
    await w.write("STPage", f"rCustomAttr_{c}", "illuminance")
    await w.write("STPage", f"RelrDev_{c}", "<")
    await w.write("STPage", f"state_{c}", "100")
    await w.write("STPage", f"not{c}", True)
    await w.click("STPage", "hasAll")
    await w.write("STPage", "hasRule", "clicked")
    text = w.text(await w.page())
    assert "NOT Front Porch Motion illuminance < 100" in text
    assert text[-1] == "Dim: Living Room Lamp: 30 --> 2 seconds"
