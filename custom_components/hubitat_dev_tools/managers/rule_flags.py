"""Rule Machine rules' private boolean, set over the LAN through the hub's own rule pages.

The hub has no request that sets a rule's private boolean directly: the hub UI bundle
(``resources/hub2-source/*.js`` in the on-hub server's mirror) has no such endpoint (its rule
endpoints read, save and pause Visual Rules), the rule page has no input or button for it,
and the on-hub server sets it through ``RMUtils.sendAction`` (code running on the hub). What
the hub does offer on the LAN is Rule Machine itself: a rule whose action is "Set Private
Boolean" (``getSetPrivateBoolean``: ``privateT.<n>`` the rule ids, ``pvTF.<n>`` the negated
value; docs/rule-machine-pages.md) sets it when its actions run, and a rule's page runs its
actions with its Run Actions button.

So a short-lived helper rule is built with that one action (no triggers: it never runs by
itself) through the rule authoring manager (built paused, read back, resumed), its actions
are run once by the Run Actions button, each target's state is read until it shows the value,
and the helper is force-deleted on every path; a helper that cannot be removed is named in the
answer or the error.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import ToolError
from ..hub.errors import HubError
from .apps.rules import private_boolean

if TYPE_CHECKING:
    from ..hub.controllers import AppsController, RulesController
    from .apps.installed import AppManager
    from .apps.rules import RuleManager
    from .automation.authoring import RuleAuthoring
    from .sensitivity import SensitivityModel

Allowed = Callable[[str], bool]
HELPER_NAME = "Temporary private boolean setter (removed after use)"
# how long the targets' state is read for the value after the Run Actions click
SETTLE_S = 5.0
POLL_S = 0.25


class RulePrivateBooleans:
    """Sets Rule Machine rules' private boolean (``hub.rule_flags``)."""

    def __init__(
        self,
        *,
        apps: AppManager,
        hub_apps: AppsController,
        hub_rules: RulesController,
        rules: RuleManager,
        authoring: RuleAuthoring,
        sensitivity: SensitivityModel,
    ) -> None:
        self._apps = apps
        self._hub_apps = hub_apps
        self._hub_rules = hub_rules
        self._rules = rules
        self._authoring = authoring
        self._sensitivity = sensitivity

    async def _read(self, app_id: str) -> bool | None:
        return private_boolean((await self._hub_rules.state(app_id))["appState"])

    async def _check(
        self, ids: list[str], value: bool, confirm: bool, allowed: Allowed | None
    ) -> dict[str, str]:
        """Every target an existing Rule Machine rule, and the safety gate: setting a rule's
        private boolean can make it act (its conditions and triggers may test it), so it is
        gated as running that rule is. Nothing has been sent before this passes."""
        tree = {a.id: a for a in await self._apps.tree()}
        unknown = [i for i in ids if i not in tree]
        if unknown:
            raise ToolError(
                f"No app {', '.join(unknown)} on the hub. Nothing was sent.",
                code="not_found",
                subject="rm_rule_ids",
            )
        wrong = [tree[i] for i in ids if not tree[i].is_rm_rule]
        if wrong:
            listed = "; ".join(f"app {a.id} ({a.name}) is a {a.type}" for a in wrong[:5])
            raise ToolError(
                f"Only Rule Machine rules have a private boolean: {listed}. Nothing was sent.",
                subject="not_rm_rule",
            )
        names = {i: tree[i].name for i in ids}
        what = ", ".join(f"{i} ({n})" for i, n in names.items())
        self._sensitivity.require(
            await self._sensitivity.apps(ids),
            confirm=confirm,
            allowed=allowed,
            what=f"Setting the private boolean of rule(s) {what} to {str(value).lower()}",
        )
        return names

    async def set(
        self, app_ids: list[str], value: bool, *, confirm: bool, allowed: Allowed | None = None
    ) -> dict[str, Any]:
        """Set the private boolean of ``app_ids`` (Rule Machine rules) to ``value`` and read
        each back (see the module docstring)."""
        ids = list(dict.fromkeys(app_ids))
        names = await self._check(ids, value, confirm, allowed)
        before = dict(zip(ids, await asyncio.gather(*(self._read(i) for i in ids)), strict=True))
        spec = {
            "name": HELPER_NAME,
            "actions": [{"set_private_boolean": value, "rule_ids": ids}],
        }
        try:
            made = await self._authoring.create(
                spec,
                confirm=confirm,
                validate_only=False,
                device_allowed=allowed or (lambda _id: True),
            )
        except asyncio.CancelledError:
            # cancelled after the build and before create answered (its last step, the
            # resume): the helper's id never came back, so it is found by its name
            await asyncio.shield(self._remove_stray_helpers())
            raise
        helper = str(made["app_id"])
        holder = self._hub_apps.transient(helper)
        try:
            async with holder:
                await self._rules.call_rule(helper, "run_actions", confirm=confirm, allowed=allowed)
                after = await self._settle(ids, value)
        except (ToolError, HubError) as err:
            left = (
                f" The helper rule (app {helper}) could not be removed: delete it in the hub UI."
                if holder.left_behind
                else f" The helper rule (app {helper}) was removed."
            )
            raise ToolError(
                f"{err}{left}",
                code=err.code,
                hint=getattr(err, "hint", None),
                outcome="failed",
                subject=err.subject,
                extra={"delete_app_id": helper} if holder.left_behind else None,
            ) from err
        results = []
        for i in ids:
            row: dict[str, Any] = {
                "app_id": i,
                "name": names[i],
                "before": before[i],
                "private_boolean": after[i],
                "verified": after[i] is value,
            }
            if before[i] is value:
                row["unchanged"] = True
            results.append(row)
        out: dict[str, Any] = {
            "value": value,
            "results": results,
            "count": len(results),
            "verified": all(r["verified"] for r in results),
            "helper_app_id": helper,
            "helper_removed": not holder.left_behind,
        }
        unread = [r["app_id"] for r in results if r["private_boolean"] is None]
        if unread:
            out["note"] = (
                f"The state of rule(s) {', '.join(unread)} does not show the private boolean, "
                "so the helper rule's run could not be read back there."
            )
        elif not out["verified"]:
            out["note"] = "The helper rule ran, but not every rule shows the value yet."
        if holder.left_behind:
            out["warning"] = (
                f"The helper rule (app {helper}) could not be removed: delete it in the hub UI."
            )
        return out

    async def _remove_stray_helpers(self) -> None:
        """Force-delete every rule bearing the helper's name (ours: nobody else names one so)."""
        with contextlib.suppress(HubError):
            for app in await self._apps.tree():
                if app.is_rm_rule and app.name == HELPER_NAME:
                    await self._hub_apps.delete(app.id, force=True)

    async def _settle(self, ids: list[str], value: bool) -> dict[str, bool | None]:
        """Each target's private boolean, read until all show ``value`` (the hub runs the
        actions after answering the click) or the time is up."""
        deadline = time.monotonic() + SETTLE_S
        while True:
            now = dict(zip(ids, await asyncio.gather(*(self._read(i) for i in ids)), strict=True))
            if all(v is value for v in now.values()) or time.monotonic() >= deadline:
                return now
            await asyncio.sleep(POLL_S)
