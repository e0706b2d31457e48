"""Radio state beyond the settings: S2 prompts, SmartStart, node replace, firmware, resets.

Knobs (tests set them): ``s2_device`` (the next Z-Wave inclusion is an S2 device asking for
keys, then its PIN ``s2_pin``), ``s2_ignored`` (S2 answers succeed and change nothing),
``smartstart_ignored``, ``zwave_update_needed``, ``zigbee_update_available``,
``zigbee_firmware_fails``, ``device_firmware_fail_at`` (percent), ``firmware_step`` (seconds
per 10 %), ``reset_ignored``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def _smartstart_seed() -> list[dict[str, Any]]:
    return [
        {
            "nodeName": "Garage Sensor",
            "dsk": "10391-55212-43011-22907-61204-11842-09918-37521",
            "status": "Pending inclusion",
            "canDelete": True,
            "pending": False,
            "deviceId": None,
            "suggestRegularInclusion": False,
        },
        {
            "nodeName": "Hall Dimmer",
            "dsk": "30045-12873-00412-55180-23347-44109-28811-60032",
            "status": "Included, S2 Authenticated",
            "canDelete": False,
            "pending": False,
            "deviceId": None,
            "suggestRegularInclusion": False,
        },
    ]


@dataclass
class RadioState:
    """What the S2, SmartStart, replace, firmware and reset endpoints keep."""

    s2_device: bool = False
    s2_pin: str = "24680"
    s2_ignored: bool = False
    s2_stage: str | None = None  # grantKeys | securityCode | None
    s2_result: str | None = None  # the joined device's security, once included
    smartstart: list[dict[str, Any]] = field(default_factory=_smartstart_seed)
    smartstart_ignored: bool = False
    replace: dict[str, Any] = field(default_factory=dict)  # {node, running, status}
    stats_refreshes: int = 0
    antenna: dict[str, Any] = field(default_factory=dict)  # the antenna test's progress
    zigbee_ping: dict[int, bool] = field(default_factory=dict)  # device id -> ping
    firmware_files: list[str] = field(default_factory=lambda: ["zw-dimmer-2.04.gbl"])
    firmware_jobs: dict[int, dict[str, Any]] = field(default_factory=dict)  # node -> progress
    device_firmware_fail_at: int | None = None
    firmware_step: float = 0.01
    zwave_update_needed: bool = False
    zwave_update_stage: str = "IDLE"
    zigbee_update_available: bool = False
    zigbee_update_in_progress: bool = False
    zigbee_firmware_fails: bool = False
    zigbee_firmware: str = "6.10.3"
    zigbee_pan: tuple[str, str] = ("37D5", "8E3F0A1B2C3D4E5F")
    matter_fabric: str = "0x0000000000000001"
    zwave_reset: bool = False
    matter_reset: bool = False
    reset_ignored: bool = False
    resets: list[str] = field(default_factory=list)
