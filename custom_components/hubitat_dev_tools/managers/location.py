"""Modes, HSM and hub variables: the home's location state."""

from __future__ import annotations

import asyncio
import json
import re
import time
from datetime import datetime
from typing import Any

from ..errors import ToolError
from ..hub import location as api
from ..hub import variables_wizard
from ..hub.apps import fetch_app_tree, fetch_config_page, fetch_rule_builder, fetch_rule_builder20
from ..hub.client import HubClient
from ..hub.errors import HubBadResponseError, HubNotFoundError, MakerNotConfiguredError
from ..hub.logs import fetch_location_events
from ..hub.models import coerce_numeric_text, norm_id, parse_hub_time
from ..hub.state_cache import StateCache

# How long the live cache may answer the list of modes (the active mode is event-driven).
MODES_TTL = 60.0

HSM_COMMANDS = (
    "armAway",
    "armHome",
    "armNight",
    "armAll",
    "disarm",
    "disarmAll",
    "armRules",
    "disarmRules",
    "cancelAlerts",
)
VARIABLE_TYPES = ("integer", "bigdecimal", "boolean", "string", "datetime")
# The Hub Variables wizard's type names (settings[varType]).
WIZARD_TYPES = {
    "integer": "Number",
    "bigdecimal": "Decimal",
    "boolean": "Boolean",
    "string": "String",
    "datetime": "DateTime",
}
VARIABLE_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


def _maker_required(what: str) -> MakerNotConfiguredError:
    return MakerNotConfiguredError(
        f"{what} needs the hub's Maker API, which is not configured for this hub."
    )


class ModeManager:
    """Location modes."""

    def __init__(self, client: HubClient, cache: StateCache | None = None) -> None:
        self._client = client
        self.cache = cache

    async def _modes_payload(self) -> tuple[dict[str, Any], bool]:
        """The hub's mode list; from the live cache when it is fresh (no hub request).

        Mode changes arrive as events, so the active mode is always current; the list of
        modes itself has no event, so it is re-read after MODES_TTL seconds or our own edit.
        """
        cache = self.cache
        if cache is not None and cache.live and cache.mode is not None:
            cached = cache.modes_payload
            if cached is not None and time.monotonic() - cached[0] < MODES_TTL:
                return cached[1], True
            data = await api.fetch_modes(self._client)
            cache.modes_payload = (time.monotonic(), data)
            return data, True
        return await api.fetch_modes(self._client), False

    def _invalidate(self) -> None:
        if self.cache is not None:
            self.cache.modes_payload = None

    async def list_modes(self) -> dict[str, Any]:
        """Modes with the active one."""
        data, from_cache = await self._modes_payload()
        current = norm_id(data.get("currentModeId"))
        live_name = self.cache.mode if from_cache and self.cache is not None else None
        modes = [
            {
                "mode_id": norm_id(m.get("id")),
                "name": m.get("name"),
                "icon": m.get("icon"),
                "active": (m.get("name") == live_name)
                if live_name is not None
                else norm_id(m.get("id")) == current,
            }
            for m in data.get("modes") or []
            if isinstance(m, dict)
        ]
        active = next((m["name"] for m in modes if m["active"]), None)
        return {
            "modes": modes,
            "active_mode": active,
            "mode_manager": data.get("selectedModeManager"),
        }

    async def resolve(self, mode: str) -> dict[str, Any]:
        """A mode by name (case-insensitive) or id."""
        listing = await self.list_modes()
        wanted = mode.strip().lower()
        for m in listing["modes"]:
            if str(m["mode_id"]) == wanted or str(m["name"]).lower() == wanted:
                found: dict[str, Any] = {**m, "_active_mode": listing["active_mode"]}
                return found
        names = ", ".join(str(m["name"]) for m in listing["modes"])
        raise ToolError(
            f"No mode '{mode}' on the hub. Modes: {names}.",
            hint="Use a mode name from hub_list_modes, or create it with hub_create_mode.",
        )

    async def set_mode(self, mode: str) -> dict[str, Any]:
        """Activate a mode (Maker API when configured, else the hub UI's endpoint)."""
        target = await self.resolve(mode)
        previous = target["_active_mode"]
        if target["active"]:
            return {"mode": target["name"], "previous_mode": previous, "changed": False}
        if self._client.connection.has_maker:
            await api.activate_mode_maker(self._client, str(target["mode_id"]))
            via = "maker_api"
        else:
            await api.activate_mode_admin(self._client, str(target["mode_id"]))
            via = "admin"
        if self.cache is not None:  # the mode event follows; reads right now are exact too
            self.cache.mode = str(target["name"])
        return {"mode": target["name"], "previous_mode": previous, "changed": True, "via": via}

    async def _check_new_name(self, name: str, except_id: str | None = None) -> str:
        clean = name.strip()
        if not clean:
            raise ToolError("A mode name cannot be empty.")
        for m in (await self.list_modes())["modes"]:
            if str(m["name"]).lower() == clean.lower() and m["mode_id"] != except_id:
                raise ToolError(f"A mode named '{m['name']}' already exists.")
        return clean

    async def create(self, name: str, icon: str | None) -> dict[str, Any]:
        """Create a mode."""
        clean = await self._check_new_name(name)
        await api.create_mode(self._client, clean, icon)
        self._invalidate()
        created = await self.resolve(clean)
        return {"mode_id": created["mode_id"], "name": clean}

    async def rename(self, mode: str, new_name: str, icon: str | None) -> dict[str, Any]:
        """Rename a mode (and/or change its icon)."""
        target = await self.resolve(mode)
        clean = await self._check_new_name(new_name, except_id=target["mode_id"])
        await api.update_mode(self._client, str(target["mode_id"]), clean, icon)
        self._invalidate()
        return {"mode_id": target["mode_id"], "name": clean, "renamed_from": target["name"]}

    async def delete(self, mode: str) -> dict[str, Any]:
        """Delete a mode (never the active one)."""
        target = await self.resolve(mode)
        if target["active"]:
            raise ToolError(
                f"'{target['name']}' is the active mode; the hub cannot delete it.",
                hint="Switch to another mode with hub_set_mode first.",
            )
        await api.delete_mode(self._client, str(target["mode_id"]))
        self._invalidate()
        return {"mode_id": target["mode_id"], "name": target["name"]}


class HsmManager:
    """Hubitat Safety Monitor."""

    def __init__(self, client: HubClient, cache: StateCache | None = None) -> None:
        self._client = client
        self.cache = cache  # the live state cache: no hub request while it is live

    async def status(self) -> dict[str, Any]:
        """Armed status and any active alert (admin /hub/messages; no Maker API needed)."""
        cache = self.cache
        if cache is not None and cache.live and cache.hsm_status is not None:
            data: dict[str, Any] = {"hsm": cache.hsm_status, "hsmAlert": cache.hsm_alert}
        else:
            data = await api.fetch_messages(self._client)
        alert = data.get("hsmAlert")
        return {
            "status": data.get("hsm"),
            "active_alert": alert if alert not in (None, "", "null", "cancel") else None,
            "commands": list(HSM_COMMANDS),
            "can_change": self._client.connection.has_maker,
        }

    async def command(self, command: str, *, confirm: bool) -> dict[str, Any]:
        """Run an HSM command through the Maker API (confirm=true required)."""
        if command not in HSM_COMMANDS:
            raise ToolError(f"Unknown HSM command '{command}'. Use one of {HSM_COMMANDS}.")
        if not self._client.connection.has_maker:
            raise _maker_required("Changing HSM")
        if not confirm:
            raise ToolError(
                f"HSM '{command}' changes the home's security state and needs confirm=true.",
                code="confirmation_required",
                hint="Ask the user to confirm, then call again with confirm=true.",
            )
        before = await self.status()
        status = await api.hsm_command(self._client, command)
        out: dict[str, Any] = {"command": command, "previous_status": before["status"]}
        out["status"] = status
        if status and status.startswith("arming"):
            out["note"] = (
                "HSM is arming (exit delay); read hub_get_hsm_status later to see it armed."
            )
        return out


def coerce_variable(vtype: str, value: Any, name: str) -> str:
    """Check a value against a hub variable's type; return the text to send."""
    where = f"Hub variable '{name}' is {vtype}"
    if vtype == "integer":
        if isinstance(value, bool):
            raise ToolError(f"{where}; got a boolean.")
        try:
            number = float(str(value).strip())
        except ValueError:
            raise ToolError(f"{where}; got {value!r}.") from None
        if not number.is_integer():
            raise ToolError(f"{where} (whole numbers only); got {value!r}.")
        return str(int(number))
    if vtype == "bigdecimal":
        if isinstance(value, bool):
            raise ToolError(f"{where}; got a boolean.")
        try:
            float(str(value).strip())
        except ValueError:
            raise ToolError(f"{where} (a number); got {value!r}.") from None
        return str(value).strip()
    if vtype == "boolean":
        if isinstance(value, bool):
            return "true" if value else "false"
        if str(value).strip().lower() in ("true", "false"):
            return str(value).strip().lower()
        raise ToolError(f"{where}; give true or false, got {value!r}.")
    if vtype == "datetime":
        if parse_hub_time(str(value)) is None:
            raise ToolError(
                f"{where}; give an ISO date-time like 2026-06-27T10:30:00-06:00, got {value!r}."
            )
        return str(value).strip()
    if isinstance(value, dict | list):
        raise ToolError(f"{where}; give text, not an object.")
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if not text:
        raise ToolError(f"{where}; the hub does not accept an empty string.")
    return text


def _variable(item: dict[str, Any]) -> dict[str, Any]:
    vtype = str(item.get("type") or "string").lower()
    value = item.get("value")
    if vtype in ("integer", "bigdecimal"):
        value = coerce_numeric_text(value)
    elif vtype == "boolean" and isinstance(value, str):
        value = value.lower() == "true"
    return {"name": item.get("name"), "type": vtype, "value": value}


class VariableManager:
    """Hub variables (Maker API), with their recent changes (location events)."""

    def __init__(self, client: HubClient, cache: StateCache | None = None) -> None:
        self._client = client
        self.cache = cache  # the live state cache: no hub request while it is live

    def _need_maker(self, what: str) -> None:
        if not self._client.connection.has_maker:
            raise _maker_required(what)

    async def list_variables(self) -> list[dict[str, Any]]:
        """Every hub variable the Maker API instance may see."""
        self._need_maker("Reading hub variables")
        cache = self.cache
        if (items := cache.cached_variables() if cache is not None else None) is None:
            items = await api.fetch_variables(self._client)
            if cache is not None:
                cache.learn_variables(items)
        return sorted((_variable(v) for v in items), key=lambda v: str(v["name"]).lower())

    async def get_variable(self, name: str, *, history: int = 10) -> dict[str, Any]:
        """One variable with its recent changes."""
        self._need_maker("Reading hub variables")
        item, changes = await asyncio.gather(
            api.fetch_variable(self._client, name), self.changes(name=name, limit=history)
        )
        return _variable(item) | {"recent_changes": changes}

    async def changes(
        self, *, name: str | None = None, since: datetime | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        """Hub variable changes (location events ``variable:<name>``), newest first."""
        out: list[dict[str, Any]] = []
        for ev in await fetch_location_events(self._client):
            ev_name = str(ev.get("name") or "")
            if not ev_name.startswith("variable:"):
                continue
            var = ev_name.removeprefix("variable:")
            if name is not None and var != name:
                continue
            when = parse_hub_time(ev.get("date"))
            if since is not None and (when is None or when <= since):
                continue
            out.append({"name": var, "value": ev.get("value"), "date": ev.get("date")})
            if len(out) >= limit:
                break
        return out

    async def set_variable(self, name: str, value: Any) -> dict[str, Any]:
        """Set a variable after checking the value against its type."""
        self._need_maker("Setting hub variables")
        current = _variable(await api.fetch_variable(self._client, name))
        text = coerce_variable(str(current["type"]), value, name)
        updated = _variable(await api.set_variable(self._client, name, text))
        return {"name": name, "type": current["type"], "previous": current["value"]} | {
            "value": updated["value"]
        }

    async def _names(self) -> dict[str, str]:
        """Existing variable names (lower-cased -> as spelled), read fresh from the hub."""
        items = await api.fetch_variables(self._client)
        return {str(v.get("name")).lower(): str(v.get("name")) for v in items}

    async def create_variable(self, name: str, vtype: str, value: Any) -> dict[str, Any]:
        """Create a variable through the Hub Variables wizard; verified via the Maker API."""
        self._need_maker("Creating hub variables")
        clean = name.strip()
        if not VARIABLE_NAME_RE.match(clean):
            raise ToolError(
                f"'{name}' is not a valid hub variable name.",
                hint="Start with a letter; then letters, digits or _ (max 64), e.g. guestCount.",
            )
        if vtype not in WIZARD_TYPES:
            raise ToolError(f"Unknown type '{vtype}'. Use one of {VARIABLE_TYPES}.")
        text = coerce_variable(vtype, value, clean)
        if vtype == "datetime":
            when = parse_hub_time(text)
            assert when is not None  # coerce_variable checked it
            text = when.isoformat(timespec="seconds")
        existing = (await self._names()).get(clean.lower())
        if existing is not None:
            raise ToolError(
                f"A hub variable named '{existing}' already exists.",
                hint="Change it with hub_set_variable, or pick another name.",
            )
        await variables_wizard.create_variable(self._client, clean, WIZARD_TYPES[vtype], text)
        try:
            item = await api.fetch_variable(self._client, clean)
        except HubNotFoundError as err:
            raise HubBadResponseError(
                f"The hub accepted the wizard steps but '{clean}' does not show in the Maker "
                "API's hub variables.",
                hint="Check Settings > Hub Variables on the hub; the Maker API instance may "
                "not be allowed to see new variables.",
            ) from err
        if self.cache is not None:
            self.cache.learn_variables([item])
        return _variable(item)

    async def variable_users(self, name: str) -> list[dict[str, Any]]:
        """Rule Machine rules and Visual Rules whose definition mentions the variable."""
        word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
        rules = [a for a in await fetch_app_tree(self._client) if a.is_rm_rule or a.is_visual_rule]

        async def definition(app_id: str, visual: bool) -> Any:
            if not visual:
                return await fetch_config_page(self._client, app_id, None)
            data: Any = await fetch_rule_builder(self._client, app_id)
            return data or await fetch_rule_builder20(self._client, app_id)

        found = await asyncio.gather(*(definition(r.id, r.is_visual_rule) for r in rules))
        return [
            {
                "app_id": r.id,
                "name": r.name,
                "engine": "visual" if r.is_visual_rule else "rule_machine",
            }
            for r, body in zip(rules, found, strict=True)
            if word.search(json.dumps(body, default=str))
        ]

    async def delete_variable(self, name: str, *, force: bool = False) -> dict[str, Any]:
        """Delete a variable through the wizard; refused while a rule uses it unless force."""
        self._need_maker("Deleting hub variables")
        current = _variable(await self._fetch_existing(name))
        users = await self.variable_users(name)
        if users and not force:
            listed = ", ".join(f"{u['name']} (app {u['app_id']})" for u in users)
            raise ToolError(
                f"Hub variable '{name}' is used by {listed}; deleting it would break them.",
                hint="Change those rules first, or pass force=true if the user accepts "
                "breaking them.",
            )
        await variables_wizard.delete_variable(self._client, name)
        if self.cache is not None:
            self.cache.variables.pop(name, None)
        if name in {str(v.get("name")) for v in await api.fetch_variables(self._client)}:
            raise HubBadResponseError(
                f"The hub accepted the wizard steps but '{name}' is still listed.",
                hint="Check Settings > Hub Variables on the hub.",
            )
        out: dict[str, Any] = {
            "name": name,
            "type": current["type"],
            "last_value": current["value"],
        }
        if users:
            out["broken_users"] = users
        return out

    async def _fetch_existing(self, name: str) -> dict[str, Any]:
        try:
            return await api.fetch_variable(self._client, name)
        except HubNotFoundError:
            names = sorted((await self._names()).values(), key=str.lower)
            raise ToolError(
                f"No hub variable '{name}' (names are case-sensitive). Variables: "
                f"{', '.join(names) or 'none'}.",
                hint="List them with hub_list_variables.",
            ) from None
