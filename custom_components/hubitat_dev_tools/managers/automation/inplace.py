"""Editing a built Rule Machine rule in place (same app id), one part at a time: an action
block, a trigger, the Required Expression or a local variable removed, and an action moved
up one row, each through the rule's own pages as the on-hub server drives a live hub, and each
change read back (``docs/rule-machine-pages.md``, "Editing a rule in place"). What the
parts are comes from :mod:`.edits`; this module only carries the changes out.

Nothing here resumes or initialises the rule; the caller pauses it first, adds what is new
through the wizard (:mod:`..apps.wizard`) and verifies the whole rule afterwards.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any, cast

from ...errors import ToolError
from ...hub.app_page import AppPage, Setting
from ...hub.client import HubClient
from ...hub.controllers import RulesController

# the on-hub server's read-back schedule after a delete (s between reads), and the read after which
# a click that was dropped is sent once more (live: the first click is dropped at times)
WAITS = (0.0, 1.0, 1.5, 2.0, 3.0)
RESEND_AFTER = 2
_TRIGGER_RE = re.compile(r"^tCapab(\d+)$")
_ACTION_RE = re.compile(r"^actType\.(\d+)$")


class NotEditable(ToolError):
    """The rule's pages lack a control an edit needs (nothing of it was sent): the update is
    refused, never made another way."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="not_supported", subject="rule_not_editable")


def _state(status: dict[str, Any]) -> dict[str, Any]:
    state = status.get("appState")
    return dict(state) if isinstance(state, dict) else {}


def _names(status: dict[str, Any]) -> dict[str, Any]:
    return {
        str(i["name"]): i.get("value")
        for i in status.get("appSettings") or []
        if isinstance(i, dict) and isinstance(i.get("name"), str)
    }


def _editing(status: dict[str, Any]) -> bool:
    """An action editor is open on the rule's page (``state.editAct``)."""
    return _state(status).get("editAct") not in (None, "", "null")


def action_numbers(status: dict[str, Any]) -> list[str]:
    """The rule's actions: the keys of ``appState.actions`` (on-hub server), else its
    ``actType.<N>``."""
    acts = _state(status).get("actions")
    if isinstance(acts, dict) and acts:
        return [str(k) for k in acts]
    return [m.group(1) for k in _names(status) if (m := _ACTION_RE.match(k))]


def trigger_numbers(status: dict[str, Any]) -> list[str]:
    """The rule's triggers: its ``tCapab<N>`` settings (on-hub server)."""
    return [m.group(1) for k in _names(status) if (m := _TRIGGER_RE.match(k))]


def local_names(status: dict[str, Any]) -> list[str]:
    """The rule's local variables (``appState.allLocalVars``)."""
    found = _state(status).get("allLocalVars")
    return [str(k) for k in found] if isinstance(found, dict) else []


def has_required(status: dict[str, Any]) -> bool:
    """Whether the Required Expression is on (``useST``)."""
    return _names(status).get("useST") in (True, "true")


def action_order(status: dict[str, Any]) -> list[str]:
    """The action rows in the rule's order: ``appState.actionList`` (rule-storage notes,
    live), else :func:`action_numbers`."""
    order = _state(status).get("actionList")
    if isinstance(order, list) and order:
        return [str(a) for a in order if str(a).strip().isdigit()]
    return action_numbers(status)


class RuleEraser:
    """Removes single parts of one rule and moves its actions, reading each change back.

    ``client``: for the bare clicks on a page not read first (no controller builds one)."""

    def __init__(
        self,
        client: HubClient,
        rules: RulesController,
        app_id: str,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._client = client
        self._rules = rules
        self.app_id = app_id
        self._sleep = sleep
        self.changed = False  # True once anything was changed (no way back to "untouched")
        self.requests = 0

    async def _status(self) -> dict[str, Any]:
        return cast(dict[str, Any], await self._rules.state(self.app_id))

    async def ensure_idle(self, *, close_ours: bool = False) -> None:
        """Refuse (``hub_busy``) while an action editor is open on the rule's page, perhaps
        the owner's in the hub UI: Rule Machine ignores deletes and moves then (the on-hub
        server, live). ``close_ours``: the editor is our own half-made action (a put-back
        after a failed edit), cancelled first."""
        status = await self._status()
        if close_ours and _editing(status):
            await self._cancel_editor()
            status = await self._status()
        if _editing(status):
            raise ToolError(
                f"Rule {self.app_id} has an action editor open on its page (state.editAct), "
                "and Rule Machine ignores deletes while it is, so it cannot be edited now. "
                "Nothing was changed.",
                code="hub_busy",
                subject="rule_editor_open",
            )

    async def delete_actions(self, rows: list[str]) -> None:
        """Remove these action rows (whole blocks: an IF with its rows up to its END-IF) in
        one trash-mode submit."""
        if rows:
            await self._trash_actions(rows)

    async def delete_trigger(self, n: str) -> None:
        """Remove trigger ``n`` (its fields go with it)."""
        await self._delete_trigger(n)

    async def delete_required(self) -> None:
        """Remove the Required Expression (its condition settings stay, unused)."""
        await self._delete_required()

    async def delete_local(self, name: str) -> None:
        """Remove one local variable."""
        await self._delete_local(name)

    async def move_up(self, n: str, rows: int) -> None:
        """Move action row ``n`` up by ``rows`` rows: its ``arrowUp`` button (the button
        named by the row's number, ``stateAttribute=arrowUp``, clicked with the page's
        context: the on-hub server's ``_rmMoveAction``, live 2026-04-25), one row per click,
        each read back from the rule's action order before the next. A click that did not
        move it is not sent again (a late commit would move it twice: the on-hub server)."""
        for _ in range(rows):
            before = action_order(await self._status())
            if n not in before:
                raise ToolError(
                    f"Action {n} of rule {self.app_id} is no longer in its action list.",
                    code="hub_bad_response",
                )
            at = before.index(n)
            page = await self._rules.page(self.app_id, "selectActions")
            self.changed = True
            await page.click(
                n, state_attribute="arrowUp", with_context=True, what=f"move action {n} up"
            )
            self.requests += 1

            def moved(st: dict[str, Any], want: int = at - 1) -> bool:
                order = action_order(st)
                return n in order and order.index(n) == want

            if not await self._until(moved):
                raise ToolError(
                    f"Action {n} of rule {self.app_id} did not move up after its arrow was "
                    "clicked.",
                    code="hub_bad_response",
                    hint="Read the rule again before trying again.",
                )

    async def _until(self, gone: Callable[[dict[str, Any]], bool], resend: Any = None) -> bool:
        for i, wait in enumerate(WAITS):
            if wait:
                await self._sleep(wait)
            if gone(await self._status()):
                return True
            if i == RESEND_AFTER and resend is not None:
                await resend()
        return False

    async def _trash_actions(self, acts: list[str]) -> None:
        page = await self._rules.page(self.app_id, "selectActions")
        if "trashActs" not in page.inputs:  # trash mode may be left from an earlier attempt
            if "trashAll" not in page.buttons:
                raise NotEditable(
                    f"Rule {self.app_id}'s actions page has no Delete Actions (trashAll) button."
                )
            await page.click("trashAll", state_attribute="trash", with_context=True)
            self.requests += 1
            await page.reload()
        if "trashActs" not in page.inputs:
            raise NotEditable(f"Rule {self.app_id}'s actions page did not enter trash mode.")
        self.changed = True
        picked = Setting(json.dumps(acts), "enum", True)
        label = str((page.config.get("app") or {}).get("label") or "")
        try:
            await page.post_update(
                page.full_form({"trashActs": picked}, label=label),
                what=f"delete the actions of rule {self.app_id}",
            )
            self.requests += 1
        except BaseException:
            await self._cancel_trash()
            raise
        if not await self._until(lambda st: not set(acts) & set(action_numbers(st))):
            raise ToolError(
                f"Rule {self.app_id} still has actions after their delete was submitted.",
                code="hub_bad_response",
                hint="Read the rule again before trying again.",
                subject="rule_actions_left",
            )

    async def _cancel_editor(self) -> None:
        """doActPage's Cancel (the on-hub server: ``actionCancel``, in its rollback
        ``cancelAct``)."""
        page = await self._rules.page(self.app_id, "doActPage")
        name = next((b for b in ("actionCancel", "cancelAct") if b in page.buttons), None)
        if name is not None:
            await page.click(name, with_context=True)
            self.requests += 1

    async def _cancel_trash(self) -> None:
        try:
            await AppPage(self._client, self.app_id, name="selectActions").click("cancelTrash")
        except Exception:
            return

    async def _delete_required(self) -> None:
        page = await self._rules.page(self.app_id, "STPage")
        self.changed = True
        if "cancelST" in page.buttons:
            await page.click("cancelST", state_attribute="cancelST", with_context=True)
            self.requests += 1
        status = await self._status()
        if has_required(status):  # an expression left unsealed: switch it off
            main = await self._rules.page(self.app_id, "mainPage")
            await main.set(
                {"useST": Setting("false", "bool", False)},
                what=f"switch off the Required Expression of rule {self.app_id}",
            )
            self.requests += 1
        if not await self._until(lambda st: not has_required(st)):
            raise ToolError(
                f"Rule {self.app_id} still has its Required Expression after its delete.",
                code="hub_bad_response",
            )

    async def _delete_trigger(self, n: str) -> None:
        async def send() -> None:
            # the click without page context (with it Rule Machine drops the delete), then
            # the page's settings submit that carries it out (the on-hub server, live XHR capture)
            await AppPage(self._client, self.app_id, name="selectTriggers").click(
                n, state_attribute="deleteCon"
            )
            page = await self._rules.page(self.app_id, "selectTriggers")
            await page.post_update(
                page.settings_form({}), what=f"remove trigger {n} of rule {self.app_id}"
            )
            self.requests += 2

        self.changed = True
        await send()
        if not await self._until(lambda st: n not in trigger_numbers(st), resend=send):
            raise ToolError(
                f"Trigger {n} of rule {self.app_id} is still there after its delete.",
                code="hub_bad_response",
            )

    async def _delete_local(self, name: str) -> None:
        page = AppPage(self._client, self.app_id, name="selectActions")
        # the first cycle often misses live (the on-hub server runs it twice)
        for _attempt in range(2):
            loaded = await self._rules.page(self.app_id, "selectActions")
            page.version = loaded.version
            await page.click(name, state_attribute="deleteGV", with_context=True)
            await page.click("delConfirm", state_attribute="deleteConfirm", with_context=True)
            self.requests += 2
            self.changed = True
            if await self._until(lambda st: name not in local_names(st)):
                return
        raise ToolError(
            f"Local variable {name} of rule {self.app_id} is still there after its delete.",
            code="hub_bad_response",
        )
