"""Helpers for the hub-operations tool tests (tests/tools/: backups, files, logs, radios).

``ok`` and ``refused`` live in conftest.py with the other shared helpers; they are
re-exported here so tests that import them from this module keep working. The radio tests
(``tests/tools/test_radios*.py``) share :class:`FixtureClient` (contract fixtures by path; not the
one-fixture client of ``fixture_client.py``) and :func:`fixture_manager`.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any, cast

from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.controllers import (
    FilesController,
    FirmwareController,
    RadiosController,
)
from custom_components.hubitat_dev_tools.hub.firmware import UNKNOWN_PLATFORM, Platform
from custom_components.hubitat_dev_tools.managers.radios import RadioManager
from hubitat_emulator import HubEmulator

from .conftest import ok, refused, sent_since
from .contract import load_fixture

__all__ = [
    "FixtureClient",
    "fixture_manager",
    "ok",
    "radio_manager",
    "refused",
    "wait_for_status",
    "writes",
]


def writes(hub: HubEmulator, since: int = 0) -> list[tuple[str, str]]:
    """Requests that could change something (everything but plain reads of lists)."""
    reads = (
        "/hub/fileManager/json",
        "/hub2/localBackups",
        "/hub/details/json",
        "/hub2/hubData",
        "/local/",
    )
    return [(m, p) for m, p in sent_since(hub, since) if not p.startswith(reads)]


async def wait_for_status(hub: HubEmulator, status: str, timeout: float = 3.0) -> None:
    """Wait until the emulated hub reaches ``status``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while hub.status != status:
        assert loop.time() < deadline, f"hub never became {status} (is {hub.status})"
        await asyncio.sleep(0.01)


class FixtureClient:
    """Answers each path with a contract fixture's answer (no emulator involved)."""

    def __init__(self, answers: dict[str, Any], platform: Platform = UNKNOWN_PLATFORM) -> None:
        self.answers = answers
        self.platform = platform
        self.sent: list[tuple[str, dict[str, str] | None]] = []

    async def request(
        self, method: str, path: str, *, params: dict[str, str] | None = None, **_kw: Any
    ) -> Any:
        self.sent.append((path, params))
        return copy.deepcopy(self.answers[path])  # a fresh answer per request, like a hub

    async def get_json(self, path: str, params: dict[str, str] | None = None, **kw: Any) -> Any:
        return await self.request("GET", path, params=params, **kw)

    async def get_text(self, path: str, params: dict[str, str] | None = None, **kw: Any) -> Any:
        return await self.request("GET", path, params=params, **kw)


def radio_manager(client: Any) -> RadioManager:
    """A RadioManager over a stand-in client (its controllers built on it, as ``Hub`` does)."""
    hub = cast(HubClient, client)
    return RadioManager(RadiosController(hub), FirmwareController(hub), FilesController(hub))


def fixture_manager(answers: dict[str, str], platform: Platform = UNKNOWN_PLATFORM) -> Any:
    """A RadioManager over fixture answers (path -> fixture name); returns (manager, client)."""
    fake = FixtureClient(
        {
            path: load_fixture(name).answer_text or load_fixture(name).answer
            for path, name in answers.items()
        },
        platform,
    )
    return radio_manager(fake), fake
