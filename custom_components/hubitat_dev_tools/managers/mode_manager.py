"""Mode Manager: which manager runs, and the Integrated Mode Manager's triggers by meaning.

Read: ``/modes/json`` (the selection and the apps' ids) with
``/modes/easyModeManager/json`` (the triggers), as one answer. Write: the trigger object is
a full replacement, so it is read fresh, changed for ONE list (a mode's triggers, its
other-days triggers or Away's exit triggers), posted whole, and read back until the hub
holds what was sent. The manager selection is read back from ``/modes/json``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from ..errors import ToolError
from ..hub import mode_manager as api
from ..hub.controllers import ModesController
from ..hub.effects import confirm_effect
from ..hub.errors import HubBadResponseError, HubNotFoundError
from ..hub.models import norm_id
from ..hub.results import ModeConditions, ModeManagerId
from . import mode_triggers as triggers

if TYPE_CHECKING:
    from ..hub.state_cache import StateCache

# A mode by name or id, with the active mode's name (``ModeManager.resolve``).
ResolveMode = Callable[[str], Awaitable[tuple[Mapping[str, Any], Any]]]

CONDITIONS_TTL = 60.0  # seconds a read of the triggers answers the mode list (live cache)
TRIGGER_SETS = ("mode", "other_days", "exit_away")
MANAGER_NAMES = {
    "builtIn": "Integrated Mode Manager",
    "app": "Mode Manager app",
    "legacy": "legacy Mode Manager app",
    "none": "other apps",
}
_APP_KEYS = {"app": "modeManagerAppId", "legacy": "legacyModeManagerAppId"}


def _app_id(data: dict[str, Any], key: str) -> str | None:
    value = norm_id(data.get(key))
    return value if value not in (None, "0") else None


class ModeManagerConfig:
    """The hub's Mode Manager (owned by the modes manager: ``hub.modes.manager_config``,
    which hands it ``resolve_mode`` and the live state cache)."""

    def __init__(self, modes: ModesController, resolve_mode: ResolveMode) -> None:
        self._modes = modes
        self._resolve_mode = resolve_mode
        # The live state cache (handed on by ``ModeManager``): while it runs, a read of the
        # triggers answers for CONDITIONS_TTL seconds.
        self.cache: StateCache | None = None
        self._cached: tuple[float, dict[str, list[dict[str, Any]]]] | None = None

    async def _fetch_conditions(self) -> dict[str, list[dict[str, Any]]]:
        return cast(dict[str, list[dict[str, Any]]], await self._modes.conditions())

    async def _fetch_modes(self) -> dict[str, Any]:
        return cast(dict[str, Any], await self._modes.get())

    async def _conditions(self, *, fresh: bool = False) -> dict[str, list[dict[str, Any]]]:
        cache = self.cache
        live = cache is not None and cache.live
        cached = self._cached
        if not fresh and live and cached and time.monotonic() - cached[0] < CONDITIONS_TTL:
            return cached[1]
        data = await self._fetch_conditions()
        self._cached = (time.monotonic(), data) if live else None
        return data

    async def overview(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The selected manager, the apps installed and every mode's triggers (``payload``:
        the ``/modes/json`` answer the caller already has). A hub without the Integrated
        Mode Manager's endpoint (older firmware) answers the rest, saying so."""
        try:
            conditions = await self._conditions()
        except (HubNotFoundError, HubBadResponseError):
            out = self._describe(payload, {})
            out.pop("triggers", None)
            out["triggers_unreadable"] = True
            return out
        return self._describe(payload, conditions)

    def _describe(
        self, payload: dict[str, Any], conditions: dict[str, list[dict[str, Any]]]
    ) -> dict[str, Any]:
        selected = payload.get("selectedModeManager")
        out: dict[str, Any] = {
            "selected": selected,
            "runs": MANAGER_NAMES.get(str(selected), selected),
        }
        for field, key in (
            ("integrated_app_id", "easyModeManagerAppId"),
            ("app_id", "modeManagerAppId"),
            ("legacy_app_id", "legacyModeManagerAppId"),
        ):
            if (value := _app_id(payload, key)) is not None:
                out[field] = value
        if selected in _APP_KEYS:
            out["note"] = (
                "A classic app runs the modes; its settings are on its app page "
                "(app_id). The Integrated triggers below are not in use."
            )
        per_mode: list[dict[str, Any]] = []
        for mode in payload.get("modes") or []:
            if not isinstance(mode, dict):
                continue
            mode_id = norm_id(mode.get("id"))
            entry = self._mode_entry(mode.get("name"), mode_id, conditions)
            if entry is not None:
                per_mode.append(entry)
        out["triggers"] = per_mode
        if exit_away := conditions.get(api.EXIT_AWAY):
            out["exit_away"] = [triggers.describe(t) for t in exit_away if not _days(t)]
        return out

    @staticmethod
    def _mode_entry(
        name: Any, mode_id: str | None, conditions: dict[str, list[dict[str, Any]]]
    ) -> dict[str, Any] | None:
        own = conditions.get(str(mode_id)) or []
        alt = conditions.get(f"{api.ALT_PREFIX}{mode_id}") or []
        if not own and not alt:
            return None
        entry: dict[str, Any] = {
            "mode": name,
            "mode_id": mode_id,
            "triggers": [triggers.describe(t) for t in own if not _days(t)],
        }
        days = next((t for t in own if _days(t)), None)
        if days is not None:
            entry["days"] = triggers.day_names(days)
        other = [triggers.describe(t) for t in alt if not _days(t)]
        if other:
            entry["other_days_triggers"] = other
        return entry

    async def update(
        self,
        *,
        mode: str | None,
        trigger_specs: list[dict[str, Any]] | None,
        add: bool = False,
        trigger_set: str = "mode",
        days: list[str] | None = None,
        manager: str | None = None,
    ) -> dict[str, Any]:
        """Change the selection and/or one trigger list; every change is read back."""
        if manager is None and trigger_specs is None and days is None:
            raise ToolError("Nothing to change: give triggers, days or manager.")
        changed: list[str] = []
        if manager is not None:
            await self._select(manager)
            changed.append(f"manager {manager}")
        mode_name: Any = None
        if trigger_specs is not None or days is not None:
            mode_name = await self._write_triggers(mode, trigger_specs, add, trigger_set, days)
            what = "days" if trigger_specs is None else f"{trigger_set.replace('_', ' ')} triggers"
            changed.append(f"{what} of {mode_name}")
        self._cached = None
        view = self._describe(await self._fetch_modes(), await self._conditions(fresh=True))
        return {"changed": changed, "mode_manager": view}

    async def _select(self, manager: str) -> None:
        if manager not in api.MANAGER_IDS:
            raise ToolError(f"Unknown manager '{manager}'. Use one of {api.MANAGER_IDS}.")
        payload = await self._fetch_modes()
        key = _APP_KEYS.get(manager)
        if key is not None and _app_id(payload, key) is None:
            raise ToolError(
                f"The hub has no {MANAGER_NAMES[manager]} to select.",
                hint="Install it on the hub first, or select builtIn (Integrated).",
            )
        if payload.get("selectedModeManager") == manager:
            return

        async def selected() -> bool:
            data = await self._fetch_modes()
            return data.get("selectedModeManager") == manager

        await confirm_effect(
            lambda: self._modes.select_manager(cast(ModeManagerId, manager)),
            selected,
            failed=f"The hub answered the change of mode manager but still runs another one "
            f"than '{manager}'.",
        )

    async def _write_triggers(
        self,
        mode: str | None,
        trigger_specs: list[dict[str, Any]] | None,
        add: bool,
        trigger_set: str,
        days: list[str] | None,
    ) -> Any:
        if trigger_set not in TRIGGER_SETS:
            raise ToolError(f"trigger_set is one of {TRIGGER_SETS}.")
        built = [triggers.build(s) for s in trigger_specs] if trigger_specs is not None else None
        wanted_days = triggers.parse_days(days) if days is not None else None
        own_key = other_key = None
        if trigger_set == "exit_away":
            if wanted_days is not None:
                raise ToolError("days applies to a mode's own triggers, not Away's exit.")
            key, name = api.EXIT_AWAY, "Away (exit)"
        else:
            if not mode:
                raise ToolError("Say which mode's triggers change (mode).")
            target, _active = await self._resolve_mode(mode)
            own_key = str(target["mode_id"])
            other_key = f"{api.ALT_PREFIX}{own_key}"
            key, name = (own_key if trigger_set == "mode" else other_key), target["name"]
        current = await self._conditions(fresh=True)
        new = {k: list(v) for k, v in current.items()}
        touched = set()
        if built is not None:
            new[key] = _merged(current.get(key) or [], built, add, None)
            touched.add(key)
        if wanted_days is not None and own_key is not None and other_key is not None:
            # the hub UI keeps the two lists' days complementary (updateDaysOfWeek)
            rest = [d for d in range(7) if d not in wanted_days]
            new[own_key] = _merged(new.get(own_key) or [], None, False, wanted_days)
            new[other_key] = _merged(new.get(other_key) or [], None, False, rest)
            touched |= {own_key, other_key}
        await self._save(new, {k: new[k] for k in touched})
        return name

    async def _save(
        self, new: dict[str, list[dict[str, Any]]], touched: dict[str, list[dict[str, Any]]]
    ) -> None:
        def held(data: dict[str, list[dict[str, Any]]]) -> bool:
            for k, sent in touched.items():
                got = data.get(k) or []
                if len(got) != len(sent) or not all(
                    triggers.same_trigger(s, g) for s, g in zip(sent, got, strict=True)
                ):
                    return False
            return True

        async def check() -> bool:
            return held(await self._fetch_conditions())

        self._cached = None
        await confirm_effect(
            lambda: self._modes.save_conditions(cast(ModeConditions, new)),
            check,
            failed="The hub answered the Mode Manager change but its triggers read back unchanged.",
        )


def _days(item: dict[str, Any]) -> bool:
    return triggers.is_days_entry(item)


def _merged(
    existing: list[dict[str, Any]],
    built: list[dict[str, Any]] | None,
    add: bool,
    days: list[int] | None,
) -> list[dict[str, Any]]:
    """A trigger list with the change: ``built`` replaces (or with ``add`` extends) the
    triggers, ``days`` replaces the days entry; the days entry stays last (as the hub UI
    keeps it)."""
    plain = [t for t in existing if not _days(t)]
    days_item = next((t for t in existing if _days(t)), None)
    if built is not None:
        plain = plain + built if add else list(built)
    if days is not None:
        days_item = triggers.days_entry(days, len(plain))
    elif days_item is not None:
        days_item = {**days_item, "index": len(plain)}
    return plain + ([days_item] if days_item is not None else [])
