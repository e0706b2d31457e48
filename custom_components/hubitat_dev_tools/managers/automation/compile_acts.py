"""The page steps of the newer device and value actions, written field by field as the rule's
action page reveals them.

Evidence for every field: the on-hub server's action builder (``mcp-native-rules-lib.groovy``,
per-mode, fade and level-change subtypes "verified live", ``docs/rm_action_subtype_schemas.md``)
and ``docs/rm_wire_format.md`` (Set Variable's ``numOp`` sources, in their reveal order);
Cancel Rule Timers also in a live hub's stored rules (hubitat-automation-map, section 8:
``getStopActions``, ``stopAct.<n>``, ``stopRuleType.<n>``).
"""

from __future__ import annotations

from typing import Any, Protocol

from .parse_device_acts import MATH_BINARY, param
from .spec import Action


class _Resolved(Protocol):
    def mode_id(self, name: str) -> str: ...


class Compiler(Protocol):
    """What :class:`~.compile.Compiler` offers these steps."""

    @property
    def res(self) -> _Resolved: ...

    def _open_action(self, act_type: str, sub_type: str, where: str) -> None: ...

    def _w(
        self, page: str, name: str, value: Any, where: str, *, optional: bool = False
    ) -> None: ...


ACT = "doActPage"
CONSTANT = "(constant)"  # the operand option that reveals a literal's field (the on-hub server)


def compile_device_action(c: Compiler, action: Action, where: str) -> None:
    """Open and fill one action of :data:`~.spec.DEVICE_ACTION_KINDS` or ``cancel_timers``
    (the caller closes it)."""
    k, ids = action.kind, list(action.device_ids)
    value: Any = action.value
    if k == "cancel_timers":
        c._open_action("rulesActs", "getStopActions", where)
        c._w(ACT, "stopRuleType.{A}", "Rule Machine", where)
        c._w(ACT, "stopAct.{A}", list(action.rule_ids), f"{where}.{k}")
        return
    if k in (
        "set_level_per_mode",
        "switch_per_mode",
        "color_per_mode",
        "color_temperature_per_mode",
    ):
        sub, devices, modes = {
            "set_level_per_mode": ("getDimmersPerMode", "dimM", "dimmerModes"),
            "switch_per_mode": ("getModeSwitch", "switchM", "switchModes"),
            "color_per_mode": ("getColorPerMode", "bulbsM", "colorModes"),
            "color_temperature_per_mode": ("getColorTempPerMode", "ctM", "ctModes"),
        }[k]
        c._open_action("switchActs" if k == "switch_per_mode" else "dimmerActs", sub, where)
        c._w(ACT, f"{devices}.{{A}}", ids, where)
        c._w(ACT, f"{modes}.{{A}}", [c.res.mode_id(m) for m in value], f"{where}.{k}")
        for mode, setting in value.items():
            mid, here = c.res.mode_id(mode), f"{where}.{k}.{mode}"
            if k == "set_level_per_mode":
                c._w(ACT, f"level{mid}.{{A}}", setting, here)
            elif k == "switch_per_mode":
                c._w(ACT, f"switch{mid}.{{A}}", setting, here)
            elif k == "color_per_mode":
                c._w(ACT, f"color{mid}.{{A}}", setting["color"], here)
                c._w(ACT, f"colorLevel{mid}.{{A}}", setting["level"], here)
            else:  # the level's name ends after the action number (the on-hub server, live)
                c._w(ACT, f"ctMode{mid}.{{A}}", setting["kelvin"], here)
                c._w(ACT, f"ctMode{mid}.{{A}}Level", setting["level"], here)
        return
    if k == "choose_per_mode":
        c._open_action("switchActs", "getChooseSwitch", where)
        c._w(ACT, "chooseModes.{A}", [c.res.mode_id(m) for m in value], f"{where}.{k}")
        for mode, lists in value.items():
            mid, here = c.res.mode_id(mode), f"{where}.{k}.{mode}"
            if "on" in lists:
                c._w(ACT, f"chooseSwOn{mid}.{{A}}", list(lists["on"]), f"{here}.on")
            if "off" in lists:
                c._w(ACT, f"chooseSwOff{mid}.{{A}}", list(lists["off"]), f"{here}.off")
        return
    if k in ("fade_level", "fade_color_temperature"):
        pre = "dimFade" if k == "fade_level" else "ctFade"
        c._open_action("dimmerActs", "getFadeDimmer" if k == "fade_level" else "getFadeCT", where)
        c._w(ACT, f"{pre}.{{A}}", ids, where)
        c._w(ACT, f"{pre}Up.{{A}}", param(action, "direction") == "raise", f"{where}.direction")
        c._w(ACT, f"{pre}Target.{{A}}", value, f"{where}.{k}")
        c._w(ACT, f"{pre}Time.{{A}}", param(action, "minutes"), f"{where}.minutes")
        if param(action, "interval_seconds") is not None:
            c._w(
                ACT, f"{pre}Interval.{{A}}", param(action, "interval_seconds"), f"{where}.interval"
            )
        return
    if k == "start_level_change":  # dimRL true: lower (the on-hub server, live: inverted)
        c._open_action("dimmerActs", "getRLDimmer", where)
        c._w(ACT, "dimRL.{A}", value == "lower", f"{where}.{k}")
        c._w(ACT, "dimRaiseLower.{A}", ids, where)
        return
    if k == "stop_level_change":
        c._open_action("dimmerActs", "getStopDimmer", where)
        c._w(ACT, "dimStop.{A}", ids, f"{where}.{k}")
        return
    # adjust_level
    c._open_action("dimmerActs", "getAdjustDimmer", where)
    c._w(ACT, "dimA.{A}", ids, where)
    c._w(ACT, "dimAdj.{A}", value, f"{where}.{k}")


def compile_variable_source(c: Compiler, action: Action, where: str) -> None:
    """Set Variable's source after its target (``xVarV``): a device attribute or variable
    math (``docs/rm_wire_format.md``: numOp, then the fields it reveals, in order)."""
    source = param(action, "from_device")
    if isinstance(source, dict):
        c._w(ACT, "numOp.{A}", "device attribute", where)
        # a single-device picker (the on-hub server: multiple=false)
        c._w(ACT, "customDev.{A}", str(source["device_id"]), f"{where}.from_device")
        c._w(ACT, "tCustomAttr.{A}", source["attribute"], f"{where}.from_device.attribute")
        return
    spec = param(action, "math")
    c._w(ACT, "numOp.{A}", "variable math", where)
    _operand(c, spec["left"], "xVar3", "valConst", f"{where}.math.left")
    c._w(ACT, "valMathOp.{A}", spec["op"], f"{where}.math.op")
    if spec["op"] in MATH_BINARY:
        _operand(c, spec["right"], "xVar4", "valConst2", f"{where}.math.right")


def _operand(c: Compiler, value: Any, pick: str, const: str, where: str) -> None:
    if isinstance(value, str):
        c._w(ACT, f"{pick}.{{A}}", value, where)
        return
    c._w(ACT, f"{pick}.{{A}}", CONSTANT, where)
    c._w(ACT, f"{const}.{{A}}", value, where)


def compile_delay_from_variable(c: Compiler, action: Action, where: str) -> None:
    """A Delay whose length is a variable's value (``uVar.<N>`` true, then ``xVar.<N>``: the
    on-hub server's variable-sourced delay)."""
    c._open_action("delayActs", "getDelay", where)
    c._w(ACT, "uVar.{A}", True, where)
    c._w(ACT, "xVar.{A}", action.text, f"{where}.delay_from_variable")
    delay_options(c, action, where)


def delay_options(c: Compiler, action: Action, where: str) -> None:
    """A Delay's cancelable and random options (``cancelAct.<N>``, ``randomAct.<N>``)."""
    if action.cancelable:
        c._w(ACT, "cancelAct.{A}", True, f"{where}.cancelable")
    if param(action, "random"):
        c._w(ACT, "randomAct.{A}", True, f"{where}.random")
