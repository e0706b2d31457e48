"""Radio firmware (Z-Wave chip, Zigbee radio), Z-Wave device firmware, radio resets.

Each install is checked against what the hub offers first (an update it says is needed or
available, a node, file and target its updater lists) and followed by its status read. The
Zigbee update is the hub UI's three steps (radio off, flash, radio on), about a minute:
longer than one call may wait, so it runs as a background job owned by this manager (one per
hub); ``status`` reports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any, cast

from ..errors import ToolError
from ..hub.controllers import FilesController, RadiosController
from ..hub.effects import poll_until
from ..hub.errors import HubBadResponseError, HubError, HubFirmwareError, HubNotFoundError
from ..hub.models import dict_list
from ..hub.radio_firmware import DEVICE_FIRMWARE_DONE, ZIGBEE_FIRMWARE_SECONDS
from ..hub.results import RadioName

STEP_PAUSE_S = 1.0  # the hub UI waits a second between the Zigbee steps
# The hub UI's firmware file manager is its File Manager on this folder (10 MiB uploads).
FIRMWARE_FOLDER = "firmware"
FIRMWARE_UPLOAD_MAX = 10 * 1024 * 1024
NO_POWER_OFF = "Do not power the hub off or reboot it while it flashes: that can brick the radio."


def _modern(details: Mapping[str, Any]) -> bool:
    return bool(details.get("zwaveIP")) or bool(details.get("zwaveJS"))


class RadioFirmware:
    """Firmware installs, their status, and radio resets (one per hub)."""

    def __init__(self, radios: RadiosController, files: FilesController) -> None:
        self._radios = radios
        self._files = files  # the File Manager, where a device firmware file may wait
        self._zigbee: dict[str, Any] | None = None  # the Zigbee job's state
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ status

    async def status(self, node_id: int | None) -> dict[str, Any]:
        """What the hub offers and what runs: radio updates, the updater's devices and
        files, one node's progress."""
        zw = await self._radios.zwave_details()
        zb: Mapping[str, Any] = {}
        with contextlib.suppress(HubError):
            zb = await self._radios.zigbee_details()
        out: dict[str, Any] = {
            "zwave_radio": {
                "firmware": zw.get("firmwareVersion"),
                "update_needed": zw.get("isRadioUpdateNeeded"),
            },
            "zigbee_radio": {
                "update_available": zb.get("firmwareUpdateAvailable"),
                "in_progress": zb.get("firmwareUpdateInProgress"),
                **({"job": dict(self._zigbee)} if self._zigbee else {}),
            },
        }
        if not _modern(zw):
            out["devices_unavailable"] = "firmware_unsupported"  # the UI: C-7 and later
            return out
        radio_status = await self._radios.zwave_radio_firmware_status()
        out["zwave_radio"].update({k: radio_status.get(k) for k in ("stage", "status")})
        if radio_status.get("stage") == "REBOOT":
            out["zwave_radio"]["note"] = "The hub must reboot to go on."
        devices = await self._radios.firmware_devices()
        out["devices"] = [{"node_id": d.get("nodeId"), "label": d.get("label")} for d in devices]
        out["files"] = await self._radios.firmware_files()
        if node_id is not None:
            out["progress"] = await self._radios.firmware_progress(node_id)
        return out

    # ------------------------------------------------------------------ installs

    async def install_device(
        self, node: dict[str, Any], file_name: str | None, target: int | None
    ) -> dict[str, Any]:
        """Flash one Z-Wave device with a firmware file the updater lists."""
        node_id = int(node["nodeId"])
        if not file_name:
            raise ToolError("A device firmware update needs file_name. Nothing was sent.")
        if not _modern(await self._radios.zwave_details()):
            raise HubFirmwareError(
                "The device firmware updater needs a C-7 or newer hub. Nothing was sent."
            )
        listed = [str(d.get("nodeId")) for d in await self._radios.firmware_devices()]
        if str(node_id) not in listed:
            raise ToolError(
                f"The hub's firmware updater does not list node {node_id}. Nothing was sent."
            )
        files = await self._radios.firmware_files()
        uploaded = False
        if file_name not in files:
            uploaded = await self._upload_from_file_manager(file_name, files)
        if file_name not in files and not uploaded:
            raise ToolError(
                f"No firmware file {file_name!r} ({', '.join(files) or 'none uploaded'}), in "
                "the updater or the File Manager. Nothing was sent.",
                subject="firmware_file",
            )
        details = await self._radios.firmware_targets(node_id)
        if details.get("success") is False:
            raise ToolError(f"The hub: {details.get('message')}. Nothing was sent.")
        targets = [t.get("target") for t in dict_list(details.get("targets"))]
        chosen = targets[0] if target is None and targets else target
        if chosen is None or chosen not in targets:
            raise ToolError(
                f"Firmware target {target} is not offered ({targets}). Nothing was sent."
            )
        running = await self._radios.firmware_progress(node_id)
        if running is not None and str(running.get("stage")) not in DEVICE_FIRMWARE_DONE:
            raise ToolError(f"A firmware update of node {node_id} is running. Nothing was sent.")
        answer = await self._radios.start_device_firmware(node_id, chosen, file_name)
        progress = await poll_until(
            lambda: self._radios.firmware_progress(node_id),
            lambda p: p is not None and p.get("stage") not in ("IDLE", "NOTFOUND"),
        )
        if progress is None or progress.get("stage") in ("IDLE", "NOTFOUND"):
            raise HubBadResponseError(
                f"The hub accepted the firmware update of node {node_id} but shows no progress",
                hint="Check the device firmware updater in the hub UI before starting again.",
            )
        return {
            "summary": f"Firmware update of Z-Wave node {node_id} ({node.get('deviceName')}) "
            "started",
            "node_id": node_id, "file_name": file_name, "target": chosen,
            "uploaded_from_file_manager": uploaded,
            "progress": progress or answer.get("progress"),
            "warning": "Keep the device and the hub powered until it is done; an "
            "interrupted flash can brick the device.",
        }  # fmt: skip

    async def _upload_from_file_manager(self, file_name: str, files: list[str]) -> bool:
        """Copy a File Manager file (root folder) into the updater's ``firmware`` folder, as
        the hub UI's firmware file manager uploads it; True once the updater lists it."""
        found = next((f for f in await self._files.list() if f.name == file_name), None)
        if found is None or found.is_dir:
            return False
        if found.size is not None and found.size > FIRMWARE_UPLOAD_MAX:
            raise ToolError(
                f"{file_name} is {found.size} bytes; the firmware file manager takes at most "
                f"{FIRMWARE_UPLOAD_MAX}. Nothing was sent."
            )
        data = await self._files.read_bytes(file_name, max_bytes=FIRMWARE_UPLOAD_MAX)
        await self._files.write(file_name, data, folder=FIRMWARE_FOLDER)
        listed = await poll_until(
            lambda: self._radios.firmware_files(), lambda names: file_name in names
        )
        if file_name not in listed:
            raise HubBadResponseError(
                f"{file_name} was uploaded to the firmware folder, but the updater does not list "
                "it. No update was started.",
                hint="Check the hub UI's firmware file manager (Z-Wave details).",
            )
        return True

    async def abort_device(self, node_id: int) -> dict[str, Any]:
        answer = await self._radios.abort_device_firmware(node_id)
        progress = answer.get("progress")
        return {
            "summary": f"zwave firmware_abort on node {node_id}: done",
            "node_id": node_id,
            "status": progress.get("status") if isinstance(progress, dict) else None,
        }

    async def install_zwave_radio(self) -> dict[str, Any]:
        details = await self._radios.zwave_details()
        if not _modern(details):
            raise HubFirmwareError(
                "Z-Wave radio firmware updates need a C-7 or newer hub. Nothing was sent."
            )
        if details.get("isRadioUpdateNeeded") is not True:
            raise ToolError(
                f"The hub offers no Z-Wave radio firmware update (firmware "
                f"{details.get('firmwareVersion')}). Nothing was sent."
            )
        await self._radios.start_zwave_radio_firmware()
        status = await poll_until(
            lambda: self._radios.zwave_radio_firmware_status(),
            lambda s: s.get("stage") not in (None, "IDLE"),
        )
        failed = "ERROR" in str(status.get("status") or "")
        if failed:
            raise HubBadResponseError(f"The Z-Wave radio firmware update failed: {status}")
        js = bool(details.get("zwaveJS"))
        return {
            "summary": "Z-Wave radio firmware update started",
            "radio": "zwave", "stage": status.get("stage"), "status": status.get("status"),
            "warning": NO_POWER_OFF,
            "note": "About a minute; the hub reboots and updates while it boots." if js
            else "10-15 minutes.",
        }  # fmt: skip

    async def install_zigbee_radio(self, deadline: float | None) -> dict[str, Any]:
        job = self._zigbee
        if job is None or job["stage"] in ("done", "failed"):
            details = await self._radios.zigbee_details()
            if details.get("enabled") is not True:
                raise ToolError("Zigbee is off; the hub updates its firmware only while it is on.")
            if details.get("firmwareUpdateAvailable") is not True:
                raise ToolError("The hub offers no Zigbee firmware update. Nothing was sent.")
            job = self._zigbee = {
                "stage": "stopping",
                "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            self._task = asyncio.get_running_loop().create_task(
                self._run_zigbee(job), name="hubitat_dev_tools zigbee firmware"
            )
        if self._task is not None:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic() - 2.0)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._task), wait)
        out: dict[str, Any] = {
            "summary": f"Zigbee radio firmware update: {job['stage']}",
            "radio": "zigbee", "job": dict(job), "warning": NO_POWER_OFF,
        }  # fmt: skip
        if job["stage"] not in ("done", "failed"):
            out["note"] = "About a minute."
        return out

    async def _run_zigbee(self, job: dict[str, Any]) -> None:
        """The UI's steps: radio off, flash ``latest``, radio on; each failure ends it."""
        step = "stop Zigbee"
        try:
            await self._radios.enable("zigbee", False)
            await asyncio.sleep(STEP_PAUSE_S)
            job["stage"], step = "updating", "update the firmware"
            await self._radios.update_zigbee_firmware(ZIGBEE_FIRMWARE_SECONDS)
            await asyncio.sleep(STEP_PAUSE_S)
            job["stage"], step = "starting", "start Zigbee"
            await self._radios.enable("zigbee", True)
            job["stage"] = "done"
        except HubError as err:
            job["stage"] = "failed"
            job["error"] = f"Could not {step}: {err}"
            if step != "stop Zigbee":
                job["note"] = (
                    "Zigbee is left off: turn it on once the hub UI shows the radio's firmware."
                )
        finally:
            job["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")

    def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    # ------------------------------------------------------------------ reset

    async def reset(self, radio: str) -> dict[str, Any]:
        """Reset a radio (its network and settings wiped), then read its effect back."""
        fetch: Callable[[], Awaitable[Mapping[str, Any]]] = {
            "zwave": self._radios.zwave_details,
            "zigbee": self._radios.zigbee_details,
            "matter": self._radios.matter_details,
        }[radio]
        try:
            before = await fetch()
        except HubNotFoundError as err:
            raise ToolError(f"This hub has no {radio} radio. Nothing was sent.") from err
        await self._radios.reset(cast(RadioName, radio))
        after = await poll_until(
            fetch,
            lambda now: _was_reset(radio, before, now),
            seconds=3.0,
        )
        applied = _was_reset(radio, before, after)
        out: dict[str, Any] = {
            "summary": f"{radio} radio reset" if applied else f"Asked the hub to reset {radio}",
            "radio": radio,
            "applied": applied,
            "warning": f"Every {radio} device must be paired again; the devices stay in the "
            "device list but do not work until they rejoin.",
        }
        if not applied:
            out["note"] = (
                "The hub does not show the reset yet: read the radio again in a minute; do "
                "not reset again."
            )
        return out


def _was_reset(radio: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """The reset shows: Z-Wave nodes gone (the controller stays), a new Zigbee PAN, a new
    Matter fabric or no Matter devices."""
    if radio == "zwave":
        return all(str(n.get("nodeId")) == "1" for n in dict_list(after.get("nodes")))
    if radio == "zigbee":
        return (after.get("panId"), after.get("extendedPanId")) != (
            before.get("panId"),
            before.get("extendedPanId"),
        )
    return after.get("fabricId") != before.get("fabricId") or not dict_list(after.get("devices"))
