"""Lifecycle tools: reboot, shutdown, firmware update check and install."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..safety import ToolKind
from .args import ToolArgs, arg
from .base import HubTool, ToolCall

TOOL_DOMAIN = "lifecycle"

WAIT_TIMEOUT = 300.0


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitArgs(ToolArgs):
    wait: bool = arg(bool, "Wait until the hub is running again (up to 5 min)", default=False)


class RebootHubTool(HubTool[WaitArgs]):
    name = "hub_reboot_hub"
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
        return await call.hub.lifecycle.reboot(args.wait, WAIT_TIMEOUT)


class ShutdownHubTool(HubTool[ToolArgs]):
    name = "hub_shutdown_hub"
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
        return await call.hub.lifecycle.install_update(args.wait, WAIT_TIMEOUT)


ORDER = 75

TOOLS: tuple[type[HubTool[Any]], ...] = (
    RebootHubTool,
    ShutdownHubTool,
    CheckFirmwareUpdateTool,
    InstallFirmwareUpdateTool,
)
