"""Reboot, shutdown and platform firmware update, with waiting for the hub to come back."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from ..hub.controllers import (
    FirmwareController,
    InfoController,
    LifecycleController,
    LogsController,
)
from ..hub.errors import HubError, HubRefusedError, HubTimeoutError
from ..hub.health import parse_uptime

POLL_INTERVAL = 2.0
STILL_REBOOTING = (
    "The hub is still rebooting: it answers again once it is back (check in a minute). Do "
    "not reboot it again."
)


class LifecycleManager:
    """Hub lifecycle operations."""

    def __init__(
        self,
        lifecycle: LifecycleController,
        firmware: FirmwareController,
        info: InfoController,
        logs: LogsController,
        *,
        poll_interval: float | None = None,
    ) -> None:
        self._lifecycle = lifecycle
        self._firmware = firmware
        self._info = info
        self._logs = logs
        self._poll = poll_interval  # None: the module's POLL_INTERVAL at each wait

    async def _uptime(self) -> int | None:
        try:
            return parse_uptime((await self._logs.stats()).get("uptime"))
        except HubError:
            return None

    async def wait_until_back(self, deadline: float) -> dict[str, Any]:
        """Poll until the hub has restarted and answers as running again, at most until
        ``deadline`` (``time.monotonic()``; a poll still running then is cut).

        "Restarted" = we saw it away, or its uptime is shorter than the time since we asked
        (a fast reboot can happen between two polls).
        """
        start = time.monotonic()
        state = {"last": "unknown"}
        try:
            async with asyncio.timeout(max(0.0, deadline - start)):
                return await self._poll_until_back(start, state)
        except TimeoutError:
            pass
        return {
            "back": False,
            "status": state["last"],
            "seconds": round(time.monotonic() - start, 1),
            "pending": STILL_REBOOTING,
        }

    async def _poll_until_back(self, start: float, state: dict[str, str]) -> dict[str, Any]:
        seen_down = False
        while True:
            await asyncio.sleep(self._poll if self._poll is not None else POLL_INTERVAL)
            last = state["last"] = await self._lifecycle.status()
            if last != "running":
                seen_down = True
                continue
            uptime = await self._uptime()
            elapsed = time.monotonic() - start
            if not seen_down and (uptime is None or uptime > elapsed + 1):
                continue
            try:
                identity = await self._info.identity()
            except HubError:
                seen_down = True
                continue
            return {
                "back": True,
                "status": "running",
                "seconds": round(time.monotonic() - start, 1),
                "uptime_seconds": uptime,
                "firmware": identity.firmware,
            }

    async def reboot(self, wait: bool, deadline: float) -> dict[str, Any]:
        """Reboot; optionally wait until the hub runs again (until ``deadline`` at most)."""
        await self._lifecycle.reboot()
        out: dict[str, Any] = {
            "summary": "Hub reboot requested",
            "rebooting": True,
            "note": "The hub is unreachable for about 1-3 minutes. Tool calls fail with "
            "hub_unreachable meanwhile and work again on their own afterwards.",
        }
        if wait:
            back = await self.wait_until_back(deadline)
            out["wait"] = back
            out["summary"] = (
                f"Hub rebooted and is back after {back['seconds']} s"
                if back["back"]
                else f"Hub reboot requested; not back after {back['seconds']} s: still rebooting"
            )
        return out

    async def shutdown(self) -> dict[str, Any]:
        """Power the hub off."""
        await self._lifecycle.shutdown()
        return {
            "summary": "Hub shutdown requested",
            "shutting_down": True,
            "note": "The hub stays off until someone unplugs it and plugs it back in "
            "(a power cycle); nothing can turn it on remotely.",
        }

    async def check_update(self) -> dict[str, Any]:
        """Is a platform update available (the hub asks Hubitat's cloud)?"""
        data = await self._firmware.check_for_update()
        status = str(data.get("status") or "")
        available = status == "UPDATE_AVAILABLE" or data.get("upgrade") in (True, "true")
        identity = await self._info.identity()
        out: dict[str, Any] = {
            "current_version": identity.firmware,
            "update_available": available,
            "available_version": data.get("version") if available else None,
            "status": status or None,
            "beta": data.get("beta"),
            "release_notes_url": data.get("releaseNotesUrl"),
        }
        with contextlib.suppress(HubError):
            out["install_status"] = await self._firmware.update_status()
        return out

    async def install_update(self, wait: bool, deadline: float) -> dict[str, Any]:
        """Install the pending platform update (downloads, installs, reboots)."""
        check = await self.check_update()
        if not check["update_available"]:
            return {
                "summary": f"No firmware update available; {check['current_version']} is "
                "current. Nothing was done.",
                "installed": False,
                **check,
            }
        timeout = min(60.0, max(1.0, deadline - time.monotonic()))
        try:
            await self._firmware.install_update(timeout=timeout)
        except HubRefusedError as err:
            err.hint = "Check the hub's cloud connection and retry."
            err.subject = "firmware_install"
            raise
        except HubTimeoutError:
            return {
                "summary": "The hub did not confirm the firmware install in time; it may be "
                "installing",
                "installed": None,
                "from_version": check["current_version"],
                "to_version": check["available_version"],
                "pending": "Check the firmware version in a few minutes. Do not install again "
                "before that.",
            }
        out: dict[str, Any] = {
            "summary": f"Installing firmware {check['available_version']}; the hub reboots",
            "installed": True,
            "from_version": check["current_version"],
            "to_version": check["available_version"],
            "note": "The hub downloads, installs and reboots (several minutes, unreachable "
            "meanwhile).",
        }
        if wait:
            back = await self.wait_until_back(deadline)
            out["wait"] = back
            if back["back"]:
                out["summary"] = f"Firmware {back.get('firmware')} installed; the hub is back"
        return out
