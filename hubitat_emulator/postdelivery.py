"""Maker API ``postURL`` delivery of event frames (loopback URLs only; never leaves the machine)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import aiohttp
from yarl import URL

from .model import MakerSettings
from .tasks import Tasks

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


class PostDelivery:
    """An event listener that POSTs DEVICE (and, when enabled, LOCATION) events in order."""

    def __init__(self, maker: MakerSettings, tasks: Tasks) -> None:
        self.maker = maker
        self.tasks = tasks
        self._queue: list[tuple[str, dict[str, Any]]] = []
        self._worker: asyncio.Task[Any] | None = None

    def __call__(self, frame: dict[str, Any]) -> None:
        url = self.maker.post_url
        if not url or frame["source"] not in ("DEVICE", "LOCATION"):
            return
        if frame["source"] == "LOCATION" and not self.maker.post_location_events:
            return
        host = URL(url).host or ""
        if host not in LOOPBACK_HOSTS:
            return

        def nul(key: str) -> object:
            return None if frame[key] == "null" else frame[key]

        content = {
            "name": frame["name"],
            "value": nul("value"),
            "displayName": nul("displayName"),
            "descriptionText": nul("descriptionText"),
            "deviceId": str(frame["deviceId"]) if frame["source"] == "DEVICE" else None,
            "unit": nul("unit"),
            "type": nul("type"),
            "data": None,
        }
        self._queue.append((url, {"content": content}))
        if self._worker is None or self._worker.done():
            self._worker = self.tasks.spawn(self._deliver_all())

    async def _deliver_all(self) -> None:
        """Deliver queued bodies in order, one at a time."""
        timeout = aiohttp.ClientTimeout(total=5)
        connector = aiohttp.TCPConnector(resolver=aiohttp.ThreadedResolver())
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            while self._queue:
                url, body = self._queue.pop(0)
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with session.post(url, json=body) as resp:
                        await resp.read()
