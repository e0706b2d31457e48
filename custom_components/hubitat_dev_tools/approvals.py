"""Approval outside the model: the owner approves a covered call in Home Assistant (HA glue).

With a hub's option "Approve in Home Assistant" on, a call whose confirm gate belongs to a
covered tier (``errors.TIERS``: sensitive devices and apps, safety systems, code on the hub,
destructive operations) is not passed by the model's ``confirm=true``. ``tools/base.py``
runs it with ``confirm`` forced false; the gate's refusal (raised before anything is sent)
becomes an :class:`Approval` here and the answer ``approval_required``. The owner decides
where the model cannot write: a fixable Repairs issue per pending approval, whose fix flow
shows the exact call and offers Approve / Deny to an active Home Assistant administrator only
(the repairs views require one; the flow checks the acting user again), and optionally a
notification (``notify.<service>``; a ``mobile_app_*`` service gets Approve / Deny buttons,
whose events are held to the same administrator check).

An approval is bound to one call: the tool, a SHA-256 of its canonical arguments (``confirm``
and ``hub`` left out: the hub is part of the key as its entry id), the hub's entry and the
calling Home Assistant user. It is valid for ``VALIDITY_S`` from the request and used once:
the same call retried after the approval runs with ``confirm`` forced true, and the approval
is gone. Any other arguments are another call. A denied call answers ``approval_denied`` for
``KEEP_ENDED_S`` after the decision; an expired one answers ``approval_expired`` once. Requests,
decisions (and who made them), expiries and the executed call are in the audit trail.

Approvals live in memory, per hub runtime: a restart or reload drops every pending one (and
its issue). At most ``MAX_PENDING`` wait per hub, so a looping assistant cannot flood Repairs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import string
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final, cast

import probatio as vol
from homeassistant.auth.models import User
from homeassistant.components.http.const import KEY_HASS_USER
from homeassistant.components.repairs import RepairsFlow, RepairsFlowResult
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import CALLBACK_TYPE, Event, HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.event import async_call_later
from homeassistant.helpers.http import current_request
from homeassistant.util import dt as dt_util
from homeassistant.util.hass_dict import HassKey

from .const import (
    DEFAULT_APPROVAL_TIERS,
    DEFAULT_APPROVE_IN_HA,
    DOMAIN,
    ISSUE_APPROVAL,
    OPT_APPROVAL_NOTIFY,
    OPT_APPROVAL_TIERS,
    OPT_APPROVE_IN_HA,
)
from .device_refs import device_refs
from .domain_data import get_domain_data
from .errors import TIER_SENSITIVE, TIERS, ToolError
from .hub.errors import HubError
from .managers.devices import DeviceFilter
from .redact import redact, redact_arguments, redact_text
from .runtime import HubRuntime

_LOGGER = logging.getLogger(__name__)

VALIDITY_S: float = 600.0  # an approval's validity, from its request (10 minutes)
KEEP_ENDED_S: float = 600.0  # a denied call answers approval_denied this long
MAX_PENDING: Final = 10  # approvals waiting per hub
MAX_EFFECT: Final = 1_500  # characters of the effect kept for the owner's screens
MAX_SHOWN_ARGS: Final = 3_000  # characters of the call's arguments in the fix flow
MOBILE_ACTION_EVENT: Final = "mobile_app_notification_action"
ACTION_APPROVE: Final = "HDT_APPROVE_"
ACTION_DENY: Final = "HDT_DENY_"
WHERE: Final = "Home Assistant > Settings > Repairs"

PENDING: Final = "pending"
APPROVED: Final = "approved"
DENIED: Final = "denied"
EXPIRED: Final = "expired"
_ID_CHARS = string.ascii_lowercase  # letters only: no id can look like a PIN or a code


def now() -> datetime:
    """The current time (UTC); tests move it."""
    return dt_util.utcnow()


def covered_tiers(entry: ConfigEntry[Any]) -> frozenset[str]:
    """The confirm tiers this hub's owner approves in Home Assistant (empty: option off)."""
    opts = entry.options
    if not opts.get(OPT_APPROVE_IN_HA, DEFAULT_APPROVE_IN_HA):
        return frozenset()
    tiers = opts.get(OPT_APPROVAL_TIERS, list(DEFAULT_APPROVAL_TIERS))
    return frozenset(str(t) for t in tiers or () if t in TIERS)


@dataclass(frozen=True, slots=True)
class ApprovalKey:
    """What an approval is bound to: one call of one user on one hub."""

    tool: str
    args_sha256: str
    entry_id: str
    user_id: str


def call_arguments(args: Mapping[str, Any]) -> dict[str, Any]:
    """A call's arguments as an approval sees them: without ``confirm`` and ``hub``."""
    return {k: v for k, v in args.items() if k not in ("confirm", "hub")}


def approval_key(tool: str, args: Mapping[str, Any], entry_id: str, user_id: str) -> ApprovalKey:
    """The key of a call: any change to its arguments (but ``confirm``/``hub``) changes it."""
    canonical = json.dumps(
        call_arguments(args),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    digest = hashlib.sha256(canonical.encode()).hexdigest()
    return ApprovalKey(tool, digest, entry_id, user_id)


def is_approver(user: User | None) -> bool:
    """An active, human Home Assistant administrator."""
    return bool(user and user.is_active and user.is_admin and not user.system_generated)


def local_iso(moment: datetime) -> str:
    """ISO 8601 with the offset of Home Assistant's time zone."""
    return dt_util.as_local(moment).isoformat(timespec="seconds")


_CONFIRM_WORDING = (
    (" It needs confirm=true.", ""),
    ("It needs confirm=true.", ""),
    ("needs confirm=true", "needs the owner's approval"),
    ("need confirm=true", "need the owner's approval"),
    (" Nothing was sent to the hub.", ""),
    (" Nothing was sent.", ""),
    (" Nothing was changed.", ""),
)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def effect_text(failure: ToolError, title: str, devices: list[str]) -> str:
    """What the call would do: the tool's title, its gate's refusal (the sensitivity model
    names what it reaches and why) and the devices the call names."""
    text = redact_text(str(failure))
    for old, new in _CONFIRM_WORDING:
        text = text.replace(old, new)
    if devices:
        text += f" Devices: {', '.join(devices[:20])}" + (" ..." if len(devices) > 20 else ".")
    return _short(" ".join(f"{title}: {text}".split()), MAX_EFFECT)


async def device_names(runtime: HubRuntime, args: Mapping[str, Any]) -> list[str]:
    """The devices a call names, as "label (id)" (read from the hub's device list)."""
    ids = sorted(device_refs(dict(args)), key=lambda i: (len(i), i))
    if not ids:
        return []
    try:
        devices = {d.id: d for d in await runtime.hub.devices.list_devices(DeviceFilter())}
    except HubError:
        devices = {}
    return [f"{devices[i].display_name} ({i})" if i in devices else f"device {i}" for i in ids]


@dataclass(slots=True)
class Approval:
    """One call waiting for (or holding) the owner's decision."""

    id: str
    key: ApprovalKey
    tier: str
    via: str | None
    hub: str
    arguments: dict[str, Any]  # redacted, without confirm and hub
    effect: str
    requested_by: str
    created: datetime
    expires: datetime
    state: str = PENDING
    decided_by: str | None = None
    decided_by_id: str | None = None
    ended: datetime | None = None  # decided, expired
    # what the owner reads: only real secrets replaced (a setting's or preference's value
    # is shown, unlike in ``arguments``, the audit trail's form); kept in memory only
    shown: dict[str, Any] | None = None

    @property
    def tool(self) -> str:
        """The tool the call is for."""
        return self.key.tool

    @property
    def issue_id(self) -> str:
        """Its Repairs issue."""
        return f"{ISSUE_APPROVAL}_{self.key.entry_id}_{self.id}"

    @property
    def expires_at(self) -> str:
        """When it expires (ISO 8601 with offset)."""
        return local_iso(self.expires)

    def shown_arguments(self) -> str:
        """The call's arguments as the owner reads them: every value the call would set
        (settings and preferences included), secrets replaced."""
        shown = self.shown if self.shown is not None else self.arguments
        text = json.dumps(shown, indent=1, ensure_ascii=False, default=str)
        return text if len(text) <= MAX_SHOWN_ARGS else f"{text[:MAX_SHOWN_ARGS]}\n..."

    def answer(self, *, again: bool) -> ToolError:
        """The ``approval_required`` answer of a call waiting for this approval."""
        lead = "Still waiting" if again else "Waiting"
        return ToolError(
            f"{lead} for the owner's approval in Home Assistant (approval {self.id}, valid "
            f"until {self.expires_at}). Nothing was sent to the hub.",
            code="approval_required",
            hint=f"Tell the user what it would do (effect) and ask them to approve or deny it "
            f"in {WHERE} ('Approve {self.tool}...'); an assistant cannot approve. Once "
            "approved, call again with exactly the same arguments (it is then done once). "
            "confirm=true does not replace the approval.",
            extra={
                "approval_id": self.id,
                "effect": self.effect,
                "tool": self.tool,
                "arguments": self.arguments,
                "expires_at": self.expires_at,
                "valid_for_s": max(0, int((self.expires - now()).total_seconds())),
                "approve_in": WHERE,
            },
        )


class HubApprovals:
    """The approvals of one hub runtime (in memory)."""

    def __init__(self, hass: HomeAssistant, runtime: HubRuntime) -> None:
        self.hass = hass
        self.runtime = runtime
        self._by_id: dict[str, Approval] = {}
        self._by_key: dict[ApprovalKey, str] = {}
        self._timers: dict[str, CALLBACK_TYPE] = {}
        self._unsub_action: CALLBACK_TYPE | None = hass.bus.async_listen(
            MOBILE_ACTION_EVENT, self._on_action
        )

    # ------------------------------------------------------------------ lookups

    def get(self, approval_id: str) -> Approval | None:
        """An approval of this hub by id (expired ones are marked so first)."""
        approval = self._by_id.get(approval_id)
        if approval is not None:
            self._check_expiry(approval)
        return approval

    def pending(self) -> list[Approval]:
        """The approvals waiting for a decision."""
        for approval in list(self._by_id.values()):
            self._check_expiry(approval)
        return [a for a in self._by_id.values() if a.state == PENDING]

    def _current(self, key: ApprovalKey) -> Approval | None:
        self._prune()
        approval_id = self._by_key.get(key)
        approval = self._by_id.get(approval_id) if approval_id else None
        if approval is not None:
            self._check_expiry(approval)
        return approval

    def _prune(self) -> None:
        """Forget ended approvals once their error has been answered long enough."""
        cutoff = now() - timedelta(seconds=KEEP_ENDED_S)
        for approval in list(self._by_id.values()):
            if approval.ended is not None and approval.ended <= cutoff:
                self._forget(approval)

    def _forget(self, approval: Approval) -> None:
        self._by_id.pop(approval.id, None)
        if self._by_key.get(approval.key) == approval.id:
            del self._by_key[approval.key]
        if (unsub := self._timers.pop(approval.id, None)) is not None:
            unsub()
        ir.async_delete_issue(self.hass, DOMAIN, approval.issue_id)

    # ------------------------------------------------------------------ the call's side

    def take(self, key: ApprovalKey) -> Approval | None:
        """The approved approval of this call, used up (single use); None when the call has
        none or it is still pending. A denied or expired one raises its refusal."""
        approval = self._current(key)
        if approval is None or approval.state == PENDING:
            return None
        if approval.state == APPROVED:
            self._forget(approval)
            return approval
        if approval.state == DENIED:
            raise ToolError(
                f"The owner denied this call in Home Assistant (approval {approval.id}, by "
                f"{approval.decided_by}). Nothing was sent to the hub.",
                code="approval_denied",
                hint="Do not retry this call; ask the user what they want instead.",
                extra={"approval_id": approval.id, "tool": approval.tool},
            )
        self._forget(approval)  # answered once; the next call asks afresh
        raise ToolError(
            f"Approval {approval.id} for this call expired at {approval.expires_at} "
            f"({'approved but not used' if approval.decided_by else 'not decided'} in time). "
            "Nothing was sent to the hub.",
            code="approval_expired",
            hint="Call again to ask for a new approval, once the user is ready to approve it.",
            extra={"approval_id": approval.id, "tool": approval.tool},
        )

    async def ask(
        self,
        key: ApprovalKey,
        *,
        args: Mapping[str, Any],
        failure: ToolError,
        title: str,
        via: str | None,
        requested_by: str,
    ) -> ToolError:
        """The ``approval_required`` answer for a call its gate refused: the pending approval
        of the same call, or a new one (with its Repairs issue and notification)."""
        current = self._current(key)
        if current is not None and current.state == PENDING:
            return current.answer(again=True)
        if len(self.pending()) >= MAX_PENDING:
            return ToolError(
                f"{MAX_PENDING} approvals already wait for the owner on hub "
                f"'{self.runtime.title}'; no new one is asked for. Nothing was sent to the hub.",
                code="approval_limit",
                hint=f"Ask the user to decide the pending ones in {WHERE} (or let them expire), "
                "then call again.",
            )
        effect = effect_text(failure, title, await device_names(self.runtime, args))
        current = self._current(key)  # the same call may have asked meanwhile
        if current is not None and current.state == PENDING:
            return current.answer(again=True)
        created = now()
        approval = Approval(
            id=self._new_id(),
            key=key,
            tier=failure.tier or TIER_SENSITIVE,
            via=via,
            hub=self.runtime.title,
            arguments=redact_arguments(call_arguments(args)),
            shown=redact(call_arguments(args)),
            effect=effect,
            requested_by=requested_by,
            created=created,
            expires=created + timedelta(seconds=VALIDITY_S),
        )
        self._by_id[approval.id] = approval
        self._by_key[key] = approval.id
        self._timers[approval.id] = async_call_later(
            self.hass, VALIDITY_S, self._timer_for(approval.id)
        )
        self._raise_issue(approval)
        self.hass.async_create_task(self._notify(approval), f"{DOMAIN} approval notification")
        return approval.answer(again=False)

    def _new_id(self) -> str:
        while (new := "".join(secrets.choice(_ID_CHARS) for _ in range(10))) in self._by_id:
            pass  # pragma: no cover - 26**10 ids
        return new

    # ------------------------------------------------------------------ the owner's side

    def decide(self, approval_id: str, *, approve: bool, user: User, channel: str) -> str:
        """Record the owner's decision: ``approved``, ``denied``, or why not
        (``not_pending``, ``expired``, ``not_admin``)."""
        if not is_approver(user):
            return "not_admin"
        approval = self.get(approval_id)
        if approval is None or approval.state not in (PENDING, EXPIRED):
            return "not_pending"
        if approval.state == EXPIRED:
            return "expired"
        approval.state = APPROVED if approve else DENIED
        approval.decided_by = user.name or user.id
        approval.decided_by_id = user.id
        ir.async_delete_issue(self.hass, DOMAIN, approval.issue_id)
        if approve:
            detail = (
                f"approval_approved: approval {approval.id} of {approval.requested_by}'s call "
                f"approved by {approval.decided_by} ({channel}); single use, valid until "
                f"{approval.expires_at}. Nothing is sent until the call is made again."
            )
        else:
            approval.ended = now()
            if (unsub := self._timers.pop(approval.id, None)) is not None:
                unsub()
            detail = (
                f"approval_denied: approval {approval.id} of {approval.requested_by}'s call "
                f"denied by {approval.decided_by} ({channel}). Nothing was sent."
            )
        self._audit(
            approval,
            "ok" if approve else "refused",
            detail,
            user=approval.decided_by,
            user_id=user.id,
        )
        _LOGGER.info("Approval %s %s by %s", approval.id, approval.state, approval.decided_by)
        return approval.state

    # ------------------------------------------------------------------ expiry, unload

    def _timer_for(self, approval_id: str) -> Any:
        @callback
        def _expire(_now: datetime) -> None:
            self._timers.pop(approval_id, None)
            approval = self._by_id.get(approval_id)
            if approval is not None:
                self._expire(approval)

        return _expire

    def _check_expiry(self, approval: Approval) -> None:
        if approval.state in (PENDING, APPROVED) and now() >= approval.expires:
            self._expire(approval)

    def _expire(self, approval: Approval) -> None:
        if approval.state not in (PENDING, APPROVED):
            return
        was = approval.state
        approval.state = EXPIRED
        approval.ended = now()
        if (unsub := self._timers.pop(approval.id, None)) is not None:
            unsub()
        ir.async_delete_issue(self.hass, DOMAIN, approval.issue_id)
        self._audit(
            approval,
            "refused",
            f"approval_expired: approval {approval.id} of {approval.requested_by}'s call "
            + (
                f"was approved by {approval.decided_by} but not used"
                if was == APPROVED
                else "was not decided"
            )
            + f" by {approval.expires_at}. Nothing was sent.",
            user=approval.requested_by,
            user_id=approval.key.user_id,
        )

    @callback
    def clear(self) -> None:
        """Drop every approval and its issue (the hub's entry unloads)."""
        for approval in list(self._by_id.values()):
            self._forget(approval)
        if self._unsub_action is not None:
            self._unsub_action()
            self._unsub_action = None
        stores = self.hass.data.get(_DATA)
        if stores is not None and stores.get(self.runtime.entry.entry_id) is self:
            del stores[self.runtime.entry.entry_id]

    # ------------------------------------------------------------------ channels

    def _raise_issue(self, approval: Approval) -> None:
        ir.async_create_issue(
            self.hass,
            DOMAIN,
            approval.issue_id,
            is_fixable=True,
            is_persistent=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key=ISSUE_APPROVAL,
            translation_placeholders={
                "tool": approval.tool,
                "hub": approval.hub,
                "effect": _short(approval.effect, 200),
            },
            data={"entry_id": approval.key.entry_id, "approval_id": approval.id},
        )

    async def _notify(self, approval: Approval) -> None:
        """Tell the owner through the configured notify service, if any."""
        raw = str(self.runtime.entry.options.get(OPT_APPROVAL_NOTIFY) or "").strip()
        service = raw.removeprefix("notify.")
        if not service:
            return
        if not self.hass.services.has_service("notify", service):
            _LOGGER.warning("Approval %s: no service notify.%s to notify", approval.id, service)
            return
        data: dict[str, Any] = {
            "title": f"Approve {approval.tool} on {approval.hub}?",
            "message": (
                f"{approval.requested_by}'s assistant asks: {approval.effect} "
                f"Approve or deny in {WHERE} (valid until "
                f"{dt_util.as_local(approval.expires).strftime('%H:%M')})."
            ),
        }
        if service.startswith("mobile_app_"):
            data["data"] = {
                "tag": f"hdt_approval_{approval.id}",
                "actions": [
                    {"action": f"{ACTION_APPROVE}{approval.id}", "title": "Approve"},
                    {"action": f"{ACTION_DENY}{approval.id}", "title": "Deny"},
                ],
            }
        try:
            await self.hass.services.async_call("notify", service, data, blocking=False)
        except (HomeAssistantError, vol.Invalid) as err:
            _LOGGER.warning("Approval %s: notify.%s failed: %s", approval.id, service, err)

    @callback
    def _on_action(self, event: Event) -> None:
        """An actionable notification's button: decided as in the fix flow (admins only)."""
        action = str(event.data.get("action") or "")
        for prefix, approve in ((ACTION_APPROVE, True), (ACTION_DENY, False)):
            approval_id = action.removeprefix(prefix)
            if action.startswith(prefix) and approval_id in self._by_id:
                self.hass.async_create_task(
                    self._decide_from_event(approval_id, approve, event.context.user_id),
                    f"{DOMAIN} approval action",
                )

    async def _decide_from_event(
        self, approval_id: str, approve: bool, user_id: str | None
    ) -> None:
        user = await self.hass.auth.async_get_user(user_id) if user_id else None
        if user is None or not is_approver(user):
            _LOGGER.warning(
                "Approval %s: a notification action from a user who is not an active "
                "Home Assistant administrator was ignored",
                approval_id,
            )
            if (shared := get_domain_data(self.hass)) is not None:
                shared.audit.count_unauthorized()
            return
        self.decide(approval_id, approve=approve, user=user, channel="notification action")

    def _audit(
        self, approval: Approval, outcome: str, detail: str, *, user: str | None, user_id: str
    ) -> None:
        shared = get_domain_data(self.hass)
        if shared is None:
            return
        shared.audit.record(
            user=user,
            user_id=user_id,
            tool=approval.tool,
            hub=approval.hub,
            args={**approval.arguments, "approval_id": approval.id},
            outcome=outcome,
            detail=detail,
            gateway=approval.via,
        )


_DATA: HassKey[dict[str, HubApprovals]] = HassKey(f"{DOMAIN}_approvals")


@callback
def hub_approvals(hass: HomeAssistant, runtime: HubRuntime) -> HubApprovals:
    """The approvals of this hub runtime (a new runtime, after a reload, starts empty)."""
    stores = hass.data.setdefault(_DATA, {})
    entry_id = runtime.entry.entry_id
    store = stores.get(entry_id)
    if store is not None and store.runtime is runtime:
        return store
    if store is not None:
        store.clear()
    store = stores[entry_id] = HubApprovals(hass, runtime)
    runtime.entry.async_on_unload(store.clear)
    return store


def find_approval(hass: HomeAssistant, entry_id: str, approval_id: str) -> Approval | None:
    """A loaded hub's approval by id."""
    store = (hass.data.get(_DATA) or {}).get(entry_id)
    return store.get(approval_id) if store is not None else None


# ---------------------------------------------------------------------- the fix flow


async def acting_user(flow: RepairsFlow) -> User | None:
    """Who is completing the flow: the HTTP request's user (the repairs views require an
    administrator) and the flow context's user, if set; None if they differ or neither is
    known."""
    users: list[User] = []
    request = current_request.get()
    if request is not None and isinstance(who := request.get(KEY_HASS_USER), User):
        users.append(who)
    context_user_id = cast(dict[str, Any], flow.context).get("user_id")
    if isinstance(context_user_id, str):
        if (found := await flow.hass.auth.async_get_user(context_user_id)) is None:
            return None
        users.append(found)
    if not users or any(u.id != users[0].id for u in users):
        return None
    return users[0]


class ApproveCallFlow(RepairsFlow):
    """Show the exact call; an administrator approves or denies it."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._entry_id = str(data.get("entry_id") or "")
        self._approval_id = str(data.get("approval_id") or "")

    def _store(self) -> HubApprovals | None:
        return (self.hass.data.get(_DATA) or {}).get(self._entry_id)

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Go to the decision."""
        return await self.async_step_decide()

    async def async_step_decide(
        self, user_input: dict[str, Any] | None = None
    ) -> RepairsFlowResult:
        """The call as the assistant asked it, and Approve / Deny."""
        if not is_approver(await acting_user(self)):
            return self.async_abort(reason="not_admin")
        store = self._store()
        approval = store.get(self._approval_id) if store is not None else None
        if approval is None or approval.state != PENDING:
            return self.async_abort(reason="not_pending")
        return self.async_show_menu(
            step_id="decide",
            menu_options=["approve", "deny"],
            description_placeholders={
                "tool": approval.tool,
                "hub": approval.hub,
                "user": approval.requested_by,
                "effect": approval.effect,
                "arguments": approval.shown_arguments(),
                "expires": approval.expires_at,
            },
        )

    async def async_step_approve(
        self, user_input: dict[str, Any] | None = None
    ) -> RepairsFlowResult:
        """Approve the call (single use, until it expires)."""
        return await self._decide(approve=True)

    async def async_step_deny(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Deny the call."""
        return await self._decide(approve=False)

    async def _decide(self, *, approve: bool) -> RepairsFlowResult:
        user = await acting_user(self)
        store = self._store()
        if user is None or not is_approver(user):
            return self.async_abort(reason="not_admin")
        if store is None:
            return self.async_abort(reason="not_pending")
        outcome = store.decide(self._approval_id, approve=approve, user=user, channel="Repairs")
        if outcome not in (APPROVED, DENIED):
            return self.async_abort(reason=outcome)
        return self.async_create_entry(data={})


def create_flow(data: Mapping[str, Any] | None) -> RepairsFlow:
    """The fix flow of an ``approval_<entry_id>_<approval id>`` issue."""
    return ApproveCallFlow(dict(data or {}))
