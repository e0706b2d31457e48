"""Installed apps, Rule Machine and Visual Rules endpoints (hub reference §12); the classic
app pages are driven through ``app_page``."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from .client import HubClient
from .errors import HubBadResponseError, HubNotFoundError, HubRefusedError
from .models import norm_id

RM_PARENT_TYPES = ("Rule Machine",)
VRB_TYPE = "Visual Rule Builder"
_MARKUP_RE = re.compile(r"</?[A-Za-z][^<>]*>")
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


def app_name_text(text: Any) -> str:
    """An app name as the user typed it: markup removed, then HTML entities decoded.

    The hub stores user-typed names entity-escaped (a rule named ``Heat On <67`` reads back
    as ``Heat On &lt;67``: the on-hub server), and some answers carry markup (a Rule Machine rule's
    ``(Paused)`` decoration). Tags go first so a decoded ``<`` is never taken for a tag, and
    only tags are removed (``/hub2/appsList`` sends ``Heat On <67`` already decoded: the on-hub
    server).
    """
    return html.unescape(_MARKUP_RE.sub("", str(text or ""))).strip()


_NAME_KEYS = ("name", "label", "trueLabel")


def _decode_names(record: Any) -> None:
    """Clean the name fields of one app record in place (configure/json, statusJson, json)."""
    if isinstance(record, dict):
        for key in _NAME_KEYS:
            if isinstance(record.get(key), str):
                record[key] = app_name_text(record[key])


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
                name=app_name_text(data.get("name")) or f"app {app_id}",
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


@dataclass(frozen=True, slots=True)
class AppType:
    """An app type the hub can add: ``/hub2/appsList`` ``systemAppTypes`` (built-in) and
    ``userAppTypes`` (user app code), as the hub UI's Add Built-In/User App drawer lists them
    (``id``, ``name``, ``description``, ``menu``: Apps, Automations or Integrations)."""

    id: str
    name: str
    user: bool
    description: str
    menu: str

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        out: dict[str, Any] = {"type_id": self.id, "name": self.name, "user": self.user}
        if self.menu:
            out["menu"] = self.menu
        if self.description:
            out["description"] = self.description
        return out


def parse_app_types(payload: Any) -> list[AppType]:
    """The addable app types of an appsList answer, built-in first (odd entries skipped)."""
    out: list[AppType] = []
    for key, user in (("systemAppTypes", False), ("userAppTypes", True)):
        rows = payload.get(key) if isinstance(payload, dict) else None
        for row in rows if isinstance(rows, list) else []:
            type_id = norm_id(row.get("id")) if isinstance(row, dict) else None
            if type_id is None or not row.get("name"):
                continue
            out.append(
                AppType(
                    id=type_id,
                    name=app_name_text(row["name"]),
                    user=user,
                    description=app_name_text(row.get("description")),
                    menu=str(row.get("menu") or ""),
                )
            )
    return out


async def fetch_apps_and_types(client: HubClient) -> tuple[list[InstalledApp], list[AppType]]:
    """The installed-app tree and the addable app types, from one appsList read."""
    payload = await client.get_json("/hub2/appsList")
    return parse_app_tree(payload), parse_app_types(payload)


def _app_not_found(app_id: str) -> HubNotFoundError:
    return HubNotFoundError(f"No installed app with id {app_id}", subject="app")


def parse_config_page(data: Any, app_id: str) -> dict[str, Any]:
    """A configure/json answer with the app's names cleaned; not an app page: not found."""
    if not isinstance(data, dict) or not data.get("app"):
        raise _app_not_found(app_id)
    _decode_names(data["app"])
    return data


async def fetch_config_page(client: HubClient, app_id: str, page: str | None) -> dict[str, Any]:
    """``/installedapp/configure/json/<id>[/<page>]`` (the app's names decoded)."""
    sid = quote(app_id, safe="")
    path = (
        f"/installedapp/configure/json/{sid}/{quote(page, safe='')}"
        if page
        else f"/installedapp/configure/json/{sid}"
    )
    try:
        data = await client.get_json(path)
    except HubNotFoundError as err:
        raise _app_not_found(app_id) from err
    return parse_config_page(data, app_id)


def maybe_json(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


async def fetch_app_json(client: HubClient, app_id: str) -> dict[str, Any]:
    """``/installedapp/json/<id>``: the app's record (label, disabled, ...); {} if odd."""
    data = await client.get_json(f"/installedapp/json/{quote(app_id, safe='')}")
    if not isinstance(data, dict):
        return {}
    _decode_names(data)
    return data


def parse_status(data: Any, app_id: str) -> dict[str, Any]:
    """A statusJson answer with ``appState`` as a dict (JSON strings parsed; the hub sends a
    list of ``{name, value}``, older answers a map) and the app's names cleaned."""
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
    _decode_names(data.get("installedApp"))
    return data


async def fetch_status(client: HubClient, app_id: str) -> dict[str, Any]:
    """``/installedapp/statusJson/<id>`` (see :func:`parse_status`)."""
    try:
        data = await client.get_json(f"/installedapp/statusJson/{quote(app_id, safe='')}")
    except HubNotFoundError as err:
        raise _app_not_found(app_id) from err
    return parse_status(data, app_id)


async def set_app_disabled(client: HubClient, app_id: str, disabled: bool) -> None:
    """``POST /installedapp/disable`` JSON {id, disable}."""
    await client.post_json(
        "/installedapp/disable",
        {"id": int(app_id), "disable": disabled},
        what=f"{'disable' if disabled else 'enable'} app {app_id}",
    )


async def delete_app(client: HubClient, app_id: str, *, force: bool) -> None:
    """Force delete (``forcedelete/<id>/quiet``) or delete (``delete/<id>``).

    The hub UI's Remove button GETs ``delete/<id>`` and reads ``{success, message}`` (a
    refusal: :class:`HubRefusedError` with the hub's message); its rule editors navigate to
    ``forcedelete/<id>/quiet``, a page whose body says nothing. Either way callers decide by
    the effect (the app tree read again).
    """
    sid = quote(app_id, safe="")
    if force:
        await client.request(
            "GET", f"/installedapp/forcedelete/{sid}/quiet", expect="text", retry=False
        )
        return
    await client.request(
        "GET", f"/installedapp/delete/{sid}", expect="any", retry=False, what=f"delete app {app_id}"
    )


_CONFIGURE_ID_RE = re.compile(r"/installedapp/configure/(\d+)")
_CONFIGURE_PAGE_RE = re.compile(r"/installedapp/configure/(\d+)(?:/([A-Za-z0-9_]+))?")


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


async def create_app_instance(client: HubClient, type_id: str) -> tuple[str, str | None]:
    """``GET /installedapp/create/<typeId>``: (new app id, its first page or None).

    The hub UI's Add Built-In/User App drawer navigates there (``installApp``); the hub
    answers ``302`` to ``/installedapp/configure/<id>[/<page>]`` (the on-hub server: its user-app
    create, live). A singleton built-in app answers with its existing instance (on-hub server). The
    redirect is read, not followed; the instance is a pending shell until its page's Done.
    """
    location = await client.get_location(f"/installedapp/create/{quote(type_id, safe='')}")
    if m := _CONFIGURE_PAGE_RE.search(location):
        return m.group(1), m.group(2)
    raise HubBadResponseError(
        f"Adding app type {type_id} did not lead to an app page (the hub answered "
        f"{location[:120]!r})",
        hint="The type id may be a driver or library, or no longer exist; list the types again.",
    )


async def create_child_app(client: HubClient, namespace: str, app_name: str, parent_id: str) -> str:
    """``GET /installedapp/createchild/<ns>/<app>/parent/<parent>``: a new child app's id.

    The hub answers ``302`` to the new app's ``/installedapp/configure/<id>`` (the on-hub server,
    live: how its native-rules code creates Rule Machine rules). The redirect is read, not followed.
    """
    path = (
        f"/installedapp/createchild/{quote(namespace, safe='')}/{quote(app_name, safe='')}"
        f"/parent/{quote(parent_id, safe='')}"
    )
    location = await client.get_location(path)
    if m := _CONFIGURE_ID_RE.search(location):
        return m.group(1)
    raise HubBadResponseError(
        f"Creating a {app_name} app did not lead to its page (the hub answered {location!r})",
        hint="This firmware may create child apps differently; report the firmware version.",
    )


async def fetch_rule_builder(client: HubClient, app_id: str) -> dict[str, Any]:
    """``/app/ruleBuilderJson/<id>``: RM compiled state or a classic Visual Rule ({} if none)."""
    data = await client.get_json(f"/app/ruleBuilderJson/{quote(app_id, safe='')}")
    return data if isinstance(data, dict) else {}


def is_classic_visual_rule(data: Any) -> bool:
    """Whether a ruleBuilderJson answer is a classic Visual Rule: the hub UI takes it for one
    only when ``whenNodes``, ``thenNodes`` and ``name`` are there (the endpoint answers any
    app's raw state, and ``{}`` for an unknown id)."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("whenNodes"), list)
        and isinstance(data.get("thenNodes"), list)
        and bool(data.get("name"))
    )


def parse_rule_builder20(data: Any) -> dict[str, Any] | None:
    """A ruleBuilder20Json answer: the graph rule ``{name, rulePaused, ruleJson,
    validationErrors}``, or None (``{"success": false}``: not a graph rule)."""
    if not isinstance(data, dict) or data.get("success") is False:
        return None
    return data


async def fetch_rule_builder20(client: HubClient, app_id: str) -> dict[str, Any] | None:
    """``/app/ruleBuilder20Json/<id>``: a graph Visual Rule, or None for any other id."""
    data = await client.get_json(f"/app/ruleBuilder20Json/{quote(app_id, safe='')}")
    return parse_rule_builder20(data)


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
    html = await client.request(
        "GET", "/app/createVisualRuleBuilderRule", expect="text", retry=False
    )
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
