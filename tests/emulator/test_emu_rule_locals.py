"""The emulated rule runner with a rule's local variables (``rule_locals.py``): Variable
conditions read them and Set Variable sets them, before any hub variable of the same name."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from hubitat_emulator import HubEmulator
from hubitat_emulator.rule_definition import RuleDefinition

from .emu_rule_runner_util import attr, dev, on_off


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """These tests need no Home Assistant instance (overrides the suite's autouse one)."""


@pytest.fixture
async def emu(socket_enabled: None) -> AsyncIterator[HubEmulator]:
    hub = HubEmulator()
    await hub.start()
    try:
        yield hub
    finally:
        await hub.stop()


async def test_local_variables_are_read_and_set_by_the_rule(emu: HubEmulator) -> None:
    lamp = dev(emu, "Porch Light")
    emu.set_variable("visits", 40, vtype="integer")  # a hub variable of the same name loses
    local = {"visits": {"type": "integer", "value": 0}, "step": {"type": "integer", "value": 2}}
    settings = {
        "actType.1": "modeActs",
        "actSubType.1": "getSetVariable",
        "xVarV.1": "visits",
        "numOp.1": "variable",
        "xVar3.1": "step",
        "actType.2": "condActs",
        "actSubType.2": "getIfThen",
        "rCapab_1": "Variable",
        "xVar_1": "visits",
        "RelrDev_1": "=",
        "state_1": 2,
        **on_off(3, lamp, True),
        "actType.4": "condActs",
        "actSubType.4": "getEndIf",
    }
    emu.rule_engine.install(
        RuleDefinition(
            913,
            "Locals",
            settings,
            actions=[1, 2, 3, 4],
            action_expressions={2: [1]},
            local_vars=local,
        )
    )
    emu.run_command(lamp, "off", [])
    emu.rule_engine.run_actions(913)
    await emu.clock.settle()
    assert local["visits"]["value"] == 2  # the rule's own, copied from its other local
    assert emu.variables["visits"]["value"] == 40  # the hub variable is untouched
    assert attr(emu, lamp, "switch") == "on"  # the IF read the local value
