"""Editing a built Rule Machine 5.1 rule in place: removing its actions, triggers, Required
Expression and local variables, as the on-hub server drives a live hub's pages
(``mcp-native-rules-lib.groovy``: ``_rmClearActions``, ``_rmRemoveTrigger``,
``_rmReplaceRequiredExpression``, ``_rmRemoveLocalVariable``; live notes in its comments).

* **Actions, all at once** (selectActions): ``trashAll`` (``stateAttribute=trash``) puts the
  page in trash mode: it then shows ``trashActs`` (a multiple enum of the action numbers) and
  ``cancelTrash``. A settings submit of ``trashActs`` deletes the picked actions only when it
  is the whole page's form (every input the page shows, the on-hub server's full-page submit); a
  submit of ``trashActs`` alone stores it and deletes nothing (the on-hub server, live on 2.5.0.143:
  the delete stayed stuck). ``cancelTrash`` leaves trash mode. Numbers are never reused: the next
  action gets the high-water mark + 1 (the on-hub server, live).
* **A trigger** (selectTriggers): the button named by its number with
  ``stateAttribute=deleteCon``, clicked **without** page context (with it Rule Machine takes
  the click for a settings save and drops it), then the page's settings submit, which carries
  the delete out (the on-hub server, live XHR capture). The trigger's own fields go with it.
* **The Required Expression** (STPage): a sealed one shows ``editST`` and ``cancelST``; a
  ``cancelST`` click (``stateAttribute=cancelST``) deletes it and clears ``useST``; its
  condition settings are left behind, unused (the on-hub server: "deliberately left orphaned").
* **A local variable** (selectActions): the button named by the variable with
  ``stateAttribute=deleteGV``, then ``delConfirm`` with ``stateAttribute=deleteConfirm``.
* **One action row** (selectActions): the buttons named by the row's number, clicked with the
  page's context: ``stateAttribute=arrowUp`` / ``arrowDn`` move it one row in the list (the
  first up, the last down: nothing), ``delAct`` deletes that row alone (the on-hub server,
  ``_rmMoveAction`` live 2026-04-25, ``_rmDeleteAction`` from the live UI's HTML). Numbers are
  not changed by either: the list's order is ``state.actionList``.
* Rule Machine ignores these deletes on a **disabled** rule (the on-hub server, live on 2.5.1.135).

The rule's state shows ``editAct`` (the action number) while an action's page is open;
doActPage's ``actionCancel`` (the on-hub server also clicks ``cancelAct``) discards the open action
and closes the editor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .rule_fields import Inp, inp
from .rule_locals import LocalVariables


@dataclass
class Edits:
    """The page state of the deletes, and which trigger or action each setting belongs to."""

    trash: bool = False  # selectActions in trash mode
    trigger_delete: int | None = None  # a deleteCon click waiting for the page's submit
    var_delete: str | None = None  # a deleteGV click waiting for delConfirm
    owners: dict[str, tuple[str, int]] = field(default_factory=dict)  # setting → (t|a, n)


class EditedRule(Protocol):
    """The parts of a rule (``rule_model.RuleModel``) the deletes read and change."""

    settings: dict[str, Any]
    meta: dict[str, dict[str, Any]]
    triggers: list[int]
    trig_n: int | None
    actions: list[int]
    act_n: int | None
    act_ready: bool
    exprs: dict[str, Any]  # "ST" or "a<N>" -> the expression being built (rule_model.Expr)
    pred_leak: bool
    leaked: set[int]
    residual: set[int]
    periodic_n: int | None
    last_page: str
    local: LocalVariables
    edits: Edits


def _button(name: str, title: str) -> Inp:
    return {"name": name, "type": "button", "title": title, "submitOnChange": True}


def actions_inputs(model: EditedRule) -> list[Inp]:
    """selectActions' delete controls: trashAll, or in trash mode trashActs and cancelTrash;
    a delete button per local variable, and delConfirm after one was clicked."""
    out: list[Inp] = []
    if model.edits.trash:
        options = [{str(n): f"Action {n}"} for n in model.actions]
        picker = inp("trashActs", "enum", "Actions to delete", options=options)
        picker["multiple"] = True
        out += [picker, _button("cancelTrash", "Cancel")]
    elif model.actions:
        out.append(_button("trashAll", "Delete Actions"))
        # each row's arrows and delete share its number as their name (stateAttribute says which)
        out += [_button(str(n), f"Action {n}: up, down, delete") for n in model.actions]
    for name in model.local.variables:
        out.append(_button(name, f"Delete {name}"))
    if model.edits.var_delete is not None:
        out.append(_button("delConfirm", f"Delete {model.edits.var_delete}?"))
    return out


def triggers_inputs(model: EditedRule) -> list[Inp]:
    """A delete button per trigger (the one being made too)."""
    numbers = [*model.triggers, *([model.trig_n] if model.trig_n is not None else [])]
    return [_button(str(n), f"Remove trigger {n}") for n in numbers]


def editor_inputs(model: EditedRule) -> list[Inp]:
    """doActPage's Cancel while an action is open (the on-hub server clicks it to end an edit)."""
    return [_button("actionCancel", "Cancel")] if model.act_n is not None else []


def expression_inputs() -> list[Inp]:
    """A sealed Required Expression's Edit and Delete buttons."""
    return [_button("editST", "Edit"), _button("cancelST", "Delete Required Expression")]


def click(model: EditedRule, page: str, name: str, attribute: str, *, bare: bool) -> bool | None:
    """One of the delete buttons (None: not one of them). ``bare``: without page context."""
    e = model.edits
    if page == "selectActions" and name == "trashAll":
        e.trash = e.trash or attribute == "trash"
        return True
    if page == "selectActions" and name == "cancelTrash":
        e.trash = False
        model.settings.pop("trashActs", None)
        return True
    if page == "selectActions" and name in model.local.variables:
        if attribute == "deleteGV":
            e.var_delete = name
        return True
    if page == "selectActions" and name.isdigit() and int(name) in model.actions:
        _row(model, int(name), attribute)
        return True
    if page == "selectActions" and name == "delConfirm":
        if attribute == "deleteConfirm" and e.var_delete is not None:
            model.local.variables.pop(e.var_delete, None)
        e.var_delete = None
        return True
    if page == "selectTriggers" and name.isdigit():
        if bare and attribute == "deleteCon":  # with page context: taken for a save (on-hub server)
            e.trigger_delete = int(name)
        return True
    if page == "doActPage" and name in ("actionCancel", "cancelAct"):
        # the open action is discarded and the editor closed (state.editAct cleared): the on-hub
        # server's rollback after a failed action edit, and its "ghost IF" cancel (live)
        if model.act_n is not None and model.act_n not in model.actions:
            _drop(model, "a", model.act_n)
            model.exprs.pop(f"a{model.act_n}", None)
        model.act_n, model.act_ready = None, False
        return True
    if page == "STPage" and name == "cancelST":
        if attribute == "cancelST":
            model.exprs.pop("ST", None)
            model.settings.pop("useST", None)
            model.meta.pop("useST", None)
            model.pred_leak = False
        return True
    if page == "STPage" and name == "editST":
        # in-place editing of the expression: not modelled (the on-hub server: blocked on 5.1.8)
        return True
    return None


def after_submit(model: EditedRule, page: str, form: dict[str, str], shown: set[str]) -> None:
    """A settings submit of selectTriggers carries out a registered trigger delete; one of
    selectActions in trash mode deletes the picked actions when it is the whole page's form."""
    e = model.edits
    if page == "selectTriggers" and e.trigger_delete is not None:
        n, e.trigger_delete = e.trigger_delete, None
        if n in model.triggers or n == model.trig_n:
            if n in model.triggers:
                model.triggers.remove(n)
            if n == model.trig_n:
                model.trig_n = None
            _drop(model, "t", n)
            model.residual.discard(n)
    if page == "selectActions" and e.trash and "trashActs" in model.settings:
        whole = all(f"settings[{name}]" in form for name in shown)
        if not whole:
            return  # stored, nothing deleted (the on-hub server, live: the bare write strands it)
        picked = {int(v) for v in _ids(model.settings.get("trashActs")) if v.isdigit()}
        for n in [a for a in model.actions if a in picked]:
            model.actions.remove(n)
            model.exprs.pop(f"a{n}", None)
            model.leaked.discard(n)
            _drop(model, "a", n)
        model.settings.pop("trashActs", None)
        model.meta.pop("trashActs", None)
        e.trash = False


def _row(model: EditedRule, n: int, attribute: str) -> None:
    """One action row's arrow or delete (another attribute: nothing)."""
    acts = model.actions
    i = acts.index(n)
    if attribute == "arrowUp" and i > 0:
        acts[i - 1], acts[i] = acts[i], acts[i - 1]
    elif attribute == "arrowDn" and i < len(acts) - 1:
        acts[i + 1], acts[i] = acts[i], acts[i + 1]
    elif attribute == "delAct":
        acts.remove(n)
        model.exprs.pop(f"a{n}", None)
        model.leaked.discard(n)
        _drop(model, "a", n)


def _drop(model: EditedRule, kind: str, n: int) -> None:
    for name in [k for k, owner in model.edits.owners.items() if owner == (kind, n)]:
        model.settings.pop(name, None)
        model.meta.pop(name, None)
        model.edits.owners.pop(name, None)


def _ids(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return [p.strip() for p in str(value or "").split(",") if p.strip()]


def owner(model: EditedRule) -> tuple[str, int] | None:
    """The trigger or action a field written now belongs to."""
    if model.last_page == "selectTriggers" and model.trig_n is not None:
        return ("t", model.trig_n)
    if model.last_page == "periodic" and model.periodic_n is not None:
        return ("t", model.periodic_n)
    if model.last_page == "doActPage" and model.act_n is not None:
        return ("a", model.act_n)
    return None
