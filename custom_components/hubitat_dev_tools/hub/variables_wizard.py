"""Creating and deleting hub variables through the hub's Hub Variables app (its wizard).

The hub has no JSON endpoint for this: the hub's own UI drives the classic Hub Variables
singleton app page by page, and so do we.
"""

from __future__ import annotations

from urllib.parse import quote

from .apps import fetch_app_tree
from .client import HubClient
from .errors import HubBadResponseError

HUBVARS_APP_TYPE = "Hub Variables"
HUBVARS_PAGE = "hubVar"


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
    """GET configure/json + statusJson, as the hub UI does before a wizard action."""
    await client.get_json(f"/installedapp/configure/json/{quote(app_id, safe='')}")
    await client.get_json(f"/installedapp/statusJson/{quote(app_id, safe='')}")


async def wizard_button(
    client: HubClient, app_id: str, button: str, state_attribute: str | None = None
) -> None:
    """POST /installedapp/btn on the hubVar page."""
    form = {
        "id": app_id,
        "name": button,
        f"settings[{button}]": "clicked",
        f"{button}.type": "button",
        "formAction": "update",
        "currentPage": HUBVARS_PAGE,
        "pageBreadcrumbs": '["mainPage"]',
    }
    if state_attribute:
        form["stateAttribute"] = state_attribute
    await client.post_form("/installedapp/btn", form, what=f"click '{button}'")


async def wizard_settings(client: HubClient, app_id: str, settings: dict[str, str]) -> None:
    """POST /installedapp/update/json with settings[<k>]=<v> on the hubVar page."""
    form = {
        "id": app_id,
        "formAction": "update",
        "currentPage": HUBVARS_PAGE,
        "pageBreadcrumbs": '["mainPage"]',
    }
    for key, value in settings.items():
        form[f"settings[{key}]"] = value
        form[f"{key}.type"] = "enum" if key == "varType" else "text"
        form[f"{key}.multiple"] = "false"
    await client.post_form("/installedapp/update/json", form, what="save the variable")


async def create_variable(client: HubClient, name: str, wizard_type: str, value: str) -> None:
    """Create a hub variable through the wizard (moreVar, then the settings)."""
    app_id = await find_hub_variables_app(client)
    await prime_wizard(client, app_id)
    await wizard_button(client, app_id, "moreVar", "moreVar")
    if wizard_type == "DateTime":
        date, _, time = value.partition("T")
        await wizard_settings(
            client, app_id, {"hbVar": name, "varType": wizard_type, "varDate": date}
        )
        await wizard_settings(client, app_id, {"varTime": time})
        await wizard_button(client, app_id, "dateTimeDone")
        return
    await wizard_settings(client, app_id, {"hbVar": name, "varType": wizard_type})
    await wizard_settings(client, app_id, {"varValue": value})


async def delete_variable(client: HubClient, name: str) -> None:
    """Delete a hub variable through the wizard (<name> as deleteGV, then delConfirm)."""
    app_id = await find_hub_variables_app(client)
    await prime_wizard(client, app_id)
    await wizard_button(client, app_id, name, "deleteGV")
    await wizard_button(client, app_id, "delConfirm")
