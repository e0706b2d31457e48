"""The hub's Swap Device app: move every app using one device to another.

Swap Device is a transient classic app (every visit creates a new instance): it is opened,
driven like its page, and removed on every path.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..errors import ToolError
from ..hub.app_page import AppPage
from ..hub.controllers import AppsController
from ..hub.errors import HubBadResponseError, HubError
from .apps.page_model import encode_setting
from .devices import DeviceManager


def _swap_button(page: AppPage) -> str | None:
    """The Swap Device page's swap button (found by name or title, not assumed)."""
    for button in page.buttons.values():
        if "swap" in f"{button.name} {button.title}".lower():
            return button.name
    return None


class SwapManager:
    """Swap Device: the apps of one device move to another (which keeps its own id)."""

    def __init__(self, apps: AppsController, devices: DeviceManager) -> None:
        self._apps = apps
        self._devices = devices

    async def swap_device(self, old_id: str, new_id: str) -> dict[str, Any]:
        """The hub's Swap Device app: every app using ``old_id`` is moved to ``new_id``."""
        if old_id == new_id:
            raise ToolError("old_device_id and new_device_id must differ. Nothing was sent.")
        old, new = await asyncio.gather(
            self._devices.get_device(old_id), self._devices.get_device(new_id)
        )
        for dev in (old, new):
            if dev.summary.parent_id or dev.parent_app:
                raise ToolError(
                    f"Device {dev.summary.id} ({dev.summary.display_name}) belongs to another "
                    "device or app; Swap Device only moves free-standing devices. Nothing was "
                    "sent."
                )
        if not old.apps_using:
            raise ToolError(
                f"No app uses device {old_id} ({old.summary.display_name}); there is nothing "
                "to swap. Nothing was sent."
            )
        app_id = await self._apps.open_direct("swapDevice")
        async with self._apps.transient(app_id) as helper:
            page = await self._apps.page(app_id)
            if not {"oldDev", "newDev"} <= page.inputs.keys():
                raise HubBadResponseError(
                    "The hub's Swap Device page has no oldDev/newDev inputs; nothing was swapped.",
                    hint="This firmware's Swap Device page differs; report the firmware version.",
                )
            repairs: list[str] = []
            await page.set(
                {
                    name: encode_setting(page.inputs[name], dev_id, None, lambda _d: True, repairs)
                    for name, dev_id in (("oldDev", old_id), ("newDev", new_id))
                }
            )
            await page.reload()
            button = _swap_button(page)
            if button is None:
                raise HubBadResponseError(
                    "The hub's Swap Device page offered no swap button for these devices; "
                    "nothing was swapped.",
                    hint="The hub may not accept this pair (e.g. different device types).",
                )
            try:
                await page.click(button, with_context=True)
            except HubError as err:
                click_error: HubError | None = err
            else:
                click_error = None
        old_after = await self._devices.get_device(old_id)
        before_ids = {str(a.get("app_id")) for a in old.apps_using}
        after_ids = {str(a.get("app_id")) for a in old_after.apps_using} - {app_id}
        moved = [a for a in old.apps_using if str(a.get("app_id")) in before_ids - after_ids]
        if click_error is not None and not moved:
            raise click_error
        out: dict[str, Any] = {
            "old_device": {"device_id": old_id, "label": old.summary.display_name},
            "new_device": {"device_id": new_id, "label": new.summary.display_name},
            "apps_moved": moved,
        }
        if helper.left_behind:
            out["swap_app_left_behind"] = app_id
        still = [a for a in old_after.apps_using if str(a.get("app_id")) != app_id]
        if click_error is not None:
            out["warning"] = (
                f"The hub reported an error ({click_error}) but moved {len(moved)} app(s); "
                "check the rest before swapping again."
            )
        if still:
            out["still_on_old_device"] = still
            out["warning"] = (
                out.get("warning", "")
                + " Some apps still use the old device; the hub's Swap Device may skip apps "
                "that cannot take the new device."
            ).strip()
        return out
