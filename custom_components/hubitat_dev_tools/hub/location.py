"""Location endpoints: modes, HSM and hub variables (admin + Maker API)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .apps import fetch_app_tree
from .client import HubClient
from .errors import HubBadResponseError
from .models import dict_list


async def fetch_modes(client: HubClient) -> dict[str, Any]:
    """GET /modes/json: {modes:[{id,name,icon,conditions}], currentModeId, ...}."""
    data = await client.get_json("/modes/json")
    return data if isinstance(data, dict) else {}


async def activate_mode_maker(client: HubClient, mode_id: str) -> Any:
    """Maker GET /modes/<id> (returns the full modes list)."""
    return await client.maker_get(f"modes/{quote(mode_id, safe='')}")


async def activate_mode_admin(client: HubClient, mode_id: str) -> None:
    """Admin POST /location/mode/update {modeId} (the hub UI's path)."""
    await client.post_json(
        "/location/mode/update", {"modeId": int(mode_id)}, what="activate the mode"
    )


async def create_mode(client: HubClient, name: str, icon: str | None) -> None:
    """POST /modes/jsonCreate."""
    body: dict[str, Any] = {"name": name}
    if icon:
        body["icon"] = icon
    await client.post_json("/modes/jsonCreate", body, what=f"create mode '{name}'")


async def update_mode(client: HubClient, mode_id: str, name: str, icon: str | None) -> None:
    """POST /modes/jsonUpdate {id, name, icon?}."""
    body: dict[str, Any] = {"id": int(mode_id), "name": name}
    if icon:
        body["icon"] = icon
    await client.post_json("/modes/jsonUpdate", body, what="update the mode")


async def delete_mode(client: HubClient, mode_id: str) -> None:
    """GET /modes/jsonDelete/<id>."""
    await client.request(
        "GET", f"/modes/jsonDelete/{int(mode_id)}", expect="any", what="delete the mode"
    )


async def fetch_messages(client: HubClient) -> dict[str, Any]:
    """GET /hub/messages: current mode, hsm status and hsmAlert (no Maker API needed)."""
    data = await client.get_json("/hub/messages")
    return data if isinstance(data, dict) else {}


async def hsm_command(client: HubClient, command: str) -> str | None:
    """Maker GET /hsm/<cmd> -> the status right after the command."""
    data = await client.maker_get(f"hsm/{quote(command, safe='')}")
    return str(data.get("hsm")) if isinstance(data, dict) and data.get("hsm") else None


async def fetch_variables(client: HubClient) -> list[dict[str, Any]]:
    """Maker GET /hubvariables: [{name, value, type}]."""
    data = await client.maker_get("hubvariables")
    return dict_list(data)


async def fetch_variable(client: HubClient, name: str) -> dict[str, Any]:
    """Maker GET /hubvariables/<name>."""
    data = await client.maker_get(f"hubvariables/{quote(name, safe='')}")
    if not isinstance(data, dict):
        raise HubBadResponseError(f"Unexpected answer for hub variable {name}")
    return data


async def set_variable(client: HubClient, name: str, value: str) -> dict[str, Any]:
    """Maker GET /hubvariables/<name>/<value> -> the variable with its new value."""
    data = await client.maker_get(f"hubvariables/{quote(name, safe='')}/{quote(value, safe='')}")
    if not isinstance(data, dict):
        raise HubBadResponseError(f"Unexpected answer setting hub variable {name}")
    return data


# ---------------------------------------------------------------- Hub Variables wizard (§10)

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
