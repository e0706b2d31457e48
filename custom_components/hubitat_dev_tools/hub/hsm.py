"""Hubitat Safety Monitor endpoints: status (admin /hub/messages) and commands (Maker API)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .client import HubClient


async def fetch_messages(client: HubClient) -> dict[str, Any]:
    """GET /hub/messages: current mode, hsm status and hsmAlert (no Maker API needed)."""
    data = await client.get_json("/hub/messages")
    return data if isinstance(data, dict) else {}


async def hsm_command(client: HubClient, command: str) -> str | None:
    """Maker GET /hsm/<cmd> -> the status right after the command."""
    data = await client.maker_get(f"hsm/{quote(command, safe='')}", retry=False)
    return str(data.get("hsm")) if isinstance(data, dict) and data.get("hsm") else None
