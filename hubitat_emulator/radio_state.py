"""Radio state beyond the settings: S2 prompts, SmartStart, node replace, firmware, resets.

Knobs (tests set them): ``s2_device`` (the next Z-Wave inclusion is an S2 device asking for
keys, then its PIN ``s2_pin``), ``s2_ignored`` (S2 answers succeed and change nothing),
``replace_s2`` (the device taking over a replaced node is an S2 device asking for keys),
``smartstart_ignored``, ``zwave_update_needed``, ``zigbee_update_available``,
``zigbee_firmware_fails``, ``device_firmware_fail_at`` (percent), ``firmware_step`` (seconds
per 10 %), ``reset_ignored``; ``exclude_device`` (a device id: its exclusion button is
pressed during the next exclusion), ``matter_pair_fails`` (the hub answers ``"0"``),
``matter_pair_fail_stage`` (commissioning fails there), ``matter_log`` (the log's lines).
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


def _matter_log_seed() -> list[str]:
    return [
        "[1764600000.125] [2201:2215] [DIS] \x1b[0;32mAdvertise commission parameter "
        "vendorID=4874 productID=77 discriminator=3840/15\x1b[0m",
        "[1764600001.500] [2201:2215] [CTL] Setting up PASE with setup code 3497-011-2332",
        "[1764600001.750] [2201:2230] [DMG] sun.rmi.server.UnicastServerRef dispatch",
        "[1764600002.004] [2201:2215] [SC] PASE session established",
        "  passcode=20202021 from the onboarding payload MT:Y.K9042C00KA0648G00",
        "[1764600003.333] [2201:2215] [CTL] Commissioning complete for node 0xBBA",
    ]


@dataclass
class RadioState:
    """What the S2, SmartStart, replace, firmware and reset endpoints keep."""

    s2_device: bool = False
    s2_pin: str = "24680"
    s2_ignored: bool = False
    s2_stage: str | None = None  # grantKeys | securityCode | None
    s2_result: str | None = None  # the joined device's security, once included
    s2_granted: list[str] = field(default_factory=list)  # the keys the last answer granted
    replace_s2: bool = False
    smartstart: list[dict[str, Any]] = field(default_factory=_smartstart_seed)
    smartstart_ignored: bool = False
    # {node, running, status, s2_stage, security}
    replace: dict[str, Any] = field(default_factory=dict)
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
    exclude_device: int | None = None
    exclusion_result: str = ""  # /hub/zwaveExclude/status message ("" until one left)
    zigbee_starting: int = 0  # zigbeeInfo/status polls left before ONLINE (after a reboot)
    matter_log: list[str] = field(default_factory=_matter_log_seed)
    matter_pair_fails: bool = False
    matter_pair_fail_stage: str | None = None
    matter_pairs: dict[str, int] = field(default_factory=dict)  # node id -> status polls
    # further commissioned Matter nodes the details list shows (tests add a Matter lock)
    matter_nodes: list[dict[str, Any]] = field(default_factory=list)
