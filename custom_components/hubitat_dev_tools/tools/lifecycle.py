"""Lifecycle tools: reboot, shutdown, firmware update check and install."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..safety import ToolKind
from .args import ToolArgs, arg
from .base import HubTool, ToolCall, on_hub
from .errors import add_advice

TOOL_DOMAIN = "lifecycle"

# The longest wait=true waits: the call must answer before mcp_server's 60 s timeout (a
# reboot takes 1-3 minutes, so the answer usually says the hub is still rebooting).
WAIT_TIMEOUT = 45.0


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitArgs(ToolArgs):
    wait: bool = arg(
        bool, "Wait up to 45 s for the hub to run again (else: still rebooting)", default=False
    )


def _wait_deadline(call: ToolCall) -> float:
    """When a wait=true wait ends: WAIT_TIMEOUT from now, or the call's deadline."""
    return min(call.deadline, time.monotonic() + WAIT_TIMEOUT)


class RebootHubTool(HubTool[WaitArgs]):
    name = "hub_reboot_hub"
    covers = (on_hub("hub_reboot"),)
    title = "Reboot hub"
    description = (
        "Reboot the hub: automations stop and the hub is unreachable for about 1-3 minutes, "
        "then everything (including these tools) works again on its own. Optionally wait "
        "until it is back. To install a firmware update use hub_install_firmware_update "
        "instead; to power off use hub_shutdown_hub."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: WaitArgs) -> dict[str, Any]:
        return _wait_advice(await call.hub.lifecycle.reboot(args.wait, _wait_deadline(call)))


class ShutdownHubTool(HubTool[ToolArgs]):
    name = "hub_shutdown_hub"
    covers = (on_hub("hub_shutdown"),)
    title = "Shut down hub"
    description = (
        "Power the hub OFF. It stays off until someone physically unplugs and replugs it (a "
        "power cycle); no tool can bring it back, and all automations stop. Use only when the "
        "user wants to move or unplug the hub. To restart instead use hub_reboot_hub."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await call.hub.lifecycle.shutdown()


class CheckFirmwareUpdateTool(HubTool[ToolArgs]):
    name = "hub_check_firmware_update"
    covers = (on_hub("hub_update_firmware"),)
    title = "Check firmware update"
    description = (
        "Ask whether a newer hub platform firmware is available (the hub asks Hubitat's "
        "cloud): current and available version, release notes URL, install status. To install "
        "it use hub_install_firmware_update."
    )
    open_world = True

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await call.hub.lifecycle.check_update()


class InstallFirmwareUpdateTool(HubTool[WaitArgs]):
    name = "hub_install_firmware_update"
    covers = (on_hub("hub_update_firmware"),)
    title = "Install firmware update"
    description = (
        "Install the pending hub platform firmware update: the hub downloads it, installs it "
        "and reboots (several minutes offline). Does nothing when no update is available. "
        "Check first with hub_check_firmware_update."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False
    open_world = True

    async def run(self, call: ToolCall, args: WaitArgs) -> dict[str, Any]:
        out = await call.hub.lifecycle.install_update(args.wait, _wait_deadline(call))
        if out.get("installed") is None and "pending" in out:
            add_advice(out, "pending", "Read hub_check_firmware_update (or hub_get_info).")
        return _wait_advice(out)


def _wait_advice(out: dict[str, Any]) -> dict[str, Any]:
    """A reboot's wait that ran out: which tool tells when the hub is back."""
    wait = out.get("wait")
    if isinstance(wait, dict) and wait.get("back") is False and "pending" in wait:
        add_advice(wait, "pending", "Check with hub_get_info.")
    return out


ORDER = 75

TOOLS: tuple[type[HubTool[Any]], ...] = (
    RebootHubTool,
    ShutdownHubTool,
    CheckFirmwareUpdateTool,
    InstallFirmwareUpdateTool,
)
