"""Creating and deleting hub variables through the hub's Hub Variables app (its wizard).

The hub has no JSON endpoint for this: the hub's own UI drives the classic Hub Variables
singleton app page by page, and so do we (through ``app_page``). The sequence follows the on-hub
server (``libraries/mcp-variables-lib.groovy``, verified live on firmware 2.5.0.x):

* before each click the wizard is "primed" with a read of configure/json and statusJson (a
  click on an unprimed wizard is silently ignored);
* create: ``moreVar`` (``stateAttribute=moreVar``), then ONE field per settings submit, in
  order ``hbVar``, ``varType``, then ``varValue``, each after re-reading
  ``configure/json/<id>/hubVar`` and with that read's ``version`` (each field reveals the
  next one). A DateTime is the exception: the hub commits it as soon as ``varDate`` arrives
  (date-only when no ``varTime`` came with it) and closes the form, so ``varDate`` and
  ``varTime`` (``HH:mm``) go in ONE submit, as the hub UI posts its whole form (the on-hub server
  issue
  #447, replayed against fw 2.5.1.181); ``dateTimeDone`` is clicked only if the variable is
  not there yet. ``varDate`` alone makes a date-only variable;
* delete: the variable's own button (``stateAttribute=deleteGV``), then ``delConfirm``; the
  hub sometimes drops the first such sequence, so it is tried twice;
* the answers say nothing reliable about the outcome: the effect is polled for about 2 s
  after each attempt, and decides. A new variable is listed by the Maker API only once it is
  selected in the Maker API instance (its documentation: only the selected variables are
  accessible), so "listed" is the Maker API's list or else the hub's list of every variable
  (``/hub2/hubMeshJson``, see ``variables.fetch_own_variables``); "gone" is decided by the
  list that showed the variable.

The wizard's clicks carry the ``hubVar`` page context (``formAction``, ``currentPage``,
breadcrumbs, ``version``): the on-hub server's live-verified wizard sends them (the one place where
a click needs more than the hub UI's bare click, see ``app_page``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, datetime
from urllib.parse import quote

from .app_page import AppPage, Setting
from .apps import fetch_app_tree
from .client import HubClient
from .effects import wait_for_effect
from .errors import HubBadResponseError, HubError, HubRefusedError
from .variables import fetch_own_variables, fetch_variables

HUBVARS_APP_TYPE = "Hub Variables"
HUBVARS_PAGE = "hubVar"
# settings[varType] -> the input type each field is posted with (on-hub server)
_FIELD_TYPES = {"hbVar": "text", "varType": "enum", "varValue": "textarea"}
_DATE_TYPES = {"varDate": "date", "varTime": "time"}
EFFECT_WAIT = 2.0  # seconds the effect of one attempt is polled for
EFFECT_STEP = 0.3
DELETE_ATTEMPTS = 2


async def find_hub_variables_app(client: HubClient) -> str:
    """The Hub Variables singleton's app id (installing it on first use, as the hub UI does)."""
    for attempt in (1, 2):
        for app in await fetch_app_tree(client):
            if app.type == HUBVARS_APP_TYPE:
                return app.id
        if attempt == 1:  # the UI's entry point: installs the singleton, then 302s to it
            await client.request("GET", "/installedapp/direct/hubVariables", expect="text")
    raise HubBadResponseError("The hub has no Hub Variables app (Settings > Hub Variables).")


async def prime_wizard(client: HubClient, app_id: str) -> None:
    """GET configure/json + statusJson, as the on-hub server does before every wizard click."""
    await client.get_json(f"/installedapp/configure/json/{quote(app_id, safe='')}")
    await client.get_json(f"/installedapp/statusJson/{quote(app_id, safe='')}")


def wizard_page(client: HubClient, app_id: str) -> AppPage:
    """The wizard's page (``hubVar``, under ``mainPage``); read before each step."""
    return AppPage(client, app_id, name=HUBVARS_PAGE)


async def wizard_button(page: AppPage, button: str, state_attribute: str | None = None) -> None:
    """Prime the wizard, then click one of its buttons (with the hubVar page context)."""
    await prime_wizard(page.client, page.app_id)
    await page.reload()  # the version the click carries
    await page.click(
        button, state_attribute=state_attribute, with_context=True, what=f"click '{button}'"
    )


async def wizard_field(page: AppPage, name: str, value: str, input_type: str) -> None:
    """Re-read the hubVar page, then post ONE field with that read's version."""
    await wizard_fields(page, {name: (value, input_type)})


async def wizard_fields(page: AppPage, fields: dict[str, tuple[str, str]]) -> None:
    """Re-read the hubVar page, then post these fields (value, input type) in one submit."""
    await page.reload()
    missing = [name for name in fields if name not in page.inputs]
    if missing:
        listed = ", ".join(sorted(page.inputs)) or "none"
        raise HubBadResponseError(
            f"The Hub Variables page did not offer '{missing[0]}' (its inputs: {listed})",
            hint="This firmware's Hub Variables wizard differs; report the firmware version.",
        )
    await page.set(
        {name: Setting(value, kind, False) for name, (value, kind) in fields.items()},
        what=f"save the variable's {', '.join(fields)}",
        subject=None,
    )


async def wait_for(check: Callable[[], Awaitable[bool]], seconds: float | None = None) -> bool:
    """Poll ``check`` (first at once, then every ``EFFECT_STEP``) for up to ``seconds``
    (default ``EFFECT_WAIT``)."""
    wait = EFFECT_WAIT if seconds is None else seconds
    return await wait_for_effect(check, seconds=wait, interval=EFFECT_STEP)


async def maker_lists(client: HubClient, name: str) -> bool:
    """Whether the Maker API lists the variable ``name`` (only its instance's selection)."""
    return name in {str(v.get("name")) for v in await fetch_variables(client)}


async def hub_lists(client: HubClient, name: str) -> bool | None:
    """Whether the hub's list of every variable (``/hub2/hubMeshJson``) has ``name``; None
    when that list cannot be read."""
    try:
        own = await fetch_own_variables(client)
    except HubError:
        return None
    return name in {v["name"] for v in own}


async def variable_listed(client: HubClient, name: str) -> bool:
    """Whether the hub has the variable ``name`` (the effect of a create): the Maker API
    lists it, or else the hub's list of every variable does (a new variable is not selected
    in the Maker API instance)."""
    return await maker_lists(client, name) or bool(await hub_lists(client, name))


def date_time_fields(when: datetime) -> tuple[str, str]:
    """``varDate`` and ``varTime`` of a date-time: its own wall clock, time as ``HH:mm``
    (the wizard takes no seconds and no offset: the hub reads them in its time zone)."""
    return when.strftime("%Y-%m-%d"), when.strftime("%H:%M")


async def create_variable(
    client: HubClient, name: str, wizard_type: str, value: str | datetime | date
) -> None:
    """Create a hub variable through the wizard; done when the Maker API lists it.

    A refusal whose effect is there anyway counts as done; an answer of success with no
    variable after the wait is a :class:`HubBadResponseError`.
    """
    app_id = await find_hub_variables_app(client)
    page = wizard_page(client, app_id)
    try:
        await wizard_button(page, "moreVar", "moreVar")
        await wizard_field(page, "hbVar", name, _FIELD_TYPES["hbVar"])
        await wizard_field(page, "varType", wizard_type, _FIELD_TYPES["varType"])
        if isinstance(value, datetime):
            day, clock = date_time_fields(value)
            fields = {"varDate": (day, _DATE_TYPES["varDate"])}
            fields["varTime"] = (clock, _DATE_TYPES["varTime"])
            await wizard_fields(page, fields)  # together: varDate alone commits date-only
            if not await variable_listed(client, name):
                await wizard_button(page, "dateTimeDone")
        elif isinstance(value, date):
            await wizard_field(page, "varDate", value.isoformat(), _DATE_TYPES["varDate"])
        else:
            await wizard_field(page, "varValue", value, _FIELD_TYPES["varValue"])
    except HubRefusedError:
        if await variable_listed(client, name):
            return
        raise
    if not await wait_for(lambda: variable_listed(client, name)):
        raise HubBadResponseError(
            f"The hub accepted the wizard steps but does not list '{name}' among its hub "
            "variables.",
            hint="Check Settings > Hub Variables on the hub.",
        )


async def delete_variable(client: HubClient, name: str, *, maker_visible: bool = True) -> int:
    """Delete a hub variable through the wizard; return the attempts it took.

    Each attempt is the variable's delete button (``deleteGV``), then ``delConfirm``, then
    up to ``EFFECT_WAIT`` seconds of polling for it to be gone from the list that showed it:
    the Maker API's, or (``maker_visible`` false: a variable its instance does not select)
    the hub's list of every variable, read successfully. A refused click is not the end:
    the effect decides.
    """

    async def gone() -> bool:
        if maker_visible:
            return not await maker_lists(client, name)
        return await hub_lists(client, name) is False

    app_id = await find_hub_variables_app(client)
    page = wizard_page(client, app_id)
    refusal: HubRefusedError | None = None
    for attempt in range(1, DELETE_ATTEMPTS + 1):
        try:
            await wizard_button(page, name, "deleteGV")
            await wizard_button(page, "delConfirm")
        except HubRefusedError as err:
            refusal = err
        if await wait_for(gone):
            return attempt
    if refusal is not None:
        raise refusal
    raise HubBadResponseError(
        f"The hub accepted the wizard steps but '{name}' is still listed after "
        f"{DELETE_ATTEMPTS} attempts.",
        hint="Check Settings > Hub Variables on the hub.",
    )


# Connector device types a Number/Decimal variable offers (settings[capab]; the on-hub server,
# reference §10)
CONNECTOR_TYPES = ("Variable", "Dimmer", "Volume", "ColorTemp", "Humidity", "Illuminance")


async def create_connector(client: HubClient, name: str, connector_type: str | None) -> None:
    """Ask the Hub Variables page for a connector device of the variable ``name``.

    The on-hub server's live-verified sequence: prime, the variable's own button with
    ``stateAttribute=createCon`` (a String/Boolean/DateTime connector is made on that click),
    then for a Number/Decimal the chooser's ``capab`` enum on the ``hubVar`` page. The caller
    decides by the effect (a new device).
    """
    app_id = await find_hub_variables_app(client)
    page = wizard_page(client, app_id)
    await wizard_button(page, name, "createCon")
    if connector_type is None:
        return
    await prime_wizard(client, app_id)
    await page.reload()
    if "capab" in page.inputs:  # only Number/Decimal variables show the chooser
        await page.set(
            {"capab": Setting(connector_type, "enum", False)},
            what=f"choose the connector type of '{name}'",
            subject=None,
        )
