"""Hub configuration snapshots: one hub's configuration as plain, stably ordered data.

A snapshot is collected from the other managers (and the File Manager's reads in hub/files),
no request of its own: devices (identity, driver, room, tags, preferences, the device page's
Show on Home, Hub Mesh and HomeKit switches), rooms, modes (with the Mode Manager's selection
and triggers), hub variables, the app tree (with the settings of user apps and rules), rules
(Visual Rules with their definition, Rule Machine rules with their spec), dashboards (with
their devices), code items (with a sha256 of each source), File Manager files (size and
sha256, backup copies left out) and the hub's location settings. It carries what an undo
to the snapshot needs to know, and only reads the hub.
Everything goes through :func:`~..redact.redact`; maps are sorted and every category is
a map keyed by item id, so two snapshots of an unchanged hub are equal except for the
header's time. Categories that cannot be read (for example hub variables without the
Maker API) are named in the header's ``unavailable`` and skipped by :func:`diff_snapshots`.

Current device states (attributes) are state, not configuration: they are not part of a
snapshot. Rule Machine rules keep their spec (the format rules are created from, what a rule read
answers; parts it could not read under ``undecoded``) and their rule text, the paragraphs of
the rule's main page as the hub writes them: one read per rule, bounded like the others.
Files are hashed by their exact bytes (:func:`file_sha256`), up to :data:`MAX_FILE_HASH_BYTES`.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..errors import ToolError
from ..hub.errors import HubError, HubResponseTooLargeError
from ..redact import redact
from .devices.filters import DeviceFilter
from .files import BACKUP_MARK
from .item_backups import PREFIX as ITEM_BACKUP_PREFIX

if TYPE_CHECKING:
    from ..hub.controllers import FilesController
    from ..hub.files import HubFile
    from .apps.installed import AppManager
    from .apps.rules import RuleManager
    from .automation.authoring import RuleAuthoring
    from .code import CodeManager
    from .dashboards import DashboardManager
    from .devices.query import DeviceManager
    from .hub_info import HubInfoManager
    from .modes import ModeManager
    from .rooms import RoomManager
    from .variables import VariableManager

SNAPSHOT_FORMAT = 1
HEADER = "snapshot"
CATEGORIES = (
    "hub",
    "devices",
    "rooms",
    "modes",
    "variables",
    "apps",
    "rules",
    "dashboards",
    "code",
    "files",
)
# Items kept per category; the header's ``truncated`` says where more existed.
MAX_ITEMS = {
    "devices": 500,
    "rooms": 200,
    "modes": 50,
    "variables": 500,
    "apps": 500,
    "rules": 300,
    "dashboards": 100,
    "code": 300,
    "files": 500,
}
NOT_READ = "not_read: only some categories were read"
MAX_DIFF_ENTRIES = 100  # per category and kind (added/removed/changed) in one diff
MAX_APP_SETTINGS = 150  # apps whose settings are read (one request each)
PARALLEL_READS = 3  # per-item reads in flight (the client bounds requests too)
MAX_VALUE_CHARS = 2_000  # a longer string value is kept as its length and sha256
MAX_FILE_HASH_BYTES = 1024 * 1024  # a larger file is listed with its size, not hashed
# Which tool domains can change which category (for matching the audit trail).
CATEGORY_DOMAINS: dict[str, frozenset[str]] = {
    "hub": frozenset({"hub", "modes"}),
    "devices": frozenset({"devices", "rooms"}),
    "rooms": frozenset({"rooms", "devices"}),
    "modes": frozenset({"modes"}),
    "variables": frozenset({"variables"}),
    "apps": frozenset({"apps", "rules", "dashboards"}),
    "rules": frozenset({"rules", "apps"}),
    "dashboards": frozenset({"dashboards", "apps"}),
    "code": frozenset({"code"}),
    "files": frozenset({"files"}),
}
# The device page's switches a snapshot keeps (DevicePage keys).
DEVICE_PAGE_FIELDS = ("show_on_home", "hub_mesh", "homekit")


def sha256(text: str) -> str:
    """The hex sha256 of ``text`` (UTF-8)."""
    return hashlib.sha256(text.encode()).hexdigest()


def file_sha256(data: bytes | str) -> str:
    """The hex sha256 of a file's exact bytes (text as UTF-8): a snapshot's ``files`` entry,
    and any copy of the file (a File Manager backup) hashed the same way to compare."""
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def is_backup_file(name: str) -> bool:
    """A copy this integration wrote: a File Manager backup or an item backup."""
    return BACKUP_MARK in name or name.startswith(ITEM_BACKUP_PREFIX)


def _id_key(item_id: str) -> tuple[int, int, str]:
    """Numeric ids in numeric order, then everything else by text."""
    return (0, int(item_id), "") if item_id.isdigit() else (1, 0, item_id)


def stable(value: Any) -> Any:
    """``value`` with every map sorted (numeric keys numerically) and long strings hashed."""
    if isinstance(value, Mapping):
        keys = sorted((str(k) for k in value), key=_id_key)
        by_text = {str(k): v for k, v in value.items()}
        return {k: stable(by_text[k]) for k in keys}
    if isinstance(value, list | tuple):
        return [stable(v) for v in value]
    if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
        return f"({len(value)} characters, sha256 {sha256(value)})"
    return value


async def _each[T, R](items: Iterable[T], read: Callable[[T], Awaitable[R]]) -> list[R]:
    """``read`` of every item, a few at a time (a long queue on the client's slots would
    time out as hub_busy)."""
    gate = asyncio.Semaphore(PARALLEL_READS)

    async def one(item: T) -> R:
        async with gate:
            return await read(item)

    return list(await asyncio.gather(*(one(i) for i in items)))


def _first[T](items: list[T], category: str, truncated: dict[str, int]) -> list[T]:
    """The first items of a category (in id order) up to its cap; a cut is recorded."""
    limit = MAX_ITEMS[category]
    if len(items) > limit:
        truncated[category] = len(items)
    return items[:limit]


async def _fill(entry: dict[str, Any], key: str, read: Awaitable[Mapping[str, object]]) -> None:
    """``entry[key]`` from what ``read`` answers; ``<key>_unavailable`` if the hub refused."""
    try:
        got = await read
    except HubError as err:
        entry[f"{key}_unavailable"] = err.code
        return
    entry[key] = got.get(key)


def _capped(items: dict[str, Any], category: str, truncated: dict[str, int]) -> dict[str, Any]:
    keys = _first(sorted(items, key=_id_key), category, truncated)
    return {k: items[k] for k in keys}


class SnapshotManager:
    """Collects one hub's configuration (reads only, through the other managers it is
    handed, and the File Manager's reads through ``files``)."""

    def __init__(
        self,
        files: FilesController,
        *,
        info: HubInfoManager,
        devices: DeviceManager,
        rooms: RoomManager,
        modes: ModeManager,
        variables: VariableManager,
        apps: AppManager,
        rules: RuleManager,
        rule_authoring: RuleAuthoring,
        dashboards: DashboardManager,
        code: CodeManager,
    ) -> None:
        self._hub_files = files
        self._info = info
        self._devices_manager = devices
        self._rooms_manager = rooms
        self._modes_manager = modes
        self._variables_manager = variables
        self._apps_manager = apps
        self._rules_manager = rules
        self._rule_authoring = rule_authoring
        self._dashboards_manager = dashboards
        self._code_manager = code

    async def collect(
        self, *, hub_uid: str, hub_name: str, categories: Collection[str] | None = None
    ) -> dict[str, Any]:
        """The snapshot document: a header, then one map per category (``categories``: only
        these are read; the others are named unavailable, so a diff skips them)."""
        unavailable: dict[str, str] = {}
        truncated: dict[str, int] = {}
        readers: dict[str, Callable[[dict[str, int]], Awaitable[dict[str, Any]]]] = {
            "hub": self._hub_settings,
            "devices": self._devices,
            "rooms": self._rooms,
            "modes": self._modes,
            "variables": self._variables,
            "apps": self._apps,
            "rules": self._rules,
            "dashboards": self._dashboards,
            "code": self._code,
            "files": self._files,
        }
        body: dict[str, Any] = {}
        for category, read in readers.items():
            if categories is not None and category not in categories:
                unavailable[category] = NOT_READ
                continue
            # one category at a time: the client bounds the requests within each
            try:
                items = await read(truncated)
            except HubError as err:
                unavailable[category] = f"{err.code}: {err}"
                continue
            body[category] = items if category == "hub" else _capped(items, category, truncated)
        header: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "hub_uid": hub_uid,
            "hub_name": hub_name,
            "taken": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        if unavailable:
            header["unavailable"] = unavailable
        if truncated:
            header["truncated"] = truncated
        return {HEADER: header, **stable(redact(body))}

    async def _hub_settings(self, _truncated: dict[str, int]) -> dict[str, Any]:
        info = await self._info.info()
        location = dict(info.get("location") or {})
        location.update(name=info.get("name"), time_zone=info.get("time_zone"))
        return {
            "location": location,
            "platform": {"firmware": info.get("firmware"), "model": info.get("model")},
        }

    async def _devices(self, truncated: dict[str, int]) -> dict[str, Any]:
        listed = await self._devices_manager.list_devices(DeviceFilter())
        listed = _first(sorted(listed, key=lambda d: _id_key(d.id)), "devices", truncated)

        async def one(summary: Any) -> tuple[str, dict[str, Any]]:
            detail = await self._devices_manager.get_device(summary.id)
            prefs = {
                str(p.get("name")): {"type": p.get("type"), "value": p.get("value")}
                for p in detail.preferences
                if isinstance(p, dict) and p.get("name")
            }
            page = detail.page
            # the device page's switches; a key the page lacks stays out of the entry
            switches = {k: page.get(k) for k in DEVICE_PAGE_FIELDS if k in page}
            return summary.id, {
                "label": summary.label,
                "name": summary.name,
                "type": summary.type,
                "driver": detail.driver,
                "room": summary.room,
                "room_id": summary.room_id,
                "tags": sorted(summary.tags),
                "disabled": summary.disabled,
                "parent_id": summary.parent_id,
                "preferences": prefs,
                **switches,
            }

        return dict(await _each(listed, one))

    async def _rooms(self, _truncated: dict[str, int]) -> dict[str, Any]:
        rooms = await self._rooms_manager.list_rooms()
        return {
            str(r["room_id"]): {
                "name": r["name"],
                "device_ids": sorted((str(d) for d in r["device_ids"]), key=_id_key),
            }
            for r in rooms
        }

    async def _modes(self, _truncated: dict[str, int]) -> dict[str, Any]:
        listing = await self._modes_manager.list_with_manager()
        out: dict[str, Any] = {
            str(m["mode_id"]): {"name": m["name"], "icon": m["icon"]} for m in listing["modes"]
        }
        # which mode is active is state, but the owner asked for it: one pseudo-item
        out["current"] = {"active_mode": listing["active_mode"]}
        out["mode_manager"] = _mode_manager(listing.get("mode_manager"))
        return out

    async def _variables(self, _truncated: dict[str, int]) -> dict[str, Any]:
        return {
            str(v["name"]): {"type": v["type"], "value": v["value"]}
            for v in await self._variables_manager.list_variables()
        }

    async def _apps(self, _truncated: dict[str, int]) -> dict[str, Any]:
        tree = await self._apps_manager.tree()
        out: dict[str, Any] = {
            app.id: {
                "name": app.name,
                "type": app.type,
                "parent_id": app.parent_id,
                "disabled": app.disabled,
                "user": app.user,
            }
            for app in tree
        }
        # settings of user apps, rules and the safety systems (Mode Manager, HSM, the Maker
        # API); other built-in parents hold little: one request each, bounded
        wanted = [
            a.id
            for a in tree
            if a.user
            or a.is_rm_rule
            or a.is_visual_rule
            or self._apps_manager.safety_system(a) is not None
        ]
        wanted = sorted(wanted, key=_id_key)[:MAX_APP_SETTINGS]

        async def settings(app_id: str) -> None:
            page = self._apps_manager.get_app(app_id, None, include_state=False)
            await _fill(out[app_id], "settings", page)

        await _each(wanted, settings)
        return out

    async def _rules(self, _truncated: dict[str, int]) -> dict[str, Any]:
        rules = await self._rules_manager.list_rules("all", with_status=False)
        out: dict[str, Any] = {}
        for rule in rules:
            out[str(rule["app_id"])] = {
                "name": rule["name"],
                "engine": rule["engine"],
                "disabled": rule["disabled"],
                "parent_id": rule["parent_id"],
            }

        async def definition(rule_id: str) -> None:
            rule = self._rules_manager.visual.get(rule_id)
            await _fill(out[rule_id], "definition", rule)

        async def spec(rule_id: str) -> None:
            # What a rule read answers (its spec, the parts it could not read, the rule's
            # own text: the paragraphs of its main page): one read per rule. The rule is
            # known to be a Rule Machine rule, so the app tree is not read again (``get``
            # would, for every rule).
            entry = out[rule_id]
            try:
                got = await self._rule_authoring.read(rule_id)
            except (HubError, ToolError) as err:
                entry["spec_unavailable"] = err.code
                return
            entry["spec"] = got.get("spec")
            if undecoded := got.get("undecompiled"):
                entry["undecoded"] = list(undecoded)
            if lines := [str(line) for line in got.get("rule_text") or [] if line]:
                entry["rule_text"] = lines

        await _each([k for k, v in out.items() if v["engine"] == "visual"], definition)
        await _each([k for k, v in out.items() if v["engine"] == "rule_machine"], spec)
        return out

    async def _dashboards(self, truncated: dict[str, int]) -> dict[str, Any]:
        listed = await self._dashboards_manager.list_all()
        listed = sorted(listed, key=lambda d: _id_key(str(d["dashboard_id"])))
        listed = _first(listed, "dashboards", truncated)

        async def one(item: dict[str, Any]) -> tuple[str, dict[str, Any]]:
            dashboard_id = str(item["dashboard_id"])
            entry: dict[str, Any] = {"name": item["name"], "type": item["type"]}
            # the devices it shows: what a dashboard read shows (an Easy Dashboard's
            # configuration, a legacy one's app settings)
            try:
                got = await self._dashboards_manager.get(dashboard_id)
            except (HubError, ToolError) as err:
                entry["device_ids_unavailable"] = err.code
            else:
                ids = {str(i) for i in got.get("device_ids") or []}
                entry["device_ids"] = sorted(ids, key=_id_key)
            return dashboard_id, entry

        return dict(await _each(listed, one))

    async def _code(self, truncated: dict[str, int]) -> dict[str, Any]:
        items = await self._code_manager.list_code(None, None)
        items = sorted(items, key=lambda i: (str(i["type"]), _id_key(str(i["id"]))))
        items = _first(items, "code", truncated)

        async def one(item: dict[str, Any]) -> tuple[str, dict[str, Any]]:
            entry = {
                "kind": item["type"],
                "name": item.get("name"),
                "namespace": item.get("namespace"),
                "version": item.get("version"),
            }
            try:
                source = await self._code_manager.get_source(item["type"], str(item["id"]))
            except HubError as err:
                entry["source_unavailable"] = err.code
            else:
                entry["sha256"] = sha256(source.source)
            return f"{item['type']}-{item['id']}", entry

        return dict(await _each(items, one))

    async def _files(self, truncated: dict[str, int]) -> dict[str, Any]:
        # the File Manager's root folder: regular files, not the copies we wrote
        listed = [f for f in await self._hub_files.list() if not f.is_dir]
        listed = [f for f in listed if not is_backup_file(f.name)]
        listed = _first(sorted(listed, key=lambda f: _id_key(f.name)), "files", truncated)

        async def one(found: HubFile) -> tuple[str, dict[str, Any]]:
            entry: dict[str, Any] = {"size": found.size}
            if found.size is not None and found.size > MAX_FILE_HASH_BYTES:
                entry["sha256_unavailable"] = "too_large"
                return found.name, entry
            try:
                data = await self._hub_files.read_bytes(found.name, max_bytes=MAX_FILE_HASH_BYTES)
            except HubResponseTooLargeError:
                entry["sha256_unavailable"] = "too_large"
            except HubError as err:
                entry["sha256_unavailable"] = err.code
            else:
                entry["size"] = len(data)
                entry["sha256"] = file_sha256(data)
            return found.name, entry

        return dict(await _each(listed, one))


def _mode_manager(value: Any) -> dict[str, Any]:
    """The Mode Manager's selection and each mode's own triggers (their descriptions, hub
    text, left out); ``triggers`` is absent when the hub could not show them (older
    firmware), and an older answer (the selection only, a string) keeps just that."""
    if not isinstance(value, Mapping):
        return {"selected": value}
    out: dict[str, Any] = {"selected": value.get("selected")}
    listed = value.get("triggers")
    if isinstance(listed, list):
        out["triggers"] = {
            str(item.get("mode")): [
                {k: v for k, v in trigger.items() if k != "description"}
                for trigger in item.get("triggers") or []
                if isinstance(trigger, Mapping)
            ]
            for item in listed
            if isinstance(item, Mapping)
        }
    return out


# ---------------------------------------------------------------------------- diffs


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested maps as dotted paths (lists and scalars are leaves)."""
    if isinstance(value, Mapping) and value:
        out: dict[str, Any] = {}
        for key, sub in value.items():
            out.update(_flatten(sub, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: value}


def _changed_fields(old: Any, new: Any) -> list[dict[str, Any]]:
    flat_old, flat_new = _flatten(old), _flatten(new)
    return [
        {"field": path, "old": flat_old.get(path), "new": flat_new.get(path)}
        for path in sorted(set(flat_old) | set(flat_new))
        if flat_old.get(path) != flat_new.get(path)
    ]


def _parse_time(text: Any) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _arg_values(value: Any, key: str = "") -> Iterable[tuple[str, str]]:
    """(nearest key, value as lowercase text) of every scalar in a call's arguments."""
    if isinstance(value, Mapping):
        for sub_key, sub in value.items():
            yield from _arg_values(sub, str(sub_key).lower())
    elif isinstance(value, list | tuple):
        for sub in value:
            yield from _arg_values(sub, key)
    elif value is not None and not isinstance(value, bool):
        yield key, str(value).strip().lower()


def _names_an_item(key: str) -> bool:
    """An argument that names an item by id (``device_id``, ``ids``, ``room``, ``app``...)."""
    return key.endswith(("id", "ids")) or key in _ITEM_KEYS


_ITEM_KEYS = frozenset({"room", "mode", "app", "rule", "dashboard", "variable", "name", "label"})


def _names(item: Any) -> set[str]:
    if not isinstance(item, Mapping):
        return set()
    return {str(item[k]).strip().lower() for k in ("name", "label") if item.get(k)}


class AuditMatcher:
    """Which audit records (of this hub, in a time window) touched an item."""

    def __init__(
        self,
        records: Iterable[Mapping[str, Any]],
        *,
        hub_names: set[str],
        start: datetime | None,
        end: datetime | None,
        tool_domains: Mapping[str, str],
    ) -> None:
        self._domains = tool_domains
        names = {n.lower() for n in hub_names if n}
        self._records: list[Mapping[str, Any]] = []
        for rec in records:
            if rec.get("outcome") not in ("ok", "interrupted", "started"):
                continue
            if rec.get("hub") and str(rec["hub"]).lower() not in names:
                continue
            when = _parse_time(rec.get("time"))
            if when is None or (start and when < start) or (end and when > end):
                continue
            self._records.append(rec)

    def match(self, category: str, item_id: str, old: Any, new: Any) -> list[dict[str, Any]]:
        """Audit records whose tool can change ``category`` and whose arguments name it."""
        ids = {item_id.lower(), item_id.split("-")[-1].lower()}  # code items: kind-id
        names = _names(old) | _names(new)
        domains = CATEGORY_DOMAINS.get(category, frozenset())
        out = []
        for rec in self._records:
            if self._domains.get(str(rec.get("tool"))) not in domains:
                continue
            # an id only counts where an argument names an item; a name anywhere
            pairs = list(_arg_values(rec.get("args")))
            if any(v in names or (v in ids and _names_an_item(k)) for k, v in pairs):
                out.append({"id": rec.get("id"), "time": rec.get("time"), "tool": rec.get("tool")})
        return out


def diff_snapshots(
    old: Mapping[str, Any], new: Mapping[str, Any], matcher: AuditMatcher | None = None
) -> dict[str, Any]:
    """Per category: added, removed and changed items (changed fields old -> new)."""
    skipped = set(old.get(HEADER, {}).get("unavailable") or {}) | set(
        new.get(HEADER, {}).get("unavailable") or {}
    )
    categories: dict[str, Any] = {}
    total = 0
    for category in CATEGORIES:
        if category in skipped:
            continue
        before: Mapping[str, Any] = old.get(category) or {}
        after: Mapping[str, Any] = new.get(category) or {}
        entries: dict[str, list[dict[str, Any]]] = {"added": [], "removed": [], "changed": []}
        for item_id in sorted({str(k) for k in before} | {str(k) for k in after}, key=_id_key):
            was, now = before.get(item_id), after.get(item_id)
            if was == now:
                continue
            if was is None:
                entry: dict[str, Any] = {"id": item_id, "item": now}
                kind = "added"
            elif now is None:
                entry, kind = {"id": item_id, "item": was}, "removed"
            else:
                entry, kind = {"id": item_id, "fields": _changed_fields(was, now)}, "changed"
            if matcher is not None:
                through = matcher.match(category, item_id, was, now)
                entry["through_integration"] = bool(through)
                if through:
                    entry["audit_entries"] = through
            entries[kind].append(entry)
        if any(entries.values()):
            shown: dict[str, Any] = {}
            for kind, found in entries.items():
                if found:
                    shown[kind] = found[:MAX_DIFF_ENTRIES]
                if len(found) > MAX_DIFF_ENTRIES:
                    shown[f"{kind}_not_shown"] = len(found) - MAX_DIFF_ENTRIES
            categories[category] = shown
            total += sum(len(v) for v in entries.values())
    out: dict[str, Any] = redact(
        {"changes": total, "categories": categories, "skipped_categories": sorted(skipped)}
    )
    return out


def counts(snapshot: Mapping[str, Any]) -> dict[str, int]:
    """Items per category."""
    return {c: len(snapshot[c]) for c in CATEGORIES if isinstance(snapshot.get(c), Mapping)}
