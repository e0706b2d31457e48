"""Typed hub errors: one base carrying a stable ``code``.

A caller maps ``code`` (and, where several situations share a code, ``subject``: what kind
of item or credential it is about) to its own recovery advice. The library's own ``hint``
says only what any caller can act on; it never names an application's screens or tools.
"""

from __future__ import annotations

from typing import ClassVar


class HubError(Exception):
    """Base class for every failure talking to the hub."""

    code: ClassVar[str] = "hub_error"
    default_hint: ClassVar[str | None] = "Try again; if it keeps failing, check the hub."

    def __init__(
        self, message: str, *, hint: str | None = None, subject: str | None = None
    ) -> None:
        super().__init__(message)
        self.hint = hint or self.default_hint
        # What the failure is about ("device", "app", "login", "maker_token", ...).
        self.subject = subject


class HubUnreachableError(HubError):
    """The hub did not accept a connection."""

    code = "hub_unreachable"
    default_hint = "The hub is offline, rebooting or its address changed. Wait a minute and retry."


class HubTimeoutError(HubError):
    """The hub accepted the request but did not answer in time."""

    code = "hub_timeout"
    default_hint = "The hub is busy or slow. Retry once; avoid large or repeated queries."


class HubAuthError(HubError):
    """Hub Security login or the Maker API token was rejected (or is missing).

    ``subject``: ``login`` (credentials rejected), ``no_credentials`` (the hub asks for a
    login and none is configured) or ``maker_token``.
    """

    code = "hub_auth"
    default_hint = "The hub's credentials are wrong, missing or expired."


class HubNotFoundError(HubError):
    """The hub answered 404, or the item does not exist."""

    code = "not_found"
    default_hint = "Check the id; list the items first to find a valid one."


class HubBadResponseError(HubError):
    """The hub answered with an error status or something we cannot parse."""

    code = "hub_bad_response"


class HubResponseTooLargeError(HubBadResponseError):
    """The hub's answer is larger than the call allows (it was not read to the end)."""

    code = "response_too_large"
    default_hint = "The answer is too large to read at once; ask for less (filter or page)."


class HubBusyError(HubError):
    """Every request slot to the hub stayed taken for too long (nothing was sent)."""

    code = "hub_busy"
    default_hint = "Other requests to the hub are still running. Wait a little and retry."


class HubRefusedError(HubBadResponseError):
    """The hub answered its failure envelope (``{"success": false, ...}``).

    ``reason`` is the hub's own message (``message``/``errorMessage``/``error``), if any.
    """

    # Same wire code as any other bad answer: callers tell them apart by type.
    default_hint = "The hub rejected the request; check the arguments against what it expects."

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        hint: str | None = None,
        subject: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint, subject=subject)
        self.reason = reason


class HubFirmwareError(HubError):
    """The hub's firmware (or hardware) does not offer what the call needs."""

    code = "firmware_unsupported"
    default_hint = "Update the hub's platform firmware, then retry."


class MakerNotConfiguredError(HubError):
    """The operation needs the Maker API, which is not configured."""

    code = "maker_api_required"
    default_hint = "This needs the hub's Maker API app id and access token."


def failure_reason(answer: object) -> str | None:
    """The hub's own words in a failure envelope, or None."""
    if not isinstance(answer, dict):
        return None
    for key in ("message", "errorMessage", "error"):
        value = answer.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def is_failure(answer: object) -> bool:
    """True for the hub's failure envelope ``{"success": false, ...}``."""
    return isinstance(answer, dict) and answer.get("success") is False
