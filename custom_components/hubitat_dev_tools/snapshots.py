"""The snapshot store: one hub's configuration snapshots as YAML files in HA's config dir.

Files live under ``<config>/hubitat_dev_tools/<hub uid>/<UTC time>.yaml``; every file
operation runs in the executor. Files are written by ruamel.yaml in round-trip mode, and a
save reads them back the same way, so a comment a user adds to a snapshot file is kept when
the file is read back and written again. Plain reads (a plan, a diff) parse with libyaml
under YAML 1.2's core schema, as ruamel does, about twenty times faster. After each new
snapshot the oldest files beyond the retention count are deleted. The optional daily
snapshot (an option, read at every check: no reload) is checked hourly and cancelled on
unload.
"""

from __future__ import annotations

import io
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]  # PyYAML (a Home Assistant requirement)
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.event import async_track_time_interval
from ruamel.yaml import YAML

from .const import (
    DEFAULT_SNAPSHOT_DAILY,
    DEFAULT_SNAPSHOT_RETENTION,
    DOMAIN,
    OPT_SNAPSHOT_DAILY,
    OPT_SNAPSHOT_RETENTION,
)
from .errors import ToolError
from .hub.errors import HubError
from .managers.snapshots import counts
from .runtime import HubitatConfigEntry, HubRuntime

_LOGGER = logging.getLogger(__name__)

SNAPSHOT_DIR = DOMAIN  # the folder under the config dir
SUFFIX = ".yaml"
NAME_RE = re.compile(r"^\d{8}T\d{6}Z(-\d{1,3})?$")
CHECK_EVERY = timedelta(hours=1)
DAILY = timedelta(hours=23, minutes=30)  # a check an hour late still takes the day's one
FILE_COMMENT = (
    "Hubitat hub configuration snapshot written by Hubitat Dev Tools (secrets redacted).\n"
    "Comments you add are kept when the file is read back and written again."
)


@dataclass(frozen=True, slots=True)
class SnapshotFile:
    """One stored snapshot."""

    name: str
    taken: str
    size: int

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        return {"name": self.name, "taken": self.taken, "size_bytes": self.size}


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.default_flow_style = False
    yaml.width = 4096  # long values stay on one line: stable text
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def dump_yaml(doc: Any) -> str:
    """A snapshot document as YAML text (its comments kept when it was loaded)."""
    out = io.StringIO()
    _yaml().dump(doc, out)
    return out.getvalue()


def load_yaml(text: str) -> Any:
    """A snapshot file's document (round-trip: comments kept for a later dump)."""
    return _yaml().load(text)


_BaseLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _CoreLoader(_BaseLoader):  # type: ignore[misc]
    """libyaml with YAML 1.2's core schema (what ruamel writes and reads): ``on``, ``yes``
    and ``012`` stay what 1.2 makes of them, not YAML 1.1's booleans and octals."""

    yaml_implicit_resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}


_CORE_SCALARS: tuple[tuple[str, str, str], ...] = (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (
        "tag:yaml.org,2002:int",
        r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
        "-+0123456789",
    ),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+.0123456789",
    ),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", "~nN"),
)
for _tag, _pattern, _first in _CORE_SCALARS:
    _CoreLoader.add_implicit_resolver(_tag, re.compile(_pattern), [*_first])
_CoreLoader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^$"), [""])


def _core_int(loader: Any, node: Any) -> int:
    text = str(loader.construct_scalar(node))
    sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text.lstrip("+"))
    if digits.startswith(("0o", "0x")):
        return sign * int(digits, 0)
    return sign * int(digits, 10)  # 1.2: a leading zero is still decimal


_CoreLoader.add_constructor("tag:yaml.org,2002:int", _core_int)


def read_yaml(text: str) -> Any:
    """A snapshot file's document as plain data (no comments; for reading only)."""
    return yaml.load(text, Loader=_CoreLoader)  # a safe loader (libyaml's when present)


def _taken(name: str) -> str:
    return datetime.strptime(name[:16], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC).isoformat()


def snapshot_name(name: str) -> str:
    """A snapshot's name without the ``.yaml`` suffix, or a refusal."""
    clean = name.strip().removesuffix(SUFFIX)
    if not NAME_RE.match(clean):
        raise ToolError(
            f"'{name}' is not a snapshot name (they look like 20261201T120000Z).",
            hint="Use a name from hub_list_snapshots.",
        )
    return clean


class SnapshotStore:
    """The snapshot files of one hub."""

    def __init__(self, hass: HomeAssistant, hub_uid: str, retention: int) -> None:
        self._hass = hass
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", hub_uid).strip(".") or "hub"
        self.directory = Path(hass.config.path(SNAPSHOT_DIR, safe))
        self._retention = max(1, retention)

    # ---- executor side

    def _files(self) -> list[SnapshotFile]:
        if not self.directory.is_dir():
            return []
        out = []
        for path in self.directory.iterdir():
            name = path.name.removesuffix(SUFFIX)
            if path.suffix == SUFFIX and NAME_RE.match(name) and path.is_file():
                out.append(SnapshotFile(name, _taken(name), path.stat().st_size))
        return sorted(out, key=lambda f: f.name, reverse=True)

    def _write(self, doc: Any, name: str | None) -> SnapshotFile:
        self.directory.mkdir(parents=True, exist_ok=True)
        if name is None:
            base = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            name, n = base, 1
            while (self.directory / f"{name}{SUFFIX}").exists():
                n += 1
                name = f"{base}-{n}"
        text = doc if isinstance(doc, str) else dump_yaml(doc)
        path = self.directory / f"{name}{SUFFIX}"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        return SnapshotFile(name, _taken(name), len(text.encode()))

    def _write_new(self, doc: Any) -> SnapshotFile:
        top = "".join(f"# {line}\n" for line in FILE_COMMENT.splitlines())
        return self._write(top + dump_yaml(doc), None)

    def _prune(self) -> list[str]:
        deleted = []
        for old in self._files()[self._retention :]:
            (self.directory / f"{old.name}{SUFFIX}").unlink(missing_ok=True)
            deleted.append(old.name)
        return deleted

    def _read(self, name: str, keep_comments: bool) -> Any:
        path = self.directory / f"{name}{SUFFIX}"
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8")
        try:
            return load_yaml(text) if keep_comments else read_yaml(text)
        except (yaml.YAMLError, ValueError) as err:
            raise ToolError(
                f"Snapshot '{name}' is not readable YAML: {str(err).splitlines()[0]}",
                code="invalid_snapshot",
                hint="Fix the file by hand, or take a new one with hub_create_snapshot.",
            ) from None

    # ---- event loop side

    async def async_list(self) -> list[SnapshotFile]:
        """Stored snapshots, newest first."""
        return await self._hass.async_add_executor_job(self._files)

    async def async_write(self, doc: Any, *, prune: bool = True) -> tuple[SnapshotFile, list[str]]:
        """Write a new snapshot (the file gets a top comment); the file and what was pruned
        (nothing with ``prune=False``: a restore must not delete the snapshot it reads)."""
        written = await self._hass.async_add_executor_job(self._write_new, doc)
        if not prune:
            return written, []
        return written, await self._hass.async_add_executor_job(self._prune)

    async def async_save(self, name: str, doc: Any) -> SnapshotFile:
        """Write ``doc`` (as read by :meth:`async_read`, comments and all) back as ``name``."""
        return await self._hass.async_add_executor_job(self._write, doc, snapshot_name(name))

    async def async_read(self, name: str, *, keep_comments: bool = False) -> Any:
        """One snapshot's document, or a refusal naming how to find snapshots
        (``keep_comments``: read round-trip, for a later :meth:`async_save`)."""
        clean = snapshot_name(name)
        doc = await self._hass.async_add_executor_job(self._read, clean, keep_comments)
        if not isinstance(doc, dict):
            raise ToolError(
                f"No snapshot '{clean}' for this hub.",
                code="not_found",
                hint="List this hub's snapshots with hub_list_snapshots, or take one with "
                "hub_create_snapshot.",
            )
        return doc


def store_for(hass: HomeAssistant, runtime: HubRuntime) -> SnapshotStore:
    """The snapshot store of one hub (retention from its options)."""
    retention = runtime.entry.options.get(OPT_SNAPSHOT_RETENTION, DEFAULT_SNAPSHOT_RETENTION)
    return SnapshotStore(hass, runtime.identity.hub_uid or runtime.entry.entry_id, int(retention))


async def async_take_snapshot(hass: HomeAssistant, runtime: HubRuntime) -> dict[str, Any]:
    """Collect a snapshot of the hub, store it, prune; the answer of hub_create_snapshot."""
    doc = await runtime.hub.snapshots.collect(
        hub_uid=runtime.identity.hub_uid, hub_name=runtime.title
    )
    written, pruned = await store_for(hass, runtime).async_write(doc)
    out: dict[str, Any] = {**written.as_dict(), "counts": counts(doc)}
    header = doc["snapshot"]
    for key in ("unavailable", "truncated"):
        if header.get(key):
            out[key] = header[key]
    if pruned:
        out["deleted_by_retention"] = pruned
    return out


def async_setup_snapshot_schedule(
    hass: HomeAssistant, entry: HubitatConfigEntry
) -> Callable[[], None]:
    """Check hourly; take a snapshot when the daily option is on and the newest is a day old."""

    async def _check(_now: datetime) -> None:
        if not entry.options.get(OPT_SNAPSHOT_DAILY, DEFAULT_SNAPSHOT_DAILY):
            return
        runtime = getattr(entry, "runtime_data", None)
        if not isinstance(runtime, HubRuntime):
            return
        files = await store_for(hass, runtime).async_list()
        if files and datetime.now(UTC) - datetime.fromisoformat(files[0].taken) < DAILY:
            return
        try:
            written = await async_take_snapshot(hass, runtime)
        except (HubError, OSError) as err:
            _LOGGER.warning("Daily snapshot of hub %s failed: %s", runtime.title, err)
            return
        _LOGGER.debug("Daily snapshot of hub %s: %s", runtime.title, written["name"])

    @callback
    def _start(now: datetime) -> None:
        hass.async_create_background_task(_check(now), f"{SNAPSHOT_DIR} daily snapshot")

    return async_track_time_interval(hass, _start, CHECK_EVERY, name="hubitat snapshot check")
