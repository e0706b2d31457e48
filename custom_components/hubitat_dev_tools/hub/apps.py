"""Installed apps, Rule Machine and Visual Rules endpoints (hub reference §12)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, quote

from .client import HubClient
from .errors import HubBadResponseError, HubError, HubNotFoundError, HubRefusedError
from .models import norm_id

RM_PARENT_TYPES = ("Rule Machine",)
VRB_TYPE = "Visual Rule Builder"
_VRB_ID_RE = re.compile(r"HubitatRuleBuilder(20)?AppId\s*=\s*['\"]?(\d+)")


@dataclass(slots=True)
class InstalledApp:
    """One node of the installed-app tree."""

    id: str
    name: str
    type: str
    disabled: bool
    user: bool
    hidden: bool
    parent_id: str | None
    depth: int
    children: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        out: dict[str, Any] = {
            "app_id": self.id,
            "name": self.name,
            "type": self.type,
            "disabled": self.disabled,
            "user": self.user,
            "parent_id": self.parent_id,
            "depth": self.depth,
        }
        if self.hidden:
            out["hidden"] = True
        if self.children:
            out["child_count"] = len(self.children)
        return out

    @property
    def is_rm_rule(self) -> bool:
        """Return True for Rule Machine rules (Rule-5.x / Rule-4.x)."""
        return self.type.startswith("Rule-")

    @property
    def is_visual_rule(self) -> bool:
        """Return True for Visual Rules Builder rules."""
        return self.type == VRB_TYPE


def _strip_html(text: Any) -> str:
    return re.sub(r"<[^>]+>", "", str(text or "")).strip()


def parse_app_tree(payload: Any) -> list[InstalledApp]:
    """Flatten ``/hub2/appsList`` into tree order with parent ids and depth."""
    out: list[InstalledApp] = []

    def walk(nodes: Any, parent: InstalledApp | None, depth: int) -> None:
        for node in nodes if isinstance(nodes, list) else []:
            if not isinstance(node, dict):
                continue
            data: dict[str, Any] = node["data"] if isinstance(node.get("data"), dict) else node
            app_id = norm_id(data.get("id") or node.get("id"))
            if app_id is None:
                continue
            app = InstalledApp(
                id=app_id,
                name=_strip_html(data.get("name")) or f"app {app_id}",
                type=str(data.get("type") or ""),
                disabled=bool(data.get("disabled")),
                user=bool(data.get("user")),
                hidden=bool(data.get("hidden")),
                parent_id=parent.id if parent else None,
                depth=depth,
            )
            if parent is not None:
                parent.children.append(app_id)
            out.append(app)
            walk(node.get("children"), app, depth + 1)

    walk(payload.get("apps") if isinstance(payload, dict) else payload, None, 0)
    return out


async def fetch_app_tree(client: HubClient) -> list[InstalledApp]:
    """Every installed app, in tree order."""
    return parse_app_tree(await client.get_json("/hub2/appsList"))


def _app_not_found(app_id: str) -> HubNotFoundError:
    return HubNotFoundError(f"No installed app with id {app_id}", subject="app")


async def fetch_config_page(client: HubClient, app_id: str, page: str | None) -> dict[str, Any]:
    """``/installedapp/configure/json/<id>[/<page>]``."""
    path = f"/installedapp/configure/json/{quote(app_id, safe='')}"
    if page:
        path += f"/{quote(page, safe='')}"
    try:
        data = await client.get_json(path)
    except HubNotFoundError as err:
        raise _app_not_found(app_id) from err
    if not isinstance(data, dict) or not data.get("app"):
        raise _app_not_found(app_id)
    return data


def maybe_json(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


async def fetch_status(client: HubClient, app_id: str) -> dict[str, Any]:
    """``/installedapp/statusJson/<id>`` with ``appState`` as a dict (JSON strings parsed)."""
    try:
        data = await client.get_json(f"/installedapp/statusJson/{quote(app_id, safe='')}")
    except HubNotFoundError as err:
        raise _app_not_found(app_id) from err
    if not isinstance(data, dict):
        raise _app_not_found(app_id)
    state: dict[str, Any] = {}
    raw_state = data.get("appState")
    if isinstance(raw_state, list):
        for item in raw_state:
            if isinstance(item, dict) and item.get("name") is not None:
                state[str(item["name"])] = maybe_json(item.get("value"))
    elif isinstance(raw_state, dict):
        state = {k: maybe_json(v) for k, v in raw_state.items()}
    data["appState"] = state
    return data


async def set_app_disabled(client: HubClient, app_id: str, disabled: bool) -> None:
    """``POST /installedapp/disable`` JSON {id, disable}."""
    await client.post_json(
        "/installedapp/disable",
        {"id": int(app_id), "disable": disabled},
        what=f"{'disable' if disabled else 'enable'} app {app_id}",
    )


async def delete_app(client: HubClient, app_id: str, *, force: bool) -> None:
    """Force delete (``forcedelete/<id>/quiet``) or soft delete (``delete/<id>``)."""
    sid = quote(app_id, safe="")
    path = f"/installedapp/forcedelete/{sid}/quiet" if force else f"/installedapp/delete/{sid}"
    await client.request("GET", path, expect="text")


async def click_button(
    client: HubClient,
    app_id: str,
    button: str,
    *,
    state_attribute: str | None = None,
    page: str | None = None,
    version: Any = None,
) -> None:
    """``POST /installedapp/btn`` (the classic app engine's button click); with ``page`` the
    page context the hub UI sends (formAction, currentPage, breadcrumbs, version)."""
    form = {
        "id": app_id,
        "name": button,
        f"settings[{button}]": "clicked",
        f"{button}.type": "button",
    }
    if state_attribute:
        form["stateAttribute"] = state_attribute
    if page is not None:
        form["formAction"] = "update"
        form["currentPage"] = page
        form["pageBreadcrumbs"] = "[]" if page == "mainPage" else '["mainPage"]'
        form["version"] = str(version if version is not None else "")
    await client.post_form("/installedapp/btn", form, what=f"press {button} on app {app_id}")


async def post_app_settings(
    client: HubClient,
    app_id: str,
    *,
    page: str,
    version: Any,
    fields: dict[str, tuple[str, str, bool]],
) -> Any:
    """``POST /installedapp/update/json``: the classic app engine's settings submit.

    ``fields`` maps an input name to (encoded value, input type, multiple). Device inputs also
    name themselves in ``deviceList``, as the hub's page does.
    """
    form: dict[str, str] = {
        "id": app_id,
        "version": str(version if version is not None else ""),
        "formAction": "update",
        "currentPage": page,
        "pageBreadcrumbs": "[]" if page == "mainPage" else '["mainPage"]',
    }
    device_lists = []
    for name, (value, input_type, multiple) in fields.items():
        form[f"settings[{name}]"] = value
        form[f"{name}.type"] = input_type
        form[f"{name}.multiple"] = "true" if multiple else "false"
        if input_type.startswith(("capability.", "device.")):
            device_lists.append(name)
    if device_lists:
        form["deviceList"] = ",".join(device_lists)
    try:
        return await client.post_form(
            "/installedapp/update/json", form, what=f"save the settings of app {app_id}"
        )
    except HubRefusedError as err:
        err.subject = "app_settings"
        raise


async def click_page_button(
    client: HubClient, app_id: str, button: str, *, page: str, version: Any
) -> None:
    """A button on a classic app page, with the page context the hub UI sends."""
    await click_button(client, app_id, button, page=page, version=version)


_CONFIGURE_ID_RE = re.compile(r"/installedapp/configure/(\d+)")


async def open_direct_app(client: HubClient, alias: str) -> str:
    """Follow ``/installedapp/direct/<alias>`` (direct → create → configure) to the app id.

    Redirects are read, not followed, so the new instance's id is known even for transient
    apps such as Swap Device (every visit creates a new one; the caller removes it).
    """
    path = f"/installedapp/direct/{quote(alias, safe='')}"
    for _hop in range(4):
        location = await client.get_location(path)
        if m := _CONFIGURE_ID_RE.search(location):
            return m.group(1)
        path = re.sub(r"^https?://[^/]+", "", location)
    raise HubBadResponseError(
        f"The hub's {alias} app did not lead to an app page",
        hint="This firmware may not have it; report the firmware version.",
    )


async def fetch_rule_builder(client: HubClient, app_id: str) -> dict[str, Any]:
    """``/app/ruleBuilderJson/<id>``: RM compiled state or a classic Visual Rule ({} if none)."""
    data = await client.get_json(f"/app/ruleBuilderJson/{quote(app_id, safe='')}")
    return data if isinstance(data, dict) else {}


async def fetch_rule_builder20(client: HubClient, app_id: str) -> dict[str, Any] | None:
    """``/app/ruleBuilder20Json/<id>``: a graph Visual Rule, or None for any other id."""
    data = await client.get_json(f"/app/ruleBuilder20Json/{quote(app_id, safe='')}")
    if not isinstance(data, dict) or data.get("success") is False:
        return None
    return data


async def save_visual_rule(client: HubClient, app_id: str, body: dict[str, Any]) -> None:
    """POST a classic Visual Rule definition."""
    try:
        await client.post_json(
            f"/app/ruleBuilderJson/{quote(app_id, safe='')}",
            body,
            what=f"save the Visual Rule definition for app {app_id}",
        )
    except HubRefusedError as err:
        err.subject = "visual_rule"
        raise


async def create_visual_rule(client: HubClient) -> tuple[str, bool]:
    """Server-create a new Visual Rule; return (app id, is graph format)."""
    html = await client.request("GET", "/app/createVisualRuleBuilderRule", expect="text")
    m = _VRB_ID_RE.search(str(html))
    if m is None:
        raise HubBadResponseError("The hub did not say the id of the new Visual Rule")
    return m.group(2), bool(m.group(1))


async def set_visual_rule_paused(client: HubClient, app_id: str, paused: bool) -> None:
    """``GET /app/ruleBuilderPause/<id>/<bool>``."""
    await client.get_json(
        f"/app/ruleBuilderPause/{quote(app_id, safe='')}/{'true' if paused else 'false'}",
        what=f"change the pause state of rule {app_id}",
    )


# ---------------------------------------------------------------- App Cloner (§12.3, §12.6)

CLONER_ACTION_RE = r"_action_href_name\|{action}\|(\d+)"
_CLONER_ID_RE = re.compile(r"/(?:apps/api|installedapp/configure)/(\d+)")
_CLONER_VIEWS: dict[str, dict[str, str]] = {
    # the input triplets each rendered view posts back on a form refresh
    "source": {
        "exportRuleButton.type": "button",
        "exportRuleButton.multiple": "false",
        "settings[exportRuleButton]": "",
        "ruleUpload.type": "file-text",
        "ruleUpload.multiple": "false",
        "settings[ruleUpload]": "",
        "cloneRuleButton.type": "button",
        "cloneRuleButton.multiple": "false",
        "settings[cloneRuleButton]": "",
    },
    "confirmation": {
        "cancelUpload.type": "button",
        "cancelUpload.multiple": "false",
        "settings[cancelUpload]": "",
    },
    "importRule": {},
}


@dataclass(slots=True)
class ClonerSession:
    """One transient App Cloner instance opened on a source app."""

    cloner_id: str
    source_id: str
    context_path: str  # the redirect target (path and query): the source-context render
    context_url: str  # the same as a full URL: the referrer of the clone path
    config_url: str  # the cloner's own page: the referrer of the import path


async def open_cloner(client: HubClient, source_id: str) -> ClonerSession:
    """Create a cloner for ``source_id``, render its source context and prime its page."""
    try:
        location = await client.get_location(
            f"/installedapp/sysAppApi/appCloner/app/{quote(source_id, safe='')}"
        )
    except HubNotFoundError as err:
        raise HubNotFoundError(
            f"The hub's App Cloner does not answer for app {source_id} (HTTP 404).",
            hint="The app may have just been deleted (list the apps again); firmware older "
            "than the App Cloner does not have it.",
        ) from err
    m = _CLONER_ID_RE.search(location)
    if m is None:
        raise HubBadResponseError(
            f"The App Cloner answered with an unexpected redirect for app {source_id}",
            hint="This firmware's App Cloner is not supported; report the firmware version.",
        )
    cloner_id = m.group(1)
    path = re.sub(r"^https?://[^/]+", "", location)
    session = ClonerSession(
        cloner_id=cloner_id,
        source_id=source_id,
        context_path=path,
        context_url=f"{client.base_url}{path}",
        config_url=f"{client.base_url}/installedapp/configure/{cloner_id}/main",
    )
    try:
        # The source-context render seeds the cloner with its source; the configure/json read
        # primes the page (an upload posted before it is dropped by the hub). The query (an
        # access token) goes as params so that no error message can carry it.
        bare, _, query = path.partition("?")
        await client.request("GET", bare, params=dict(parse_qsl(query)), expect="text")
        await fetch_cloner_page(client, session)
    except HubError:
        await close_cloner(client, session)
        raise
    return session


async def fetch_cloner_page(client: HubClient, session: ClonerSession) -> dict[str, Any]:
    """The cloner's current view (``configure/json/<id>/main``)."""
    data = await client.get_json(f"/installedapp/configure/json/{session.cloner_id}/main")
    return data if isinstance(data, dict) else {}


async def cloner_refresh(
    client: HubClient,
    session: ClonerSession,
    *,
    page: str,
    view: str,
    referrer: str,
    extras: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The form refresh the hub UI posts after a click or a change; returns the new view."""
    form = {
        "formAction": "update",
        "id": session.cloner_id,
        "version": "1",
        "appTypeId": "",
        "appTypeName": "",
        "currentPage": page,
        "pageBreadcrumbs": "[]" if page == "main" else '["main"]',
        "referrer": referrer,
        "url": session.config_url,
        "_cancellable": "false",
        **_CLONER_VIEWS[view],
        **(extras or {}),
    }
    data = await client.post_form("/installedapp/update/json", form)
    if not isinstance(data, dict):
        raise HubBadResponseError(
            f"The App Cloner (app {session.cloner_id}) answered a form refresh with no page"
        )
    return data


async def cloner_click(client: HubClient, session: ClonerSession, button: str) -> None:
    """Click one of the cloner's buttons."""
    await click_button(client, session.cloner_id, button)


def cloner_action_index(page: dict[str, Any], action: str) -> int | None:
    """The session-scoped index of an ``_action_href_name|<action>|<idx>`` link on a view."""
    m = re.search(CLONER_ACTION_RE.format(action=re.escape(action)), json.dumps(page))
    return int(m.group(1)) if m else None


def cloner_export_text(page: dict[str, Any]) -> str | None:
    """The export document a refresh after the Export click carries (a download input)."""
    config = page.get("configPage")
    sections = config.get("sections") if isinstance(config, dict) else None
    for section in sections if isinstance(sections, list) else []:
        if not isinstance(section, dict):
            continue
        for key in ("input", "inputs", "body"):
            items = section.get(key)
            for item in items if isinstance(items, list) else []:
                text = item.get("filecontent") if isinstance(item, dict) else None
                if isinstance(text, str) and text.startswith("{") and "appReplacements" in text:
                    return text
    return None


async def close_cloner(client: HubClient, session: ClonerSession) -> None:
    """Remove the transient cloner instance."""
    await delete_app(client, session.cloner_id, force=True)
