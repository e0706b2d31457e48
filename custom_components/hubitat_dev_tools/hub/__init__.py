"""Pure asyncio client for a Hubitat Elevation hub (no Home Assistant imports)."""

from .client import HubClient, HubConnection
from .errors import (
    HubAuthError,
    HubBadResponseError,
    HubError,
    HubNotFoundError,
    HubTimeoutError,
    HubUnreachableError,
    MakerNotConfiguredError,
)
from .hubitat import Hubitat

__all__ = [
    "HubAuthError",
    "HubBadResponseError",
    "HubClient",
    "HubConnection",
    "HubError",
    "HubNotFoundError",
    "HubTimeoutError",
    "HubUnreachableError",
    "Hubitat",
    "MakerNotConfiguredError",
]
