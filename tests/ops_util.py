"""Helpers shared by the hub-operations tests (tests/test_ops_*.py)."""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator

from .conftest import ToolCaller


def sent(hub: HubEmulator, since: int = 0) -> list[tuple[str, str]]:
    """Requests the hub received since index ``since``."""
    return hub.requests[since:]


def writes(hub: HubEmulator, since: int = 0) -> list[tuple[str, str]]:
    """Requests that could change something (everything but plain reads of lists)."""
    reads = (
        "/hub/fileManager/json",
        "/hub2/localBackups",
        "/hub/details/json",
        "/hub2/hubData",
        "/local/",
    )
    return [(m, p) for m, p in hub.requests[since:] if not p.startswith(reads)]


async def ok(call_tool: ToolCaller, name: str, args: dict[str, Any] | None = None) -> Any:
    """Call a tool and assert it succeeded; return its data."""
    result = await call_tool(name, args or {})
    assert not result.error, result.data
    return result.data


async def refused(
    call_tool: ToolCaller, name: str, args: dict[str, Any], code: str | None = None
) -> dict[str, Any]:
    """Call a tool and assert it failed (with ``code`` if given); return its data."""
    result = await call_tool(name, args)
    assert result.error, result.data
    data: dict[str, Any] = result.data
    if code is not None:
        assert data["error"] == code, data
    return data
