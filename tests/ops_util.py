"""Helpers for the hub-operations tests (tests/test_ops_*.py).

``ok`` and ``refused`` live in conftest.py with the other shared helpers; they are
re-exported here so tests that import them from this module keep working.
"""

from __future__ import annotations

import asyncio

from hubitat_emulator import HubEmulator

from .conftest import ok, refused, sent_since

__all__ = ["ok", "refused", "wait_for_status", "writes"]


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
