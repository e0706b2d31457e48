"""The tool-side error: what a tool call answers when it cannot do what was asked.

Raised by the safety chokepoint, the managers and the tools alike (no Home Assistant
import here), and turned into one ``llm.ToolResult(error=True)`` by ``tools/base.py``.
``outcome`` is what the audit trail records: ``refused`` (nothing was sent to the hub)
or ``failed`` (the hub was asked and something went wrong).

Below the tools layer an error names no tool: a manager gives a ``subject`` (what the
failure is about) and the tools layer turns ``(code, subject)`` into the advice that names
the tools (``tools/errors.py``).

A ``confirmation_required`` refusal carries its ``tier`` (what kind of harm it guards:
``sensitive`` devices and apps, ``safety`` systems, ``code`` on the hub, ``destructive``
operations). Every confirm gate decides with :func:`confirmed`: outside an approval scope
that is the call's own ``confirm``; inside one (the hub's option "Approve in Home
Assistant", set by ``tools/base.py``), a covered tier is passed only by the owner's
approval (the call's ``confirm`` is then forced to it), an uncovered one by the model's
own ``confirm`` as before.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final, Literal

Outcome = Literal["refused", "failed"]

TIER_SENSITIVE: Final = "sensitive"
TIER_SAFETY: Final = "safety"
TIER_CODE: Final = "code"
TIER_DESTRUCTIVE: Final = "destructive"
TIERS: Final = (TIER_SENSITIVE, TIER_SAFETY, TIER_CODE, TIER_DESTRUCTIVE)


class ToolError(Exception):
    """A failure with a stable code, a message that says what happened, and a hint."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "invalid_request",
        hint: str | None = None,
        outcome: Outcome = "refused",
        extra: dict[str, Any] | None = None,
        tier: str | None = None,
        subject: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.hint = hint
        self.outcome: Outcome = outcome
        # JSON-safe data the error result carries besides code, message and hint
        self.extra = extra
        # the confirm tier a confirmation_required refusal belongs to (TIERS)
        self.tier = tier
        # what the failure is about, with ``code`` the key of the tools layer's advice
        # (``tools/errors.py``): a manager says what happened, the tools say what to call
        self.subject = subject


@dataclass(frozen=True, slots=True)
class ConfirmScope:
    """One call under the option "Approve in Home Assistant"."""

    covered: frozenset[str]  # the tiers only the owner's approval passes
    model_confirm: bool  # what the model itself sent as ``confirm``


CONFIRM_SCOPE: ContextVar[ConfirmScope | None] = ContextVar("hdt_confirm_scope", default=None)


def confirmed(confirm: bool | None, tier: str) -> bool:
    """Whether a gate of ``tier`` passes: ``confirm`` (forced to the owner's approval in an
    approval scope), or, for a tier the scope does not cover, the model's own confirm."""
    if confirm is True:
        return True
    scope = CONFIRM_SCOPE.get()
    return scope is not None and tier not in scope.covered and scope.model_confirm


def awaiting_approval(tier: str) -> bool:
    """True when a gate of ``tier`` can only be passed by the owner's approval (the call
    has none yet): such a gate checks what it can first, so the owner is not asked to
    approve a call that would be refused anyway."""
    scope = CONFIRM_SCOPE.get()
    return scope is not None and tier in scope.covered
