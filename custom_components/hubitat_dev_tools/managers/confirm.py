"""The confirm tiers managers apply: safety systems, sensitive devices, code on the hub.

A call that would switch off or rewire what protects the home needs ``confirm=true`` (the
refusal is ``confirmation_required``, raised before anything is sent). Which devices are
sensitive: ``devices.admin.is_sensitive_device``. The refusal names its tier
(``errors.TIERS``); with the hub's option "Approve in Home Assistant" covering that tier, only
the owner's approval passes the gate (``errors.confirmed``).
"""

from __future__ import annotations

from ..errors import TIER_SENSITIVE, ToolError, confirmed


def require_confirm(confirm: bool, what: str, *, tier: str = TIER_SENSITIVE) -> None:
    """Refuse ``what`` (a sentence saying what and why) unless the call has confirm=true."""
    if confirmed(confirm, tier):
        return
    raise ToolError(
        f"{what} It needs confirm=true. Nothing was changed.",
        code="confirmation_required",
        hint="Tell the user exactly what this changes, get their agreement, then call again "
        "with confirm=true.",
        tier=tier,
    )
