"""The Maker API requirement shared by the HSM and hub-variable managers."""

from __future__ import annotations

from ..hub.client import HubConnection
from ..hub.errors import MakerNotConfiguredError


def require_maker(connection: HubConnection, what: str) -> None:
    """Refuse ``what`` (e.g. "Changing HSM") when this hub has no Maker API configured."""
    if not connection.has_maker:
        raise MakerNotConfiguredError(
            f"{what} needs the hub's Maker API, which is not configured for this hub."
        )
