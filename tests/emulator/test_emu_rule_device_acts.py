"""The emulated action page's newer fields (``rule_device_acts.py``): Set Variable offers a
device attribute and math only for Number and Decimal targets, math reveals its operands in
order, and a Delay takes its length from a variable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from hubitat_emulator.rule_fields import action_fields


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """These tests need no Home Assistant instance (overrides the suite's autouse one)."""


class _Env:
    types = {"count": "integer", "ratio": "bigdecimal", "label": "string", "when": "datetime"}

    def device_name(self, dev_id: int) -> str | None:
        return f"device {dev_id}"

    def has_capability(self, dev_id: int, capability: str) -> bool:
        return True

    def modes(self) -> list[tuple[str, str]]:
        return [("1", "Day"), ("2", "Night")]

    def variables(self) -> list[str]:
        return sorted(self.types)

    def variable_type(self, name: str) -> str | None:
        return self.types.get(name)

    def attributes(self, ids: Sequence[int]) -> list[str]:
        return ["humidity", "temperature"] if ids else []

    def commands(self, ids: Sequence[int]) -> list[str]:
        return []

    def rules(self, exclude: int) -> list[tuple[str, str]]:
        return [("7", "Other")]

    def files(self) -> list[str]:
        return []


def _shown(settings: dict[str, Any]) -> dict[str, Any]:
    reveal = action_fields(settings, 1, _Env(), 99)
    return {f["name"]: f for f in reveal.inputs} | {"complete": reveal.complete}


def test_set_variable_sources_follow_the_target_type() -> None:
    base = {"actType.1": "modeActs", "actSubType.1": "getSetVariable"}
    numeric = _shown({**base, "xVarV.1": "count"})
    assert numeric["numOp.1"]["options"] == [
        "number",
        "variable",
        "device attribute",
        "variable math",
    ]
    for target in ("label", "when"):
        assert _shown({**base, "xVarV.1": target})["numOp.1"]["options"] == ["variable"]

    math = {**base, "xVarV.1": "ratio", "numOp.1": "variable math"}
    first = _shown(math)
    assert "xVar3.1" in first and "valMathOp.1" in first and not first["complete"]
    assert first["xVar3.1"]["options"][0] == "(constant)"
    unary = _shown({**math, "xVar3.1": "(constant)", "valMathOp.1": "sqrt"})
    assert "valConst.1" in unary and "xVar4.1" not in unary and not unary["complete"]
    assert _shown({**math, "xVar3.1": "(constant)", "valConst.1": 9, "valMathOp.1": "sqrt"})[
        "complete"
    ]
    binary = _shown({**math, "xVar3.1": "count", "valMathOp.1": "+"})
    assert "xVar4.1" in binary and not binary["complete"]
    assert _shown({**math, "xVar3.1": "count", "valMathOp.1": "+", "xVar4.1": "ratio"})["complete"]

    device = {**base, "xVarV.1": "count", "numOp.1": "device attribute"}
    assert "customDev.1" in _shown(device) and "tCustomAttr.1" not in _shown(device)
    picked = _shown({**device, "customDev.1": "5"})
    assert picked["tCustomAttr.1"]["options"] == ["humidity", "temperature"]


def test_a_delay_takes_a_variable_or_its_three_fields() -> None:
    base = {"actType.1": "delayActs", "actSubType.1": "getDelay"}
    fixed = _shown(base)
    assert "uVar.1" in fixed and "delayHour.1" in fixed and "xVar.1" not in fixed
    by_variable = _shown({**base, "uVar.1": True})
    assert "xVar.1" in by_variable and "delayHour.1" not in by_variable
    done = _shown({**base, "uVar.1": True, "xVar.1": "count"})
    assert done["complete"] and "randomAct.1" in done and "cancelAct.1" in done


def test_per_mode_fields_are_named_by_mode_id() -> None:
    base = {"actType.1": "dimmerActs", "actSubType.1": "getColorTempPerMode", "ctM.1": "5"}
    shown = _shown({**base, "ctModes.1": ["2"]})
    assert "ctMode2.1" in shown and "ctMode2.1Level" in shown and not shown["complete"]
    assert _shown({**base, "ctModes.1": ["2"], "ctMode2.1": 2700, "ctMode2.1Level": 40})["complete"]
