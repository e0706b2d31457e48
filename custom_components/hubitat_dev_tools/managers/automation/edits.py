"""What an update changes in a rule, part by part: the current rule (as read) held against
the wanted spec, so only the parts that differ are edited, in place, through the rule's pages.

* **Triggers** keep their order by number, and a new one gets the next number, so it comes
  last: the triggers that stay are the longest start of the wanted list the current ones hold
  in order; the others are removed and the rest of the wanted list added.
* **Actions** (top level: an IF or Repeat with every row up to its END) that stay are the
  longest common subsequence of the two lists; the others are removed (one trash-mode
  submit), and each new one is added at the end and moved up to its place (its rows' arrows).
* **The Required Expression** is removed and built again when it differs (Rule Machine
  cannot edit one in place: the on-hub server).
* **Local variables** that differ are removed and added again, with the actions and the
  expression that use them (Rule Machine leaves a rule that uses a removed variable broken).
* **The name and logging** are written on the main page.

A part the decoder does not know (marked in the read's ``undecompiled``; a placeholder
``{"unknown": ...}`` in its spec, or a part read only in part) is never removed or rebuilt: a
change that would need that is refused (:class:`PartUnknown`), naming the part, why, and the
page it is edited on by hand. Nothing here talks to the hub.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...errors import ToolError
from .decompile import Decompiler
from .inplace import has_required, trigger_numbers

# what an action row opens and closes (Rule Machine's action list is flat: IF ... END-IF)
OPENERS = ("getIfThen", "getRepeat", "getWhile")
CLOSERS = ("getEndIf", "getStopRepeat")
# a stand-in action for a spec that must have one; its steps are never sent
STAND_IN: dict[str, Any] = {"comment": "stand-in"}
PAGE_OF = {
    "triggers": "selectTriggers",
    "actions": "selectActions",
    "conditions": "STPage",
    "restrictions": "mainPage",
    "local_variables": "selectActions",
    "logging": "mainPage",
    "name": "mainPage",
}


class PartUnknown(ToolError):
    """An edit that would remove or rebuild a part the decoder does not know: refused,
    nothing sent."""

    def __init__(self, part: str, why: str) -> None:
        key = part.split("[", 1)[0].split(".", 1)[0]
        page = PAGE_OF.get(key, "mainPage")
        super().__init__(
            f"rule.{part}: {why}. Nothing was sent, and the rule is unchanged (it keeps its app "
            f"id; an update never rebuilds a rule as a new one).",
            code="not_supported",
            subject="rule_part_unknown",
            hint=f"Change that part by hand on the rule's page '{page}', or leave it as the "
            "read shows it.",
            extra={"part": part, "page": page},
        )


def has_unknown(node: Any) -> bool:
    """Whether a spec part holds a placeholder the read left (``{"unknown": ...}``)."""
    if isinstance(node, dict):
        return "unknown" in node or any(has_unknown(v) for v in node.values())
    if isinstance(node, list):
        return any(has_unknown(v) for v in node)
    return False


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _mentions(node: Any, names: set[str]) -> bool:
    if isinstance(node, str):
        return node in names
    if isinstance(node, dict):
        return any(_mentions(v, names) for v in node.values())
    if isinstance(node, list):
        return any(_mentions(v, names) for v in node)
    return False


def action_blocks(order: list[str], subtype: dict[str, Any]) -> list[list[str]]:
    """The action rows grouped per top-level action (a block opener with every row up to its
    closer); an unclosed block is left as it is (its rows one group)."""
    out: list[list[str]] = []
    depth = 0
    for n in order:
        sub = str(subtype.get(f"actSubType.{n}"))
        if depth == 0:
            out.append([])
        out[-1].append(n)
        if sub in OPENERS:
            depth += 1
        elif sub in CLOSERS and depth:
            depth -= 1
    return out


@dataclass
class Shape:
    """The current rule on the hub beside its read spec: the trigger numbers and the action
    rows of each spec item, and which items the decoder does not fully know."""

    triggers: list[str]
    blocks: list[list[str]] | None  # None: the rows do not line up with the spec's actions
    unknown_triggers: set[int] = field(default_factory=set)
    unknown_actions: set[int] = field(default_factory=set)
    unknown_conditions: bool = False
    required: bool = False


def shape_of(spec: dict[str, Any], dec: Decompiler, status: dict[str, Any]) -> Shape:
    """The :class:`Shape` of a rule from its read spec, the decoder that read it and its
    statusJson (settings by name in ``dec.s``)."""
    numbers = sorted(trigger_numbers(status), key=int)
    numbers = [n for n in numbers if dec.s.get(f"tCapab{n}") not in (None, "")]
    triggers = list(spec.get("triggers") or [])
    unknown_t = {i for i, t in enumerate(triggers) if has_unknown(t)}
    unknown_t |= {i for i, marks in enumerate(dec.trigger_marks) if marks}
    order = [str(a) for a in dec.action_indexes()]
    actions = list(spec.get("actions") or [])
    unknown_a = {i for i, a in enumerate(actions) if has_unknown(a)}
    blocks: list[list[str]] | None = action_blocks(order, dec.s)
    if blocks is not None and len(blocks) == len(actions):
        row_at = {n: i for i, n in enumerate(order)}
        for k, rows in enumerate(blocks):
            if any(row_at[n] < len(dec.action_marks) and dec.action_marks[row_at[n]] for n in rows):
                unknown_a.add(k)
    else:
        blocks = None
    return Shape(
        triggers=numbers if len(numbers) == len(triggers) else [],
        blocks=blocks,
        unknown_triggers=unknown_t,
        unknown_actions=unknown_a,
        unknown_conditions=bool(dec.condition_marks) or has_unknown(spec.get("conditions")),
        required=has_required(status),
    )


@dataclass
class Plan:
    """What to change (indexes into the current read spec's lists; items of the wanted)."""

    name: bool = False
    logging: bool = False
    remove_triggers: list[int] = field(default_factory=list)
    add_triggers: list[Any] = field(default_factory=list)
    remove_actions: list[int] = field(default_factory=list)
    add_actions: list[tuple[int, Any]] = field(default_factory=list)  # (wanted index, item)
    keep_actions: dict[int, int] = field(default_factory=dict)  # wanted index -> current
    conditions: str = "keep"  # keep | remove | build (added or replaced)
    remove_locals: list[str] = field(default_factory=list)
    add_locals: list[str] = field(default_factory=list)

    def changes(self) -> dict[str, Any]:
        """What the plan does, in counts (the answer's ``edits``)."""
        out: dict[str, Any] = {
            "triggers_removed": len(self.remove_triggers),
            "triggers_added": len(self.add_triggers),
            "actions_removed": len(self.remove_actions),
            "actions_added": len(self.add_actions),
            "actions_kept": len(self.keep_actions),
            "local_variables_removed": len(self.remove_locals),
            "local_variables_added": len(self.add_locals),
            "required_expression": {"keep": "unchanged", "remove": "removed"}.get(
                self.conditions, "built"
            ),
        }
        if self.name:
            out["name"] = "changed"
        if self.logging:
            out["logging"] = "changed"
        return out

    def empty(self) -> bool:
        """Nothing on the rule's pages changes."""
        return not any(
            (
                self.name,
                self.logging,
                self.remove_triggers,
                self.add_triggers,
                self.remove_actions,
                self.add_actions,
                self.remove_locals,
                self.add_locals,
                self.conditions != "keep",
            )
        )


def _lcs(
    current: list[Any], wanted: list[Any], heavy: set[int], movable: set[int]
) -> dict[int, int]:
    """The items of ``current`` that stay (wanted index -> current index): the longest common
    subsequence, items in ``heavy`` (unknown: kept at any cost) weighing most; an item in
    ``movable`` (one that must be made again) never matches."""
    n, m = len(current), len(wanted)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            take = 0
            if i not in movable and _same(current[i], wanted[j]):
                take = best[i + 1][j + 1] + (1000 if i in heavy else 1)
            best[i][j] = max(best[i + 1][j], best[i][j + 1], take)
    kept: dict[int, int] = {}
    i = j = 0
    while i < n and j < m:
        if (
            i not in movable
            and _same(current[i], wanted[j])
            and best[i][j] == best[i + 1][j + 1] + (1000 if i in heavy else 1)
        ):
            kept[j] = i
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return kept


def plan_edits(
    current: dict[str, Any],
    shape: Shape,
    wanted: dict[str, Any],
    *,
    remove_unknown: bool = False,
) -> Plan:
    """The edits that turn the rule read as ``current`` into ``wanted`` (both specs; wanted
    items canonical where known). ``remove_unknown``: a put-back after a failed edit may
    remove unknown parts (ours, half made); an update never does."""
    plan = Plan()

    def refuse(part: str, why: str) -> None:
        if not remove_unknown:
            raise PartUnknown(part, why)

    if str(wanted.get("name")) != str(current.get("name")):
        plan.name = True
    want_log = list(wanted.get("logging") or [])
    if want_log != list(current.get("logging") or []):
        if not want_log:
            raise PartUnknown(
                "logging",
                "clearing a rule's logging is not a change the rule's pages were seen to take",
            )
        plan.logging = True
    if not _same(wanted.get("restrictions") or [], current.get("restrictions") or []):
        refuse(
            "restrictions",
            "a restriction has no form in the spec, so it cannot be "
            "added, changed or removed by an update (the read lists its text)",
        )

    # local variables: by name; a changed one is removed and added again
    cur_vars = {str(v.get("name")): v for v in current.get("local_variables") or []}
    want_vars = {str(v.get("name")): v for v in wanted.get("local_variables") or []}
    plan.remove_locals = sorted(n for n, v in cur_vars.items() if not _same(v, want_vars.get(n)))
    plan.add_locals = sorted(n for n, v in want_vars.items() if not _same(v, cur_vars.get(n)))
    redone = set(plan.remove_locals)

    # the Required Expression
    cur_cond, want_cond = current.get("conditions"), wanted.get("conditions")
    cond_uses = cur_cond is not None and _mentions(cur_cond, redone)
    if _same(cur_cond, want_cond) and not cond_uses:
        plan.conditions = "keep"
    else:
        if cur_cond is not None and shape.unknown_conditions:
            refuse(
                "conditions",
                "the Required Expression holds a part the decoder does not "
                "know, so it cannot be removed or built again",
            )
        if want_cond is not None and has_unknown(want_cond):
            raise PartUnknown(
                "conditions",
                "the wanted Required Expression holds a part the "
                "read could not decode (a placeholder), so it cannot be built",
            )
        plan.conditions = "build" if want_cond is not None else "remove"

    # triggers: the longest start of the wanted list held in order by the current one
    cur_t, want_t = list(current.get("triggers") or []), list(wanted.get("triggers") or [])
    matched: list[int] = []
    i = 0
    for item in want_t:
        while i < len(cur_t) and not _same(cur_t[i], item):
            i += 1
        if i == len(cur_t):
            break
        matched.append(i)
        i += 1
    if not (len(matched) == len(cur_t) == len(want_t)):
        if not shape.triggers and cur_t:
            refuse(
                "triggers",
                "the rule's trigger settings do not line up with its read "
                "triggers, so no single one can be removed",
            )
        plan.remove_triggers = [k for k in range(len(cur_t)) if k not in matched]
        plan.add_triggers = want_t[len(matched) :]
    for k in plan.remove_triggers:
        if k in shape.unknown_triggers:
            refuse(
                f"triggers[{k}]",
                "this trigger holds a part the decoder does not know, "
                "and the change would need it removed (a new trigger always comes last, so "
                "the triggers before it cannot be reordered around it)",
            )
    for k, item in enumerate(plan.add_triggers):
        if has_unknown(item):
            raise PartUnknown(
                f"triggers[{len(matched) + k}]",
                "a placeholder the read left cannot be built; keep it where the read shows it",
            )

    # actions: the longest common subsequence stays
    cur_a, want_a = list(current.get("actions") or []), list(wanted.get("actions") or [])
    uses = {k for k, a in enumerate(cur_a) if redone and _mentions(a, redone)}
    kept = _lcs(cur_a, want_a, shape.unknown_actions, uses)
    if len(kept) != len(cur_a) or len(kept) != len(want_a):
        if shape.blocks is None and cur_a:
            refuse(
                "actions",
                "the rule's action rows do not line up with its read actions "
                "(a block is not closed, or the page shows rows the settings do not hold), "
                "so no single one can be removed or added",
            )
        plan.remove_actions = [k for k in range(len(cur_a)) if k not in kept.values()]
        plan.add_actions = [(j, a) for j, a in enumerate(want_a) if j not in kept]
    plan.keep_actions = kept
    for k in plan.remove_actions:
        if k in shape.unknown_actions:
            refuse(
                f"actions[{k}]",
                "this action holds a part the decoder does not know, and "
                "the change would need it removed or made again",
            )
    for j, item in plan.add_actions:
        if has_unknown(item):
            raise PartUnknown(
                f"actions[{j}]",
                "a placeholder the read left cannot be built; keep it where the read shows it",
            )
    return plan


def known_view(wanted: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[bool]]]:
    """The wanted spec without the parts that hold a placeholder (kept as they are on the
    hub), for the spec's checks; and per list which items are in it. A spec without actions
    gets a stand-in (a spec has at least one; it is never sent)."""
    view = {k: v for k, v in wanted.items() if k != "restrictions"}
    where: dict[str, list[bool]] = {}
    for key in ("triggers", "actions"):
        items = wanted.get(key)
        if not isinstance(items, list):
            where[key] = []  # not a list: the spec's own check says so
            continue
        where[key] = [not has_unknown(x) for x in items]
        view[key] = [x for x, known in zip(items, where[key], strict=True) if known]
    if view.get("actions") == [] and wanted.get("actions"):
        view["actions"] = [STAND_IN]
    if has_unknown(wanted.get("conditions")):
        view.pop("conditions", None)
    return view, where


def canonical(
    wanted: dict[str, Any], view_dict: dict[str, Any], where: dict[str, list[bool]]
) -> dict[str, Any]:
    """The wanted spec in canonical form: the checked known parts as the spec writes them,
    the placeholders where they were."""
    out = dict(view_dict)
    for key in ("triggers", "actions"):
        known = iter(view_dict.get(key) or [])
        raw_items = wanted.get(key)
        items: list[Any] = raw_items if isinstance(raw_items, list) else []
        out[key] = [next(known) if ok else raw for raw, ok in zip(items, where[key], strict=True)]
    if has_unknown(wanted.get("conditions")):
        out["conditions"] = wanted["conditions"]
    if wanted.get("restrictions"):
        out["restrictions"] = wanted["restrictions"]
    return out
