"""Time helpers: the hub's several date formats and its local time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo

HUB_TZ_NAME = "America/Denver"


def _load_tz() -> tzinfo:
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(HUB_TZ_NAME)
    except Exception:  # pragma: no cover - no tzdata on this machine
        return timezone(timedelta(hours=-7), "MST")


HUB_TZ: tzinfo = _load_tz()


# How far the emulated hub's clock runs ahead of real time (``emuclock.EmuClock`` moves it;
# process-wide, like a time freezer). Zero unless a test moves the clock.
_offset = timedelta(0)


def set_offset(offset: timedelta) -> None:
    """Move every ``utcnow()`` by ``offset`` from real time (the emulated clock's hook)."""
    global _offset
    _offset = offset


# An instant the clock stands still at (``story.py`` plays the seeded days with it), or None.
_frozen: datetime | None = None


def freeze(at: datetime | None) -> None:
    """Stop every ``utcnow()`` at ``at`` (None: run again). Only for synchronous code that
    does not yield to the event loop while frozen (the seeded story)."""
    global _frozen
    _frozen = at


def utcnow() -> datetime:
    """Aware 'now' in UTC, as the emulated hub's clock reads (real time unless moved)."""
    if _frozen is not None:
        return _frozen
    return datetime.now(UTC) + _offset


def fmt_event(dt: datetime) -> str:
    """Event date: ``yyyy-MM-dd'T'HH:mm:ss.SSSZ`` in hub-local time (``-0600`` style offset)."""
    local = dt.astimezone(HUB_TZ)
    return (
        local.strftime("%Y-%m-%dT%H:%M:%S.")
        + f"{local.microsecond // 1000:03d}"
        + local.strftime("%z")
    )


def fmt_utc(dt: datetime) -> str:
    """Maker/admin list date: ``2026-04-16T01:20:50+0000`` (UTC, no millis)."""
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+0000")


def fmt_log(dt: datetime) -> str:
    """Log time: naive UTC ``yyyy-MM-dd HH:mm:ss.SSS``."""
    u = dt.astimezone(UTC)
    return u.strftime("%Y-%m-%d %H:%M:%S.") + f"{u.microsecond // 1000:03d}"


def hub_zone(name: str | None) -> tzinfo:
    """The zone a hub's ``timeZone`` setting names (the emulator's own one when unset)."""
    if name:
        try:
            from zoneinfo import ZoneInfo

            return ZoneInfo(name)
        except Exception:
            pass
    return HUB_TZ


def fmt_log_local(dt: datetime, zone: str | None = None) -> str:
    """``/logsocket`` time: hub-LOCAL ``yyyy-MM-dd HH:mm:ss.SSS`` without an offset (the hub
    UI formats live log times as local, past log times as UTC)."""
    local = dt.astimezone(hub_zone(zone))
    return local.strftime("%Y-%m-%d %H:%M:%S.") + f"{local.microsecond // 1000:03d}"


def parse_hub_datetime(text: str) -> datetime:
    """Parse the date-time forms a client may send for a ``datetime`` hub variable.

    Accepts ``2026-06-27T10:30:00.000-0600``, ``...-06:00``, ``...Z`` and naive ISO forms (taken
    as hub-local). Raises ValueError otherwise.
    """
    t = text.strip()
    if t.endswith("Z"):
        t = t[:-1] + "+00:00"
    dt = datetime.fromisoformat(t)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=HUB_TZ)
    return dt


def fmt_uptime(seconds: float) -> str:
    s = max(0, int(seconds))
    d, s = divmod(s, 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{d}d {h}h {m}m {s}s"
