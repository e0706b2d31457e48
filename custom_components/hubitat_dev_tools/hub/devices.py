"""Device endpoints: lists, full detail, commands, history."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote

from .client import HubClient
from .errors import HubBadResponseError, HubNotFoundError
from .models import DeviceDetail, DeviceSummary, norm_id, parse_device_full, parse_device_tree


async def fetch_devices(client: HubClient) -> list[DeviceSummary]:
    """Every device with room and current states, plus capabilities (two requests)."""
    tree, caps = await asyncio.gather(
        client.get_json("/hub2/devicesList"),
        client.get_json("/device/listWithCapabilities/json"),
    )
    devices = parse_device_tree(tree)
    by_id: dict[str, list[str]] = {}
    if isinstance(caps, list):
        for item in caps:
            if isinstance(item, dict) and (did := norm_id(item.get("id"))):
                by_id[did] = [c for c in item.get("capabilities") or [] if isinstance(c, str)]
    for dev in devices:
        dev.capabilities = by_id.get(dev.id, [])
    return devices


async def fetch_device(client: HubClient, device_id: str) -> DeviceDetail:
    """Full detail of one device."""
    try:
        payload = await client.get_json(f"/device/fullJson/{quote(device_id, safe='')}")
    except HubNotFoundError as err:
        raise HubNotFoundError(
            f"No device with id {device_id} on the hub",
            hint="Use hub_list_devices (filter by text) to find the device id.",
        ) from err
    if not isinstance(payload, dict) or not payload.get("device"):
        raise HubNotFoundError(
            f"No device with id {device_id} on the hub",
            hint="Use hub_list_devices (filter by text) to find the device id.",
        )
    try:
        return parse_device_full(payload)
    except ValueError as err:
        raise HubBadResponseError(f"Unexpected device payload for {device_id}") from err


async def run_command(
    client: HubClient, device_id: str, command: str, args: list[dict[str, Any]]
) -> None:
    """Run a command through the admin runmethod endpoint (typed args)."""
    result = await client.post_json(
        "/device/runmethod", {"id": int(device_id), "method": command, "args": args}
    )
    if isinstance(result, dict) and result.get("success") is False:
        raise HubBadResponseError(
            f"The hub refused {command} on device {device_id}: {result.get('message')}",
            hint="Check the device's declared commands and arguments with hub_get_device.",
        )


async def fetch_device_events(client: HubClient, device_id: str) -> list[dict[str, Any]]:
    """A device's event history, newest first."""
    data = await client.get_json(f"/device/eventsJson/{quote(device_id, safe='')}")
    return [e for e in data if isinstance(e, dict)] if isinstance(data, list) else []
