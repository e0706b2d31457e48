"""The cloud side of the emulated hub: its cloud backups and the automatic backup schedule.

No HTTP here: ``routes_backups_cloud.py`` serves it (the endpoints, the evidence for them and
the knobs are described there). Also the LZF chunk format hub backup files use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .clock import utcnow
from .home import Home

FREQUENCIES = (0, 1, 2, 3, 5, 7, 14, 21, 28)
OTHER_HUB_UID = "7f2c9a40-0000-4000-8000-00000000b0b0"


@dataclass
class CloudBackupEntry:
    path: str
    created: datetime
    hub_uid: str
    hub_name: str
    password: str | None = None
    has_zigbee: bool = True
    has_zwave: bool = True
    deleted_at: datetime | None = None


@dataclass
class CloudState:
    """The cloud side of the emulated hub, and the schedule."""

    entitled: bool = True
    restore_entitled: bool = True
    backups: list[CloudBackupEntry] = field(default_factory=list)
    local_frequency: int = 1
    cloud_frequency: int = 0
    hour: int = 3
    minute: int = 0
    password: str | None = None
    expose_password: bool = False
    delete_lag_s: float = 0.0
    fail_parts: set[str] = field(default_factory=set)
    zwave_mismatch: bool = False
    uploaded: bytes | None = None
    uploaded_name: str | None = None
    # every uploaded backup restored, in order: (file name, bytes); a restore replaces the
    # database and reboots, so this is what tests read to see which file was restored
    restored_uploads: list[tuple[str, bytes]] = field(default_factory=list)
    # how long restoreUploadedBackup restores before it answers (then reboots), as the local
    # restore does (``OpsState.local_restore_s``): the hub answers once the restore has ended
    upload_restore_s: float = 0.0
    # what the last restore asked for (query parameters, the password left out)
    last_restore: dict[str, str] = field(default_factory=dict)


def lzf_chunks(data: bytes) -> bytes:
    """``data`` as the stored (uncompressed) chunks of an LZF stream: ``ZV`` type 0, a
    2-byte big-endian length, the bytes (compress-lzf's chunk format, which hub backups use)."""
    out = bytearray()
    for start in range(0, len(data), 0xFFFF):
        part = data[start : start + 0xFFFF]
        out += b"ZV\x00" + len(part).to_bytes(2, "big") + part
    return bytes(out)


def is_lzf_stream(data: bytes) -> bool:
    """Whether ``data`` is whole LZF chunks back to back (stored or compressed)."""
    pos = 0
    while pos < len(data):
        if data[pos : pos + 2] != b"ZV" or pos + 5 > len(data):
            return False
        kind = data[pos + 2]
        if kind == 0:
            pos += 5 + int.from_bytes(data[pos + 3 : pos + 5], "big")
        elif kind == 1 and pos + 7 <= len(data):
            pos += 7 + int.from_bytes(data[pos + 3 : pos + 5], "big")
        else:
            return False
    return pos == len(data) and pos > 0


def seed_cloud(home: Home) -> CloudState:
    """One cloud backup of this hub (a day old) and one of another hub."""
    st = home.state
    now = utcnow()
    return CloudState(
        backups=[
            CloudBackupEntry(
                f"{st.hub_uid}/{(now - timedelta(days=1)).strftime('%Y-%m-%d-%H%M%S')}.lzf",
                now - timedelta(days=1),
                st.hub_uid,
                st.hub_name,
            ),
            CloudBackupEntry(
                f"{OTHER_HUB_UID}/2026-11-20-030000.lzf",
                now - timedelta(days=11),
                OTHER_HUB_UID,
                "Garage Hub",
                has_zwave=False,
            ),
        ]
    )
