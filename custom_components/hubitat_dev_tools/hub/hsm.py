"""Hubitat Safety Monitor endpoints: status (admin /hub/messages) and commands (Maker API).

``/hub/messages`` rests on no independent evidence (only the reference's sample
``{"messages": [], "mode": {"id", "name", ...}, "hsm": null, "hsmAlert": null}``): it is
parsed defensively, and an answer in another shape (or none: not JSON, an HTTP error) gives
"unknown" values instead of failing the call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from .client import HubClient
from .errors import HubBadResponseError, HubNotFoundError

MESSAGES_PATH = "/hub/messages"


@dataclass(frozen=True, slots=True)
class HubMessages:
    """What ``/hub/messages`` tells: the active mode, HSM status and alert (None: unknown)."""

    mode: str | None = None
    hsm: str | None = None
    hsm_alert: str | None = None


def _text(value: Any, *keys: str) -> str | None:
    """A non-empty string, or the first such string under ``keys`` of a dict."""
    if isinstance(value, dict):
        return next((t for key in keys if (t := _text(value.get(key))) is not None), None)
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        text = str(value).strip()
        return text if text and text.lower() not in ("null", "none") else None
    return None


def parse_messages(data: Any) -> HubMessages:
    """The mode (a ``{name}`` object or a plain name), HSM status and alert (strings, or
    objects carrying ``status``/``name``/``value``) of a ``/hub/messages`` answer; anything
    else reads as unknown."""
    if not isinstance(data, dict):
        return HubMessages()
    return HubMessages(
        mode=_text(data.get("mode"), "name"),
        hsm=_text(data.get("hsm"), "status", "value", "name"),
        hsm_alert=_text(data.get("hsmAlert"), "value", "name", "status"),
    )


async def fetch_messages(client: HubClient) -> HubMessages:
    """GET /hub/messages: current mode, HSM status and alert (no Maker API needed).

    An answer that is not JSON, or an HTTP error (a firmware without the endpoint), reads as
    unknown; login and connection problems still raise.
    """
    try:
        data = await client.get_json(MESSAGES_PATH)
    except (HubBadResponseError, HubNotFoundError):
        return HubMessages()
    return parse_messages(data)


async def hsm_command(client: HubClient, command: str) -> str | None:
    """Maker GET /hsm/<cmd> -> the status right after the command."""
    data = await client.maker_get(f"hsm/{quote(command, safe='')}", retry=False)
    return str(data.get("hsm")) if isinstance(data, dict) and data.get("hsm") else None
