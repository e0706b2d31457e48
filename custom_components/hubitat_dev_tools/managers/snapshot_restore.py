"""Putting back what changed since a snapshot: the plan (which steps make the live hub match
the snapshot again, item by item) as plain data, computed from two snapshot documents.

The planner reads nothing itself: it compares the stored snapshot with one collected from the
live hub (``SnapshotManager.collect``) and answers a list of :class:`Step`. A step names the
item, its current and wanted values, the action that makes the change (an action name the
tools layer maps to the tool that runs it, through the same gates and audit as a direct
call) and its arguments, or says why it cannot be done and what the owner can do instead.
Steps are ordered so that what a later step needs exists first: hub settings, then rooms and
modes (devices move into rooms, Mode Manager switches to modes), hub variables (rules use
them), devices, Mode Manager, code, files, apps, rules, dashboards; and removals last, the
users before what they use (rules before the variables, modes and rooms they name, devices
before the code of their drivers).

What is not put back, and why (also in each step's ``reason``):
- a device removed since the snapshot: a radio device must be paired again, and a new
  device gets a new id;
- an app other than a rule removed since the snapshot (installing it again is a new app);
- a value the snapshot holds redacted (a password, a token): never written back as the
  redaction marker;
- which mode is active and the hub's firmware: state and platform, not configuration;
- a setting an app had that it no longer has (the settings editor cannot remove a setting);
- Rule Machine rules whose spec the snapshot or the live rule does not fully decode (an
  edit in place would drop the undecoded parts).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ToolError
from ..hub.errors import HubError
from ..redact import REDACTED
from .files import BACKUP_MARK, FilesManager
from .item_backups import ItemBackups

# The categories a plan can cover, in the order their changes are made.
RESTORABLE = (
    "hub",
    "rooms",
    "modes",
    "variables",
    "devices",
    "code",
    "files",
    "apps",
    "rules",
    "dashboards",
)
# Step phases: a lower phase runs first.
PHASE_HUB = 0
PHASE_ROOMS = 1
PHASE_MODES = 2
PHASE_VARIABLES = 3
PHASE_DEVICES = 4
PHASE_MODE_MANAGER = 5
PHASE_CODE = 6
PHASE_FILES = 7
PHASE_APPS = 8
PHASE_RULES = 9
PHASE_DASHBOARDS = 10
# removals, the users first
PHASE_REMOVE_RULES = 20
PHASE_REMOVE_APPS = 21
PHASE_REMOVE_DASHBOARDS = 22
PHASE_REMOVE_DEVICES = 23  # before the code of their drivers
PHASE_REMOVE_CODE = 24
PHASE_REMOVE_FILES = 25
PHASE_REMOVE_VARIABLES = 26
PHASE_REMOVE_MODES = 27
PHASE_REMOVE_ROOMS = 28
PHASE_REBOOT = 30  # a change that reboots the hub comes after everything else

# Hub location fields and the hub settings argument each is written with.
HUB_FIELDS = {
    "name": "hub_name",
    "latitude": "latitude",
    "longitude": "longitude",
    "zip_code": "zip_code",
    "temperature_scale": "temperature_scale",
    "time_format": "time_format",
    "tts_voice": "tts_voice",
    "time_zone": "time_zone",
}
# Device fields a device edit writes (snapshot field -> edit argument).
DEVICE_FIELDS = {
    "label": "label",
    "name": "name",
    "tags": "tags",
    "show_on_home": "show_on_home",
    "hub_mesh": "hub_mesh",
    "homekit": "homekit",
}
UNASSIGNED = "unassigned"  # the device edit's room value for "no room"
# App settings the settings editor does not take as values (bookkeeping of the app itself).
APP_BOOKKEEPING = frozenset({"origLabel"})
MODE_MANAGER_TYPE = "Mode Manager"


@dataclass(slots=True)
class Step:
    """One change that puts one item (or one part of it) back."""

    category: str
    item: str  # the item's id in the snapshot (a name for variables and files)
    label: str  # the item as an owner knows it: "device 6 (Kitchen Light)"
    change: str  # what the step does, in a few words
    action: str | None  # what makes the change (None: cannot be done)
    args: dict[str, Any] = field(default_factory=dict)
    current: Any = None
    wanted: Any = None
    phase: float = 0
    reason: str | None = None  # why it cannot be done, and what to do instead
    devices: tuple[str, ...] = ()  # devices the step acts on or names
    apps: tuple[str, ...] = ()  # apps it changes
    document: Any = None  # content it writes that may name devices (rule specs, nodes)
    # The content the step writes comes from a backup read when it runs (code, files),
    # and must still hash to ``sha256`` then (what the snapshot recorded).
    source: str | None = None
    sha256: str | None = None
    # The step acts on the app the step before it made (its answer's ``app_id``).
    app_from_previous: bool = False

    @property
    def possible(self) -> bool:
        """Whether a step can be done at all."""
        return self.action is not None

    def key(self) -> dict[str, Any]:
        """What identifies the step in a plan id (what it does, not how it is worded)."""
        return {
            "category": self.category,
            "item": self.item,
            "action": self.action,
            "args": self.args,
            "source": self.source,
            "sha256": self.sha256,
            "chained": self.app_from_previous,
        }


@dataclass(frozen=True, slots=True)
class Selection:
    """Which items a plan covers: everything, or what ``only`` names, minus ``exclude``.

    An entry is a category (``rules``), an item (``rules:142``, ``variables:guestCount``) or
    an item's id or name alone (``142``, ``Goodnight``), matched without case.
    """

    only: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    @staticmethod
    def _matches(entry: str, category: str, item: str, names: Iterable[str]) -> bool:
        want = entry.strip().lower()
        cat, sep, rest = want.partition(":")
        if sep:
            return cat == category and rest.strip() in {item.lower(), *names}
        return want in {category, item.lower(), *names}

    def categories(self) -> set[str] | None:
        """The categories a plan must read (with those their steps depend on), or None for
        every category (``only`` names an item by name alone, or is not given)."""
        if not self.only:
            return None
        out: set[str] = set()
        for entry in self.only:
            category, _sep, _item = entry.strip().lower().partition(":")
            if category not in RESTORABLE:
                return None  # a name alone may be any category's item
            out.add(category)
        return needed_categories(out)

    def chosen(self, category: str, item: str, names: Iterable[str]) -> bool:
        """Whether the item is in the plan."""
        known = {n.strip().lower() for n in names if n}
        if self.only and not any(self._matches(e, category, item, known) for e in self.only):
            return False
        return not any(self._matches(e, category, item, known) for e in self.exclude)


# What planning a category reads besides it: devices move into rooms (made again under new
# ids), apps leave rules and dashboards to their categories, modes hold Mode Manager.
DEPENDS: dict[str, tuple[str, ...]] = {"devices": ("rooms",), "apps": ("rules", "dashboards")}


def needed_categories(categories: Iterable[str]) -> set[str]:
    """``categories`` with those their planning needs."""
    out = set(categories)
    for category in list(out):
        out.update(DEPENDS.get(category, ()))
    return out


def plan_id(steps: Iterable[Step]) -> str:
    """A short hash of what the steps do: the same hub state gives the same id."""
    text = json.dumps([s.key() for s in steps], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _names(item: Any) -> list[str]:
    if not isinstance(item, Mapping):
        return []
    return [str(item[k]) for k in ("label", "name") if item.get(k)]


def _label(kind: str, item_id: str, *items: Any) -> str:
    for item in items:
        names = _names(item)
        if names:
            return f"{kind} {item_id} ({names[0]})" if names[0] != item_id else f"{kind} {item_id}"
    return f"{kind} {item_id}"


def _has_redacted(value: Any) -> bool:
    if isinstance(value, Mapping):
        return any(_has_redacted(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_redacted(v) for v in value)
    return isinstance(value, str) and REDACTED in value


def _id_key(item_id: str) -> tuple[int, int, str]:
    return (0, int(item_id), "") if item_id.isdigit() else (1, 0, item_id)


# A finder for backups: (kind, item id or file name, wanted sha256) -> backup name or None.
BackupFinder = Callable[[str, str, str], str | None]


@dataclass(slots=True)
class Planner:
    """Steps that make ``live`` match ``snapshot`` for the chosen items.

    ``backups`` names, for code items and files, the backup that holds the snapshot's
    content (looked up by the caller beforehand: the planner reads nothing).
    """

    snapshot: Mapping[str, Any]
    live: Mapping[str, Any]
    selection: Selection = field(default_factory=Selection)
    backups: BackupFinder | None = None
    steps: list[Step] = field(default_factory=list)
    # (category, snapshot id) -> live id of items made again under a new id
    live_ids: dict[tuple[str, str], str] = field(default_factory=dict)

    def plan(self) -> list[Step]:
        """Every step, in the order they must run."""
        self.steps = []
        self.live_ids = {}
        for category in RESTORABLE:
            if not self._comparable(category):
                continue
            getattr(self, f"_{category}")()
        self._free_names_first()
        ordered = sorted(
            enumerate(self.steps), key=lambda pair: (pair[1].phase, pair[0])
        )  # stable within a phase
        return [s for _, s in ordered]

    def _free_names_first(self) -> None:
        """A room or mode added since that took the name another one gets back is deleted
        just before that rename (not last), so the rename can run."""
        for rename in self.steps:
            wanted = rename.args.get("new_name")
            if rename.action not in ("update_room", "update_mode") or not wanted:
                continue
            delete = "delete_room" if rename.action == "update_room" else "delete_mode"
            for step in self.steps:
                names = _names(step.current)
                if step.action == delete and names and _text(names[0]) == _text(wanted):
                    step.phase = rename.phase - 0.5

    # ---- helpers

    def _comparable(self, category: str) -> bool:
        """A category both documents hold (one that could not be read is not compared)."""
        for doc in (self.snapshot, self.live):
            header = doc.get("snapshot")
            unavailable = header.get("unavailable") if isinstance(header, Mapping) else None
            if unavailable and category in unavailable:
                return False
            if not isinstance(doc.get(category), Mapping):
                return False
        return True

    def _pairs(self, category: str) -> list[tuple[str, Any, Any]]:
        """(snapshot id, wanted, current) of every chosen item that differs.

        An item removed since and one added since that share what identifies them (a
        room's name, a rule's name and engine...) are the same item made again under a new
        id (by an earlier restore, or by hand): they are compared as one, and steps that
        change it address its live id (:meth:`_live`).
        """
        old: Mapping[str, Any] = self.snapshot.get(category) or {}
        new: Mapping[str, Any] = self.live.get(category) or {}
        # a category cut at its cap holds only its first items: an item missing on a cut
        # side may be beyond the cap, never "added" or "removed"
        cut = self._truncated(category)
        renumbered = {} if cut else self._renumber(category, old, new)
        gone_ids = set(renumbered.values())
        out = []
        for item_id in sorted({str(k) for k in old} | {str(k) for k in new}, key=_id_key):
            if item_id in gone_ids and item_id not in old:
                continue  # the live side of a renumbered item: compared under its old id
            was = old.get(item_id)
            now = new.get(renumbered[item_id]) if item_id in renumbered else new.get(item_id)
            if _same(category, was, now):
                continue
            if cut and (was is None or now is None):
                continue
            if not self.selection.chosen(category, item_id, _names(was) + _names(now)):
                continue
            if any(v is not None and not isinstance(v, Mapping) for v in (was, now)):
                # held as one redacted value (its name reads like a secret)
                self._cannot(
                    category,
                    item_id,
                    f"{category} item {item_id}",
                    "compare it",
                    "The snapshot or the hub holds this item redacted (its name reads like a "
                    "secret), so it cannot be compared or put back here; change it by hand.",
                    phase=PHASE_HUB,
                )
                continue
            out.append((item_id, was, now))
        return out

    def _truncated(self, category: str) -> bool:
        """Whether either document holds only the first items of the category."""
        for doc in (self.snapshot, self.live):
            header = doc.get("snapshot")
            cut = header.get("truncated") if isinstance(header, Mapping) else None
            if isinstance(cut, Mapping) and category in cut:
                return True
        return False

    def _renumber(
        self, category: str, old: Mapping[str, Any], new: Mapping[str, Any]
    ) -> dict[str, str]:
        """Snapshot id -> live id of the items made again under a new id."""
        identity = IDENTITY.get(category)
        if identity is None:
            return {}
        removed: dict[tuple[Any, ...], list[str]] = {}
        added: dict[tuple[Any, ...], list[str]] = {}
        for item_id, item in old.items():
            if str(item_id) not in new and isinstance(item, Mapping):
                removed.setdefault(identity(item), []).append(str(item_id))
        for item_id, item in new.items():
            if str(item_id) not in old and isinstance(item, Mapping):
                added.setdefault(identity(item), []).append(str(item_id))
        out: dict[str, str] = {}
        for key, ids in removed.items():
            if len(ids) == 1 and len(added.get(key, ())) == 1:
                out[ids[0]] = added[key][0]
                self.live_ids[(category, ids[0])] = added[key][0]
        return out

    def _live(self, category: str, item_id: str) -> str:
        """The live id of a snapshot item (itself, unless it was made again)."""
        return self.live_ids.get((category, item_id), item_id)

    def _add(self, step: Step) -> None:
        self.steps.append(step)

    def _added(
        self,
        category: str,
        item: str,
        label: str,
        what: str,
        action: str,
        args: dict[str, Any],
        current: Any,
        phase: float,
        **kw: Any,
    ) -> None:
        """A step deleting an item added since the snapshot."""
        self._add(
            Step(
                category,
                item,
                label,
                f"delete the {what} added since",
                action,
                args,
                current,
                None,
                phase,
                **kw,
            )
        )

    def _cannot(
        self, category: str, item: str, label: str, change: str, reason: str, **kw: Any
    ) -> None:
        self._add(Step(category, item, label, change, None, reason=reason, **kw))

    # ---- hub settings

    def _hub(self) -> None:
        if not self.selection.chosen("hub", "location", ["settings"]):
            return
        was = (self.snapshot.get("hub") or {}).get("location") or {}
        now = (self.live.get("hub") or {}).get("location") or {}
        args: dict[str, Any] = {}
        current: dict[str, Any] = {}
        wanted: dict[str, Any] = {}
        for key in sorted(set(was) | set(now)):
            if was.get(key) == now.get(key):
                continue
            if key in HUB_FIELDS and was.get(key) is not None:
                args[HUB_FIELDS[key]] = was[key]
                current[key], wanted[key] = now.get(key), was.get(key)
            else:
                self._cannot(
                    "hub",
                    "location",
                    "hub settings",
                    f"{key}: {now.get(key)!r} -> {was.get(key)!r}",
                    f"The hub setting '{key}' has no writer here; change it in the hub's "
                    "Settings page.",
                    current=now.get(key),
                    wanted=was.get(key),
                    phase=PHASE_HUB,
                )
        if "time_zone" in args:
            # the hub reboots to change its time zone: a step of its own, the very last
            self._add(
                Step(
                    "hub",
                    "location",
                    "hub settings",
                    "put the time zone back (the hub reboots)",
                    "update_hub_settings",
                    {"time_zone": args.pop("time_zone")},
                    current.pop("time_zone"),
                    wanted.pop("time_zone"),
                    PHASE_REBOOT,
                )
            )
        if args:
            self._add(
                Step(
                    "hub",
                    "location",
                    "hub settings",
                    "put back " + ", ".join(sorted(current)),
                    "update_hub_settings",
                    args,
                    current,
                    wanted,
                    PHASE_HUB,
                )
            )

    # ---- rooms

    def _rooms(self) -> None:
        for room_id, was, now in self._pairs("rooms"):
            label = _label("room", room_id, was, now)
            if was is None:
                self._added(
                    "rooms",
                    room_id,
                    label,
                    "room",
                    "delete_room",
                    {"room": room_id},
                    now,
                    PHASE_REMOVE_ROOMS,
                    devices=tuple(str(d) for d in now.get("device_ids") or ()),
                )
            elif now is None:
                # devices are moved back by their own steps (they name the room by name)
                self._add(
                    Step(
                        "rooms",
                        room_id,
                        label,
                        "create the room again (it gets a new id)",
                        "create_room",
                        {"name": was["name"]},
                        None,
                        {"name": was["name"]},
                        PHASE_ROOMS,
                    )
                )
            elif was.get("name") != now.get("name"):
                self._add(
                    Step(
                        "rooms",
                        room_id,
                        label,
                        "rename",
                        "update_room",
                        {"room": self._live("rooms", room_id), "new_name": was["name"]},
                        now.get("name"),
                        was.get("name"),
                        PHASE_ROOMS,
                    )
                )
            # membership differences are the devices' own room steps

    def _room_name(self, room_id: Any, name: Any) -> str:
        """The room a device goes back to, by name (a re-created room has a new id)."""
        if name:
            return str(name)
        rooms = self.snapshot.get("rooms") or {}
        room = rooms.get(str(room_id)) if room_id is not None else None
        return str(room["name"]) if isinstance(room, Mapping) else UNASSIGNED

    # ---- modes and Mode Manager

    def _modes(self) -> None:
        for mode_id, was, now in self._pairs("modes"):
            if mode_id == "current":
                continue  # which mode is active is state: left alone
            if mode_id == "mode_manager":
                self._mode_manager(was, now)
                continue
            label = _label("mode", mode_id, was, now)
            if was is None:
                self._add(
                    Step(
                        "modes",
                        mode_id,
                        label,
                        "delete the mode added since",
                        "delete_mode",
                        {"mode": mode_id},
                        now,
                        None,
                        PHASE_REMOVE_MODES,
                    )
                )
            elif now is None:
                args = {"name": was["name"]}
                if was.get("icon"):
                    args["icon"] = was["icon"]
                self._add(
                    Step(
                        "modes",
                        mode_id,
                        label,
                        "create the mode again (it gets a new id)",
                        "create_mode",
                        args,
                        None,
                        was,
                        PHASE_MODES,
                    )
                )
            else:
                args = {"mode": self._live("modes", mode_id)}
                if was.get("name") != now.get("name"):
                    args["new_name"] = was["name"]
                if was.get("icon") != now.get("icon") and was.get("icon"):
                    args["icon"] = was["icon"]
                self._add(
                    Step(
                        "modes",
                        mode_id,
                        label,
                        "rename" if "new_name" in args else "put the icon back",
                        "update_mode",
                        args,
                        now,
                        was,
                        PHASE_MODES,
                    )
                )

    def _mode_manager(self, was: Any, now: Any) -> None:
        if not isinstance(was, Mapping) or not isinstance(now, Mapping):
            return
        label = "Mode Manager"
        if was.get("selected") and was.get("selected") != now.get("selected"):
            self._add(
                Step(
                    "modes",
                    "mode_manager",
                    label,
                    "switch back to the manager it had",
                    "update_mode_manager",
                    {"manager": was["selected"]},
                    now.get("selected"),
                    was.get("selected"),
                    PHASE_MODE_MANAGER,
                    apps=("mode_manager",),
                )
            )
        # triggers are listed by mode name: compare them by mode id, so a renamed mode
        # (put back by its own step) is not taken for another
        old_t = self._by_mode_id(self.snapshot, was.get("triggers") or {})
        new_t = self._by_mode_id(self.live, now.get("triggers") or {})
        for mode_id in sorted(set(old_t) | set(new_t), key=_id_key):
            if mode_id not in old_t or (
                mode_id in new_t and old_t[mode_id][1] == new_t[mode_id][1]
            ):
                continue  # a mode added since loses its triggers with the mode itself
            mode, wanted_triggers = old_t[mode_id]
            current = new_t.get(mode_id, (None, None))[1]
            triggers = [dict(t) for t in wanted_triggers or []]
            self._add(
                Step(
                    "modes",
                    "mode_manager",
                    label,
                    f"put back the triggers of {mode}",
                    "update_mode_manager",
                    {"mode": mode, "triggers": triggers},
                    current,
                    wanted_triggers,
                    PHASE_MODE_MANAGER,
                    devices=tuple(str(d) for t in triggers for d in t.get("device_ids") or ()),
                    apps=("mode_manager",),
                )
            )

    def _by_mode_id(self, doc: Mapping[str, Any], triggers: Any) -> dict[str, tuple[str, Any]]:
        """Mode Manager triggers by mode id (snapshot ids for the live side too, where a
        mode was made again): id -> (mode name, triggers)."""
        modes = doc.get("modes") or {}
        ids = {
            _text(m.get("name")): str(k)
            for k, m in modes.items()
            if isinstance(m, Mapping) and k not in ("current", "mode_manager")
        }
        back = {live: snap for (c, snap), live in self.live_ids.items() if c == "modes"}
        out: dict[str, tuple[str, Any]] = {}
        if not isinstance(triggers, Mapping):
            return out  # held redacted as a whole
        for name, listed in triggers.items():
            if not isinstance(listed, list):
                continue  # held redacted (a mode named like a secret): not compared
            mode_id = ids.get(_text(name), f"name:{name}")
            out[back.get(mode_id, mode_id)] = (str(name), listed)
        return out

    # ---- hub variables

    def _variables(self) -> None:
        for name, was, now in self._pairs("variables"):
            label = f"variable {name}"
            if was is None:
                self._add(
                    Step(
                        "variables",
                        name,
                        label,
                        "delete the variable added since",
                        "delete_variable",
                        {"name": name},
                        now,
                        None,
                        PHASE_REMOVE_VARIABLES,
                    )
                )
                continue
            if _has_redacted(was):
                self._cannot(
                    "variables",
                    name,
                    label,
                    "put the value back",
                    "The snapshot holds this value redacted; it is never written back. Set "
                    "it by hand.",
                    phase=PHASE_VARIABLES,
                )
                continue
            create = {"name": name, "type": was.get("type"), "value": was.get("value")}
            if now is None:
                self._add(
                    Step(
                        "variables",
                        name,
                        label,
                        "create the variable again",
                        "create_variable",
                        create,
                        None,
                        was,
                        PHASE_VARIABLES,
                    )
                )
            elif was.get("type") != now.get("type"):
                # a type cannot be changed in place: delete, then create with the old type
                self._add(
                    Step(
                        "variables",
                        name,
                        label,
                        f"delete to change its type back ({now.get('type')} -> {was.get('type')})",
                        "delete_variable",
                        {"name": name, "force": True},
                        now,
                        was,
                        PHASE_VARIABLES,
                    )
                )
                self._add(
                    Step(
                        "variables",
                        name,
                        label,
                        "create it again with its old type and value",
                        "create_variable",
                        create,
                        None,
                        was,
                        PHASE_VARIABLES,
                    )
                )
            else:
                self._add(
                    Step(
                        "variables",
                        name,
                        label,
                        "put the value back",
                        "set_variable",
                        {"name": name, "value": was.get("value")},
                        now.get("value"),
                        was.get("value"),
                        PHASE_VARIABLES,
                    )
                )

    # ---- devices

    def _devices(self) -> None:
        for device_id, was, now in self._pairs("devices"):
            label = _label("device", device_id, was, now)
            if was is None:
                self._added(
                    "devices",
                    device_id,
                    label,
                    "device",
                    "delete_device",
                    {"device_id": device_id},
                    _brief(now),
                    PHASE_REMOVE_DEVICES,
                    devices=(device_id,),
                )
                continue
            if now is None:
                self._cannot(
                    "devices",
                    device_id,
                    label,
                    "bring the device back",
                    "A removed device cannot be re-created from a snapshot: pair it again "
                    "(a radio device) or create it again with the same driver (a virtual "
                    f"device, driver {was.get('driver')!r}); either way it gets a new id, so "
                    "rules and dashboards that used it must be pointed at the new one.",
                    wanted=_brief(was),
                    phase=PHASE_DEVICES,
                    devices=(device_id,),
                )
                continue
            self._device(device_id, label, was, now)

    def _device(self, device_id: str, label: str, was: Mapping[str, Any], now: Any) -> None:
        args: dict[str, Any] = {}
        current: dict[str, Any] = {}
        wanted: dict[str, Any] = {}
        for key, arg in DEVICE_FIELDS.items():
            if key in was and key in now and was[key] != now[key]:
                args[arg] = was[key]
                current[key], wanted[key] = now[key], was[key]
        # by id (a renamed room is put back by its own step), where a room made again
        # counts under its new id
        wanted_room = was.get("room_id")
        if wanted_room is not None:
            wanted_room = self._live("rooms", str(wanted_room))
        if "room_id" in was and wanted_room != (
            str(now["room_id"]) if now.get("room_id") is not None else None
        ):
            room = self._room_name(was.get("room_id"), was.get("room"))
            args["room"] = room
            current["room"], wanted["room"] = now.get("room"), was.get("room")
        if "disabled" in was and was.get("disabled") != now.get("disabled"):
            args["enabled"] = not was["disabled"]
            current["disabled"], wanted["disabled"] = now.get("disabled"), was["disabled"]
        prefs_was: Mapping[str, Any] = was.get("preferences") or {}
        prefs_now: Mapping[str, Any] = now.get("preferences") or {}
        prefs: dict[str, Any] = {}
        secret: list[str] = []
        for name in sorted(prefs_was):
            old_p, new_p = prefs_was.get(name), prefs_now.get(name)
            if old_p == new_p or not isinstance(old_p, Mapping):
                continue
            if _has_redacted(old_p.get("value")):
                secret.append(name)
                continue
            prefs[name] = old_p.get("value")
            current[f"preferences.{name}"] = (
                new_p.get("value") if isinstance(new_p, Mapping) else None
            )
            wanted[f"preferences.{name}"] = old_p.get("value")
        if prefs:
            args["preferences"] = prefs
        if args:
            self._add(
                Step(
                    "devices",
                    device_id,
                    label,
                    "put back " + ", ".join(sorted(current)),
                    "update_device",
                    {"device_id": device_id, **args},
                    current,
                    wanted,
                    PHASE_DEVICES,
                    devices=(device_id,),
                )
            )
        if secret:
            self._cannot(
                "devices",
                device_id,
                label,
                "put back preferences " + ", ".join(secret),
                "The snapshot holds these values redacted (secrets); they are never written "
                "back. Set them in the device's page.",
                phase=PHASE_DEVICES,
                devices=(device_id,),
            )
        if was.get("driver") != now.get("driver") and was.get("driver"):
            self._cannot(
                "devices",
                device_id,
                label,
                f"driver {now.get('driver')!r} -> {was.get('driver')!r}",
                "The driver is changed on the device's page of the hub (Type); no tool changes it.",
                current=now.get("driver"),
                wanted=was.get("driver"),
                phase=PHASE_DEVICES,
                devices=(device_id,),
            )

    # ---- code and files (the content comes from a backup)

    def _code(self) -> None:
        for key, was, now in self._pairs("code"):
            kind, _, code_id = key.rpartition("-")
            label = _label(kind or "code", code_id, was, now)
            if was is None:
                self._add(
                    Step(
                        "code",
                        key,
                        label,
                        "delete the code added since",
                        "delete_code",
                        {"type": kind, "id": code_id},
                        _brief(now),
                        None,
                        PHASE_REMOVE_CODE,
                    )
                )
                continue
            sha = was.get("sha256")
            if now is not None and sha == now.get("sha256"):
                continue  # only the version or name text differs: follows the source
            backup = self.backups(kind, code_id, sha) if self.backups and sha else None
            change = "install it again (new id)" if now is None else "put the source back"
            if backup is None:
                self._cannot(
                    "code",
                    key,
                    label,
                    change,
                    "No item backup holds the source this snapshot recorded (its sha256); "
                    "the snapshot keeps only the hash. Put it back from another copy "
                    "of the source.",
                    wanted={"sha256": sha},
                    phase=PHASE_CODE,
                )
                continue
            live_kind, _, live_id = self._live("code", key).rpartition("-")
            args = {"type": kind} if now is None else {"type": live_kind, "id": live_id}
            self._add(
                Step(
                    "code",
                    key,
                    label,
                    change,
                    "install_code" if now is None else "update_code",
                    args,
                    {"sha256": now.get("sha256")} if now else None,
                    {"sha256": sha},
                    PHASE_CODE,
                    source=backup,
                    sha256=sha,
                )
            )

    def _files(self) -> None:
        for name, was, now in self._pairs("files"):
            label = f"file {name}"
            if was is None:
                self._add(
                    Step(
                        "files",
                        name,
                        label,
                        "delete the file added since (a backup copy is kept)",
                        "delete_file",
                        {"file_name": name},
                        now,
                        None,
                        PHASE_REMOVE_FILES,
                    )
                )
                continue
            sha = was.get("sha256")
            if now is not None and sha and sha == now.get("sha256"):
                continue
            copy = self.backups("file", name, sha) if self.backups and sha else None
            if copy is None:
                self._cannot(
                    "files",
                    name,
                    label,
                    "put the content back" if now else "write the file again",
                    "No backup copy in the File Manager holds the content this snapshot "
                    "recorded (the snapshot keeps only its size and hash).",
                    current=now,
                    wanted=was,
                    phase=PHASE_FILES,
                )
                continue
            self._add(
                Step(
                    "files",
                    name,
                    label,
                    f"put the content back from {copy}",
                    "write_file",
                    {"file_name": name},
                    now,
                    was,
                    PHASE_FILES,
                    source=copy,
                    sha256=sha,
                )
            )

    # ---- apps (other than rules and dashboards, which have their own categories)

    def _apps(self) -> None:
        rules = self.snapshot.get("rules") or {}
        live_rules = self.live.get("rules") or {}
        boards = self.snapshot.get("dashboards") or {}
        live_boards = self.live.get("dashboards") or {}
        for app_id, was, now in self._pairs("apps"):
            if app_id in rules or app_id in live_rules or app_id in boards or app_id in live_boards:
                continue
            if _rule_or_dashboard(was) or _rule_or_dashboard(now):
                continue  # their own categories (also when those could not be read)
            label = _label("app", app_id, was, now)
            if was is None:
                self._added(
                    "apps",
                    app_id,
                    label,
                    "app",
                    "delete_app",
                    {"app_id": app_id},
                    _brief(now),
                    PHASE_REMOVE_APPS,
                    apps=(app_id,),
                )
                continue
            if now is None:
                self._cannot(
                    "apps",
                    app_id,
                    label,
                    "bring the app back",
                    "An app removed since cannot be re-created from a snapshot (a new "
                    "instance would have a new id and none of its state); import it from an "
                    "item backup (an app import) if one exists.",
                    wanted=_brief(was),
                    phase=PHASE_APPS,
                    apps=(app_id,),
                )
                continue
            if was.get("type") == MODE_MANAGER_TYPE:
                continue  # its triggers are the modes category's Mode Manager steps
            self._app_settings(app_id, label, was, now)
            self._disabled("apps", app_id, label, was, now, PHASE_APPS)
            if was.get("name") != now.get("name"):
                self._cannot(
                    "apps",
                    app_id,
                    label,
                    f"rename {now.get('name')!r} -> {was.get('name')!r}",
                    "An app's name is set on its own page (its label input); put it back "
                    "with a settings edit or in the hub's UI.",
                    current=now.get("name"),
                    wanted=was.get("name"),
                    phase=PHASE_APPS,
                    apps=(app_id,),
                )

    def _app_settings(self, app_id: str, label: str, was: Mapping[str, Any], now: Any) -> None:
        old_s, new_s = was.get("settings"), now.get("settings")
        if not isinstance(old_s, Mapping) or not isinstance(new_s, Mapping) or old_s == new_s:
            return
        settings: dict[str, Any] = {}
        blocked: list[str] = []
        for key in sorted(set(old_s) | set(new_s)):
            if key in APP_BOOKKEEPING or old_s.get(key) == new_s.get(key):
                continue
            if key not in old_s or _has_redacted(old_s.get(key)):
                blocked.append(key)
                continue
            settings[key] = old_s[key]
        if settings:
            self._add(
                Step(
                    "apps",
                    app_id,
                    label,
                    "put back settings " + ", ".join(sorted(settings)),
                    "update_app_settings",
                    {"app_id": self._live("apps", app_id), "settings": settings},
                    {k: new_s.get(k) for k in settings},
                    settings,
                    PHASE_APPS,
                    apps=(app_id,),
                    document=settings,
                )
            )
        if blocked:
            self._cannot(
                "apps",
                app_id,
                label,
                "put back settings " + ", ".join(blocked),
                "These settings are redacted in the snapshot (secrets, never written back) or "
                "were added since (the settings editor cannot remove a setting); change them "
                "on the app's page.",
                phase=PHASE_APPS,
                apps=(app_id,),
            )

    def _disabled(
        self, category: str, app_id: str, label: str, was: Mapping[str, Any], now: Any, phase: int
    ) -> None:
        if "disabled" in was and was.get("disabled") != now.get("disabled"):
            self._add(
                Step(
                    category,
                    app_id,
                    label,
                    "disable again" if was["disabled"] else "enable again",
                    "set_app_disabled",
                    {"app_id": self._live(category, app_id), "disabled": bool(was["disabled"])},
                    now.get("disabled"),
                    was["disabled"],
                    phase,
                    apps=(app_id,),
                )
            )

    # ---- rules

    def _rules(self) -> None:
        for rule_id, was, now in self._pairs("rules"):
            label = _label("rule", rule_id, was, now)
            engine = (was or now or {}).get("engine")
            if was is None:
                action = "delete_visual_rule" if engine == "visual" else "delete_app"
                self._add(
                    Step(
                        "rules",
                        rule_id,
                        label,
                        "delete the rule added since",
                        action,
                        {"app_id": rule_id},
                        _brief(now),
                        None,
                        PHASE_REMOVE_RULES,
                        apps=(rule_id,),
                    )
                )
            elif engine == "visual":
                self._visual_rule(rule_id, label, was, now)
            elif engine == "rule_machine":
                self._rm_rule(rule_id, label, was, now)
            else:
                self._cannot(
                    "rules",
                    rule_id,
                    label,
                    "put the rule back",
                    f"Rules of engine {engine!r} are not rebuilt from snapshots; edit them "
                    "on their app page.",
                    phase=PHASE_RULES,
                    apps=(rule_id,),
                )
            if was is not None and now is not None:
                self._disabled("rules", rule_id, label, was, now, PHASE_RULES)

    def _visual_rule(self, rule_id: str, label: str, was: Mapping[str, Any], now: Any) -> None:
        definition = was.get("definition")
        if not isinstance(definition, Mapping):
            self._cannot(
                "rules",
                rule_id,
                label,
                "put the rule back",
                "The snapshot holds no definition of this Visual Rule.",
                phase=PHASE_RULES,
                apps=(rule_id,),
            )
            return
        current = now.get("definition") if isinstance(now, Mapping) else None
        if current == definition and now is not None:
            return
        if _has_redacted(definition):
            self._cannot(
                "rules",
                rule_id,
                label,
                "put the rule back",
                "The snapshot holds part of this Visual Rule redacted (a secret); it is never "
                "written back. Edit the rule in the hub's Visual Rules Builder.",
                phase=PHASE_RULES,
                apps=(rule_id,),
            )
            return
        args: dict[str, Any] = {
            "name": definition.get("name") or was.get("name"),
            "when_nodes": list(definition.get("whenNodes") or []),
            "then_nodes": list(definition.get("thenNodes") or []),
            "else_nodes": list(definition.get("elseNodes") or []),
        }
        if "rulePaused" in definition:
            args["paused"] = bool(definition["rulePaused"])
        if now is None:
            disabled = bool(was.get("disabled"))
            paused = bool(args.get("paused"))
            self._add(
                Step(
                    "rules",
                    rule_id,
                    label,
                    "create the Visual Rule again (it gets a new id)"
                    + (", paused until it is disabled again" if disabled else ""),
                    "create_visual_rule",
                    {**args, "paused": True} if disabled else args,
                    None,
                    {"definition": "as in the snapshot"},
                    PHASE_RULES,
                    document=args,
                )
            )
            if disabled:
                self._disabled_again(rule_id, label, paused)
            return
        self._add(
            Step(
                "rules",
                rule_id,
                label,
                "put the definition back",
                "update_visual_rule",
                {"app_id": self._live("rules", rule_id), **args},
                {"definition": "changed since"},
                {"definition": "as in the snapshot"},
                PHASE_RULES,
                apps=(rule_id,),
                document=args,
            )
        )

    def _disabled_again(self, rule_id: str, label: str, paused: bool) -> None:
        """After a rule the snapshot had disabled is made again (paused): disable it, then
        resume it unless it was paused too; each acts on the rule the step before made."""
        self._add(
            Step(
                "rules",
                rule_id,
                label,
                "disable it again, as the snapshot had it",
                "set_app_disabled",
                {"disabled": True},
                None,
                {"disabled": True},
                PHASE_RULES,
                app_from_previous=True,
            )
        )
        if not paused:
            self._add(
                Step(
                    "rules",
                    rule_id,
                    label,
                    "resume it (it stays disabled), as the snapshot had it",
                    "set_rule_paused",
                    {"paused": False},
                    None,
                    {"paused": False},
                    PHASE_RULES,
                    app_from_previous=True,
                )
            )

    def _rm_rule(self, rule_id: str, label: str, was: Mapping[str, Any], now: Any) -> None:
        spec = was.get("spec")
        live_spec = now.get("spec") if isinstance(now, Mapping) else None
        if now is not None and spec == live_spec and spec is not None:
            return  # rule text only (a BROKEN marker): nothing a spec edit changes
        if not isinstance(spec, Mapping) or not spec:
            self._cannot(
                "rules",
                rule_id,
                label,
                "put the rule back",
                "This snapshot holds the rule's text but not its spec (taken by an older "
                "version, or the rule could not be read); rebuild it by hand "
                "from the text.",
                wanted={"rule_text": was.get("rule_text")},
                phase=PHASE_RULES,
                apps=(rule_id,),
            )
            return
        if _has_redacted(spec):
            self._cannot(
                "rules",
                rule_id,
                label,
                "put the rule back",
                "The snapshot holds part of this rule redacted (a secret in a URL or a "
                "value); it is never written back. Edit the rule on its page.",
                phase=PHASE_RULES,
                apps=(rule_id,),
            )
            return
        if was.get("undecoded"):
            self._cannot(
                "rules",
                rule_id,
                label,
                "put the rule back",
                "Parts of the rule were not decoded when the snapshot was taken ("
                + "; ".join(str(t) for t in was["undecoded"][:3])
                + "); rebuilding it from the spec would drop them. Edit it on its page.",
                phase=PHASE_RULES,
                apps=(rule_id,),
            )
            return
        if now is None:
            disabled = bool(was.get("disabled"))
            paused = bool(spec.get("paused"))
            # a rule the snapshot had disabled is made paused, then disabled: never live
            made = {**spec, "paused": True} if disabled else dict(spec)
            self._add(
                Step(
                    "rules",
                    rule_id,
                    label,
                    "create the rule again (it gets a new id)"
                    + (", paused until it is disabled again" if disabled else ""),
                    "create_rule",
                    {"rule": made},
                    None,
                    {"spec": "as in the snapshot"},
                    PHASE_RULES,
                    document=spec,
                )
            )
            if disabled:
                self._disabled_again(rule_id, label, paused)
            return
        if now.get("undecoded"):
            self._cannot(
                "rules",
                rule_id,
                label,
                "put the rule back",
                "The rule now has parts the decoder does not know ("
                + "; ".join(str(t) for t in now["undecoded"][:3])
                + "); an edit in place would drop them. Edit it on its page.",
                phase=PHASE_RULES,
                apps=(rule_id,),
            )
            return
        self._add(
            Step(
                "rules",
                rule_id,
                label,
                "put the rule back as it was (same app id)",
                "update_rule",
                {"app_id": self._live("rules", rule_id), "rule": dict(spec)},
                {"rule_text": now.get("rule_text")},
                {"rule_text": was.get("rule_text")},
                PHASE_RULES,
                apps=(rule_id,),
                document=spec,
            )
        )

    # ---- dashboards

    def _dashboards(self) -> None:
        for board_id, was, now in self._pairs("dashboards"):
            label = _label("dashboard", board_id, was, now)
            if was is None:
                self._add(
                    Step(
                        "dashboards",
                        board_id,
                        label,
                        "delete the dashboard added since",
                        "delete_dashboard",
                        {"dashboard_id": board_id},
                        now,
                        None,
                        PHASE_REMOVE_DASHBOARDS,
                    )
                )
                continue
            devices = [str(d) for d in was.get("device_ids") or []]
            if now is None:
                args: dict[str, Any] = {"name": was["name"]}
                if was.get("type") in ("easy", "legacy"):
                    args["kind"] = was["type"]
                if devices:
                    args["device_ids"] = devices
                self._add(
                    Step(
                        "dashboards",
                        board_id,
                        label,
                        "create the dashboard again (it gets a new id; its layout is the "
                        "default one)",
                        "create_dashboard",
                        args,
                        None,
                        was,
                        PHASE_DASHBOARDS,
                        devices=tuple(devices),
                    )
                )
                continue
            args = {"dashboard_id": self._live("dashboards", board_id)}
            current: dict[str, Any] = {}
            wanted: dict[str, Any] = {}
            if was.get("name") != now.get("name"):
                args["name"] = was["name"]
                current["name"], wanted["name"] = now.get("name"), was["name"]
            if "device_ids" in was and was.get("device_ids") != now.get("device_ids"):
                args["device_ids"] = devices
                current["device_ids"], wanted["device_ids"] = now.get("device_ids"), devices
            if len(args) > 1 and was.get("type") == "legacy":
                self._cannot(
                    "dashboards",
                    board_id,
                    label,
                    "put back " + ", ".join(sorted(current)),
                    "A legacy dashboard's name and device list are changed in the hub's UI "
                    "(Apps > Hubitat Dashboard), not over the LAN.",
                    current=current,
                    wanted=wanted,
                    phase=PHASE_DASHBOARDS,
                )
            elif len(args) > 1:
                self._add(
                    Step(
                        "dashboards",
                        board_id,
                        label,
                        "put back " + ", ".join(sorted(current)),
                        "update_dashboard",
                        args,
                        current,
                        wanted,
                        PHASE_DASHBOARDS,
                        devices=tuple(devices),
                    )
                )


def _text(value: Any) -> str:
    return str(value or "").strip().lower()


# What identifies an item that may be made again under a new id.
IDENTITY: dict[str, Callable[[Mapping[str, Any]], tuple[Any, ...]]] = {
    "rooms": lambda i: (_text(i.get("name")),),
    "modes": lambda i: (_text(i.get("name")),),
    "dashboards": lambda i: (_text(i.get("name")), i.get("type")),
    "rules": lambda i: (_text(i.get("name")), i.get("engine")),
    "apps": lambda i: (_text(i.get("name")), i.get("type")),
    "code": lambda i: (i.get("kind"), _text(i.get("name")), _text(i.get("namespace"))),
}
# Fields that differ between an item and the same item made again (or that follow others).
_IDENTITY_NOISE = {
    "rooms": ("device_ids",),  # the devices' own room steps
    "code": ("version",),
    "apps": ("parent_id",),
    "rules": ("parent_id", "rule_text"),
}


def _same(category: str, was: Any, now: Any) -> bool:
    """Whether two versions of an item need no step."""
    if was == now:
        return True
    if not isinstance(was, Mapping) or not isinstance(now, Mapping):
        return False
    noise = _IDENTITY_NOISE.get(category, ())
    if category == "rules" and not ("spec" in was and "spec" in now):
        noise = ("parent_id",)  # without specs the rule text is all there is to compare
    return {k: v for k, v in was.items() if k not in noise} == {
        k: v for k, v in now.items() if k not in noise
    }


def _rule_or_dashboard(app: Any) -> bool:
    """An app entry of a rule or a dashboard (by the app type the hub gives it)."""
    kind = str(app.get("type") or "") if isinstance(app, Mapping) else ""
    return kind.startswith(("Rule-", "Visual Rule")) or kind == "Dashboard"


def _brief(item: Any) -> Any:
    """An item as a step shows it: without long maps (preferences, settings, specs)."""
    if not isinstance(item, Mapping):
        return item
    return {
        k: v
        for k, v in item.items()
        if k not in ("preferences", "settings", "spec", "definition", "rule_text")
    }


# ---------------------------------------------------------------------------- backups

MAX_BACKUP_READS = 30  # backup files read to find one plan's code and file contents
MAX_FILE_BYTES = 1024 * 1024  # as the snapshot hashes files


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def _copies_of(name: str, names: Iterable[str]) -> list[str]:
    """The File Manager's backup copies of ``name`` (``notes_backup_<time>.txt``), newest
    first (their names sort by time)."""
    base, dot, ext = name.rpartition(".")
    stem, suffix = (base, f".{ext}") if dot and base else (name, "")
    prefix = f"{stem}{BACKUP_MARK}"
    return sorted(
        (n for n in names if n.startswith(prefix) and n.endswith(suffix) and n != name),
        reverse=True,
    )


@dataclass(slots=True)
class BackupIndex:
    """Where the content a snapshot recorded (by sha256) is still kept: item backups of
    code, backup copies of files. Only the hash decides, so a file merely named like a
    backup can only ever give back the very content the snapshot recorded."""

    found: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def __call__(self, kind: str, item: str, sha: str) -> str | None:
        """The backup holding ``sha`` for this item, or None."""
        return self.found.get((kind, item, sha))

    @classmethod
    async def build(
        cls,
        snapshot: Mapping[str, Any],
        live: Mapping[str, Any],
        selection: Selection,
        *,
        item_backups: ItemBackups,
        files: FilesManager,
    ) -> BackupIndex:
        """Look up the backups of the code items and files that differ (bounded reads)."""
        index = cls()
        budget = [MAX_BACKUP_READS]
        wanted_code = [
            (key, was["sha256"])
            for key, was, now in _differing(snapshot, live, "code", selection)
            if isinstance(was, Mapping)
            and was.get("sha256")
            and (now is None or now.get("sha256") != was.get("sha256"))
        ]
        if wanted_code:
            refs = await item_backups.list()
            for key, sha in wanted_code:
                kind, _, item_id = key.rpartition("-")
                # only backups this integration wrote, and whose content names this item
                mine = [r for r in refs if r.kind == kind and r.item_id == item_id]
                for ref in [r for r in mine if item_backups.ours(r.file)]:
                    if budget[0] <= 0:
                        break
                    budget[0] -= 1
                    try:
                        doc = await item_backups.read(ref.file)
                    except (HubError, ToolError):
                        continue
                    source = doc.get("source")
                    same_item = doc.get("kind") == kind and str(doc.get("id")) == item_id
                    if same_item and isinstance(source, str) and _sha(source) == sha:
                        index.found[(kind, item_id, sha)] = ref.file
                        break
        wanted_files = [
            (name, was["sha256"])
            for name, was, now in _differing(snapshot, live, "files", selection)
            if isinstance(was, Mapping)
            and was.get("sha256")
            and (now is None or now.get("sha256") != was.get("sha256"))
        ]
        if wanted_files:
            names = [str(f.get("name")) for f in (await files.list())["files"]]
            for name, sha in wanted_files:
                for copy in _copies_of(name, names):
                    if budget[0] <= 0:
                        break
                    budget[0] -= 1
                    try:
                        _found, data = await files.download(copy, max_bytes=MAX_FILE_BYTES)
                    except (HubError, ToolError):
                        continue
                    if _sha(data) == sha:
                        index.found[("file", name, sha)] = copy
                        break
        return index


def _differing(
    snapshot: Mapping[str, Any], live: Mapping[str, Any], category: str, selection: Selection
) -> list[tuple[str, Any, Any]]:
    planner = Planner(snapshot, live, selection)
    return planner._pairs(category) if planner._comparable(category) else []


async def content_for(step: Step, *, item_backups: ItemBackups, files: FilesManager) -> str:
    """The content a code or file step writes, read from its backup when the step runs and
    checked to still hash to what the snapshot recorded (a backup changed since the plan is
    never written)."""
    assert step.source is not None
    if step.category == "code":
        doc = await item_backups.read(step.source)
        text = doc.get("source")
        if not isinstance(text, str):
            text = ""
    else:
        _found, data = await files.download(step.source, max_bytes=MAX_FILE_BYTES)
        if _sha(data) != step.sha256:
            text = ""
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ToolError(
                    f"The backup copy {step.source} is not text; it cannot be written back "
                    "with a text write. Nothing was changed.",
                    code="not_text",
                ) from err
    if _sha(text) != step.sha256:
        raise ToolError(
            f"{step.source} no longer holds the content the snapshot recorded (it changed "
            "since the plan). Nothing was written for this step.",
            code="backup_changed",
            hint="Plan the restore again.",
            subject="restore_plan",
        )
    return text
