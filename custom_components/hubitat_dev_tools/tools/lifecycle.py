"""Lifecycle tools: reboot, shutdown, firmware update check and install."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..safety import ToolKind
from .base import HubTool, ToolCall

WAIT = {
    vol.Optional(
        "wait", default=False, description="Wait until the hub is running again (up to 5 min)"
    ): bool,
}
WAIT_TIMEOUT = 300.0


class RebootHubTool(HubTool):
    """hub_reboot_hub."""

    name = "hub_reboot_hub"
    title = "Reboot hub"
    description = (
        "Reboot the hub: automations stop and the hub is unreachable for about 1-3 minutes, "
        "then everything (including these tools) works again on its own. Optionally wait "
        "until it is back. Destructive tier: needs confirm=true and a hub backup from the last "
        "24 hours. To install a firmware update use hub_install_firmware_update instead; to "
        "power off use hub_shutdown_hub."
    )
    domain = "lifecycle"
    kind = ToolKind.DESTRUCTIVE
    idempotent = False
    fields = WAIT

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Reboot."""
        return await call.hub.lifecycle.reboot(args["wait"], WAIT_TIMEOUT)


class ShutdownHubTool(HubTool):
    """hub_shutdown_hub."""

    name = "hub_shutdown_hub"
    title = "Shut down hub"
    description = (
        "Power the hub OFF. It stays off until someone physically unplugs and replugs it (a "
        "power cycle); no tool can bring it back, and all automations stop. Use only when the "
        "user wants to move or unplug the hub. Destructive tier: needs confirm=true and a hub "
        "backup from the last 24 hours. To restart instead use hub_reboot_hub."
    )
    domain = "lifecycle"
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Shut down."""
        return await call.hub.lifecycle.shutdown()


class CheckFirmwareUpdateTool(HubTool):
    """hub_check_firmware_update."""

    name = "hub_check_firmware_update"
    title = "Check firmware update"
    description = (
        "Ask whether a newer hub platform firmware is available (the hub asks Hubitat's "
        "cloud): current and available version, release notes URL, install status. To install "
        "it use hub_install_firmware_update."
    )
    domain = "lifecycle"
    kind = ToolKind.READ
    open_world = True

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the update status."""
        return await call.hub.lifecycle.check_update()


class InstallFirmwareUpdateTool(HubTool):
    """hub_install_firmware_update."""

    name = "hub_install_firmware_update"
    title = "Install firmware update"
    description = (
        "Install the pending hub platform firmware update: the hub downloads it, installs it "
        "and reboots (several minutes offline). Does nothing when no update is available. "
        "Destructive tier: needs confirm=true and a hub backup from the last 24 hours. Check "
        "first with hub_check_firmware_update."
    )
    domain = "lifecycle"
    kind = ToolKind.DESTRUCTIVE
    idempotent = False
    open_world = True
    fields = WAIT

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Install the update."""
        return await call.hub.lifecycle.install_update(args["wait"], WAIT_TIMEOUT)


ORDER = 75

TOOLS: tuple[type[HubTool], ...] = (
    RebootHubTool,
    ShutdownHubTool,
    CheckFirmwareUpdateTool,
    InstallFirmwareUpdateTool,
)
