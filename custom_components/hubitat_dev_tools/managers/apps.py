"""Installed apps and rules: tree, config pages, state, enable/disable, delete, RM and VRB."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from ..hub.apps import (
    InstalledApp,
    click_button,
    create_visual_rule,
    delete_app,
    fetch_app_tree,
    fetch_config_page,
    fetch_rule_builder,
    fetch_rule_builder20,
    fetch_status,
    save_visual_rule,
    set_app_disabled,
    set_visual_rule_paused,
)
from ..hub.client import HubClient
from ..hub.errors import HubBadResponseError, HubError, HubNotFoundError
from .errors import ValidationError
from .item_backups import ItemBackups

MAX_VALUE_CHARS = 2000
_BROKEN_RE = re.compile(r"\*{1,2}BROKEN\*{1,2}", re.I)
_TAG_RE = re.compile(r"<[^>]+>")
RULE_ACTIONS = ("run_actions", "stop", "start")
NODE_KEYS = ("whenNodes", "thenNodes", "elseNodes")


def _text(value: Any) -> str:
    return _TAG_RE.sub("", str(value or "")).strip()


def _bounded(value: Any) -> Any:
    """Cut very large values so one app cannot blow the answer size."""
    text = json.dumps(value, default=str)
    if len(text) <= MAX_VALUE_CHARS:
        return value
    return {"truncated": True, "chars": len(text), "start": text[:MAX_VALUE_CHARS]}


def summarize_page(page: dict[str, Any]) -> dict[str, Any]:
    """Sections with typed inputs and current values, paragraphs as text, buttons, links."""
    sections = []
    for sec in page.get("sections") or []:
        if not isinstance(sec, dict):
            continue
        inputs, buttons, links = [], [], []
        for inp in sec.get("input") or []:
            if not isinstance(inp, dict):
                continue
            if inp.get("type") == "button":
                buttons.append({"name": inp.get("name"), "title": _text(inp.get("title"))})
                continue
            if inp.get("type") == "href":
                links.append(
                    {"page": inp.get("page") or inp.get("name"), "title": _text(inp.get("title"))}
                )
                continue
            entry = {
                "name": inp.get("name"),
                "type": inp.get("type"),
                "title": _text(inp.get("title")),
                "value": _bounded(inp.get("value")),
            }
            if inp.get("multiple"):
                entry["multiple"] = True
            if inp.get("options"):
                entry["options"] = _bounded(inp.get("options"))
            inputs.append(entry)
        paragraphs = [
            _text(b.get("description") or b.get("title"))
            for b in sec.get("body") or []
            if isinstance(b, dict)
        ]
        out: dict[str, Any] = {"title": _text(sec.get("title"))}
        for key, val in (
            ("inputs", inputs),
            ("text", paragraphs),
            ("buttons", buttons),
            ("pages", links),
        ):
            if val:
                out[key] = val
        sections.append(out)
    return {
        "page": page.get("name"),
        "title": _text(page.get("title")),
        "error": page.get("error"),
        "sections": sections,
    }


class AppManager:
    """Installed apps and automations."""

    def __init__(self, client: HubClient) -> None:
        self._client = client
        self.backups = ItemBackups(client)

    async def tree(self) -> list[InstalledApp]:
        """Every installed app in tree order."""
        return await fetch_app_tree(self._client)

    async def find(self, app_id: str) -> InstalledApp:
        """One app from the tree, or not_found."""
        for app in await self.tree():
            if app.id == app_id:
                return app
        raise HubNotFoundError(
            f"No installed app with id {app_id}",
            hint="Find the app id with hub_list_apps (or hub_list_rules for rules).",
        )

    async def list_apps(
        self,
        *,
        text: str | None,
        kind: str,
        device_id: str | None,
        include_hidden: bool,
    ) -> list[dict[str, Any]]:
        """Apps in tree order, filtered."""
        apps = await self.tree()
        using: set[str] | None = None
        if device_id is not None:
            try:
                payload = await self._client.get_json(f"/device/fullJson/{device_id}")
            except HubNotFoundError as err:
                raise HubNotFoundError(
                    f"No device with id {device_id} on the hub",
                    hint="Use hub_list_devices to find the device id.",
                ) from err
            rows = payload.get("appsUsing") if isinstance(payload, dict) else None
            using = {str(a.get("id")) for a in rows or [] if isinstance(a, dict)}
        needle = text.strip().lower() if text else None
        out = []
        for app in apps:
            if app.hidden and not include_hidden and using is None:
                continue
            if kind == "user" and not app.user:
                continue
            if kind == "builtin" and app.user:
                continue
            if kind == "disabled" and not app.disabled:
                continue
            if kind == "parents" and not app.children:
                continue
            if using is not None and app.id not in using:
                continue
            if (
                needle
                and needle not in app.name.lower()
                and needle not in app.type.lower()
                and needle != app.id
            ):
                continue
            out.append(app.as_dict())
        return out

    async def get_app(
        self, app_id: str, page: str | None, *, include_state: bool
    ) -> dict[str, Any]:
        """Config page (settings with values) and, optionally, the app's state."""
        if include_state:
            config, status = await asyncio.gather(
                fetch_config_page(self._client, app_id, page), fetch_status(self._client, app_id)
            )
        else:
            config, status = await fetch_config_page(self._client, app_id, page), None
        info = config.get("app") or {}
        app_type = info.get("appType")
        out: dict[str, Any] = {
            "app_id": app_id,
            "name": info.get("name"),
            "label": _text(info.get("trueLabel") or info.get("label")) or None,
            "type": app_type.get("name") if isinstance(app_type, dict) else app_type,
            "disabled": bool(info.get("disabled")),
            "parent_id": str(info["parentAppId"]) if info.get("parentAppId") else None,
            "config_version": info.get("version"),
            "config_page": summarize_page(config.get("configPage") or {}),
            "settings": {k: _bounded(v) for k, v in (config.get("settings") or {}).items()},
            "child_apps": config.get("childApps") or [],
        }
        if status is not None:
            out["state"] = {k: _bounded(v) for k, v in status["appState"].items()}
            out["subscriptions"] = [
                s.get("name") for s in status.get("eventSubscriptions") or [] if isinstance(s, dict)
            ]
            out["scheduled_jobs"] = _bounded(status.get("scheduledJobs") or [])
            out["child_app_count"] = status.get("childAppCount")
            out["child_device_count"] = status.get("childDeviceCount")
        return out

    async def set_disabled(self, app_id: str, disabled: bool) -> dict[str, Any]:
        """Enable or disable an app; verified by reading it back."""
        app = await self.find(app_id)
        if app.disabled == disabled:
            return {"app_id": app_id, "name": app.name, "disabled": disabled, "unchanged": True}
        await set_app_disabled(self._client, app_id, disabled)
        now = await self._client.get_json(f"/installedapp/json/{app_id}")
        if isinstance(now, dict) and bool(now.get("disabled")) != disabled:
            raise HubBadResponseError(f"The hub still reports app {app_id} disabled={not disabled}")
        return {"app_id": app_id, "name": app.name, "disabled": disabled}

    async def snapshot(self, app: InstalledApp) -> dict[str, Any]:
        """Everything readable about one app, for an item backup before a delete."""
        config, status = await asyncio.gather(
            fetch_config_page(self._client, app.id, None), fetch_status(self._client, app.id)
        )
        snap: dict[str, Any] = {
            "name": app.name,
            "app_type": app.type,
            "parent_id": app.parent_id,
            "config": config,
            "status": status,
        }
        if app.is_rm_rule or app.is_visual_rule:
            snap["rule_builder"] = await fetch_rule_builder(self._client, app.id)
        return snap

    async def delete(self, app_id: str, *, force: bool) -> dict[str, Any]:
        """Snapshot to the File Manager, then delete (children go too)."""
        apps = await self.tree()
        app = next((a for a in apps if a.id == app_id), None)
        if app is None:
            raise HubNotFoundError(f"No installed app with id {app_id}")
        if not app.user and app.parent_id is None and app.children:
            raise ValidationError(
                f"App {app_id} ({app.name}) is a built-in parent app with {len(app.children)} "
                "child apps; deleting it removes all of them. Refused.",
                hint="Delete the child apps (rules, dashboards, ...) one by one, or use the "
                "hub UI.",
            )
        backup = await self.backups.save(
            "installedapp", app_id, await self.snapshot(app), reason="before delete"
        )
        await delete_app(self._client, app_id, force=force)
        remaining = {a.id for a in await self.tree()}
        if app_id in remaining and force:
            raise HubError(f"The hub still lists app {app_id} after deleting it")
        return {
            "app_id": app_id,
            "name": app.name,
            "type": app.type,
            "children_deleted": len(app.children),
            "still_listed": app_id in remaining,
            "item_backup": backup,
        }

    async def hpm_packages(self) -> dict[str, Any]:
        """HPM's package registry (state.manifests of the HPM app)."""
        apps = await self.tree()
        hpm = next((a for a in apps if "package manager" in a.name.lower() and a.user), None)
        if hpm is None:
            raise HubNotFoundError(
                "Hubitat Package Manager is not installed on this hub",
                hint="HPM is a community app; without it there are no HPM packages.",
            )
        status = await fetch_status(self._client, hpm.id)
        manifests = status["appState"].get("manifests") or {}
        packages = []
        for url, man in manifests.items() if isinstance(manifests, dict) else []:
            if not isinstance(man, dict):
                continue
            packages.append(
                {
                    "name": man.get("packageName"),
                    "version": man.get("version"),
                    "beta": bool(man.get("beta")),
                    "manifest_url": url,
                    "apps": [a.get("name") for a in man.get("apps") or [] if isinstance(a, dict)],
                    "drivers": [
                        d.get("name") for d in man.get("drivers") or [] if isinstance(d, dict)
                    ],
                }
            )
        return {"hpm_app_id": hpm.id, "packages": packages}

    # ------------------------------------------------------------------ rules

    async def list_rules(self, engine: str, *, with_status: bool) -> list[dict[str, Any]]:
        """Rule Machine and Visual Rules with live status."""
        apps = await self.tree()
        rules = [
            a
            for a in apps
            if (engine in ("all", "rule_machine") and a.is_rm_rule)
            or (engine in ("all", "visual") and a.is_visual_rule)
        ]

        async def status_of(rule: InstalledApp) -> dict[str, Any]:
            entry = rule.as_dict()
            entry.pop("depth", None)
            entry["engine"] = "rule_machine" if rule.is_rm_rule else "visual"
            if not with_status:
                return entry
            if rule.is_rm_rule:
                st = (await fetch_status(self._client, rule.id))["appState"]
                entry["paused"] = bool(st.get("paused"))
                entry["stopped"] = bool(st.get("stopped"))
            else:
                rb = await fetch_rule_builder(self._client, rule.id)
                entry["paused"] = bool(rb.get("rulePaused"))
            return entry

        return list(await asyncio.gather(*(status_of(r) for r in rules)))

    async def _rule(self, app_id: str, *, visual: bool | None = None) -> InstalledApp:
        app = await self.find(app_id)
        if visual is True and not app.is_visual_rule:
            raise ValidationError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Visual Rule.",
                hint="List Visual Rules with hub_list_rules engine=visual.",
            )
        if visual is False and not app.is_rm_rule:
            raise ValidationError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Rule Machine rule.",
                hint="List Rule Machine rules with hub_list_rules engine=rule_machine.",
            )
        if visual is None and not (app.is_rm_rule or app.is_visual_rule):
            raise ValidationError(
                f"App {app_id} ({app.name}, type {app.type}) is not a rule.",
                hint="List rules with hub_list_rules.",
            )
        return app

    async def rule_health(self, app_id: str) -> dict[str, Any]:
        """Broken markers, compiled broken flag, config errors, graph validation errors."""
        app = await self._rule(app_id)
        # Render the page first: the hub re-validates the rule while rendering it, so the
        # compiled ``broken`` flag read afterwards is current.
        config = await fetch_config_page(self._client, app_id, None)
        compiled = await fetch_rule_builder(self._client, app_id)
        text = json.dumps(config.get("configPage") or {})
        markers = sorted(
            {
                _text(m)
                for m in re.findall(r"[^\"]{0,60}\*{1,2}BROKEN\*{1,2}[^\"]{0,60}", text, re.I)
            }
        )
        page_error = (config.get("configPage") or {}).get("error")
        out: dict[str, Any] = {
            "app_id": app_id,
            "name": app.name,
            "engine": "rule_machine" if app.is_rm_rule else "visual",
            "broken_markers": markers,
            "page_error": page_error,
        }
        if app.is_rm_rule:
            out["compiled_broken"] = bool(compiled.get("broken"))
        else:
            graph = await fetch_rule_builder20(self._client, app_id)
            out["validation_errors"] = (graph or {}).get("validationErrors") or []
        out["healthy"] = not (
            markers or page_error or out.get("compiled_broken") or out.get("validation_errors")
        )
        if markers and not out.get("compiled_broken") and app.is_rm_rule:
            out["note"] = "The page shows BROKEN markers; the compiled flag may lag until the "
            out["note"] += "rule is re-saved. Treat the markers as authoritative."
        return out

    async def local_variables(self, app_id: str) -> dict[str, Any]:
        """A Rule Machine rule's local variables (state.allLocalVars)."""
        app = await self._rule(app_id, visual=False)
        st = (await fetch_status(self._client, app_id))["appState"]
        local = st.get("allLocalVars") or {}
        rows = [
            {"name": k, "type": v.get("type"), "value": v.get("value")}
            for k, v in (local.items() if isinstance(local, dict) else [])
            if isinstance(v, dict)
        ]
        return {"app_id": app_id, "name": app.name, "variables": rows, "count": len(rows)}

    async def _buttons(self, app_id: str) -> dict[str, str]:
        config = await fetch_config_page(self._client, app_id, None)
        found: dict[str, str] = {}
        for sec in (config.get("configPage") or {}).get("sections") or []:
            for inp in sec.get("input") or [] if isinstance(sec, dict) else []:
                if isinstance(inp, dict) and inp.get("type") == "button":
                    found[_text(inp.get("title")).lower()] = str(inp.get("name"))
        return found

    async def call_rule(self, app_id: str, action: str) -> dict[str, Any]:
        """Run a rule's actions (its own Run Actions button), stop or start it."""
        app = await self._rule(app_id, visual=False)
        if action == "run_actions":
            buttons = await self._buttons(app_id)
            name = buttons.get("run actions")
            if name is None:
                raise ValidationError(
                    f"Rule {app_id} ({app.name}) shows no 'Run Actions' button on its page; "
                    "it cannot be run over the LAN. Nothing was sent.",
                    hint="Trigger it through one of its triggers (e.g. a virtual switch).",
                )
            await click_button(self._client, app_id, name)
            return {"app_id": app_id, "name": app.name, "action": action}
        st = (await fetch_status(self._client, app_id))["appState"]
        stopped = bool(st.get("stopped"))
        want_stopped = action == "stop"
        if stopped == want_stopped:
            return {"app_id": app_id, "name": app.name, "action": action, "unchanged": True}
        await click_button(self._client, app_id, "stopRule")
        return {"app_id": app_id, "name": app.name, "action": action}

    async def set_paused(self, app_id: str, paused: bool) -> dict[str, Any]:
        """Pause or resume an RM rule (toggle button, state read first) or a Visual Rule."""
        app = await self._rule(app_id)
        if app.is_visual_rule:
            await set_visual_rule_paused(self._client, app_id, paused)
            return {"app_id": app_id, "name": app.name, "paused": paused}
        st = (await fetch_status(self._client, app_id))["appState"]
        if bool(st.get("paused")) == paused:
            return {"app_id": app_id, "name": app.name, "paused": paused, "unchanged": True}
        await click_button(self._client, app_id, "pausRule")
        after = (await fetch_status(self._client, app_id))["appState"]
        if bool(after.get("paused")) != paused:
            raise HubBadResponseError(f"Rule {app_id} did not change its pause state")
        return {"app_id": app_id, "name": app.name, "paused": paused}

    # ------------------------------------------------------------------ visual rules

    async def get_visual_rule(self, app_id: str) -> dict[str, Any]:
        """A Visual Rule's definition and its format."""
        app = await self._rule(app_id, visual=True)
        graph = await fetch_rule_builder20(self._client, app_id)
        if graph is not None:
            return {"app_id": app_id, "name": app.name, "format": "graph", "definition": graph}
        data = await fetch_rule_builder(self._client, app_id)
        return {"app_id": app_id, "name": app.name, "format": "classic", "definition": data}

    async def create_visual_rule(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a Visual Rule and write its definition; a failed write is cleaned up."""
        app_id, graph = await create_visual_rule(self._client)
        try:
            if graph:
                raise ValidationError(
                    "This firmware creates Visual Rules in the graph format, which this tool "
                    "does not write. The empty rule was removed.",
                    hint="Create the rule in the hub UI.",
                )
            await save_visual_rule(self._client, app_id, body)
        except (HubError, ValidationError):
            await delete_app(self._client, app_id, force=True)
            raise
        return {"app_id": app_id, "name": body.get("name")}

    async def update_visual_rule(self, app_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Read-merge-write a classic Visual Rule; the previous definition is backed up."""
        current = await self.get_visual_rule(app_id)
        if current["format"] != "classic":
            raise ValidationError(
                f"Visual Rule {app_id} uses the graph format, which this tool does not write."
            )
        old = current["definition"]
        body = {k: old.get(k) for k in ("name", "rulePaused", *NODE_KEYS)}
        body.update(changes)
        backup = await self.backups.save(
            "visualrule",
            app_id,
            {"name": current["name"], "definition": old},
            reason="before update",
            series=True,
        )
        await save_visual_rule(self._client, app_id, body)
        return {"app_id": app_id, "name": body.get("name"), "item_backup": backup}

    async def delete_visual_rule(self, app_id: str) -> dict[str, Any]:
        """Back up and return the definition, then force-delete the rule."""
        current = await self.get_visual_rule(app_id)
        backup = await self.backups.save(
            "visualrule",
            app_id,
            {"name": current["name"], "definition": current["definition"]},
            reason="before delete",
        )
        await delete_app(self._client, app_id, force=True)
        return {
            "app_id": app_id,
            "name": current["name"],
            "format": current["format"],
            "definition": current["definition"],
            "item_backup": backup,
        }
