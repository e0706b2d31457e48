"""New app instances, as the hub's Add Built-In App / Add User App do: a type from the
hub's own list (``/installedapp/create/<typeId>``), or a built-in child app under its
installed parent (``createchild``); the first page's inputs filled, then its Done, and the
new instance read back from the app tree.

A user app runs its author's code with access to every device, so creating one is at the
code tier (confirm=true); adding a safety system (HSM, Mode Manager, a Maker API) needs
confirm=true as well (``managers/confirm.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import TIER_CODE, ToolError
from ...hub.app_page import Setting
from ...hub.apps import AppType, InstalledApp
from ...hub.controllers import AppsController, CodeController, DevicesController
from ...hub.errors import HubBadResponseError, HubError, HubNotFoundError
from ...redact import redact_document
from ..confirm import require_confirm
from .button_rules import ButtonRuleCreator, is_button_rule
from .installed import AppManager
from .page_model import same_setting, summarize_page
from .settings import encode_page_settings

if TYPE_CHECKING:
    from ..sensitivity import SensitivityModel


@dataclass(frozen=True, slots=True)
class ChildKind:
    """A built-in child app: created with ``createchild`` under its installed parent."""

    label: str  # what the hub UI calls it
    namespace: str
    app_name: str
    parent_type: str
    aliases: tuple[str, ...] = ()  # other names an owner may use for it


# the on-hub server (hubitat-mcp-server.groovy _appTypeRegistry, live on 2.4.4/2.5.0; its dashboards
# lib for Dashboard); Room Lights, a Room Lighting instance: jbaruch/hubitat-dev
# (skills/_reference/playwright-ui.md, createchild hubitat/Room%20Lights, verified live on
# Room Lighting 1.2.3, fw 2.5.1).
CHILD_KINDS = (
    ChildKind("Basic Rule", "hubitat", "Basic Rule-1.0", "Basic Rules"),
    ChildKind("Button Controller", "hubitat", "Button Controller-5.1", "Button Controllers"),
    ChildKind("Group", "hubitat", "Group-2.1", "Groups and Scenes"),
    ChildKind("Notifier", "hubitat", "Notifier", "Notifications"),
    ChildKind("Dashboard", "hubitat", "Dashboard", "Hubitat® Dashboard"),
    ChildKind(
        "Room Lights",
        "hubitat",
        "Room Lights",
        "Room Lighting",
        aliases=("Room Lighting instance", "Room Light"),
    ),
)
_RULE_NAMES = ("rule", "rule-5.1", "rule machine rule")


def _key(text: str) -> str:
    return " ".join("".join(c for c in text.lower() if c.isalnum() or c in " -.").split())


def _same_type(a: str, b: str) -> bool:
    return _key(a) == _key(b)


def child_kind(name: str) -> ChildKind | None:
    """The built-in child kind named so (its UI name or app name), or None."""
    return next(
        (
            k
            for k in CHILD_KINDS
            if any(_same_type(name, n) for n in (k.label, k.app_name, *k.aliases))
        ),
        None,
    )


def find_parent(tree: list[InstalledApp], parent_type: str) -> InstalledApp | None:
    """The installed (top-level, visible) parent app of that type."""
    return next(
        (
            a
            for a in tree
            if a.parent_id is None and not a.hidden and _same_type(a.type, parent_type)
        ),
        None,
    )


@dataclass(slots=True)
class _Plan:
    kind: str  # "type" (create/<id>) or "child" (createchild)
    name: str
    user: bool
    type_id: str | None = None
    namespace: str = ""
    app_name: str = ""
    parent: InstalledApp | None = None

    @classmethod
    def built_in_child(cls, kind: ChildKind, parent: InstalledApp) -> _Plan:
        """A built-in child app under its installed parent."""
        return cls(
            "child",
            kind.label,
            False,
            namespace=kind.namespace,
            app_name=kind.app_name,
            parent=parent,
        )


class AppCreator:
    """Creates app instances; every one is confirmed in the app tree afterwards."""

    def __init__(
        self,
        hub_apps: AppsController,
        code: CodeController,
        devices: DevicesController,
        apps: AppManager,
        sensitivity: SensitivityModel,
    ) -> None:
        self._hub_apps = hub_apps
        self._code = code  # user app code, for a child of a user app
        self._devices = devices  # device settings take ids of existing devices
        self._apps = apps
        self._sensitivity = sensitivity
        self._button_rules = ButtonRuleCreator(hub_apps)

    async def types(self, *, text: str | None, kind: str) -> list[dict[str, Any]]:
        """The app types the hub can add (built-in first), filtered by text and kind."""
        _tree, types = await self._hub_apps.list_with_types()
        needle = _key(text) if text else None
        return [
            t.as_dict()
            for t in types
            if not (kind == "user" and not t.user)
            and not (kind == "builtin" and t.user)
            and (needle is None or needle in _key(t.name) or needle == t.id)
        ]

    async def _plan(
        self,
        app_type: str,
        parent_app_id: str | None,
        tree: list[InstalledApp],
        types: list[AppType],
    ) -> _Plan:
        if _key(app_type) in _RULE_NAMES:
            raise ToolError(
                "A Rule Machine rule is not created as a plain app: its triggers and actions "
                "are built with it. Nothing was sent.",
                subject="rule_machine_app",
            )
        if parent_app_id is not None:
            parent = next((a for a in tree if a.id == parent_app_id), None)
            if parent is None:
                raise HubNotFoundError(
                    f"No installed app with id {parent_app_id}",
                    subject="parent_app",
                )
            return await self._child_of(app_type, parent)
        if (kind := child_kind(app_type)) is not None:
            parent = find_parent(tree, kind.parent_type)
            if parent is None:
                raise ToolError(
                    f"A {kind.label} is a child app of the built-in {kind.parent_type} "
                    f"app, which is not installed on this hub. Nothing was sent.",
                    code="not_found",
                    outcome="failed",
                    subject="parent_not_installed",
                    extra={"parent_type": kind.parent_type, "child_kind": kind.label},
                )
            return _Plan.built_in_child(kind, parent)
        matches = [t for t in types if t.id == app_type.strip()] or [
            t for t in types if _same_type(t.name, app_type)
        ]
        if not matches:
            near = [t.name for t in types if _key(app_type) in _key(t.name)][:10]
            raise HubNotFoundError(
                f"No app type '{app_type}' on this hub"
                + (f"; similar: {', '.join(near)}" if near else ""),
                subject="app_type",
            )
        if len(matches) > 1:
            listed = ", ".join(f"{t.id} ({'user' if t.user else 'built-in'})" for t in matches)
            raise ToolError(
                f"Several app types are named '{app_type}': {listed}. Nothing was sent.",
                hint="Pass the type_id instead.",
            )
        found = matches[0]
        return _Plan("type", found.name, found.user, type_id=found.id)

    async def _child_of(self, app_type: str, parent: InstalledApp) -> _Plan:
        """A child under an installed parent: a built-in kind of that parent, or user code."""
        kind = child_kind(app_type)
        if not parent.user:
            if kind is None or not _same_type(kind.parent_type, parent.type):
                offered = [k.label for k in CHILD_KINDS if _same_type(k.parent_type, parent.type)]
                raise ToolError(
                    f"App {parent.id} ({parent.name}, {parent.type}) has no child kind "
                    f"'{app_type}' here"
                    + (f"; it takes: {', '.join(offered)}" if offered else "")
                    + ". Nothing was sent.",
                    hint="Add it from the parent's page in the hub UI.",
                )
            return _Plan.built_in_child(kind, parent)
        code = [
            c
            for c in await self._code.list("app")
            if str(c.get("id")) == app_type.strip() or _same_type(str(c.get("name")), app_type)
        ]
        if len(code) != 1:
            raise HubNotFoundError(
                f"No single user app code '{app_type}' for a child of app {parent.id}",
                subject="child_app_code",
            )
        c = code[0]
        return _Plan(
            "child",
            str(c["name"]),
            True,
            namespace=str(c.get("namespace") or ""),
            app_name=str(c["name"]),
            parent=parent,
        )

    def _check_tier(self, plan: _Plan, confirm: bool) -> None:
        if plan.user:
            require_confirm(
                confirm,
                f"{plan.name} is user app code: a new instance runs it on the hub, with "
                "access to every device.",
                tier=TIER_CODE,  # the code tier, as installing the code is
            )
        probe = InstalledApp(
            id="",
            name=plan.name,
            type=plan.name,
            disabled=False,
            user=False,
            hidden=False,
            parent_id=None,
            depth=0,
        )
        if self._apps.safety_system(probe) is not None:
            self._apps.require_safety_confirm(probe, "adding one changes", confirm)

    async def create(
        self,
        app_type: str,
        *,
        parent_app_id: str | None,
        settings: dict[str, Any],
        name: str | None,
        device_allowed: Callable[[str], bool],
        confirm: bool,
        button: str | None = None,
    ) -> dict[str, Any]:
        """Create the instance, fill its first page, press Done, read it back (a Button
        Rule: through its controller's add-button flow)."""
        if button is not None or is_button_rule(app_type):
            if not is_button_rule(app_type) or button is None or parent_app_id is None:
                raise ToolError(
                    "A Button Rule takes app_type='Button Rule', parent_app_id (its Button "
                    "Controller) and button ('3 pushed'); button is for nothing else. "
                    "Nothing was sent.",
                )
            if settings or name is not None:
                raise ToolError(
                    "A Button Rule is named and triggered by its controller: settings and "
                    "name are not taken. Nothing was sent.",
                    subject="button_rule_settings",
                )
            return await self._button_rules.create(
                parent_app_id, button, device_allowed=device_allowed
            )
        tree, types = await self._hub_apps.list_with_types()
        plan = await self._plan(app_type, parent_app_id, tree, types)
        self._check_tier(plan, confirm)
        before = {a.id for a in tree}
        if plan.kind == "child" and plan.parent is not None:
            new_id, first = (
                await self._hub_apps.create_child(plan.namespace, plan.app_name, plan.parent.id),
                None,
            )
        else:
            new_id, first = await self._hub_apps.create(str(plan.type_id))
        if new_id in before:  # a singleton built-in app: the hub opened the one it has
            existing = next(a for a in tree if a.id == new_id)
            out: dict[str, Any] = {
                "summary": f"{plan.name} is already installed as app {new_id}; nothing was created",
                "app_id": new_id,
                "name": existing.name,
                "created": False,
            }
            if kids := [k.label for k in CHILD_KINDS if _same_type(k.parent_type, plan.name)]:
                out["child_kinds"] = kids
            return out
        try:
            return await self._finish(new_id, first, plan, settings, name, device_allowed, confirm)
        except Exception:
            await self._remove(new_id)
            raise

    async def _finish(
        self,
        new_id: str,
        first: str | None,
        plan: _Plan,
        settings: dict[str, Any],
        name: str | None,
        device_allowed: Callable[[str], bool],
        confirm: bool,
    ) -> dict[str, Any]:
        page = await self._hub_apps.page(new_id, first)
        fields: dict[str, Setting] = {}
        repairs: list[str] = []
        if name is not None and "origLabel" in page.inputs and "origLabel" not in settings:
            # apps named by their own first-page field (Room Lights: jbaruch's notes)
            settings = {**settings, "origLabel": name}
        if settings:
            fields, repairs = await encode_page_settings(
                self._devices,
                page,
                settings,
                device_allowed=device_allowed,
                confirm=confirm,
                app_ref=f"the new app {new_id}",
                app_name=plan.name,
                sensitivity=self._sensitivity,
            )
        if fields or name is not None or page.installed is False:
            await page.done(fields, label=name)
            await page.reload()
        listed = next((a for a in await self._hub_apps.list() if a.id == new_id), None)
        if page.installed is False or listed is None:
            wanted = [
                n
                for n, inp in page.inputs.items()
                if inp.value in (None, "", []) and n not in fields
            ]
            raise HubBadResponseError(
                f"The hub did not finish installing the new {plan.name} (app {new_id}"
                + (", not in the app list" if listed is None else ", its page is not done")
                + "); it was removed."
                + (f" Its first page also shows: {', '.join(wanted[:20])}." if wanted else ""),
                hint="Give the page's required inputs in settings (as a similar app has "
                "them), or add it in the hub UI.",
                subject="app_unfinished",
            )
        applied = [
            n for n, s in fields.items() if (i := page.inputs.get(n)) and same_setting(i, s.value)
        ]
        out: dict[str, Any] = {
            "summary": f"Created {plan.name} as app {new_id} ({listed.name})",
            "app_id": new_id,
            "name": listed.name,
            "type": listed.type,
            "user": listed.user,
            "parent_id": listed.parent_id,
            "created": True,
            "page": page.name,
            "applied": applied,
            "config_page": summarize_page(
                page.config["configPage"] if isinstance(page.config.get("configPage"), dict) else {}
            ),
        }
        if name is not None and listed.name != name:
            out["warning"] = f"The hub lists the new app as '{listed.name}', not '{name}'."
        if missed := [n for n in fields if n not in applied]:
            out["not_applied"] = missed
        if repairs:
            out["repairs"] = repairs
        redacted: dict[str, Any] = redact_document(out, types_from=page.config)
        return redacted

    async def _remove(self, app_id: str) -> None:
        """Remove an unfinished new instance (best effort: the error that led here wins)."""
        try:
            await self._hub_apps.delete(app_id, force=True)
        except HubError:
            return
