"""Radio and device firmware, and radio resets: the hub UI's Z-Wave and Zigbee pages.

Z-Wave device firmware (the "Device firmware updater", C-7 and later): ``devices``,
``files``, ``details?nodeId=`` (targets), ``progress?nodeId=``, ``start`` and ``abort``
under ``/hub/zwave/deviceFirmware/``. The Z-Wave chip: ``startUpdateHubFirmware`` and its
``updateHubFirmwareStatus``. Zigbee: ``/hub/zigbee/updateFirmware/latest`` between turning
the radio off and on. Resets: ``/hub/zwave/resetJson``, ``/hub/zigbee/reset``,
``/hub/matter/reset``. ``docs/hub-endpoints.md`` ("Radios") lists them with their evidence.
"""

from __future__ import annotations

from typing import Any

from .client import HubClient
from .models import dict_list

# stages after which a device update is over (the hub UI's deviceFirmwareIsActive)
DEVICE_FIRMWARE_DONE = frozenset({"DONE", "FAILED", "ABORTED", "NOTFOUND", "IDLE"})
ZIGBEE_FIRMWARE_SECONDS = 120.0  # the UI: "should take about a minute"
RESET_PATHS = {
    "zwave": "/hub/zwave/resetJson",
    "zigbee": "/hub/zigbee/reset",
    "matter": "/hub/matter/reset",
}


async def _dict(client: HubClient, path: str, params: dict[str, str] | None = None) -> Any:
    data = await client.get_json(path, params)
    return data if isinstance(data, dict) else {}


async def fetch_firmware_devices(client: HubClient) -> list[dict[str, Any]]:
    """``{devices: [{nodeId, label}]}``: the Z-Wave nodes the updater can flash."""
    return dict_list((await _dict(client, "/hub/zwave/deviceFirmware/devices")).get("devices"))


async def fetch_firmware_files(client: HubClient) -> list[str]:
    """``{files: [name]}``: firmware files uploaded with the firmware file manager."""
    files = (await _dict(client, "/hub/zwave/deviceFirmware/files")).get("files")
    return [str(f) for f in files if isinstance(f, str | int)] if isinstance(files, list) else []


async def fetch_firmware_targets(client: HubClient, node_id: int) -> dict[str, Any]:
    """``details?nodeId=``: ``{success, message, targets: [{target, label}]}``."""
    return dict(await _dict(client, "/hub/zwave/deviceFirmware/details", {"nodeId": str(node_id)}))


async def fetch_firmware_progress(client: HubClient, node_id: int) -> dict[str, Any] | None:
    """``progress?nodeId=``: ``{success, progress: {stage, percent, status}}``; the
    progress, or None when the hub has none for the node."""
    data = await _dict(client, "/hub/zwave/deviceFirmware/progress", {"nodeId": str(node_id)})
    progress = data.get("progress")
    return progress if data.get("success") and isinstance(progress, dict) else None


async def start_device_firmware(
    client: HubClient, node_id: int, target: Any, file_name: str
) -> dict[str, Any]:
    """``POST start`` JSON ``{nodeId, target, fileName}``; ``{success, message, progress}``.

    The failure envelope raises :class:`HubRefusedError`.
    """
    body = {"nodeId": node_id, "target": target, "fileName": file_name}
    answer = await client.post_json(
        "/hub/zwave/deviceFirmware/start", body, what=f"start the firmware update of node {node_id}"
    )
    return answer if isinstance(answer, dict) else {}


async def abort_device_firmware(client: HubClient, node_id: int) -> dict[str, Any]:
    """``POST abort`` JSON ``{nodeId}``; ``{success, message, progress: {status}}``."""
    answer = await client.post_json(
        "/hub/zwave/deviceFirmware/abort",
        {"nodeId": node_id},
        what=f"abort the firmware update of node {node_id}",
    )
    return answer if isinstance(answer, dict) else {}


async def start_zwave_radio_firmware(client: HubClient) -> None:
    """``GET /hub/zwave/startUpdateHubFirmware`` (the UI does not read the answer)."""
    await client.request(
        "GET", "/hub/zwave/startUpdateHubFirmware", expect="any", retry=False,
        what="start the Z-Wave radio firmware update",
    )  # fmt: skip


async def fetch_zwave_radio_firmware_status(client: HubClient) -> dict[str, Any]:
    """``/hub/zwave/updateHubFirmwareStatus``: ``{stage, status, message}``; ``REBOOT``: the
    hub must reboot to go on, ``IDLE``: over, a status with ``ERROR``: failed."""
    return dict(await _dict(client, "/hub/zwave/updateHubFirmwareStatus"))


async def update_zigbee_firmware(client: HubClient, timeout: float) -> None:
    """``GET /hub/zigbee/updateFirmware/latest`` (``{success, message}``), sent while the
    radio is off; slow, never retried. The failure envelope raises."""
    await client.request(
        "GET", "/hub/zigbee/updateFirmware/latest", expect="any", timeout=timeout,
        retry=False, what="update the Zigbee radio firmware",
    )  # fmt: skip


async def reset_radio(client: HubClient, radio: str) -> None:
    """Reset a radio: its network and settings are wiped (every device must rejoin)."""
    await client.request(
        "GET", RESET_PATHS[radio], expect="any", retry=False, what=f"reset the {radio} radio"
    )
