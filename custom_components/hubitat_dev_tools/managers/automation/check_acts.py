"""What the hub must confirm about the newer device and value actions (``parse_device_acts``):
the modes a per-mode action names, that each device has the command the action makes Rule
Machine send, the attribute a Set Variable reads, and the variables its math and a variable
delay read (numbers, as Rule Machine requires)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from ...errors import ToolError
from ...hub.models import DeviceDetail
from .parse_device_acts import math_variables, param
from .spec import DEVICE_ACTION_KINDS, PER_MODE_KINDS, Action, RuleSpec


class Resolved(Protocol):
    """What :class:`~.check.Resolved` answers that these checks read."""

    devices: dict[str, DeviceDetail]
    modes: dict[str, str]
    mode_names: dict[str, str]
    variables: dict[str, str]

    def label(self, device_id: str) -> str: ...


NUMERIC_VARIABLES = ("number", "integer", "decimal", "bigdecimal", "float")
# the device command each action makes Rule Machine send
COMMAND_OF = {
    "set_level_per_mode": "setLevel",
    "switch_per_mode": "on",
    "choose_per_mode": "on",
    "color_per_mode": "setColor",
    "color_temperature_per_mode": "setColorTemperature",
    "fade_level": "setLevel",
    "fade_color_temperature": "setColorTemperature",
    "start_level_change": "startLevelChange",
    "stop_level_change": "stopLevelChange",
    "adjust_level": "setLevel",
}


def uses_modes(action: Action) -> bool:
    """Whether the action names modes."""
    return action.kind in PER_MODE_KINDS


def uses_variables(action: Action) -> bool:
    """Whether the action reads a variable."""
    return action.kind == "delay_from_variable" or bool(math_variables(action))


def check_mode(path: str, name: str, res: Resolved) -> None:
    """Refuse a mode the hub does not have (any case: written as the hub names it)."""
    if name.lower() not in res.modes:
        raise ToolError(
            f"{path}: the hub has no mode '{name}'. Its modes: "
            f"{', '.join(res.mode_names.values()) or 'none'}. Nothing was sent.",
            subject="mode",
        )


def check_variable(
    path: str,
    name: str,
    res: Resolved,
    *,
    numeric: bool = False,
    hint: str = "Use a Number or Decimal variable.",
) -> None:
    """Refuse a variable neither the hub nor the rule has, and (``numeric``) one that is not
    a number where Rule Machine takes one (``hint``: what to do instead, at that place)."""
    vtype = res.variables.get(name)
    if vtype is None:
        raise ToolError(
            f"{path}: the hub has no variable '{name}' (nor the rule a local one). Its "
            f"variables: {', '.join(res.variables) or 'none'}. Nothing was sent.",
            subject="variable",
        )
    if numeric and vtype not in NUMERIC_VARIABLES:
        raise ToolError(
            f"{path}: '{name}' is a {vtype} variable; Rule Machine takes a number here. "
            "Nothing was sent.",
            hint=hint,
            subject="variable",
        )


def check_action(path: str, action: Action, res: Resolved) -> None:
    """Refuse the first thing the hub would not take (raises a :class:`ToolError`)."""
    if action.kind in PER_MODE_KINDS:
        for mode in action.value or {}:
            check_mode(f"{path}.{action.kind}.{mode}", str(mode), res)
    if action.kind in DEVICE_ACTION_KINDS:
        command = COMMAND_OF[action.kind]
        for dev_id in action.device_ids:
            detail = res.devices[dev_id]
            if detail.command(command) is None:
                raise ToolError(
                    f"{path}: {res.label(dev_id)} (device {dev_id}) has no '{command}' "
                    f"command, which {action.kind} sends. Nothing was sent.",
                    hint="Pick devices that have it (a device's details list its commands).",
                    subject="device_ids",
                )
    if action.kind == "delay_from_variable" and action.text is not None:
        check_variable(f"{path}.delay_from_variable", action.text, res, numeric=True)
    if action.kind != "set_variable":
        return
    for name in math_variables(action):
        check_variable(f"{path}.math", name, res, numeric=True)
    source = param(action, "from_device")
    if isinstance(source, dict):
        dev_id = str(source["device_id"])
        attrs = {a.name for a in res.devices[dev_id].attributes}
        if source["attribute"] not in attrs:
            raise ToolError(
                f"{path}.from_device: {res.label(dev_id)} (device {dev_id}) has no attribute "
                f"'{source['attribute']}'. Its attributes: {', '.join(sorted(attrs)) or 'none'}."
                " Nothing was sent.",
                hint="Use one of its attributes exactly as spelled.",
            )


def rename_modes(action: Action, name: Callable[[str], str]) -> Action:
    """A per-mode action with its modes named as the hub names them."""
    if action.kind not in PER_MODE_KINDS or not isinstance(action.value, dict):
        return action
    value: dict[str, Any] = {name(m): v for m, v in action.value.items()}
    return replace(action, value=value)


def check_spec(spec: RuleSpec, res: Resolved, walk: Callable[..., Any]) -> None:
    """Every newer action of the spec (``walk``: check.walk_actions)."""
    for path, action in walk(spec.actions, "rule.actions"):
        check_action(path, action, res)
