"""What the hub must confirm about a spec before anything is sent.

Every device the spec names exists and declares the attribute it tests or the command it
runs (arguments checked as a device command's are, safe repairs only); modes,
hub variables and the rules it runs exist; commands to locks, garage doors, valves, keypads or
sirens need ``confirm=true``. (The device allowlist is checked before the tool runs, over every
``device_id`` of the call.) The answer, :class:`Resolved`, carries what the compiler needs:
device details, mode ids, variable types, the prepared commands.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ...errors import ToolError
from ...hub.errors import HubNotFoundError
from ...hub.models import DeviceDetail
from ..confirm import require_confirm
from ..devices.commands import HARMLESS_COMMANDS as HARMLESS
from ..devices.commands import PreparedCommand, prepare_command
from .check_acts import check_mode, check_variable, rename_modes
from .check_acts import check_spec as check_more_actions
from .check_acts import uses_modes as action_uses_modes
from .check_acts import uses_variables as action_uses_variables
from .spec import Action, Condition, DeviceTest, Expression, RuleSpec

if TYPE_CHECKING:
    from ..apps.rules import RuleManager
    from ..backups import BackupManager
    from ..devices.query import DeviceManager
    from ..files import FilesManager
    from ..modes import ModeManager
    from ..reach import Reach
    from ..sensitivity import SensitivityModel
    from ..variables import VariableManager

NUMERIC_TYPES = ("NUMBER", "DECIMAL", "INTEGER", "FLOAT")
BUTTON_ATTRIBUTES = ("pushed", "held", "doubleTapped", "released")


@dataclass(frozen=True, slots=True)
class CheckSources:
    """The managers a spec is checked against (``RuleAuthoring`` hands them to ``resolve``)."""

    devices: DeviceManager
    modes: ModeManager
    variables: VariableManager
    rules: RuleManager
    files: FilesManager
    sensitivity: SensitivityModel
    backups: BackupManager


@dataclass(slots=True)
class Resolved:
    """The hub's answers a spec was checked against."""

    devices: dict[str, DeviceDetail] = field(default_factory=dict)
    modes: dict[str, str] = field(default_factory=dict)  # mode name (lower case) -> id
    mode_names: dict[str, str] = field(default_factory=dict)  # id -> name
    variables: dict[str, str] = field(default_factory=dict)  # name -> type (lower case)
    rules: dict[str, str] = field(default_factory=dict)  # RM rule id -> name
    commands: dict[str, list[PreparedCommand]] = field(default_factory=dict)  # by action path
    sensitive: list[str] = field(default_factory=list)

    def label(self, device_id: str) -> str:
        """A device's name as the hub shows it."""
        detail = self.devices.get(device_id)
        return detail.summary.display_name if detail else f"device {device_id}"

    def mode_id(self, name: str) -> str:
        """A mode's id by its name (case-insensitive)."""
        return self.modes[name.lower()]


def walk_tests(spec: RuleSpec) -> Iterator[tuple[str, DeviceTest]]:
    """Every device test of the spec with its path."""
    for i, trig in enumerate(spec.triggers):
        if trig.test is not None:
            yield f"rule.triggers[{i}]", trig.test
        if trig.only_if is not None and trig.only_if.test is not None:
            yield f"rule.triggers[{i}].only_if", trig.only_if.test
    if spec.conditions is not None:
        yield from _expr_tests(spec.conditions, "rule.conditions")
    for path, action in walk_actions(spec.actions, "rule.actions"):
        if action.condition is not None:
            yield from _expr_tests(action.condition, f"{path}.{_expr_key(action)}")
        for j, event in enumerate(action.events):
            yield f"{path}.wait[{j}]", event


def _expr_tests(expr: Expression, path: str) -> Iterator[tuple[str, DeviceTest]]:
    for here, cond in expr.leaves(path):
        if cond.test is not None:
            yield here, cond.test


def _expr_key(action: Action) -> str:
    return "if" if action.kind == "else_if" else action.kind


def walk_actions(actions: tuple[Action, ...], path: str) -> Iterator[tuple[str, Action]]:
    """Every action with its path, nested ones after their parent (an ELSE-IF branch as an
    action of its own, ``...else_if[j]``)."""
    for i, action in enumerate(actions):
        here = f"{path}[{i}]"
        yield here, action
        yield from walk_actions(action.then, f"{here}.{'then' if action.kind == 'if' else 'do'}")
        for j, branch in enumerate(action.elifs):
            yield f"{here}.else_if[{j}]", branch
            yield from walk_actions(branch.then, f"{here}.else_if[{j}].then")
        yield from walk_actions(action.otherwise, f"{here}.else")


def _conditions(spec: RuleSpec) -> Iterator[tuple[str, Condition]]:
    for i, trig in enumerate(spec.triggers):  # a conditional trigger's condition
        if trig.only_if is not None:
            yield f"rule.triggers[{i}].only_if", trig.only_if
    exprs: list[tuple[str, Expression]] = []
    if spec.conditions is not None:
        exprs.append(("rule.conditions", spec.conditions))
    for path, action in walk_actions(spec.actions, "rule.actions"):
        if action.condition is not None:
            exprs.append((f"{path}.{_expr_key(action)}", action.condition))
    for path, expr in exprs:
        yield from expr.leaves(path)


def _spec_device_ids(spec: RuleSpec) -> set[str]:
    ids = {d for _p, t in walk_tests(spec) for d in t.device_ids}
    ids.update(c.ref_device for _p, c in _conditions(spec) if c.ref_device is not None)
    for _p, action in walk_actions(spec.actions, "rule.actions"):
        ids.update(action.device_ids)
    return ids


def _check_test(path: str, test: DeviceTest, res: Resolved, *, button: bool = False) -> None:
    for dev_id in test.device_ids:
        detail = res.devices[dev_id]
        attrs = {a.name: a for a in detail.attributes}
        name = test.attribute
        if button:
            if not set(BUTTON_ATTRIBUTES) & set(attrs):
                raise ToolError(
                    f"{path}: {res.label(dev_id)} is not a button device (it has no pushed/held "
                    "events). Nothing was sent.",
                    subject="button_device",
                )
            continue
        attr = attrs.get(name)
        if attr is None:
            raise ToolError(
                f"{path}: {res.label(dev_id)} (device {dev_id}) has no attribute '{name}'. "
                f"Its attributes: {', '.join(sorted(attrs)) or 'none'}. Nothing was sent.",
                hint="Use one of its attributes exactly as spelled.",
            )
        if test.op in ("lt", "lte", "gt", "gte") and (attr.data_type or "").upper() not in (
            *NUMERIC_TYPES,
            "",
        ):
            raise ToolError(
                f"{path}: '{name}' of {res.label(dev_id)} is not a number, so '{test.op}' "
                "cannot compare it. Nothing was sent.",
                hint="Test it with is (a state), or pick a numeric attribute.",
            )
        numeric = (attr.data_type or "").upper() in NUMERIC_TYPES
        if numeric and test.op in ("eq", "ne") and not _is_number(test.value):
            raise ToolError(
                f"{path}: '{name}' of {res.label(dev_id)} is a number; {test.value!r} is not. "
                "Nothing was sent.",
                hint="Give a number as value (with op eq, lt, gt ...).",
            )
        if test.op == "eq" and attr.values and str(test.value) not in attr.values:
            raise ToolError(
                f"{path}: '{name}' of {res.label(dev_id)} is never {test.value!r}; its states: "
                f"{', '.join(attr.values)}. Nothing was sent.",
                hint="Use one of those states.",
            )


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    try:
        float(str(value))
    except ValueError:
        return False
    return True


async def _load_devices(sources: CheckSources, ids: set[str]) -> dict[str, DeviceDetail]:
    ordered = sorted(ids, key=int)
    found = await asyncio.gather(
        *(sources.devices.get_device(i) for i in ordered), return_exceptions=True
    )
    out: dict[str, DeviceDetail] = {}
    missing: list[str] = []
    for dev_id, got in zip(ordered, found, strict=True):
        if isinstance(got, HubNotFoundError):
            missing.append(dev_id)
        elif isinstance(got, BaseException):
            raise got
        else:
            out[dev_id] = got
    if missing:
        raise ToolError(
            f"The spec names device(s) {', '.join(missing)}, which the hub does not have. "
            "Nothing was sent.",
            code="not_found",
            subject="device_ids",
        )
    return out


async def resolve(
    sources: CheckSources,
    spec: RuleSpec,
    *,
    confirm: bool,
    device_allowed: Callable[[str], bool] = lambda _id: True,
) -> Resolved:
    """Check the spec against the hub; raise a :class:`ToolError` on the first problem.

    ``device_allowed`` is the call's allowlist: the tool's arguments were checked before it
    ran, but a patch (:meth:`RuleAuthoring.update`) can name devices under keys the check does not
    read, so the finished spec is checked again here."""
    hidden = sorted((d for d in _spec_device_ids(spec) if not device_allowed(d)), key=int)
    if hidden:
        raise ToolError(
            f"The rule names device(s) {', '.join(hidden)}, outside the assistant's device "
            "allowlist. Nothing was sent to the hub.",
            code="device_not_allowed",
            hint="Do not retry with the same device; an admin can change the allowlist.",
        )
    uses_modes = (
        any(t.kind == "mode" for t in spec.triggers)
        or any(c.kind == "mode" for _p, c in _conditions(spec))
        or any(a.kind in ("set_mode", "delay_per_mode") for a in spec.all_actions())
        or any(action_uses_modes(a) for a in spec.all_actions())
    )
    uses_vars = (
        any(t.kind == "variable" for t in spec.triggers)
        or any(c.kind == "variable" for _p, c in _conditions(spec))
        or any(a.kind == "set_variable" for a in spec.all_actions())
        or any(action_uses_variables(a) for a in spec.all_actions())
    )
    uses_rules = any(a.rule_ids for a in spec.all_actions())
    res = Resolved()
    res.devices = await _load_devices(sources, _spec_device_ids(spec))
    if uses_modes:
        modes = (await sources.modes.list_modes())["modes"]
        res.modes = {str(m["name"]).lower(): str(m["mode_id"]) for m in modes}
        res.mode_names = {str(m["mode_id"]): str(m["name"]) for m in modes}
    if uses_vars or spec.local_variables:
        res.variables = {
            str(v["name"]): str(v["type"]).lower() for v in await sources.variables.list_variables()
        }
        for local in spec.local_variables:
            clash = next((n for n in res.variables if n.lower() == local.name.lower()), None)
            if clash is not None:
                raise ToolError(
                    f"rule.local_variables: '{local.name}' is also a hub variable ('{clash}'); "
                    "the rule's variable picker would show both. Nothing was sent.",
                    hint="Give the local variable another name.",
                )
        # the rule's own variables are in the same picker (the on-hub server: the Set Variable
        # picker lists them under --LOCAL VARIABLES--)
        res.variables.update({v.name: v.type for v in spec.local_variables})
    if uses_rules:
        rules = await sources.rules.list_rules("rule_machine", with_status=False)
        res.rules = {str(r["app_id"]): str(r.get("name") or "") for r in rules}
    _check_refs(spec, res)
    check_more_actions(spec, res, walk_actions)
    _prepare_commands(spec, res)
    kinds = [a.kind for a in spec.all_actions()]
    picked = [
        a for a in spec.all_actions() if a.kind in ("append_file", "delete_file", "write_file")
    ]
    overwrites: list[str] = []
    # the pages pick these from the File Manager's files (the on-hub server: append is an enum)
    if picked:
        names = {str(f["name"]) for f in (await sources.files.list())["files"]}
        for a in picked:
            if a.kind in ("write_file", "append_file") and a.text in names:
                # changes an existing file unattended, with no copy kept (files are served
                # on the LAN at /local/): a file write's rules
                overwrites.append(str(a.text))
            if a.kind == "write_file":
                continue
            if a.text not in names:
                raise ToolError(
                    f"rule.actions: {a.kind} names '{a.text}', which is not in the File "
                    "Manager. Nothing was sent.",
                    code="not_found",
                    subject="rule_file",
                )
    if "restore" in kinds and "capture" not in kinds:
        raise ToolError(
            "rule.actions: restore sets devices back to what this rule's capture saved, and "
            "the rule has no capture. Nothing was sent.",
            hint="Add a capture action (the devices to save) before the restore.",
        )
    for action in spec.all_actions():
        if action.kind == "set_hsm":  # a safety system: as an HSM change, it needs confirm
            res.sensitive.append(f"HSM: {action.text}")
        if action.kind == "delete_file":  # the rule deletes a hub file whenever it runs
            res.sensitive.append(f"delete file {action.text}")
        if action.kind in ("http_get", "http_post"):  # the hub calls out whenever it runs
            host = urlsplit(str(action.text)).hostname or "?"
            res.sensitive.append(f"an HTTP {action.kind[5:].upper()} to {host}")
        if action.kind == "disable_devices":  # a disabled device neither reports nor obeys
            res.sensitive += [f"disable {res.label(d)}" for d in action.device_ids]
    res.sensitive += [f"change the existing File Manager file {n}" for n in overwrites]
    reach = await _actions_reach(sources, spec, res)
    sources.sensitivity.require(
        reach, confirm=True, allowed=device_allowed, what="The rule's actions"
    )  # the allowlist over everything its actions reach
    res.sensitive += [r for r in reach.reasons if r not in res.sensitive]
    if res.sensitive:
        require_confirm(
            confirm,
            "The rule would command security-sensitive devices ("
            + ", ".join(sorted(set(res.sensitive)))
            + ").",
        )
    if overwrites:
        await _require_recent_backup(sources, overwrites)
    return res


async def _actions_reach(sources: CheckSources, spec: RuleSpec, res: Resolved) -> Reach:
    """What the spec's actions make act beyond the devices they name: the rules it runs,
    resumes or sets the private boolean of, and the apps whose child devices its actions
    name (a scene's activator, also when captured and restored), as the hub's sensitivity
    model sees them."""
    rules = [
        r
        for a in spec.all_actions()
        if a.kind in ("run_rule", "resume_rules", "set_private_boolean")
        for r in a.rule_ids
    ]
    commanded = [  # every device an action names: commanded, captured and restored, ...
        d
        for a in spec.all_actions()
        for d in a.device_ids
        if not (a.kind == "command" and a.command in HARMLESS)  # refresh, poll: nothing acts
        and a.kind != "set_variable"  # its device is read (from_device), not commanded
    ]
    model = sources.sensitivity
    return await model.apps(rules) | await model.devices(commanded, details=res.devices)


async def _require_recent_backup(sources: CheckSources, files: list[str]) -> None:
    """A rule that changes a File Manager file each time it runs keeps no copy of it,
    so it is held to a file overwrite's tier: a hub backup from the last 24 hours."""
    evidence = await sources.backups.destructive_evidence()
    if evidence.backup is None:
        raise ToolError(
            f"The rule would change {', '.join(files)} each time it runs, with no copy "
            "kept; that needs a hub backup from the last 24 hours. Nothing was sent.",
            code="backup_required",
            subject="backup",
        )


def _check_refs(spec: RuleSpec, res: Resolved) -> None:
    for i, trig in enumerate(spec.triggers):
        path = f"rule.triggers[{i}]"
        if trig.test is not None:
            _check_test(path, trig.test, res, button=trig.kind == "button")
        for mode in trig.modes:
            check_mode(f"{path}.mode", mode, res)
        if trig.variable is not None:
            check_variable(f"{path}.variable", trig.variable, res)
    for path, cond in _conditions(spec):
        if cond.test is not None and cond.ref_device is not None:
            _check_compared(path, cond.test, cond.ref_device, res)
        elif cond.test is not None:
            _check_test(path, cond.test, res)
        for mode in cond.modes:
            check_mode(f"{path}.mode", mode, res)
        if cond.variable is not None:
            check_variable(f"{path}.variable", cond.variable, res)
        if cond.ref_variable is not None:
            check_variable(f"{path}.compare_to.variable", cond.ref_variable, res)
    for path, action in walk_actions(spec.actions, "rule.actions"):
        for j, event in enumerate(action.events):
            _check_test(f"{path}.wait[{j}]", event, res)
        if action.kind == "set_mode" and action.text is not None:
            check_mode(f"{path}.set_mode", action.text, res)
        for mode, _d in action.per_mode:
            check_mode(f"{path}.delay_per_mode.{mode}", mode, res)
        if action.kind == "set_variable" and action.text is not None:
            check_variable(
                f"{path}.set_variable",
                action.text,
                res,
                numeric=action.from_variable is None,
                hint="Copy another variable with from_variable instead.",
            )
            if action.from_variable is not None:
                check_variable(f"{path}.from_variable", action.from_variable, res)
        where = "rule_ids" if action.kind == "set_private_boolean" else action.kind
        for rule_id in action.rule_ids:
            if rule_id not in res.rules:
                raise ToolError(
                    f"{path}.{where}: no Rule Machine rule {rule_id} on the hub. Nothing was sent.",
                    code="not_found",
                    subject="rm_rule_ids",
                )


def _check_compared(path: str, test: DeviceTest, ref: str, res: Resolved) -> None:
    """A device-relative comparison: the attribute is a number on every device, the
    reference device's included (Rule Machine's reference picker takes devices of the same
    capability and compares the same attribute: the on-hub server, compareToDevice)."""
    for dev_id in (*test.device_ids, ref):
        where = f"{path}.compare_to" if dev_id == ref else path
        attr = next((a for a in res.devices[dev_id].attributes if a.name == test.attribute), None)
        if attr is None or (attr.data_type or "").upper() not in NUMERIC_TYPES:
            raise ToolError(
                f"{where}: {res.label(dev_id)} (device {dev_id}) has no numeric attribute "
                f"'{test.attribute}' to compare. Nothing was sent.",
                hint="compare_to compares one numeric attribute (temperature, humidity, "
                "illuminance...) of two devices that both report it.",
            )


def _prepare_commands(spec: RuleSpec, res: Resolved) -> None:
    for path, action in walk_actions(spec.actions, "rule.actions"):
        if action.kind == "notify":
            for dev_id in action.device_ids:
                if res.devices[dev_id].command("deviceNotification") is None:
                    raise ToolError(
                        f"{path}: {res.label(dev_id)} cannot show notifications (it has no "
                        "deviceNotification command). Nothing was sent.",
                        subject="notification_device",
                    )
        if action.kind != "command" or action.command is None:
            continue
        prepared: list[PreparedCommand] = []
        for dev_id in action.device_ids:
            detail = res.devices[dev_id]
            try:
                item = prepare_command(detail, action.command, list(action.arguments))
            except ToolError as err:
                raise ToolError(
                    f"{path}: {err} Nothing was sent.",
                    hint=err.hint,
                    subject=err.subject,
                    extra=err.extra,
                ) from None
            if item.sensitive:
                res.sensitive.append(f"{item.device_label}: {item.command}")
            prepared.append(item)
        if len({tuple(a["value"] for a in p.args) for p in prepared}) > 1:
            raise ToolError(
                f"{path}: the devices took the arguments differently. Nothing was sent."
            )
        res.commands[path] = prepared


def canonical_modes(spec: RuleSpec, res: Resolved) -> RuleSpec:
    """The spec with every mode named as the hub names it (``night`` -> ``Night``), so the
    read-back, which has the hub's names, compares equal."""

    def name(mode: str) -> str:
        return res.mode_names.get(res.modes.get(mode.lower(), ""), mode)

    def expr(e: Expression) -> Expression:
        items = tuple(
            expr(c) if isinstance(c, Expression) else replace(c, modes=tuple(map(name, c.modes)))
            for c in e.conditions
        )
        return replace(e, conditions=items)

    def act(a: Action) -> Action:
        a = rename_modes(a, name)
        return replace(
            a,
            text=name(a.text) if a.kind == "set_mode" and a.text else a.text,
            per_mode=tuple((name(m), d) for m, d in a.per_mode),
            condition=expr(a.condition) if a.condition is not None else None,
            then=tuple(map(act, a.then)),
            elifs=tuple(map(act, a.elifs)),
            otherwise=tuple(map(act, a.otherwise)),
        )

    if not res.modes:
        return spec
    return replace(
        spec,
        triggers=tuple(
            replace(
                t,
                modes=tuple(map(name, t.modes)),
                only_if=replace(t.only_if, modes=tuple(map(name, t.only_if.modes)))
                if t.only_if is not None
                else None,
            )
            for t in spec.triggers
        ),
        conditions=expr(spec.conditions) if spec.conditions is not None else None,
        actions=tuple(map(act, spec.actions)),
    )
