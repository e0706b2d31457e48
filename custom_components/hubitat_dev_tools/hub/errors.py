"""Typed hub errors. Each carries a hint telling a model (or a user) how to recover."""

from __future__ import annotations


class HubError(Exception):
    """Base class for every failure talking to the hub."""

    code = "hub_error"
    default_hint = "Try again; if it keeps failing, check the hub in its web UI."

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint or self.default_hint


class HubUnreachableError(HubError):
    """The hub did not accept a connection."""

    code = "hub_unreachable"
    default_hint = (
        "The hub is offline, rebooting or its address changed. Wait a minute and retry; "
        "if the address changed, use Reconfigure on the integration."
    )


class HubTimeoutError(HubError):
    """The hub accepted the request but did not answer in time."""

    code = "hub_timeout"
    default_hint = "The hub is busy or slow. Retry once; avoid large or repeated queries."


class HubAuthError(HubError):
    """Hub Security login or the Maker API token was rejected."""

    code = "hub_auth"
    default_hint = (
        "Hub Security credentials or the Maker API token are wrong or expired. "
        "A Home Assistant admin must re-authenticate the integration."
    )


class HubNotFoundError(HubError):
    """The hub answered 404: the item or endpoint does not exist."""

    code = "not_found"
    default_hint = "Check the id; list the items first to find a valid one."


class HubBadResponseError(HubError):
    """The hub answered with an error status or something we cannot parse."""

    code = "hub_bad_response"


class MakerNotConfiguredError(HubError):
    """The operation needs the Maker API, which is not configured."""

    code = "maker_api_required"
    default_hint = (
        "This needs the hub's Maker API. On the hub: Apps > Add Built-In App > Maker API, "
        "enable the needed devices/options, then enter its app id and access token in "
        "Home Assistant: Settings > Devices & services > Hubitat Dev Tools > Reconfigure."
    )
