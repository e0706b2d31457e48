"""Hub health: one report (basics, alerts, memory/CPU history with a trend) and device health
(silent devices, low batteries, disabled devices, devices logging errors)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ..hub.controllers import (
    BackupsController,
    DevicesController,
    HealthController,
    InfoController,
    LogsController,
)
from ..hub.errors import HubError
from ..hub.health import MemorySample, parse_uptime
from ..hub.models import parse_hub_time

# The hub's own alert flags (/hub2/hubData alerts): severity and plain-language text.
ALERTS: dict[str, tuple[str, str, str]] = {
    "hubLowMemory": ("warning", "Hub is low on memory", "Free memory is low; the hub may slow "
                     "down. A reboot frees memory; look for apps or drivers that leak."),
    "hubLoadElevated": ("warning", "Hub load is elevated", "The hub is busier than normal."),
    "hubHighLoad": ("warning", "Hub load is high", "The hub is very busy; automations may lag."),
    "hubLoadSevere": ("error", "Hub load is severe", "The hub is overloaded; find the busy "
                      "devices or apps in the performance statistics."),
    "hubZwaveCrashed": ("error", "Z-Wave radio crashed", "The Z-Wave radio stopped; a reboot "
                        "(or a power cycle) usually brings it back."),
    "hubLargeishDatabase": ("warning", "Hub database is growing", "Reduce event and state "
                            "history or remove unused devices and apps."),
    "hubLargeDatabase": ("error", "Hub database is large", "The database is large enough to "
                         "slow the hub; reduce history and remove unused items."),
    "zwaveOffline": ("error", "Z-Wave radio offline", "Z-Wave devices cannot be reached."),
    "zigbeeOffline": ("error", "Zigbee radio offline", "Zigbee devices cannot be reached."),
    "weakZigbee": ("warning", "Zigbee mesh is weak", "Add mains-powered Zigbee repeaters."),
    "zwaveMigrateFailed": ("error", "Z-Wave migration failed", "Check Settings > Z-Wave."),
    "cloudDisconnected": ("warning", "Hub cloud connection lost", "Cloud features (remote "
                          "access, cloud backups, firmware downloads) are unavailable."),
    "localBackupFailed": ("error", "Local hub backup failed", "The nightly backup failed; "
                          "create one manually and check free space."),
    "cloudBackupFailed": ("warning", "Cloud hub backup failed", "The cloud backup failed."),
    "platformUpdateAvailable": ("info", "Hub firmware update available", "A newer platform "
                                "version is available."),
}  # fmt: skip

# Silent-device thresholds (hours) by kind; tools can override with stale_hours.
STALE_HOURS_BATTERY = 25.0
STALE_HOURS_MAINS = 72.0
STALE_HOURS_PRESENCE = 24.0


def _alert_flags(hub_data: Mapping[str, Any]) -> dict[str, Any]:
    raw = hub_data.get("alerts")
    return raw if isinstance(raw, dict) else {}


def active_alerts(hub_data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The hub's active alerts as [{key, severity, title, detail}] (stable order)."""
    raw = _alert_flags(hub_data)
    out: list[dict[str, Any]] = []
    for key, value in raw.items():
        if value is not True:
            continue
        severity, title, detail = ALERTS.get(key, ("warning", key, "Reported by the hub."))
        if key == "platformUpdateAvailable" and raw.get("platformUpdateVersion"):
            detail = f"Version {raw['platformUpdateVersion']} is available."
        out.append({"key": key, "severity": severity, "title": title, "detail": detail})
    spammy = raw.get("spammyDevicesMessage")
    if isinstance(spammy, str) and spammy.strip():
        out.append(
            {
                "key": "spammyDevices",
                "severity": "warning",
                "title": "Devices are flooding the hub with events",
                "detail": re.sub(r"<[^>]+>", "", spammy).strip()[:500],
            }
        )
    out.sort(key=lambda a: str(a["key"]))
    return out


def memory_trend(samples: list[MemorySample]) -> dict[str, Any]:
    """Summary of free memory and CPU over the history: min/max/latest, KB per hour slope."""
    free = [(i, s.free_os_kb) for i, s in enumerate(samples) if s.free_os_kb is not None]
    cpu = [s.cpu_avg_5m for s in samples if s.cpu_avg_5m is not None]
    out: dict[str, Any] = {"samples": len(samples)}
    if samples:
        out["from"] = samples[0].time
        out["to"] = samples[-1].time
    if free:
        values = [v for _i, v in free]
        out["free_memory_kb"] = {"latest": values[-1], "min": min(values), "max": max(values)}
        if len(free) >= 3:
            n = len(free)
            mean_x = sum(i for i, _v in free) / n
            mean_y = sum(values) / n
            var = sum((i - mean_x) ** 2 for i, _v in free)
            slope = sum((i - mean_x) * (v - mean_y) for i, v in free) / var if var else 0.0
            per_hour = slope * 12  # rows are 5 minutes apart
            out["free_memory_kb_per_hour"] = round(per_hour, 1)
            if per_hour < -0.002 * mean_y:
                out["memory_trend"] = "falling"
            elif per_hour > 0.002 * mean_y:
                out["memory_trend"] = "rising"
            else:
                out["memory_trend"] = "stable"
    if cpu:
        out["cpu_avg_5m"] = {
            "latest": cpu[-1],
            "max": max(cpu),
            "mean": round(sum(cpu) / len(cpu), 2),
        }
    return out


@dataclass(slots=True)
class _Optional:
    value: Any = None
    error: str | None = None


async def _optional(coro: Awaitable[Any]) -> _Optional:
    try:
        return _Optional(await coro)
    except HubError as err:
        return _Optional(None, err.code)


def _battery_powered(states: dict[str, Any]) -> bool:
    return isinstance(states.get("battery"), int | float)


def _kind(dev: Any) -> str:
    dni = str(dev.dni or "")
    dtype = str(dev.type or "")
    if dev.parent_id:
        return "child"
    if "virtual" in dtype.lower() or dni.lower().startswith("virtual"):
        return "virtual"
    if re.fullmatch(r"[0-9A-Fa-f]{2}", dni):
        return "zwave"
    if re.fullmatch(r"[0-9A-Fa-f]{4}", dni):
        return "zigbee"
    return "other"


class HealthManager:
    """Hub and device health."""

    def __init__(
        self,
        health: HealthController,
        info: InfoController,
        logs: LogsController,
        backups: BackupsController,
        devices: DevicesController,
    ) -> None:
        self._health = health
        self._info = info
        self._logs = logs
        self._backups = backups
        self._devices = devices

    async def alerts(self) -> list[dict[str, Any]]:
        """Only the hub's active alerts (one request; used by the Repairs check)."""
        return active_alerts(await self._info.hub_data())

    async def report(self, history_points: int = 12) -> dict[str, Any]:
        """One health report: identity, resources, alerts, history with trend, and the
        newest ``history_points`` history rows (oldest first) under ``history.rows``."""
        report, samples = await self.report_and_history()
        if history_points:
            report["history"]["rows"] = [s.as_dict() for s in samples[-history_points:]]
        return report

    async def report_and_history(self) -> tuple[dict[str, Any], list[MemorySample]]:
        """The health report (its history summary covers every row) and every memory/CPU
        history row since boot, oldest first (empty when the history is unavailable)."""
        identity, hub_data = await asyncio.gather(self._info.identity(), self._info.hub_data())
        optionals: list[_Optional] = list(
            await asyncio.gather(
                _optional(self._health.free_os_memory()),
                _optional(self._health.internal_temperature()),
                _optional(self._health.database_size()),
                _optional(self._health.cpu_info()),
                _optional(self._logs.stats()),
                _optional(self._health.memory_history()),
                _optional(self._backups.list()),
            )
        )
        free_mem, temp, db_size, cpu, stats, history, backups = optionals
        alerts = active_alerts(hub_data)
        raw_alerts = _alert_flags(hub_data)
        uptime = stats.value.get("uptime") if isinstance(stats.value, dict) else None
        samples: list[MemorySample] = history.value or []
        newest_backup = backups.value[0] if backups.value else None
        now = datetime.now(UTC)
        report: dict[str, Any] = {
            "hub": identity.name,
            "model": hub_data.get("model") or identity.hardware,
            "firmware": identity.firmware or hub_data.get("version"),
            "safe_mode": bool(hub_data.get("safeMode", False)),
            "uptime": uptime,
            "uptime_seconds": parse_uptime(uptime),
            "free_memory_kb": free_mem.value,
            "cpu": cpu.value,
            "temperature_c": temp.value,
            "database_size": db_size.value,
            "database_size_note": "Unit as the hub reports it (MB on current firmware).",
            "alerts": alerts,
            "status": (
                "error"
                if any(a["severity"] == "error" for a in alerts)
                else "warning"
                if any(a["severity"] == "warning" for a in alerts)
                else "ok"
            ),
            "messages": [
                re.sub(r"<[^>]+>", "", str(m)) for m in raw_alerts.get("headerMessages") or []
            ],
            "history": memory_trend(samples),
            "newest_backup": {
                "name": newest_backup.name,
                "age_hours": round((now - newest_backup.created).total_seconds() / 3600, 1)
                if newest_backup.created
                else None,
            }
            if newest_backup
            else None,
        }
        unavailable = {
            name: opt.error
            for name, opt in (
                ("free_memory", free_mem),
                ("temperature", temp),
                ("database_size", db_size),
                ("cpu", cpu),
                ("uptime", stats),
                ("history", history),
                ("backups", backups),
            )
            if opt.error
        }
        if unavailable:
            report["unavailable"] = unavailable
        return report, samples

    async def device_health(
        self,
        *,
        stale_hours: float | None,
        battery_threshold: int,
        error_hours: float,
        include_virtual: bool,
        device_allowed: Callable[[str], bool],
        limit: int,
    ) -> dict[str, Any]:
        """Silent devices, low batteries, disabled devices, devices with recent errors."""
        devices, logs = await asyncio.gather(self._devices.list(), _optional(self._logs.past()))
        now = datetime.now(UTC)
        devices = [d for d in devices if device_allowed(d.id)]
        silent: list[dict[str, Any]] = []
        low: list[dict[str, Any]] = []
        disabled: list[dict[str, Any]] = []
        for dev in devices:
            kind = _kind(dev)
            if dev.disabled:
                last_seen = parse_hub_time(dev.last_activity)
                disabled.append(
                    {
                        "device_id": dev.id,
                        "label": dev.display_name,
                        "last_activity": last_seen.isoformat(timespec="minutes")
                        if last_seen
                        else None,
                    }
                )
                continue
            battery = dev.states.get("battery")
            if isinstance(battery, int | float) and battery < battery_threshold:
                low.append({"device_id": dev.id, "label": dev.display_name, "battery": battery})
            if kind == "child" or (kind == "virtual" and not include_virtual):
                continue
            if stale_hours is not None:
                limit_h = stale_hours
            elif "presence" in dev.states:
                limit_h = STALE_HOURS_PRESENCE
            elif _battery_powered(dev.states):
                limit_h = STALE_HOURS_BATTERY
            else:
                limit_h = STALE_HOURS_MAINS
            last = parse_hub_time(dev.last_activity)
            hours = (now - last).total_seconds() / 3600 if last else None
            if hours is None or hours > limit_h:
                silent.append(
                    {
                        "device_id": dev.id,
                        "label": dev.display_name,
                        "type": dev.type,
                        "protocol": kind,
                        "last_activity": last.isoformat(timespec="minutes") if last else None,
                        "silent_hours": round(hours, 1) if hours is not None else None,
                        "threshold_hours": limit_h,
                    }
                )
        silent.sort(key=lambda d: -(d["silent_hours"] or 1e9))
        low.sort(key=lambda d: d["battery"])
        names = {d.id: d.display_name for d in devices}
        errors: dict[str, dict[str, Any]] = {}
        since = now - timedelta(hours=error_hours)
        for line in logs.value or []:
            if line.source_type != "dev" or line.level not in ("error", "warn"):
                continue
            if line.time and line.time < since:
                continue
            if line.source_id not in names:
                continue
            entry = errors.setdefault(
                line.source_id,
                {"device_id": line.source_id, "label": names[line.source_id], "errors": 0,
                 "warnings": 0, "last_message": ""},
            )  # fmt: skip
            entry["errors" if line.level == "error" else "warnings"] += 1
            entry["last_message"] = line.message[:300]
        with_errors = sorted(errors.values(), key=lambda e: (-e["errors"], -e["warnings"]))
        out: dict[str, Any] = {
            "checked_devices": len(devices),
            "silent": silent[:limit],
            "silent_total": len(silent),
            "low_battery": low[:limit],
            "low_battery_total": len(low),
            "disabled": disabled[:limit],
            "disabled_total": len(disabled),
            "with_log_errors": with_errors[:limit],
            "thresholds": {
                "silent_hours": stale_hours
                if stale_hours is not None
                else {
                    "battery": STALE_HOURS_BATTERY,
                    "mains": STALE_HOURS_MAINS,
                    "presence": STALE_HOURS_PRESENCE,
                },
                "battery_pct": battery_threshold,
                "log_error_hours": error_hours,
            },
        }
        if disabled:  # a disabled device is expected to be quiet: listed here, not as silent
            out["disabled_note"] = (
                "Disabled devices are not checked for silence or batteries; they are listed "
                "under disabled with their last activity."
            )
        if logs.error:
            out["logs_unavailable"] = logs.error
        return out
