"""The porch rule walked through the emulated Rule Machine's pages the way the hub UI builds it,
for the emulator's rule tests: emulator/test_emu_rule_machine.py and
emulator/test_emu_rule_edits.py.
"""

from __future__ import annotations

import aiohttp

from hubitat_emulator import HubEmulator

from ..rm_util import Wizard, create_rule, dev_id


async def porch_rule(hub: HubEmulator, session: aiohttp.ClientSession) -> Wizard:
    motion, light = dev_id(hub, "Front Porch Motion"), dev_id(hub, "Porch Light")
    w = await create_rule(session)
    await w.write("mainPage", "origLabel", "Porch Light on Motion")
    await w.go("mainPage", "selectTriggers")
    await w.click("selectTriggers", "true", "moreCond")
    caps = (await w.shows("selectTriggers", "tCapab1"))["options"]
    assert "Motion" in caps and "Periodic Schedule" in caps
    await w.write("selectTriggers", "tCapab1", "Motion")
    assert (await w.shows("selectTriggers", "tDev1"))["type"] == "capability.motionSensor"
    await w.write("selectTriggers", "tDev1", str(motion))
    states = (await w.shows("selectTriggers", "tstate1"))["options"]
    assert states == ["active", "inactive", "*changed*"]
    await w.write("selectTriggers", "tstate1", "active")
    assert "isCondTrig.1" in w.inputs(await w.page("selectTriggers"))
    await w.click("selectTriggers", "hasAll")
    if "isCondTrig.1" in w.inputs(await w.page("selectTriggers")):
        await w.write("selectTriggers", "isCondTrig.1", False)
    await w.go("selectTriggers", "mainPage")

    await w.go("mainPage", "selectActions")
    await w.add_action("delayActs", "getCancelDelay")
    await w.add_action(
        "switchActs", "getOnOffSwitch", ("onOffSwitch.<N>", str(light)), ("onOff.<N>", True)
    )
    assert await w.new_action() == 3
    await w.write("doActPage", "actType.3", "delayActs")
    await w.write("doActPage", "actSubType.3", "getWaitEvents")
    await w.write("doActPage", "tCapab-1", "Motion")
    await w.write("doActPage", "tDev-1", str(motion))
    await w.write("doActPage", "tstate-1", "inactive")
    await w.click("doActPage", "hasAll")
    await w.click("doActPage", "actionDone")
    await w.go("doActPage", "selectActions")
    await w.add_action(
        "delayActs",
        "getDelay",
        ("delayHour.<N>", 0),
        ("delayMinute.<N>", 5),
        ("delaySecond.<N>", 0),
        ("cancelAct.<N>", True),
    )
    await w.add_action(
        "switchActs", "getOnOffSwitch", ("onOffSwitch.<N>", str(light)), ("onOff.<N>", False)
    )
    await w.go("selectActions", "mainPage")

    assert await w.required_expression() == 1
    await w.write("STPage", "rCapab_1", "Between two times")
    await w.write("STPage", "starting1", "Sunset")
    await w.write("STPage", "startSunsetOffset1", 0)
    await w.write("STPage", "ending1", "Sunrise")
    await w.write("STPage", "endSunriseOffset1", 0)
    await w.click("STPage", "hasAll")
    await w.write("STPage", "hasRule", "clicked")
    await w.leave("STPage")
    await w.click(None, "updateRule")
    return w
