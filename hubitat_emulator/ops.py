"""Operations state: alerts, radios, Z-Wave repair, firmware update, scheduled jobs."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from .clock import fmt_event, utcnow
from .model import HomeState
from .radio_state import RadioState


@dataclass
class OpsState:
    """Switches and state for the operations endpoints."""

    alerts: dict[str, Any] = field(default_factory=dict)
    update_version: str | None = None
    update_status: str = "IDLE"
    matter: bool = True
    failed_zwave_nodes: set[int] = field(default_factory=set)
    repair_step: float = 0.02
    repair_running: bool = False
    repair_stage: str = "IDLE"
    repair_done_nodes: int = 0
    repair_total_nodes: int = 0
    shutdown: bool = False
    history_rows: int = 288
    memory_trend_kb: int = -900  # free memory change per 5-minute row (negative: a leak)
    zwave_firmware: str = "7.18"
    jobs: list[dict[str, Any]] = field(default_factory=list)
    zwave_mode: str | None = None  # including | excluding
    radio_enabled: dict[str, bool] = field(
        default_factory=lambda: {"zwave": True, "zigbee": True, "matter": True}
    )
    zigbee_channel: int = 20
    zigbee_power: int = 8
    zigbee_rebuild_on_reboot: bool = False
    zigbee_inactive_ping: bool = True
    zwave_long_range_channel: int = 0
    zwave_region: str = "USLR"
    zwave_secure_join: int = 1  # 0 locks/garage doors only, 1 all secure devices
    settings_ignored: bool = False  # radio settings calls answer success and change nothing
    channel_scan: list[dict[str, Any]] = field(default_factory=list)  # the last scan's rows
    channel_scan_s: float = 0.2  # how long zigbeeChannelScanJson takes (a real hub: ~60 s)
    # how long restoreLocalBackup restores before it answers (and then reboots); a real hub
    # answers only when the restore has ended
    local_restore_s: float = 0.0
    radio_calls: list[str] = field(default_factory=list)
    radio_state: RadioState = field(default_factory=RadioState)  # S2, firmware, resets

    def scheduled_jobs(self) -> list[dict[str, Any]]:
        """``/logs/json`` ``jobs``: ``{id, name, recurring, methodName, nextRun}``."""
        return [dict(j) for j in self.jobs]


def seed_ops(state: HomeState) -> OpsState:
    """The default operations state: one failed Z-Wave node (the last one)."""
    ops = OpsState()
    nodes = [
        int(d.dni, 16)
        for d in state.devices.values()
        if d.driver.protocol == "zwave" and d.parent_id is None
    ]
    if nodes:
        ops.failed_zwave_nodes.add(max(nodes))
    tomorrow = (utcnow() + timedelta(hours=9)).replace(minute=0, second=0, microsecond=0)
    for n, app in enumerate(list(state.apps.values())[:4]):
        ops.jobs.append(
            {
                "id": 9100 + n,
                "name": app.label or app.name,
                "recurring": n % 2 == 0,
                "methodName": ("periodicHandler", "sunsetHandler", "pollDevices", "cleanup")[n],
                "nextRun": fmt_event(tomorrow + timedelta(minutes=15 * n)),
            }
        )
    return ops
