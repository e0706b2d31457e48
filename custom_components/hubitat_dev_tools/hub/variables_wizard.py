"""Creating and deleting hub variables through the hub's Hub Variables app (its wizard).

The hub has no JSON endpoint for this: the hub's own UI drives the classic Hub Variables
singleton app page by page, and so do we (through ``app_page``).
"""

from __future__ import annotations

from urllib.parse import quote

from .app_page import AppPage, Setting
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


def wizard_page(client: HubClient, app_id: str) -> AppPage:
    """The wizard's page: the UI posts on ``hubVar`` (under ``mainPage``) with no version."""
    return AppPage(client, app_id, name=HUBVARS_PAGE, versioned=False)


async def wizard_button(page: AppPage, button: str, state_attribute: str | None = None) -> None:
    """Click a wizard button (with the hubVar page context)."""
    await page.click(
        button, state_attribute=state_attribute, with_context=True, what=f"click '{button}'"
    )


async def wizard_settings(page: AppPage, settings: dict[str, str]) -> None:
    """Post text settings (``varType`` is the wizard's one enum) on the hubVar page."""
    fields = {
        key: Setting(value, "enum" if key == "varType" else "text", False)
        for key, value in settings.items()
    }
    await page.set(fields, what="save the variable", subject=None)


async def create_variable(client: HubClient, name: str, wizard_type: str, value: str) -> None:
    """Create a hub variable through the wizard (moreVar, then the settings)."""
    app_id = await find_hub_variables_app(client)
    await prime_wizard(client, app_id)
    page = wizard_page(client, app_id)
    await wizard_button(page, "moreVar", "moreVar")
    if wizard_type == "DateTime":
        date, _, time = value.partition("T")
        await wizard_settings(page, {"hbVar": name, "varType": wizard_type, "varDate": date})
        await wizard_settings(page, {"varTime": time})
        await wizard_button(page, "dateTimeDone")
        return
    await wizard_settings(page, {"hbVar": name, "varType": wizard_type})
    await wizard_settings(page, {"varValue": value})


async def delete_variable(client: HubClient, name: str) -> None:
    """Delete a hub variable through the wizard (<name> as deleteGV, then delConfirm)."""
    app_id = await find_hub_variables_app(client)
    await prime_wizard(client, app_id)
    page = wizard_page(client, app_id)
    await wizard_button(page, name, "deleteGV")
    await wizard_button(page, "delConfirm")
