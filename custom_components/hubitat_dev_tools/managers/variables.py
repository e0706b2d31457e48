"""Hub variables: Maker API reads and sets, recent changes, wizard create and delete.

The Maker API sees only the variables selected in its instance; the hub's list of every
variable (``/hub2/hubMeshJson``: name and type) covers the others. Their value is the one
their latest change (a ``variable:<name>`` location event) carries, when the hub still keeps
it; they cannot be set here (only the Maker API sets a value).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any, NotRequired, TypedDict, cast

from ..errors import ToolError
from ..hub.client import HubClient
from ..hub.controllers import (
    AppsController,
    DevicesController,
    EventsController,
    VariablesController,
    VisualRulesController,
)
from ..hub.effects import confirm_effect
from ..hub.errors import HubBadResponseError, HubError, HubNotFoundError
from ..hub.mesh import OwnVariable
from ..hub.models import coerce_numeric_text, parse_hub_time
from ..hub.results import ConnectorType, VariableType
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
# a change dated this much before a create started still counts as its own (hub clock skew)
CLOCK_MARGIN = timedelta(seconds=60)
VARIABLE_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


class Variable(TypedDict):
    """One hub variable, its value typed by the variable's type (a DateTime: ISO 8601 with
    offset, ``datetime_form`` ``date`` / ``time`` when it holds only that part).
    ``maker_visible`` false: the Maker API instance does not select it (its value is its
    latest change's, None when the hub keeps none; ``note`` says so)."""

    name: Any
    type: str
    value: Any
    datetime_form: NotRequired[str]
    maker_visible: NotRequired[bool]
    note: NotRequired[str]


class VariableChange(TypedDict):
    """One change of a hub variable (a location event)."""

    name: str
    value: Any
    date: Any


class VariableDetail(Variable):
    """A hub variable with its recent changes, newest first."""

    recent_changes: list[VariableChange]


HIDDEN_NOTE = (
    "The Maker API instance does not select this variable: its value is the one its latest "
    "change carries (null when the hub keeps none), and it cannot be set here. Add it to the "
    "instance's hub variables to read and set it."
)


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
    """Hub variables (Maker API; the others from the hub's list of every variable), with
    their recent changes (location events)."""

    def __init__(
        self,
        variables: VariablesController,
        events: EventsController,
        devices: DevicesController,
        apps: AppsController,
        visual_rules: VisualRulesController,
        client: HubClient,
        cache: StateCache | None = None,
    ) -> None:
        self._variables = variables
        self._events = events  # location events: the variables' changes
        self._devices = devices  # the device list: a new connector device
        self._apps = apps  # the rules that use a variable
        self._visual_rules = visual_rules
        # not for requests: whether the Maker API is configured, and the hub's time zone
        self._client = client
        self.cache = cache  # the live state cache: no hub request while it is live
        # the hub's list of every variable (names and types), briefly kept
        self._mesh_vars: tuple[float, list[OwnVariable]] | None = None

    async def _maker_list(self) -> list[dict[str, Any]]:
        """The variables the Maker API instance selects, with their values."""
        return cast(list[dict[str, Any]], await self._variables.list())

    async def _maker_get(self, name: str) -> dict[str, Any]:
        """One variable through the Maker API."""
        return cast(dict[str, Any], await self._variables.get(name))

    async def _own_variables(self) -> list[OwnVariable]:
        """Every variable of this hub (name, type) as ``/hub2/hubMeshJson`` lists them; kept
        for MESH_TTL_S (cleared by a create or delete from here)."""
        now = time.monotonic()
        if self._mesh_vars is None or now - self._mesh_vars[0] > MESH_TTL_S:
            self._mesh_vars = (now, await self._variables.own())
        return self._mesh_vars[1]

    async def _unselected(self, name: str) -> OwnVariable | None:
        """The variable ``name`` (case-sensitive) from a fresh read of the hub's list of every
        variable; None when it is not there or the list cannot be read."""
        try:
            own = await self._variables.own()
        except HubError:
            return None
        return next((v for v in own if v["name"] == name), None)

    async def _latest_values(self, names: set[str]) -> dict[str, Any]:
        """The value each named variable's latest change carries (location events, newest
        first); a name the hub keeps no change of is absent."""
        found: dict[str, Any] = {}
        for change in await self.changes(limit=None):
            if change["name"] in names:
                found.setdefault(change["name"], change["value"])
        return found

    async def list_variables(self) -> list[Variable]:
        """Every hub variable the Maker API instance may see."""
        require_maker(self._client.connection, "Reading hub variables")
        cache = self.cache
        if (items := cache.cached_variables() if cache is not None else None) is None:
            items = await self._maker_list()
            if cache is not None:
                cache.learn_variables(items)
        return sorted((_variable(v) for v in items), key=lambda v: str(v["name"]).lower())

    async def inventory(self) -> dict[str, Any]:
        """Every hub variable: the Maker-visible ones with values, plus those only the hub's
        list of every variable shows (``maker_visible: false``; type from that list, value
        from their latest change, None when the hub keeps none)."""
        seen = await self.list_variables()
        out: dict[str, Any] = {"variables": seen}
        try:
            own = await self._own_variables()
        except HubError as err:
            out["inventory_note"] = (
                f"Only what the Maker API instance sees: the hub's list of every variable "
                f"(/hub2/hubMeshJson) could not be read ({err})."
            )
            return out
        names = {str(v["name"]) for v in seen}
        unselected = [v for v in own if v["name"] not in names]
        if not unselected:
            return out
        try:
            values = await self._latest_values({v["name"] for v in unselected})
        except HubError:
            values = {}
        hidden: list[Variable] = []
        for v in unselected:
            var = _variable({"name": v["name"], "type": v["type"], "value": values.get(v["name"])})
            var["maker_visible"] = False
            hidden.append(var)
        out["variables"] = sorted([*seen, *hidden], key=lambda v: str(v["name"]).lower())
        out["hidden_note"] = (
            f"{len(hidden)} variable(s) the Maker API instance does not select "
            "(maker_visible=false): value from their latest change (null when the hub keeps "
            "none); not settable here. To set them, add them to the Maker API instance's "
            "allowed hub variables."
        )
        return out

    async def get_variable(self, name: str, *, history: int = 10) -> VariableDetail:
        """One variable with its recent changes (one the Maker API instance does not select:
        type from the hub's list of every variable, value from its latest change)."""
        require_maker(self._client.connection, "Reading hub variables")
        item, changes = await asyncio.gather(
            self._maker_get(name),
            self.changes(name=name, limit=max(history, 1)),
            return_exceptions=True,
        )
        if isinstance(item, HubNotFoundError) and not isinstance(changes, BaseException):
            own = await self._unselected(name)
            if own is None:
                raise item
            latest = changes[0]["value"] if changes else None
            hidden = _variable({"name": name, "type": own["type"], "value": latest})
            return {
                "name": hidden["name"],
                "type": hidden["type"],
                "value": hidden["value"],
                "recent_changes": changes[:history],
                "maker_visible": False,
                "note": HIDDEN_NOTE,
            }
        if isinstance(item, BaseException):
            raise item
        if isinstance(changes, BaseException):
            raise changes
        variable = _variable(item)
        return {
            "name": variable["name"],
            "type": variable["type"],
            "value": variable["value"],
            "recent_changes": changes[:history],
        }

    async def changes(
        self, *, name: str | None = None, since: datetime | None = None, limit: int | None = 50
    ) -> list[VariableChange]:
        """Hub variable changes (location events ``variable:<name>``), newest first (all of
        them with ``limit=None``)."""
        out: list[VariableChange] = []
        for ev in await self._events.location():
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
            if limit is not None and len(out) >= limit:
                break
        return out

    async def set_variable(self, name: str, value: Any) -> VariableUpdate:
        """Set a variable after checking the value against its type (Maker API only: a
        variable its instance does not select is refused, nothing sent)."""
        require_maker(self._client.connection, "Setting hub variables")
        try:
            raw = await self._maker_get(name)
        except HubNotFoundError:
            if await self._unselected(name) is not None:
                raise ToolError(
                    f"Hub variable '{name}' exists, but the Maker API instance does not select "
                    "it, and only the Maker API sets a value here. Nothing was sent.",
                    hint="Add it to the Maker API instance's hub variables, then set it again.",
                ) from None
            raise
        current = _variable(raw)
        vtype = str(current["type"])
        if vtype == "datetime":
            form = datetime_form(raw.get("value"))
            text = coerce_datetime(value, name, form, self._client.time_zone)
        else:
            text = coerce_variable(vtype, value, name)
        await self._variables.set(name, text)
        # no independent code shows this answer: the value read back decides
        now = _variable(await self._maker_get(name))
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

    async def _existing(self, name: str) -> tuple[str, bool] | None:
        """The variable named ``name`` case-insensitively (as spelled) and whether the Maker
        API sees it, read fresh: the Maker API's list, then the hub's list of every variable
        (None: neither has it, or the second cannot be read)."""
        folded = name.lower()
        for item in await self._maker_list():
            if str(item.get("name")).lower() == folded:
                return str(item.get("name")), True
        try:
            own = await self._variables.own()
        except HubError:
            return None
        spelled = next((v["name"] for v in own if v["name"].lower() == folded), None)
        return (spelled, False) if spelled is not None else None

    async def _all_names(self) -> list[str]:
        """Every variable's name: the Maker API's and the hub's list of every variable."""
        names = {str(v.get("name")) for v in await self._maker_list()}
        with contextlib.suppress(HubError):
            names |= {v["name"] for v in await self._variables.own()}
        return sorted(names, key=str.lower)

    async def create_variable(self, name: str, vtype: str, value: Any) -> Variable:
        """Create a variable through the Hub Variables wizard; done when the hub lists it
        (the Maker API, or the hub's list of every variable: a new variable is not selected
        in the Maker API instance)."""
        require_maker(self._client.connection, "Creating hub variables")
        clean = name.strip()
        if not VARIABLE_NAME_RE.match(clean):
            raise ToolError(
                f"'{name}' is not a valid hub variable name.",
                hint="Start with a letter; then letters, digits or _ (max 64), e.g. guestCount.",
            )
        if vtype not in WIZARD_TYPES:
            raise ToolError(f"Unknown type '{vtype}'. Use one of {VARIABLE_TYPES}.")
        text = coerce_variable(vtype, value, clean)
        if (existing := await self._existing(clean)) is not None:
            spelled, visible = existing
            raise ToolError(
                f"A hub variable named '{spelled}' already exists"
                + ("." if visible else " (the Maker API instance does not select it)."),
                hint="Change it, or pick another name."
                if visible
                else "Pick another name, or add it to the Maker API instance's hub variables "
                "to change it.",
                subject="variable_exists" if visible else "variable_exists_unselected",
                extra={"existing": {"kind": "variable", "id": spelled, "name": spelled}},
            )
        wizard_value: str | datetime | date = text
        if vtype == "datetime" and text.endswith(DATE_ONLY_SUFFIX):
            wizard_value = date.fromisoformat(text.removesuffix(DATE_ONLY_SUFFIX))
        elif vtype == "datetime" and (when := parse_hub_time(text)) is not None:
            wizard_value = when
        started = datetime.now(UTC) - CLOCK_MARGIN
        # the wizard waits for the hub to list it (the effect decides)
        self._mesh_vars = None
        await self._variables.create(clean, cast(VariableType, WIZARD_TYPES[vtype]), wizard_value)
        try:
            item = await self._maker_get(clean)
        except HubNotFoundError as err:
            if await self._variables.maker_lists(clean):
                raise HubBadResponseError(
                    f"The hub lists '{clean}' but does not answer for it.",
                    hint="Check Settings > Hub Variables on the hub.",
                ) from err
            return await self._created_unselected(clean, vtype, text, started)
        if self.cache is not None:
            self.cache.learn_variables([item])
        return _variable(item)

    async def _created_unselected(
        self, name: str, vtype: str, sent: str, started: datetime
    ) -> Variable:
        """A new variable the Maker API instance does not select (the hub lists it): its
        value as its change since the create carries it, else as sent (not read back)."""
        try:
            recent = await self.changes(name=name, since=started, limit=1)
        except HubError:
            recent = []
        value = recent[0]["value"] if recent else sent
        out = _variable({"name": name, "type": vtype, "value": value})
        out["maker_visible"] = False
        out["note"] = (
            "Created. The Maker API instance does not select it (a new variable is not): "
            "add it to the instance's hub variables to set it here. "
            + (
                "The value is its latest change's."
                if recent
                else "The value is as sent: no change of it is kept to read it back."
            )
        )
        return out

    async def create_connector(self, name: str, connector_type: str | None) -> Connector:
        """Make a connector device for a variable (Hub Variables page); done when a new
        device shows in the device list."""
        require_maker(self._client.connection, "Creating variable connectors")
        current = _variable((await self._fetch_existing(name))[0])
        numeric = current["type"] in ("integer", "bigdecimal")
        if connector_type is not None and not numeric:
            raise ToolError(
                f"Hub variable '{name}' is {current['type']}: only Number and Decimal "
                "variables have a connector type.",
                hint="Leave connector_type out.",
            )
        chosen = (connector_type or "Variable") if numeric else None
        before = {d.id for d in await self._devices.list()}
        found: list[str] = []

        async def appeared() -> bool:
            new = [d for d in await self._devices.list() if d.id not in before]
            # the first connector also brings the parent device the hub hangs them under
            children = [d.id for d in new if d.parent_id is not None]
            found[:] = sorted(children or [d.id for d in new])
            return bool(found)

        await confirm_effect(
            lambda: self._variables.create_connector(name, cast(ConnectorType | None, chosen)),
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
        rules = [a for a in await self._apps.list() if a.is_rm_rule or a.is_visual_rule]

        async def definition(app_id: str, visual: bool) -> Any:
            if not visual:
                return await self._apps.config_page(app_id, None)
            data: Any = await self._visual_rules.definition(app_id)
            return data or await self._visual_rules.graph(app_id)

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
        """Delete a variable through the wizard; refused while a rule uses it unless force.
        Done when it is gone from the list that showed it (Maker API, or the hub's list of
        every variable for one the Maker API instance does not select)."""
        require_maker(self._client.connection, "Deleting hub variables")
        raw, visible = await self._fetch_existing(name)
        current = _variable(raw)
        users = await self.variable_users(name)
        if users and not force:
            listed = ", ".join(f"{u['name']} (app {u['app_id']})" for u in users)
            raise ToolError(
                f"Hub variable '{name}' is used by {listed}; deleting it would break them.",
                hint="Change those rules first, or pass force=true if the user accepts "
                "breaking them.",
            )
        # tried twice (the hub sometimes drops the first try); done once it is gone
        await self._variables.delete(name, maker_visible=visible)
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

    async def _fetch_existing(self, name: str) -> tuple[dict[str, Any], bool]:
        """The variable ``{name, value, type}`` and whether the Maker API sees it (one it does
        not: type from the hub's list of every variable, value from its latest change)."""
        try:
            return await self._maker_get(name), True
        except HubNotFoundError:
            if (own := await self._unselected(name)) is not None:
                try:
                    latest = (await self._latest_values({name})).get(name)
                except HubError:
                    latest = None
                return {"name": name, "type": own["type"], "value": latest}, False
            names = await self._all_names()
            raise ToolError(
                f"No hub variable '{name}' (names are case-sensitive). Variables: "
                f"{', '.join(names) or 'none'}.",
                subject="variable_missing",
            ) from None
