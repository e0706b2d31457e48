"""Hub variables: Maker API reads and sets, recent changes, wizard create and delete."""

from __future__ import annotations

import asyncio
import json
import re
import time
from datetime import date, datetime, tzinfo
from typing import Any, NotRequired, TypedDict

from ..errors import ToolError
from ..hub import variables as api
from ..hub import variables_wizard
from ..hub.apps import fetch_app_tree, fetch_config_page, fetch_rule_builder, fetch_rule_builder20
from ..hub.client import HubClient
from ..hub.devices import fetch_devices
from ..hub.effects import confirm_effect
from ..hub.errors import HubBadResponseError, HubError, HubNotFoundError
from ..hub.logs import fetch_location_events
from ..hub.mesh import fetch_hub_mesh
from ..hub.models import coerce_numeric_text, parse_hub_time
from ..hub.state_cache import StateCache
from ..hub.variables import (
    DATE_ONLY_SUFFIX,
    TIME_ONLY_PREFIX,
    datetime_answer,
    datetime_form,
    hub_datetime,
)
from .maker import require_maker

VARIABLE_TYPES = ("integer", "bigdecimal", "boolean", "string", "datetime")
# The Hub Variables wizard's type names (settings[varType]).
WIZARD_TYPES = {
    "integer": "Number",
    "bigdecimal": "Decimal",
    "boolean": "Boolean",
    "string": "String",
    "datetime": "DateTime",
}
MESH_TTL_S = 300.0
VARIABLE_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


class Variable(TypedDict):
    """One hub variable, its value typed by the variable's type (a DateTime: ISO 8601 with
    offset, ``datetime_form`` ``date`` / ``time`` when it holds only that part)."""

    name: Any
    type: str
    value: Any
    datetime_form: NotRequired[str]


class VariableChange(TypedDict):
    """One change of a hub variable (a location event)."""

    name: str
    value: Any
    date: Any


class VariableDetail(Variable):
    """A hub variable with its recent changes, newest first."""

    recent_changes: list[VariableChange]


class VariableUpdate(TypedDict):
    """A hub variable set to a new value."""

    name: str
    type: str
    previous: Any
    value: Any


class Connector(TypedDict):
    """A connector device made for a hub variable."""

    name: str
    type: str
    device_ids: list[str]
    connector_type: str | None


class VariableUser(TypedDict):
    """A rule whose definition mentions a hub variable."""

    app_id: str
    name: str
    engine: str


class DeletedVariable(TypedDict):
    """A deleted hub variable (``broken_users`` only when forced past rules using it)."""

    name: str
    type: str
    last_value: Any
    broken_users: NotRequired[list[VariableUser]]


_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


_CLOCK_IN_RE = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
_OFFSET_RE = re.compile(r"T.*(Z|[+-]\d{2}:?\d{2})$")


def time_only_form(value: Any, name: str, tz: tzinfo | None) -> str:
    """A time-only DateTime variable's new value as the hub stores one:
    ``9999-99-99THH:mm:00.000±hhmm`` (the date part all nines, the time in the hub's zone
    with its current offset; evcallia/hubitat schedule-manager formats it the same way).
    Takes ``HH:MM`` or an ISO date-time with its offset (its clock time in the hub's zone);
    the hub's time zone must be known."""
    text = str(value).strip() if isinstance(value, str) else ""
    where = f"Hub variable '{name}' is datetime holding only a time of day"
    if tz is None:
        raise ToolError(
            f"{where}, and the hub's time zone is not known yet, so its offset cannot be "
            "written. Nothing was sent.",
            hint="Try again in a minute (the zone is read when the integration connects).",
        )
    if m := _CLOCK_IN_RE.match(text):
        clock = f"{m.group(1)}:{m.group(2)}"
    elif _OFFSET_RE.search(text) and (when := parse_hub_time(text)) is not None:
        clock = when.astimezone(tz).strftime("%H:%M")
    else:
        raise ToolError(
            f"{where}; give HH:MM (24-hour), e.g. 06:45, or a date-time with its offset, "
            f"got {value!r}. Nothing was sent."
        )
    offset = datetime.now(tz).strftime("%z") or "+0000"
    return f"{TIME_ONLY_PREFIX}{clock}:00.000{offset}"


def coerce_datetime(
    value: Any, name: str, form: str | None = None, tz: tzinfo | None = None
) -> str:
    """A DateTime variable's new value in the hub's stored form: a full ISO date-time as
    ``yyyy-MM-ddTHH:mm:ss.SSS±hhmm``, a date (for a date-only variable, or to create one) as
    ``yyyy-MM-ddT99:99:99.999-9999``, a time of day (for a time-only variable) as
    ``9999-99-99THH:mm:ss.SSS±hhmm`` (``tz``: the hub's zone)."""
    text = str(value).strip()
    where = f"Hub variable '{name}' is datetime"
    if form == "time":
        return time_only_form(value, name, tz)
    if _DATE_RE.match(text) and form in ("date", None):
        return text + DATE_ONLY_SUFFIX
    when = parse_hub_time(text) if isinstance(value, str) else None
    if when is None:
        raise ToolError(
            f"{where}; give an ISO date-time like 2026-06-27T10:30:00-06:00, got {value!r}."
        )
    if form == "date":
        return when.strftime("%Y-%m-%d") + DATE_ONLY_SUFFIX
    return hub_datetime(when)


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
        return coerce_datetime(value, name)
    if isinstance(value, dict | list):
        raise ToolError(f"{where}; give text, not an object.")
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if not text:
        raise ToolError(f"{where}; the hub does not accept an empty string.")
    return text


def _variable(item: dict[str, Any]) -> Variable:
    vtype = str(item.get("type") or "string").lower()
    value = item.get("value")
    if vtype in ("integer", "bigdecimal"):
        value = coerce_numeric_text(value)
    elif vtype == "boolean" and isinstance(value, str):
        value = value.lower() == "true"
    out: Variable = {"name": item.get("name"), "type": vtype, "value": value}
    if vtype == "datetime":
        out["value"] = datetime_answer(value)
        if (form := datetime_form(value)) in ("date", "time"):
            out["datetime_form"] = str(form)
    return out


def _same_value(vtype: str, got: Any, wanted: Any) -> bool:
    """Whether a value read back is the one sent (date-times compared as instants)."""
    if vtype == "datetime":
        a, b = parse_hub_time(got), parse_hub_time(wanted)
        return a == b if a is not None and b is not None else got == wanted
    return bool(got == wanted)


class VariableManager:
    """Hub variables (Maker API), with their recent changes (location events)."""

    def __init__(self, client: HubClient, cache: StateCache | None = None) -> None:
        self._client = client
        self.cache = cache  # the live state cache: no hub request while it is live
        # the Hub Mesh page's list of this hub's variables (names and types), briefly kept
        self._mesh_vars: tuple[float, list[dict[str, Any]]] | None = None

    async def _own_variables(self) -> list[dict[str, Any]]:
        """Every variable of this hub (name, type) as the Hub Mesh page lists them; kept
        for MESH_TTL_S (cleared by a create or delete from here)."""
        now = time.monotonic()
        if self._mesh_vars is None or now - self._mesh_vars[0] > MESH_TTL_S:
            self._mesh_vars = (now, (await fetch_hub_mesh(self._client)).variables)
        return self._mesh_vars[1]

    async def list_variables(self) -> list[Variable]:
        """Every hub variable the Maker API instance may see."""
        require_maker(self._client, "Reading hub variables")
        cache = self.cache
        if (items := cache.cached_variables() if cache is not None else None) is None:
            items = await api.fetch_variables(self._client)
            if cache is not None:
                cache.learn_variables(items)
        return sorted((_variable(v) for v in items), key=lambda v: str(v["name"]).lower())

    async def inventory(self) -> dict[str, Any]:
        """Every hub variable: the Maker-visible ones with values, plus those only the Hub
        Mesh page lists (name and type; ``maker_visible: false``, value unknown)."""
        seen = await self.list_variables()
        out: dict[str, Any] = {"variables": seen}
        try:
            own = await self._own_variables()
        except HubError as err:
            out["inventory_note"] = (
                f"Only what the Maker API instance sees: the Hub Mesh page, which lists every "
                f"variable, could not be read ({err})."
            )
            return out
        names = {str(v["name"]) for v in seen}
        hidden = [
            {"name": v["name"], "type": v["type"], "value": None, "maker_visible": False}
            for v in own
            if v["name"] not in names
        ]
        if hidden:
            out["variables"] = sorted([*seen, *hidden], key=lambda v: str(v["name"]).lower())
            out["hidden_note"] = (
                f"{len(hidden)} variable(s) the Maker API instance does not see "
                "(maker_visible=false): value unknown, not readable or settable here. To "
                "see them, add them to the Maker API instance's allowed hub variables."
            )
        return out

    async def get_variable(self, name: str, *, history: int = 10) -> VariableDetail:
        """One variable with its recent changes."""
        require_maker(self._client, "Reading hub variables")
        item, changes = await asyncio.gather(
            api.fetch_variable(self._client, name), self.changes(name=name, limit=history)
        )
        variable = _variable(item)
        return {
            "name": variable["name"],
            "type": variable["type"],
            "value": variable["value"],
            "recent_changes": changes,
        }

    async def changes(
        self, *, name: str | None = None, since: datetime | None = None, limit: int = 50
    ) -> list[VariableChange]:
        """Hub variable changes (location events ``variable:<name>``), newest first."""
        out: list[VariableChange] = []
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

    async def set_variable(self, name: str, value: Any) -> VariableUpdate:
        """Set a variable after checking the value against its type."""
        require_maker(self._client, "Setting hub variables")
        raw = await api.fetch_variable(self._client, name)
        current = _variable(raw)
        vtype = str(current["type"])
        if vtype == "datetime":
            form = datetime_form(raw.get("value"))
            text = coerce_datetime(value, name, form, self._client.time_zone)
        else:
            text = coerce_variable(vtype, value, name)
        await api.set_variable(self._client, name, text)
        # no independent code shows this answer: the value read back decides
        now = _variable(await api.fetch_variable(self._client, name))
        wanted = _variable({"name": name, "type": vtype, "value": text})["value"]
        if not _same_value(vtype, now["value"], wanted):
            raise HubBadResponseError(
                f"The hub answered the change of hub variable '{name}' but it reads "
                f"{now['value']!r}, not {wanted!r}.",
                hint="Check the variable under Settings > Hub Variables on the hub.",
            )
        return {
            "name": name,
            "type": current["type"],
            "previous": current["value"],
            "value": now["value"],
        }

    async def _names(self) -> dict[str, str]:
        """Existing variable names (lower-cased -> as spelled), read fresh from the hub."""
        items = await api.fetch_variables(self._client)
        return {str(v.get("name")).lower(): str(v.get("name")) for v in items}

    async def _hidden_name(self, name: str) -> str | None:
        """A variable the Maker API does not see with ``name`` (case-insensitive), from a
        fresh read of the Hub Mesh page (None when it cannot be read)."""
        try:
            own = (await fetch_hub_mesh(self._client)).variables
        except HubError:
            return None
        return next((str(v["name"]) for v in own if str(v["name"]).lower() == name.lower()), None)

    async def create_variable(self, name: str, vtype: str, value: Any) -> Variable:
        """Create a variable through the Hub Variables wizard; verified via the Maker API."""
        require_maker(self._client, "Creating hub variables")
        clean = name.strip()
        if not VARIABLE_NAME_RE.match(clean):
            raise ToolError(
                f"'{name}' is not a valid hub variable name.",
                hint="Start with a letter; then letters, digits or _ (max 64), e.g. guestCount.",
            )
        if vtype not in WIZARD_TYPES:
            raise ToolError(f"Unknown type '{vtype}'. Use one of {VARIABLE_TYPES}.")
        text = coerce_variable(vtype, value, clean)
        existing = (await self._names()).get(clean.lower()) or await self._hidden_name(clean)
        if existing is not None:
            raise ToolError(
                f"A hub variable named '{existing}' already exists.",
                hint="Change it with hub_set_variable, or pick another name.",
                extra={"existing": {"kind": "variable", "id": existing, "name": existing}},
            )
        wizard_value: str | datetime | date = text
        if vtype == "datetime" and text.endswith(DATE_ONLY_SUFFIX):
            wizard_value = date.fromisoformat(text.removesuffix(DATE_ONLY_SUFFIX))
        elif vtype == "datetime" and (when := parse_hub_time(text)) is not None:
            wizard_value = when
        # the wizard waits for the Maker API to list it (the effect decides)
        self._mesh_vars = None
        await variables_wizard.create_variable(
            self._client, clean, WIZARD_TYPES[vtype], wizard_value
        )
        try:
            item = await api.fetch_variable(self._client, clean)
        except HubNotFoundError as err:
            raise HubBadResponseError(
                f"The hub lists '{clean}' but does not answer for it.",
                hint="Check Settings > Hub Variables on the hub.",
            ) from err
        if self.cache is not None:
            self.cache.learn_variables([item])
        return _variable(item)

    async def create_connector(self, name: str, connector_type: str | None) -> Connector:
        """Make a connector device for a variable (Hub Variables page); done when a new
        device shows in the device list."""
        require_maker(self._client, "Creating variable connectors")
        current = _variable(await self._fetch_existing(name))
        numeric = current["type"] in ("integer", "bigdecimal")
        if connector_type is not None and not numeric:
            raise ToolError(
                f"Hub variable '{name}' is {current['type']}: only Number and Decimal "
                "variables have a connector type.",
                hint="Leave connector_type out.",
            )
        chosen = (connector_type or "Variable") if numeric else None
        before = {d.id for d in await fetch_devices(self._client)}
        found: list[str] = []

        async def appeared() -> bool:
            new = [d for d in await fetch_devices(self._client) if d.id not in before]
            # the first connector also brings the parent device the hub hangs them under
            children = [d.id for d in new if d.parent_id is not None]
            found[:] = sorted(children or [d.id for d in new])
            return bool(found)

        await confirm_effect(
            lambda: variables_wizard.create_connector(self._client, name, chosen),
            appeared,
            failed=f"The hub accepted the connector request for '{name}' but no new device "
            "appeared.",
        )
        return {
            "name": name,
            "type": current["type"],
            "device_ids": found,
            "connector_type": chosen,
        }

    async def variable_users(self, name: str) -> list[VariableUser]:
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
            VariableUser(
                app_id=r.id,
                name=r.name,
                engine="visual" if r.is_visual_rule else "rule_machine",
            )
            for r, body in zip(rules, found, strict=True)
            if word.search(json.dumps(body, default=str))
        ]

    async def delete_variable(self, name: str, *, force: bool = False) -> DeletedVariable:
        """Delete a variable through the wizard; refused while a rule uses it unless force."""
        require_maker(self._client, "Deleting hub variables")
        current = _variable(await self._fetch_existing(name))
        users = await self.variable_users(name)
        if users and not force:
            listed = ", ".join(f"{u['name']} (app {u['app_id']})" for u in users)
            raise ToolError(
                f"Hub variable '{name}' is used by {listed}; deleting it would break them.",
                hint="Change those rules first, or pass force=true if the user accepts "
                "breaking them.",
            )
        # tried twice (the hub sometimes drops the first try); done once it is gone
        await variables_wizard.delete_variable(self._client, name)
        self._mesh_vars = None
        if self.cache is not None:
            self.cache.variables.pop(name, None)
        out: DeletedVariable = {
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
