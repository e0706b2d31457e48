"""One Hubitat Elevation hub: the connection and a typed controller per domain.

::

    async with aiohttp.ClientSession() as session:
        hub = Hubitat(session, HubConnection("192.0.2.10", maker_app_id="12", maker_token="..."))
        await hub.info.identity()
        for device in await hub.devices.list():
            print(device.id, device.label, device.states)

Every controller method calls one of this library's endpoint functions (``devices.py``,
``apps.py``, ...) with the same arguments: what a method sends is exactly what that
function sends. The functions stay usable on their own with ``hub.client``.
"""

from __future__ import annotations

from typing import overload

import aiohttp

from .client import (
    DEFAULT_ACQUIRE_TIMEOUT,
    DEFAULT_MAX_IN_FLIGHT,
    DEFAULT_TIMEOUT,
    HubClient,
    HubConnection,
)
from .controllers import (
    AppsController,
    BackupsController,
    CodeController,
    CompatController,
    DashboardsController,
    DevicesController,
    EventsController,
    FilesController,
    FirmwareController,
    HealthController,
    HsmController,
    InfoController,
    LifecycleController,
    LogsController,
    MeshController,
    ModesController,
    NetworkController,
    RadiosController,
    RoomsController,
    RulesController,
    ScenesController,
    VariablesController,
    VisualRulesController,
)
from .firmware import Platform


class Hubitat:
    """One hub: owns its :class:`HubClient` and one controller per domain.

    Build it from the caller's ``aiohttp.ClientSession`` and a :class:`HubConnection`
    (the session is never closed here: it is the caller's), or from an existing
    :class:`HubClient` (``Hubitat(client)``), to share its login and request bound.
    """

    @overload
    def __init__(
        self,
        session: aiohttp.ClientSession,
        connection: HubConnection,
        /,
        *,
        max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
        timeout: float = DEFAULT_TIMEOUT,
        acquire_timeout: float = DEFAULT_ACQUIRE_TIMEOUT,
    ) -> None: ...

    @overload
    def __init__(self, client: HubClient, /) -> None: ...

    def __init__(
        self,
        session: aiohttp.ClientSession | HubClient,
        connection: HubConnection | None = None,
        /,
        *,
        max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
        timeout: float = DEFAULT_TIMEOUT,
        acquire_timeout: float = DEFAULT_ACQUIRE_TIMEOUT,
    ) -> None:
        if isinstance(session, HubClient):
            if connection is not None:
                raise TypeError("Hubitat(client) takes no connection: the client has one")
            client = session
        else:
            if connection is None:
                raise TypeError("Hubitat(session, connection) needs a HubConnection")
            client = HubClient(
                session,
                connection,
                max_in_flight=max_in_flight,
                timeout=timeout,
                acquire_timeout=acquire_timeout,
            )
        self._client = client
        self.devices = DevicesController(client)
        self.apps = AppsController(client)
        self.rules = RulesController(client)
        self.visual_rules = VisualRulesController(client)
        self.scenes = ScenesController(client)
        self.modes = ModesController(client)
        self.hsm = HsmController(client)
        self.rooms = RoomsController(client)
        self.variables = VariablesController(client)
        self.backups = BackupsController(client)
        self.files = FilesController(client)
        self.logs = LogsController(client)
        self.events = EventsController(client)
        self.code = CodeController(client)
        self.dashboards = DashboardsController(client)
        self.radios = RadiosController(client)
        self.network = NetworkController(client)
        self.mesh = MeshController(client)
        self.health = HealthController(client)
        self.info = InfoController(client)
        self.lifecycle = LifecycleController(client)
        self.firmware = FirmwareController(client)
        self.compat = CompatController(client)

    @classmethod
    def from_client(cls, client: HubClient) -> Hubitat:
        """A hub over an existing client (its login, platform and request bound shared)."""
        return cls(client)

    @property
    def client(self) -> HubClient:
        """The client every request goes through (for the endpoint functions)."""
        return self._client

    @property
    def connection(self) -> HubConnection:
        """How the hub is reached."""
        return self._client.connection

    @property
    def base_url(self) -> str:
        """The hub's base URL, e.g. ``http://192.0.2.10``."""
        return self._client.base_url

    @property
    def platform(self) -> Platform:
        """The firmware and model, known once ``info.identity()`` has run."""
        return self._client.platform

    def __repr__(self) -> str:
        return f"Hubitat({self.base_url!r})"
