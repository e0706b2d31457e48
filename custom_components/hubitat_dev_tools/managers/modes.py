"""Location modes: list (live cache aware), switch, create, rename, delete."""

from __future__ import annotations

import time
from typing import Any, NotRequired, TypedDict, cast

from ..errors import ToolError
from ..hub import modes as api
from ..hub.client import HubConnection
from ..hub.controllers import ModesController
from ..hub.errors import HubBadResponseError, HubNotFoundError
from ..hub.models import norm_id
from ..hub.state_cache import StateCache
from .mode_manager import ModeManagerConfig

# How long the live cache may answer the list of modes (the active mode is event-driven).
MODES_TTL = 60.0


class Mode(TypedDict):
    """One location mode as the tools show it."""

    mode_id: str | None
    name: Any
    icon: Any
    active: bool


class ModeList(TypedDict):
    """The hub's modes with the active one."""

    modes: list[Mode]
    active_mode: Any
    mode_manager: Any
    freshness: NotRequired[dict[str, Any]]


class ModeSwitch(TypedDict):
    """What :meth:`ModeManager.set_mode` did (``via`` only when the mode changed)."""

    mode: Any
    previous_mode: Any
    changed: bool
    via: NotRequired[str]


class ModeRef(TypedDict):
    """A created or deleted mode."""

    mode_id: str | None
    name: Any


class ModeRename(ModeRef):
    """A renamed mode."""

    renamed_from: Any


class ModeManager:
    """Location modes; the Mode Manager's configuration is its part (``manager_config``),
    handed ``resolve`` and the live state cache whenever it changes (``cache``)."""

    def __init__(
        self,
        modes: ModesController,
        connection: HubConnection,
        cache: StateCache | None = None,
    ) -> None:
        self._modes = modes
        self._connection = connection  # whether the Maker API is configured
        self.manager_config = ModeManagerConfig(modes, self.resolve)
        self.cache = cache

    @property
    def cache(self) -> StateCache | None:
        """The live state cache while the event stream runs (None otherwise)."""
        return self._cache

    @cache.setter
    def cache(self, cache: StateCache | None) -> None:
        self._cache = cache
        self.manager_config.cache = cache

    async def _fetch_modes(self) -> dict[str, Any]:
        return cast(dict[str, Any], await self._modes.get())

    async def _modes_payload(self) -> tuple[dict[str, Any], bool]:
        """The hub's mode list; from the live cache when it is fresh (no hub request).

        Mode changes arrive as events, so the active mode is always current; the list of
        modes itself has no event, so it is re-read after MODES_TTL seconds or our own edit.
        """
        cache = self.cache
        if cache is not None and cache.live and cache.mode is not None:
            cached = cache.modes_payload
            if cached is not None and time.monotonic() - cached[0] < MODES_TTL:
                return cached[1], True
            data = await self._fetch_modes()
            cache.modes_payload = (time.monotonic(), data)
            return data, True
        return await self._fetch_modes(), False

    def _invalidate(self) -> None:
        if self.cache is not None:
            self.cache.modes_payload = None

    async def list_modes(self) -> ModeList:
        """Modes with the active one."""
        data, from_cache = await self._modes_payload()
        return self._listing(data, from_cache)

    async def list_with_manager(self) -> dict[str, Any]:
        """Modes with the active one, and the Mode Manager's configuration (one answer)."""
        data, from_cache = await self._modes_payload()
        listing: dict[str, Any] = dict(self._listing(data, from_cache))
        listing["mode_manager"] = await self.manager_config.overview(data)
        return listing

    def _listing(self, data: dict[str, Any], from_cache: bool) -> ModeList:
        current = norm_id(data.get("currentModeId"))
        live_name = self.cache.mode if from_cache and self.cache is not None else None
        modes = [
            Mode(
                mode_id=norm_id(m.get("id")),
                name=m.get("name"),
                icon=m.get("icon"),
                active=(m.get("name") == live_name)
                if live_name is not None
                else norm_id(m.get("id")) == current,
            )
            for m in data.get("modes") or []
            if isinstance(m, dict)
        ]
        active = next((m["name"] for m in modes if m["active"]), None)
        out: ModeList = {
            "modes": modes,
            "active_mode": active,
            "mode_manager": data.get("selectedModeManager"),
        }
        # the active mode comes from the live events when they run: say how fresh it is
        out["freshness"] = (
            self.cache.freshness()
            if from_cache and self.cache is not None
            else StateCache.from_hub()
        )
        return out

    async def resolve(self, mode: str) -> tuple[Mode, Any]:
        """A mode by name (case-insensitive) or id, with the name of the active mode."""
        listing = await self.list_modes()
        wanted = mode.strip().lower()
        for m in listing["modes"]:
            if str(m["mode_id"]) == wanted or str(m["name"]).lower() == wanted:
                return m, listing["active_mode"]
        names = ", ".join(str(m["name"]) for m in listing["modes"])
        raise ToolError(
            f"No mode '{mode}' on the hub. Modes: {names}.",
            subject="mode_missing",
        )

    async def set_mode(self, mode: str) -> ModeSwitch:
        """Activate a mode (Maker API when configured, else the hub UI's endpoint)."""
        target, previous = await self.resolve(mode)
        if target["active"]:
            return {"mode": target["name"], "previous_mode": previous, "changed": False}
        if self._connection.has_maker:
            await self._modes.activate_maker(str(target["mode_id"]))
            via = "maker_api"
        else:
            await self._modes.activate(str(target["mode_id"]))
            via = "admin"
        if self.cache is not None:  # the mode event follows; reads right now are exact too
            self.cache.mode = str(target["name"])
        return {"mode": target["name"], "previous_mode": previous, "changed": True, "via": via}

    async def _check_new_name(self, name: str, except_id: str | None = None) -> str:
        clean = name.strip()
        if not clean:
            raise ToolError("A mode name cannot be empty.")
        for m in (await self.list_modes())["modes"]:
            if str(m["name"]).lower() == clean.lower() and m["mode_id"] != except_id:
                raise ToolError(f"A mode named '{m['name']}' already exists.")
        return clean

    async def create(self, name: str, icon: str | None) -> ModeRef:
        """Create a mode."""
        clean = await self._check_new_name(name)
        await self._modes.create(clean, icon)
        self._invalidate()
        created, _active = await self.resolve(clean)
        return {"mode_id": created["mode_id"], "name": clean}

    async def rename(self, mode: str, new_name: str, icon: str | None) -> ModeRename:
        """Rename a mode (and/or change its icon), keeping its icon and day schedule.

        The hub UI posts the mode's icon and days with every edit; the days are read where
        it reads them (the Mode Manager's trigger object). A hub without that endpoint
        (404: older firmware) has no day schedule: every day is sent, as the UI would.
        The new name (and icon) is read back from ``/modes/json``.
        """
        self._invalidate()  # the icon sent back is the hub's current one, not a cached one
        target, _active = await self.resolve(mode)
        clean = await self._check_new_name(new_name, except_id=target["mode_id"])
        mode_id = str(target["mode_id"])
        try:
            conditions = cast(dict[str, list[dict[str, Any]]], await self._modes.conditions())
            days = api.mode_days(conditions, mode_id)
        except HubNotFoundError:
            days = list(api.ALL_DAYS)
        new_icon = icon or str(target["icon"] or "")
        await self._modes.update(mode_id, clean, new_icon, days)
        self._invalidate()
        modes = (await self._fetch_modes()).get("modes") or []
        now = next(
            (m for m in modes if isinstance(m, dict) and norm_id(m.get("id")) == mode_id), None
        )
        if now is None or now.get("name") != clean or (icon and now.get("icon") != icon):
            shown = "gone" if now is None else f"'{now.get('name')}' ({now.get('icon')})"
            raise HubBadResponseError(
                f"The hub answered the rename of mode {target['name']} but it reads back {shown}.",
                hint="List the modes and retry once.",
                subject="mode_rename",
            )
        return {"mode_id": target["mode_id"], "name": clean, "renamed_from": target["name"]}

    async def delete(self, mode: str) -> ModeRef:
        """Delete a mode (never the active one)."""
        target, _active = await self.resolve(mode)
        if target["active"]:
            raise ToolError(
                f"'{target['name']}' is the active mode; the hub cannot delete it.",
                subject="mode_active",
            )
        await self._modes.delete(str(target["mode_id"]))
        self._invalidate()
        return {"mode_id": target["mode_id"], "name": target["name"]}
