"""Hub configuration snapshots: take one, list them, diff two or one against the live hub.

A snapshot is a YAML file in Home Assistant's config directory (``snapshots.py``, the
store); taking one only reads the hub. A diff says, per change, whether an audit record
of this integration (same hub, in the diff's time window, a tool of the category's domain
whose arguments name the item) explains it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import probatio as vol

from ..device_refs import DeviceScreen, device_refs
from ..domain_data import get_domain_data
from ..errors import (
    TIER_CODE,
    TIER_DESTRUCTIVE,
    TIER_SAFETY,
    TIER_SENSITIVE,
    ToolError,
    confirmed,
)
from ..hub.errors import HubError
from ..managers.apps.visual_nodes import DEVICE_KEYS
from ..managers.snapshot_restore import (
    BackupIndex,
    Planner,
    Selection,
    Step,
    content_for,
    needed_categories,
    plan_id,
)
from ..managers.snapshots import HEADER, AuditMatcher, diff_snapshots
from ..safety import ToolKind, check_destructive
from ..snapshots import async_take_snapshot, snapshot_name, store_for
from .args import ToolArgs, arg
from .base import HubTool, ToolCall, nested_calls

TOOL_DOMAIN = "snapshots"


@dataclass(frozen=True, slots=True, kw_only=True)
class DiffSnapshotsArgs(ToolArgs):
    from_snapshot: str = arg(str, "Snapshot", required=True)
    to_snapshot: str | None = arg(str, "Omit: live hub")


class CreateSnapshotTool(HubTool[ToolArgs]):
    name = "hub_create_snapshot"
    title = "Snapshot config"
    description = (
        "Save hub config as YAML in HA (secrets redacted; hub unchanged). Not a "
        "backup: hub_create_backup."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await async_take_snapshot(call.hass, call.runtime)


class ListSnapshotsTool(HubTool[ToolArgs]):
    name = "hub_list_snapshots"
    title = "List snapshots"
    description = (
        "The hub's configuration snapshots, newest first (name, time, size). Compare two, or "
        "one with the live hub: hub_diff_snapshots."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        files = await store_for(call.hass, call.runtime).async_list()
        return {"snapshots": [f.as_dict() for f in files], "count": len(files)}


# Where a category keeps device ids under keys of its own: Visual Rule nodes.
_DEVICE_KEYS: dict[str, tuple[str, ...]] = {"rules": DEVICE_KEYS}


def _allowed_only(doc: Mapping[str, Any], screen: DeviceScreen) -> dict[str, Any]:
    """The document with devices outside the allowlist left out: the devices themselves,
    and every other category's references to them (rooms' device lists, app settings, rule
    text and Visual Rule nodes), before the diff, so a change only they made is not shown."""
    out = dict(doc)
    if isinstance(devices := doc.get("devices"), Mapping):
        out["devices"] = {k: v for k, v in devices.items() if screen.allowed(str(k))}
    for category, items in doc.items():
        if category not in (HEADER, "devices"):
            out[category] = screen(items, id_keys=_DEVICE_KEYS.get(category, ()))
    return out


def _labels(doc: Mapping[str, Any]) -> dict[str, str]:
    """The devices a snapshot holds (id -> label), also those no longer on the hub."""
    devices = doc.get("devices")
    return {
        str(k): str(v.get("label") or v.get("name") or "")
        for k, v in (devices.items() if isinstance(devices, Mapping) else ())
        if isinstance(v, Mapping)
    }


class DiffSnapshotsTool(HubTool[DiffSnapshotsArgs]):
    name = "hub_diff_snapshots"
    title = "What changed"
    description = (
        "Config changes since a snapshot (or between two): added, removed, changed old -> "
        "new, marked if made via this integration."
    )

    async def run(self, call: ToolCall, args: DiffSnapshotsArgs) -> dict[str, Any]:
        store = store_for(call.hass, call.runtime)
        old = await store.async_read(args.from_snapshot)
        if args.to_snapshot is not None:
            new = await store.async_read(args.to_snapshot)
        else:
            new = await call.hub.snapshots.collect(
                hub_uid=call.runtime.identity.hub_uid, hub_name=call.runtime.title
            )
        start = _time(old)
        end = _time(new) if args.to_snapshot is not None else datetime.now(UTC)
        shared = get_domain_data(call.hass)
        matcher = AuditMatcher(
            shared.audit.recent(None) if shared else [],
            hub_names={call.runtime.title, str(old[HEADER].get("hub_name") or "")},
            start=start,
            end=end,
            tool_domains={t.name: t.domain for t in _registry()},
        )
        screen = await call.hub.devices.screen(call.device_allowed)
        if screen.active:
            screen.learn({**_labels(new), **_labels(old)})
        diff = diff_snapshots(_allowed_only(old, screen), _allowed_only(new, screen), matcher)
        return screen.count(
            {
                "from_snapshot": snapshot_name(args.from_snapshot),
                "to_snapshot": snapshot_name(args.to_snapshot) if args.to_snapshot else "live",
                "from_time": start.isoformat() if start else None,
                "to_time": end.isoformat() if end else None,
                **diff,
            }
        )


def _time(doc: Mapping[str, Any]) -> datetime | None:
    header = doc.get(HEADER)
    taken = header.get("taken") if isinstance(header, Mapping) else None
    try:
        return datetime.fromisoformat(str(taken)) if taken else None
    except ValueError:
        return None


def _registry() -> list[HubTool[Any]]:
    from .surface import registry  # the registry imports every tool module, this one too

    return list(registry().values())


# ---------------------------------------------------------------------------- restore

# The tool that runs each kind of step (the planner names actions, never tools).
STEP_TOOLS: dict[str, str] = {
    action: f"hub_{action}"
    for action in (
        "update_hub_settings",
        "create_room",
        "update_room",
        "delete_room",
        "create_mode",
        "update_mode",
        "delete_mode",
        "update_mode_manager",
        "create_variable",
        "set_variable",
        "delete_variable",
        "update_device",
        "delete_device",
        "install_code",
        "update_code",
        "set_rule_paused",
        "delete_code",
        "write_file",
        "delete_file",
        "update_app_settings",
        "set_app_disabled",
        "delete_app",
        "create_rule",
        "update_rule",
        "create_visual_rule",
        "update_visual_rule",
        "delete_visual_rule",
        "create_dashboard",
        "update_dashboard",
        "delete_dashboard",
    )
}
# The confirm tiers a restore asks for, the most serious first.
TIER_ORDER = (TIER_DESTRUCTIVE, TIER_SAFETY, TIER_SENSITIVE, TIER_CODE)
TIER_WRITE = "write"
TIER_ORDER_RANK = {tier: len(TIER_ORDER) - i for i, tier in enumerate(TIER_ORDER)} | {TIER_WRITE: 0}
MAX_LISTED = 40  # steps a confirmation names
PLAN_RESERVE_S = 2.0  # a plan answers this long before the call's budget at the latest
APPLY_RESERVE_S = 25.0  # a restore starts its steps with at least this much time left
VERIFY_RESERVE_S = 3.0  # the check after the steps ends this long before the call's budget
# A restore starts no step with less than this left of its call's time.
STEP_RESERVE_S = 15.0
LEFT_OUT = (
    "Which mode is active, device states and the hub's firmware: state, not configuration.",
    "Devices removed since: pair them again (a new id).",
    "Apps other than rules removed since: import them from an item backup.",
    "Values the snapshot holds redacted (secrets): never written back.",
    "Code and files whose recorded content no backup holds (a snapshot keeps only hashes).",
    "Dashboard layouts and app settings of built-in apps the snapshot does not read.",
)
FLOW = (
    "1. hub_get_restore_plan(snapshot) shows the steps, their tiers and a plan_id. "
    "2. Tell the user what it puts back (and what it cannot) and get their agreement. "
    "3. hub_restore_snapshot(snapshot, plan_id, confirm=true) runs them and checks the result."
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RestorePlanArgs(ToolArgs):
    snapshot: str = arg(str, "Snapshot name (hub_list_snapshots)", required=True)
    only: list[str] | None = arg(
        vol.All([str], vol.Length(min=1, max=50)),
        "Only these: a category (rules), item (rules:142) or name",
    )
    exclude: list[str] | None = arg(
        vol.All([str], vol.Length(min=1, max=50)), "Leave these out (as only)"
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class RestoreSnapshotArgs(RestorePlanArgs):
    plan_id: str = arg(
        vol.All(str, vol.Length(min=1, max=40)), "From hub_get_restore_plan", required=True
    )
    steps: list[int] | None = arg(
        vol.All([int], vol.Length(min=1, max=300)), "Only these step numbers"
    )
    confirm: bool = arg(
        bool, "true once the user agreed to the plan's confirm steps", default=False
    )


@dataclass(slots=True)
class RestorePlan:
    """A plan as both tools see it: the numbered steps and how each is gated."""

    snapshot: str
    taken: str | None
    steps: list[Step]
    tiers: dict[int, str] = field(default_factory=dict)  # step number -> tier
    outside: set[int] = field(default_factory=set)  # steps reaching devices outside the list
    recreated: dict[str, str] = field(default_factory=dict)
    plan_id: str = ""
    live: Mapping[str, Any] = field(default_factory=dict)  # the hub as planned against

    def numbered(self) -> list[tuple[int, Step]]:
        """(step number, step), 1-based."""
        return list(enumerate(self.steps, start=1))

    def runnable(self, n: int, step: Step) -> bool:
        """Whether a step can be run here."""
        return step.possible and n not in self.outside

    def shown(self, n: int, step: Step) -> dict[str, Any]:
        """One step as an answer shows it."""
        out: dict[str, Any] = {
            "step": n,
            "item": step.label,
            "category": step.category,
            "id": step.item,
            "change": step.change,
        }
        if n in self.outside:
            # it reaches a device outside the allowlist: what it would write is not shown
            out["possible"] = False
            out["reason"] = (
                "It reaches devices outside the assistant's device allowlist; an admin can "
                "do it in the hub's UI."
            )
            return out
        if step.action is not None:
            out["tool"] = STEP_TOOLS[step.action]
            out["arguments"] = step.args
            out["tier"] = self.tiers.get(n, TIER_WRITE)
        for key in ("current", "wanted"):
            value = getattr(step, key)
            if value is not None:
                out[key] = value
        if step.source:
            out["content_from"] = step.source
        if not self.runnable(n, step):
            out["possible"] = False
            out["reason"] = (
                step.reason
                if step.reason
                else "It reaches devices outside the assistant's device allowlist; an admin "
                "can do it in the hub's UI."
            )
        return out


async def _plan(
    call: ToolCall,
    args: RestorePlanArgs,
    screen: DeviceScreen,
    categories: set[str] | None = None,
    *,
    leave_s: float = PLAN_RESERVE_S,
) -> RestorePlan:
    """:func:`_read_plan` within the call's time, leaving ``leave_s`` of it (a slow hub
    answers ``hub_busy`` rather than a call that outlives the client's wait)."""
    budget = call.deadline - time.monotonic() - leave_s
    try:
        async with asyncio.timeout(max(budget, 0.1)):
            return await _read_plan(call, args, screen, categories)
    except TimeoutError:
        raise ToolError(
            "Reading the hub for the plan took longer than this call may wait (the hub is "
            "slow or busy). Nothing was changed.",
            code="hub_busy",
            hint="Plan a part at a time with only=[a category], or try again when the hub "
            "is less busy.",
        ) from None


async def _read_plan(
    call: ToolCall,
    args: RestorePlanArgs,
    screen: DeviceScreen,
    categories: set[str] | None = None,
) -> RestorePlan:
    """Read the snapshot and the live hub (the categories the choice needs, or these), and
    plan (reads only)."""
    name = snapshot_name(args.snapshot)
    old = await store_for(call.hass, call.runtime).async_read(name)
    header = old.get(HEADER) if isinstance(old.get(HEADER), Mapping) else {}
    ours = call.runtime.identity.hub_uid
    theirs = str(header.get("hub_uid") or "")
    if not theirs or (ours and theirs != ours):
        raise ToolError(
            f"Snapshot {name} was taken on another hub ({
                header.get('hub_name') or theirs or 'unknown'
            }); it cannot be put back on {call.runtime.title}. Nothing was changed.",
            code="wrong_hub",
            hint="List this hub's own snapshots with hub_list_snapshots.",
        )
    selection = Selection(tuple(args.only or ()), tuple(args.exclude or ()))
    wanted = selection.categories()
    if categories is not None:
        wanted = needed_categories(categories)
    live = await call.hub.snapshots.collect(
        hub_uid=ours, hub_name=call.runtime.title, categories=wanted
    )
    index = await BackupIndex.build(
        old, live, selection, item_backups=call.hub.item_backups, files=call.hub.files
    )
    planner = Planner(old, live, selection, index)
    steps = planner.plan()
    if screen.active:
        # the snapshot's labels too (a device renamed or removed since is still known)
        screen.learn({**_labels(live), **_labels(old)})
        # a device outside the allowlist is not shown at all
        steps = [
            s
            for s in steps
            if not (
                s.category == "devices"
                and not (screen.allowed(s.item) and all(screen.allowed(d) for d in s.devices))
            )
        ]
    plan = RestorePlan(
        name,
        str(header.get("taken") or "") or None,
        steps,
        recreated={f"{c}:{i}": new for (c, i), new in planner.live_ids.items()},
        live=live,
    )
    await _judge(call, plan, live, screen)
    plan.plan_id = plan_id(steps)
    return plan


async def _judge(
    call: ToolCall, plan: RestorePlan, live: Mapping[str, Any], screen: DeviceScreen
) -> None:
    """Each step's tier (by the hub's sensitivity model) and whether the allowlist lets it."""
    registry = _registry_by_name()
    model = call.hub.sensitivity
    safety_apps = {a.id for a in await call.hub.apps.tree() if call.hub.apps.safety_system(a)}
    live_apps = {str(k) for k in live.get("apps") or {}}
    previous_tier = TIER_WRITE
    for n, step in plan.numbered():
        if step.action is None:
            continue
        tool = registry[STEP_TOOLS[step.action]]
        devices = set(step.devices) | device_refs(step.args)
        reach = await model.devices(sorted(devices))
        # the app the step changes on the hub now (its live id, for one made again)
        targets = {*step.apps, str(step.args.get("app_id") or "")}
        apps = sorted(a for a in targets if a.isdigit() and a in live_apps)
        if apps and step.action != "delete_app" and step.action != "delete_visual_rule":
            reach |= await model.apps(apps)
        if step.document is not None:
            reach |= await model.document(step.document, label=step.label)
        if screen.active and (any(not screen.allowed(d) for d in reach.devices) or reach.unnamed):
            plan.outside.add(n)
        if tool.kind is ToolKind.DESTRUCTIVE or "time_zone" in step.args:  # reboots
            tier = TIER_DESTRUCTIVE
        elif "mode_manager" in step.apps or safety_apps & set(apps):
            tier = TIER_SAFETY
        elif reach.sensitive:
            tier = TIER_SENSITIVE
        elif step.action in ("install_code", "update_code"):
            tier = TIER_CODE
        else:
            tier = TIER_WRITE
        if step.app_from_previous and TIER_ORDER_RANK[previous_tier] > TIER_ORDER_RANK[tier]:
            tier = previous_tier  # it acts on what the step before made: judged alike
        plan.tiers[n] = previous_tier = tier


def _registry_by_name() -> dict[str, HubTool[Any]]:
    return {t.name: t for t in _registry()}


def _plan_answer(plan: RestorePlan) -> dict[str, Any]:
    numbered = plan.numbered()
    runnable = [(n, s) for n, s in numbered if plan.runnable(n, s)]
    tiers = sorted({plan.tiers.get(n, TIER_WRITE) for n, _s in runnable})
    out: dict[str, Any] = {
        "snapshot": plan.snapshot,
        "taken": plan.taken,
        "plan_id": plan.plan_id,
        "steps": [plan.shown(n, s) for n, s in numbered],
        "counts": {
            "steps": len(numbered),
            "possible": len(runnable),
            "cannot": len(numbered) - len(runnable),
        },
        "tiers": tiers,
        "needs_confirm": any(t != TIER_WRITE for t in tiers),
        "needs_recent_backup": TIER_DESTRUCTIVE in tiers,
        "left_out": list(LEFT_OUT),
        "flow": FLOW,
    }
    if plan.recreated:
        out["made_again_under_new_ids"] = plan.recreated
    if not numbered:
        out["summary"] = "The live hub already matches the snapshot for the chosen items."
    return out


class GetRestorePlanTool(HubTool[RestorePlanArgs]):
    name = "hub_get_restore_plan"
    title = "Plan undo"
    description = (
        "Plan undoing config changes since a snapshot (reads only): numbered steps with "
        "current -> wanted, tool and tier, or why not possible. Apply: hub_restore_snapshot."
    )
    hub_text = ("steps",)

    async def run(self, call: ToolCall, args: RestorePlanArgs) -> dict[str, Any]:
        screen = await call.hub.devices.screen(call.device_allowed)
        plan = await _plan(call, args, screen)
        out = _plan_answer(plan)
        if out["needs_recent_backup"]:
            evidence = await call.hub.backups.destructive_evidence()
            out["recent_backup"] = evidence.backup is not None
            if evidence.backup is None:
                out["before_applying"] = (
                    "Destructive steps need a hub backup from the last 24 hours: create one "
                    "with hub_create_backup first."
                )
        return screen.answer(out, id_keys=DEVICE_KEYS)


class RestoreSnapshotTool(HubTool[RestoreSnapshotArgs]):
    name = "hub_restore_snapshot"
    title = "Undo to snapshot"
    description = (
        "Run a hub_get_restore_plan plan (same snapshot, only/exclude, plan_id): each step "
        "via its own tool's gates and audit; stops at the first failure; then checks the "
        "hub against the snapshot. Full restore: hub_restore_backup."
    )
    kind = ToolKind.WRITE
    idempotent = False
    hub_text = ("done", "failed", "still_differs")
    may_destroy = True  # it deletes what was added since the snapshot (destructive steps)

    async def run(self, call: ToolCall, args: RestoreSnapshotArgs) -> dict[str, Any]:
        screen = await call.hub.devices.screen(call.device_allowed)
        plan = await _plan(call, args, screen, leave_s=APPLY_RESERVE_S)
        if plan.plan_id != args.plan_id:
            raise ToolError(
                f"The plan is now {plan.plan_id}, not {args.plan_id}: the hub or the choice "
                "changed since it was planned. Nothing was changed.",
                code="plan_changed",
                hint="Show the user the new plan (hub_get_restore_plan) and apply that one.",
                extra=screen({"plan_id": plan.plan_id, "counts": _plan_answer(plan)["counts"]}),
            )
        numbered = plan.numbered()
        if args.steps:
            unknown = sorted(set(args.steps) - {n for n, _s in numbered})
            if unknown:
                raise ToolError(
                    f"The plan has no step {', '.join(map(str, unknown))} (it has "
                    f"{len(numbered)}). Nothing was changed.",
                    code="invalid_arguments",
                    hint="Use step numbers from hub_get_restore_plan.",
                )
            numbered = [(n, s) for n, s in numbered if n in _with_chained(plan, args.steps)]
        runnable = [(n, s) for n, s in numbered if plan.runnable(n, s)]
        cannot = [plan.shown(n, s) for n, s in numbered if not plan.runnable(n, s)]
        if any(plan.tiers.get(n) == TIER_DESTRUCTIVE for n, _s in runnable):
            # the backup first: the owner is never asked to approve what it would refuse
            await check_destructive(call.runtime, {"confirm": True})
        self._gate(plan, runnable, args.confirm)
        # the hub as it is now, kept first: this restore can be undone the same way
        kept = None
        if runnable:
            # what the plan read of the hub: a diff against it skips what it did not read
            kept, _pruned = await store_for(call.hass, call.runtime).async_write(
                plan.live, prune=False
            )
        done, failed, not_run = await self._run_steps(call, plan, runnable, args.confirm)
        out: dict[str, Any] = {
            "snapshot": plan.snapshot,
            "plan_id": plan.plan_id,
            "done": done,
        }
        if kept is not None:
            out["snapshot_before_restore"] = kept.name
        if failed is not None:
            out["failed"] = failed
        if not_run:
            out["not_run"] = not_run
        if cannot:
            out["cannot"] = cannot
        if done or cannot:
            touched = {plan.steps[n - 1].category for n, _s in numbered}
            left = call.deadline - time.monotonic() - VERIFY_RESERVE_S
            try:
                async with asyncio.timeout(max(left, 0.1)):
                    out.update(await self._verify(call, args, screen, touched))
            except TimeoutError:
                out["verified"] = False
                out["verify_with"] = "hub_get_restore_plan (the call's time ran out first)"
            except (HubError, ToolError) as err:
                # what was done stays reported (a time zone step reboots the hub, say)
                out["verified"] = False
                out["verify_error"] = f"{getattr(err, 'code', 'error')}: {err}"
                out["verify_with"] = "hub_get_restore_plan, once the hub answers again"
        out["summary"] = _summary(done, failed, not_run, cannot, out.get("still_differs"))
        return screen.answer(out, id_keys=DEVICE_KEYS)

    @staticmethod
    def _gate(plan: RestorePlan, runnable: list[tuple[int, Step]], confirm: bool) -> None:
        """confirm=true (or the owner's approval) for the plan's most serious tier."""
        for tier in TIER_ORDER:
            steps = [n for n, _s in runnable if plan.tiers.get(n) == tier]
            if steps and not confirmed(confirm, tier):
                # the whole restore, as the owner approves it (not only this tier's steps)
                # every step that needs confirm first, then the plain writes
                ranked = sorted(
                    runnable,
                    key=lambda pair: -TIER_ORDER_RANK[plan.tiers.get(pair[0], TIER_WRITE)],
                )
                listed = "; ".join(
                    f"{n}. {s.label}: {s.change} [{plan.tiers.get(n, TIER_WRITE)}]"
                    for n, s in ranked[:MAX_LISTED]
                )
                more = len(runnable) - MAX_LISTED
                raise ToolError(
                    f"This restore has {tier} steps ({', '.join(map(str, steps[:10]))}); it "
                    f"needs confirm=true. Nothing was changed. Its steps: {listed}"
                    + (f"; and {more} more" if more > 0 else "")
                    + ".",
                    code="confirmation_required",
                    hint="Tell the user exactly which steps these are and what they do, get "
                    "their agreement, then call again with confirm=true.",
                    tier=tier,
                )

    async def _run_steps(
        self,
        call: ToolCall,
        plan: RestorePlan,
        runnable: list[tuple[int, Step]],
        confirm: bool,
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None, list[int]]:
        registry = _registry_by_name()
        context = call.llm_context
        if context is None:  # pragma: no cover - the chokepoint always passes one
            raise ToolError("No call context to run the steps with.", code="internal_error")
        done: list[dict[str, Any]] = []
        made: str | None = None  # the app the step before made (for a chained step)
        with nested_calls(self.name):
            for i, (n, step) in enumerate(runnable):
                if call.deadline - time.monotonic() < STEP_RESERVE_S:
                    return done, None, [m for m, _s in runnable[i:]]
                assert step.action is not None
                tool = registry[STEP_TOOLS[step.action]]
                step_args: dict[str, Any] = {**step.args, "hub": call.runtime.entry.entry_id}
                if confirm and "confirm" in {str(k) for k in tool.parameters.schema}:
                    step_args["confirm"] = True
                try:
                    if step.app_from_previous:
                        if made is None:
                            raise ToolError(
                                "It acts on the rule the step before it makes, which did "
                                "not run. Nothing was sent for it.",
                                code="invalid_request",
                            )
                        step_args["app_id"] = made
                    if step.source is not None:
                        content = await content_for(
                            step, item_backups=call.hub.item_backups, files=call.hub.files
                        )
                        step_args["content" if step.category == "files" else "source"] = content
                except (ToolError, HubError) as err:
                    failed = {
                        "step": n,
                        "item": step.label,
                        "error": getattr(err, "code", "error"),
                        "message": str(err),
                    }
                    return done, failed, [m for m, _s in runnable[i + 1 :]]
                result = await tool.execute(call.hass, step_args, context, via=self.name)
                data = result.data if isinstance(result.data, dict) else {}
                made = str(data["app_id"]) if data.get("app_id") and not result.error else None
                if result.error:
                    failed = {
                        "step": n,
                        "item": step.label,
                        "tool": tool.name,
                        "error": data.get("error"),
                        "message": data.get("message"),
                    }
                    if data.get("hint"):
                        failed["hint"] = data["hint"]
                    return done, failed, [m for m, _s in runnable[i + 1 :]]
                entry: dict[str, Any] = {
                    "step": n,
                    "item": step.label,
                    "tool": tool.name,
                    "change": step.change,
                }
                for key in (
                    "item_backup",
                    "backup_file",
                    "room_id",
                    "app_id",
                    "mode_id",
                    "dashboard_id",
                    "id",
                ):
                    if data.get(key) is not None:
                        entry[key] = data[key]
                done.append(entry)
        return done, None, []

    @staticmethod
    async def _verify(
        call: ToolCall, args: RestoreSnapshotArgs, screen: DeviceScreen, categories: set[str]
    ) -> dict[str, Any]:
        """Plan again, for the categories the steps touched: whatever still has a step (or
        cannot be done) still differs."""
        again = await _plan(call, args, screen, categories)
        left = [again.shown(n, s) for n, s in again.numbered()]
        out: dict[str, Any] = {
            "still_differs": [
                {k: e[k] for k in ("item", "category", "id", "change", "reason") if k in e}
                for e in left
            ],
            "matches_snapshot": not left,
        }
        if again.recreated:
            out["made_again_under_new_ids"] = again.recreated
        return out


def _with_chained(plan: RestorePlan, chosen: list[int]) -> set[int]:
    """The chosen steps, each with the steps chained to it (a rule made again is disabled
    right after, never left live); a chained step without its maker is refused."""
    out = set(chosen)
    numbered = plan.numbered()
    for n, step in numbered:
        if step.app_from_previous and n in out and n - 1 not in out:
            raise ToolError(
                f"Step {n} acts on what step {n - 1} makes; choose them together. Nothing "
                "was changed.",
                code="invalid_arguments",
                hint="Add the step before it to steps.",
            )
    for n, step in numbered:
        if step.app_from_previous and n - 1 in out:
            out.add(n)
    return out


def _summary(
    done: list[Any],
    failed: dict[str, Any] | None,
    not_run: list[int],
    cannot: list[Any],
    still: list[Any] | None,
) -> str:
    parts = [f"{len(done)} step(s) done"]
    if failed:
        parts.append(f"step {failed['step']} failed ({failed.get('error')}); nothing after it ran")
    if not_run and not failed:
        parts.append(f"{len(not_run)} step(s) not started for time: plan again and apply the rest")
    if cannot:
        parts.append(f"{len(cannot)} step(s) cannot be done")
    if still is not None:
        parts.append(
            "the chosen items now match the snapshot"
            if not still
            else f"{len(still)} item change(s) still differ"
        )
    return "; ".join(parts) + "."


ORDER = 76

TOOLS: tuple[type[HubTool[Any]], ...] = (
    CreateSnapshotTool,
    ListSnapshotsTool,
    DiffSnapshotsTool,
    GetRestorePlanTool,
    RestoreSnapshotTool,
)
