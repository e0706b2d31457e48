"""Errors raised by managers for requests the hub would refuse (nothing was sent)."""

from __future__ import annotations


class ValidationError(Exception):
    """The request is invalid; nothing was sent to the hub. The message says how to fix it."""

    code = "invalid_request"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class ConfirmationRequired(ValidationError):
    """The operation needs ``confirm=true`` from the caller."""

    code = "confirmation_required"


class DeviceNotAllowed(ValidationError):
    """The request names a device outside the assistant's device allowlist."""

    code = "device_not_allowed"
