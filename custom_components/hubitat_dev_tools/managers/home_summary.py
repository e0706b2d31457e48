""" "What's going on at home" in one compact answer.

Mode, HSM, what is open or unlocked, which lights are on (by room), active motion, low
batteries and the hub's active alerts: from one device list (the live cache when it runs),
the modes, the HSM status and the hub's alert flags, each part failing on its own. Sized for
a small model: labels, not device records.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import ToolError
from ..hub.controllers import InfoController
from ..hub.errors import HubError
from .devices import DeviceManager
from .devices.filters import DeviceFilter, is_light
from .hsm import HsmManager
from .modes import ModeManager

OPEN_STATES = {"contact": "open", "door": "open", "valve": "open", "windowShade": "open"}


RULES_BUDGET_S = 8.0  # the rule checks' share of a summary (a first pass reads every rule)


class HomeSummary:
    """``hub.home``: the house at a glance."""

    def __init__(
        self,
        info: InfoController,
        devices: DeviceManager,
        modes: ModeManager,
        hsm: HsmManager,
        *,
        rule_findings: Callable[[], Awaitable[list[dict[str, Any]]]] | None = None,
    ) -> None:
        self._info = info
        self._devices = devices
        self._modes = modes
        self._hsm = hsm
        self._rule_findings = rule_findings

    async def rules_with_findings(self) -> list[dict[str, Any]] | dict[str, str]:
        """Rules with findings (the rule checks), within RULES_BUDGET_S; what kept them
        from being checked otherwise."""
        if self._rule_findings is None:
            return []
        try:
            return await asyncio.wait_for(self._rule_findings(), RULES_BUDGET_S)
        except TimeoutError:
            return {"unavailable": "timeout: checking every rule takes longer"}
        except (HubError, ToolError) as err:
            return {"unavailable": getattr(err, "code", "error")}

    async def summary(
        self, *, device_allowed: Callable[[str], bool], battery_threshold: int
    ) -> dict[str, Any]:
        """The summary; a part the hub could not give says ``unavailable``."""
        devices, modes, hsm, hub_data, rules = await asyncio.gather(
            self._devices.list_devices(DeviceFilter(), allowed=device_allowed),
            self._modes.list_modes(),
            self._hsm.status(),
            self._info.hub_data(),
            self.rules_with_findings(),
            return_exceptions=True,
        )
        if isinstance(devices, BaseException):
            raise devices  # nothing to summarise without the devices
        out: dict[str, Any] = {}
        out["mode"] = _part(modes, lambda m: m["active_mode"])
        out["hsm"] = _part(hsm, lambda h: {"status": h["status"], "alert": h["active_alert"]})
        out["alerts"] = _part(
            hub_data,
            lambda d: sorted(k for k, v in (d.get("alerts") or {}).items() if v is True),
        )
        opened: list[str] = []
        unlocked: list[str] = []
        motion: list[str] = []
        low: list[dict[str, Any]] = []
        lights: dict[str, list[str]] = {}
        for dev in devices:
            if dev.disabled:
                continue
            st, name = dev.states, dev.display_name
            if any(st.get(attr) == value for attr, value in OPEN_STATES.items()):
                opened.append(name)
            if st.get("lock") == "unlocked":
                unlocked.append(name)
            if st.get("motion") == "active":
                motion.append(name)
            battery = st.get("battery")
            if isinstance(battery, int | float) and battery < battery_threshold:
                low.append({"label": name, "battery": battery})
            if st.get("switch") == "on" and is_light(dev):
                lights.setdefault(dev.room or "no room", []).append(name)
        out.update(
            {
                "open": sorted(opened),
                "unlocked": sorted(unlocked),
                "lights_on": {room: sorted(names) for room, names in sorted(lights.items())},
                "lights_on_count": sum(len(v) for v in lights.values()),
                "motion_active": sorted(motion),
                "low_batteries": sorted(low, key=lambda b: b["battery"]),
                "battery_threshold_pct": battery_threshold,
                "devices_seen": len(devices),
            }
        )
        if self._rule_findings is not None:
            out["rules_with_findings"] = _part(rules, lambda r: r)
        cache = self._devices.cache
        out["freshness"] = cache.freshness() if cache is not None and cache.live else {
            "source": "hub", "live": False, "age_s": 0.0,
        }  # fmt: skip
        return out


def _part(value: Any, pick: Callable[[Any], Any]) -> Any:
    if isinstance(value, HubError):
        return {"unavailable": value.code}
    if isinstance(value, BaseException):
        raise value
    return pick(value)
