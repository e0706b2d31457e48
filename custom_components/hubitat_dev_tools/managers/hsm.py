"""Hubitat Safety Monitor: status (live cache aware) and commands (Maker API)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NotRequired, TypedDict

from ..errors import TIER_SAFETY, ToolError, confirmed
from ..hub.client import HubConnection
from ..hub.controllers import HsmController
from ..hub.state_cache import StateCache
from .maker import require_maker

HSM_COMMANDS = (
    "armAway",
    "armHome",
    "armNight",
    "armAll",
    "disarm",
    "disarmAll",
    "armRules",
    "disarmRules",
    "cancelAlerts",
)


class HsmStatus(TypedDict):
    """Armed status, any active alert and what can be done about it."""

    status: Any
    active_alert: Any
    commands: list[str]
    can_change: bool
    freshness: dict[str, Any]


class HsmChange(TypedDict):
    """An HSM command and the status before and right after it."""

    command: str
    previous_status: Any
    status: str | None
    note: NotRequired[str]
    open_now: NotRequired[list[dict[str, Any]]]
    open_note: NotRequired[str]


OpenSensors = Callable[[Callable[[str], bool]], Awaitable[list[dict[str, Any]]]]


class HsmManager:
    """Hubitat Safety Monitor."""

    def __init__(
        self,
        hsm: HsmController,
        connection: HubConnection,
        cache: StateCache | None = None,
        open_sensors: OpenSensors | None = None,
    ) -> None:
        self._hsm = hsm
        self._connection = connection  # whether the Maker API is configured
        self.cache = cache  # the live state cache: no hub request while it is live
        self._open_sensors = open_sensors

    async def status(self) -> HsmStatus:
        """Armed status and any active alert (admin /hub/messages; no Maker API needed)."""
        cache = self.cache
        status: str | None
        alert: str | None
        if cache is not None and cache.live and cache.hsm_status is not None:
            status, alert = cache.hsm_status, cache.hsm_alert
            freshness = cache.freshness()
        else:
            messages = await self._hsm.messages()
            status, alert = messages.hsm, messages.hsm_alert
            freshness = StateCache.from_hub()
        return {
            "status": status,
            "active_alert": alert if alert not in (None, "", "null", "cancel") else None,
            "commands": list(HSM_COMMANDS),
            "can_change": self._connection.has_maker,
            "freshness": freshness,
        }

    async def command(
        self,
        command: str,
        *,
        confirm: bool,
        device_allowed: Callable[[str], bool] = lambda _id: True,
    ) -> HsmChange:
        """Run an HSM command through the Maker API (confirm=true required)."""
        if command not in HSM_COMMANDS:
            raise ToolError(f"Unknown HSM command '{command}'. Use one of {HSM_COMMANDS}.")
        require_maker(self._connection, "Changing HSM")
        if not confirmed(confirm, TIER_SAFETY):
            raise ToolError(
                f"HSM '{command}' changes the home's security state and needs confirm=true.",
                code="confirmation_required",
                hint="Ask the user to confirm, then call again with confirm=true.",
                tier=TIER_SAFETY,
            )
        before = await self.status()
        status = await self._hsm.command(command)
        out: HsmChange = {
            "command": command,
            "previous_status": before["status"],
            "status": status,
        }
        if status and status.startswith("arming"):
            out["note"] = "HSM is arming (exit delay)."

        if command.startswith("arm") and command != "armRules" and self._open_sensors:
            out["open_now"] = await self._open_sensors(device_allowed)
            out["open_note"] = (
                "Contact sensors open and motion sensors active right now, whichever HSM "
                "watches: an intrusion alert follows if HSM monitors one of them (which it "
                "watches is set on the HSM app's page)."
            )
        return out
