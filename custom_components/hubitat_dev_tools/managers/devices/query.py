"""Device reads: list with filters, detail, current attribute values, event history.

``DeviceManager`` answers the reads itself and holds the other device responsibilities as
parts: ``waits`` (attribute waits), ``commands`` (validation and batches), ``admin``
(update/create/delete/replace), ``compatible`` (the compatible-device catalog) and ``mesh``
(Hub Mesh sharing between hubs).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any, cast

from ...device_refs import OUTSIDE, DeviceScreen
from ...errors import ToolError
from ...hub.controllers import AppsController, DevicesController, RoomsController
from ...hub.errors import HubNotFoundError
from ...hub.models import (
    DeviceDetail,
    DeviceSummary,
    coerce_numeric_text,
    parse_hub_time,
)
from ...hub.state_cache import StateCache
from ...redact import redact, redact_by_key
from ..mesh import HubMeshReader
from .admin import DeviceAdmin
from .commands import DeviceCommands
from .compatible import CompatibleDevices
from .filters import DeviceFilter
from .waits import AttributeWaits

_TAG_RE = re.compile(r"<[^>]+>")


def _no_device(device_id: str) -> HubNotFoundError:
    return HubNotFoundError(f"No device with id {device_id} on the hub", subject="device")


def redacted_summary(dev: DeviceSummary) -> DeviceSummary:
    """A copy of a device with secret states (lock codes...) replaced: what leaves here."""
    states = redact_by_key(dev.states)
    if states is dev.states:
        return dev  # nothing secret (the common case): no copy
    return replace(dev, states=states)


def redacted_detail(detail: DeviceDetail) -> DeviceDetail:
    """A copy of a device's detail with secret states and password-type preferences replaced."""
    return replace(
        detail,
        summary=redacted_summary(detail.summary),
        attributes=[replace(a, value=redact(a.value, a.name)) for a in detail.attributes],
        preferences=redact(detail.preferences),
        raw_device=redact(detail.raw_device),
        page=redact(detail.page),
    )


def _family_allowed(dev: DeviceSummary, allowed: Callable[[str], bool] | None) -> DeviceSummary:
    """A device with its parent and children outside the allowlist left out."""
    if allowed is None:
        return dev
    parent = dev.parent_id
    parent_shown = OUTSIDE if parent and not allowed(parent) else parent
    children = [c for c in dev.child_ids if allowed(c)]
    if parent_shown == parent and len(children) == len(dev.child_ids):
        return dev
    return replace(dev, parent_id=parent_shown, child_ids=children)


def _clean_text(value: Any) -> Any:
    return _TAG_RE.sub("", value).strip() if isinstance(value, str) else value


class DeviceManager:
    """Device reads; waits, commands, administration and the catalog are its parts.

    Each part is handed the reads it uses (never the manager itself), and the live state
    cache whenever it changes (``cache``)."""

    def __init__(
        self,
        devices: DevicesController,
        rooms: RoomsController,
        apps: AppsController,
        mesh: HubMeshReader,
    ) -> None:
        self._devices = devices
        self.waits = AttributeWaits(self.read_attribute)
        self.commands = DeviceCommands(devices, self.get_device)
        self.admin = DeviceAdmin(
            devices,
            rooms,
            apps,
            list_devices=self.list_devices,
            get_device=self.get_device,
            forget_device=self.forget_device,
            devices_changed=self.devices_changed,
        )
        self.compatible = CompatibleDevices(devices)
        self.mesh = mesh
        self.cache = None

    @property
    def cache(self) -> StateCache | None:
        """The live state cache (set by event_stream.py while the hub's event stream runs):
        reads answer from it with no hub request, waits resolve on the events."""
        return self._cache

    @cache.setter
    def cache(self, cache: StateCache | None) -> None:
        self._cache = cache
        self.waits.cache = cache
        self.commands.cache = cache

    async def _all(self) -> list[DeviceSummary]:
        if self.cache is not None and self.cache.live and not self.cache.is_dirty():
            devices, _fresh = await self.cache.read_devices()
            return devices
        return await self._devices.list()

    async def list_devices(
        self, flt: DeviceFilter, *, allowed: Callable[[str], bool] | None = None
    ) -> list[DeviceSummary]:
        """Devices passing the filter (and the allowlist), sorted by label; a parent or
        children outside the allowlist are left out of each device too."""
        devices = await self._all()
        # filters see what the result shows (no guessing a lock code through value=)
        shown = [
            _family_allowed(redacted_summary(d), allowed)
            for d in devices
            if allowed is None or allowed(d.id)
        ]
        flt.check(shown)
        out = [d for d in shown if flt.matches(d)]
        return sorted(out, key=lambda d: (d.display_name.lower(), d.id))

    async def screen(self, allowed: Callable[[str], bool]) -> DeviceScreen:
        """What a read may show of the devices under this allowlist (``DeviceScreen``);
        with an allowlist it knows every device's label (one device list read)."""
        screen = DeviceScreen(allowed)
        if screen.active:
            screen.learn({d.id: d.display_name for d in await self._all()})
        return screen

    def forget_device(self, device_id: str) -> None:
        """The device (and its children) is gone: the next list no longer shows it."""
        if self.cache is not None:
            self.cache.remove_device(device_id)

    def devices_changed(self) -> None:
        """A device was created or edited through us: the next list re-reads the hub."""
        if self.cache is not None:
            self.cache.invalidate_devices()

    async def _fetch(self, device_id: str) -> DeviceDetail:
        try:
            return await self._devices.get(device_id)
        except HubNotFoundError:
            self.forget_device(device_id)  # deleted elsewhere (the hub UI): not listed again
            raise

    async def _maker(self, device_id: str) -> dict[str, Any] | None:
        return cast(dict[str, Any] | None, await self._devices.maker(device_id))

    async def get_device(self, device_id: str) -> DeviceDetail:
        """Full detail of one device (secrets redacted)."""
        return redacted_detail(await self._fetch(device_id))

    async def get_device_full(self, device_id: str) -> DeviceDetail:
        """Full detail plus allowed attribute values (from the Maker API when configured)."""
        detail: DeviceDetail
        maker: dict[str, Any] | None
        detail, maker = await asyncio.gather(self._fetch(device_id), self._maker(device_id))
        if maker and isinstance(maker.get("attributes"), list):
            allowed_values: dict[str, list[str]] = {}
            for attr in maker["attributes"]:
                if isinstance(attr, dict) and isinstance(attr.get("values"), list):
                    allowed_values[str(attr.get("name"))] = [str(v) for v in attr["values"]]
            for state in detail.attributes:
                if state.name in allowed_values:
                    state.values = allowed_values[state.name]
        return redacted_detail(detail)

    async def read_attribute(self, device_ids: list[str], attribute: str) -> dict[str, Any]:
        """Current value of ``attribute`` on each device (one request for one or many; none
        when the live cache knows every device)."""
        cache = self.cache
        found: dict[str, DeviceSummary]
        if (
            cache is not None
            and cache.live
            and all(d in cache.devices and not cache.is_dirty(d) for d in device_ids)
        ):
            found = {d: cache.devices[d] for d in device_ids}
        elif len(device_ids) == 1:
            detail = await self.get_device(device_ids[0])
            found = {detail.summary.id: detail.summary}
        else:
            found = {d.id: d for d in await self._devices.states()}
        out: dict[str, Any] = {}
        for dev_id in device_ids:
            dev = found.get(dev_id)
            if dev is None:
                raise _no_device(dev_id)
            if attribute not in dev.states:
                raise ToolError(
                    f"Device {dev_id} ({dev.display_name}) has no attribute '{attribute}'. "
                    f"Its attributes: {', '.join(sorted(dev.states)) or 'none'}."
                )
            out[dev_id] = redact(dev.states[attribute], attribute)
        return out

    async def events(
        self,
        *,
        device_id: str,
        since: datetime | None = None,
        attribute: str | None = None,
        limit: int = 50,
    ) -> list[dict[str, Any]]:
        """One device's events, newest first, strictly after ``since``."""
        try:
            raw = cast(list[dict[str, Any]], await self._devices.events(device_id))
        except HubNotFoundError as err:
            raise _no_device(device_id) from err
        out: list[dict[str, Any]] = []
        for ev in raw:
            when = parse_hub_time(ev.get("date"))
            if since is not None and (when is None or when <= since):
                continue
            if attribute and ev.get("name") != attribute:
                continue
            item: dict[str, Any] = {
                "date": ev.get("date"),
                "name": ev.get("name"),
                "value": coerce_numeric_text(ev.get("value")),
            }
            for src, dst in (
                ("unit", "unit"),
                ("descriptionText", "description"),
                ("type", "type"),
                ("source", "source"),
            ):
                if ev.get(src) not in (None, "", "null"):
                    item[dst] = _clean_text(ev.get(src))
            item["is_state_change"] = bool(ev.get("isStateChange"))
            out.append(redact(item))
            if len(out) >= limit:
                break
        return out
