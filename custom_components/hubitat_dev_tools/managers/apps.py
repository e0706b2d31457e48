"""Installed apps and rules: tree, pages, state, settings editor, enable/disable, delete,
RM and VRB, and export/import/clone through the hub's App Cloner."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from weakref import WeakKeyDictionary

from ..errors import ToolError
from ..hub.apps import (
    ClonerSession,
    InstalledApp,
    click_button,
    click_page_button,
    cloner_action_index,
    cloner_click,
    cloner_export_text,
    cloner_refresh,
    close_cloner,
    create_visual_rule,
    delete_app,
    fetch_app_tree,
    fetch_cloner_page,
    fetch_config_page,
    fetch_rule_builder,
    fetch_rule_builder20,
    fetch_status,
    maybe_json,
    open_cloner,
    post_app_settings,
    save_visual_rule,
    set_app_disabled,
    set_visual_rule_paused,
)
from ..hub.client import HubClient
from ..hub.devices import fetch_devices
from ..hub.errors import HubBadResponseError, HubError, HubNotFoundError
from ..hub.files import read_text_file
from .files import FilesManager, check_name
from .item_backups import ItemBackups

_LOGGER = logging.getLogger(__name__)

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


def summarize_page(page: Any) -> dict[str, Any]:
    """Sections with typed inputs and current values, paragraphs as text, buttons, links."""
    if not isinstance(page, dict):
        page = {}
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


DEVICE_TYPES = ("capability.", "device.")
_TEXT_TYPES = ("text", "textarea", "string", "password", "email", "phone", "paragraph_text")
_ISO_TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_RANGE_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?|\*)\s*\.\.\s*(-?\d+(?:\.\d+)?|\*)\s*$")
MAX_SETTING_CHARS = 10_000


def _page_name_version(config: dict[str, Any], page: str | None) -> tuple[str, Any]:
    """The page's name and the app's config version (the settings submit sends it back)."""
    page_info = config.get("configPage")
    app_info = config.get("app")
    name = page_info.get("name") if isinstance(page_info, dict) else None
    version = app_info.get("version") if isinstance(app_info, dict) else None
    return str(name or page or "mainPage"), version


def page_inputs(config: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], set[str]]:
    """The settable inputs (by name) and the button names of a configure/json page."""
    inputs: dict[str, dict[str, Any]] = {}
    buttons: set[str] = set()
    page = config.get("configPage")
    sections = page.get("sections") if isinstance(page, dict) else None
    for sec in sections if isinstance(sections, list) else []:
        items = sec.get("input") if isinstance(sec, dict) else None
        for inp in items if isinstance(items, list) else []:
            if not isinstance(inp, dict) or not isinstance(inp.get("name"), str):
                continue
            if inp.get("type") == "button":
                buttons.add(inp["name"])
            elif inp.get("type") not in ("href", "paragraph", "image", "label_text"):
                inputs[inp["name"]] = inp
    return inputs, buttons


def enum_keys(options: Any) -> list[str]:
    """The keys of an enum input's options (a list of values, of {key: label}, or a map)."""
    if isinstance(options, dict):
        return [str(k) for k in options]
    keys: list[str] = []
    for opt in options if isinstance(options, list) else []:
        if isinstance(opt, dict):
            keys.extend(str(k) for k in opt)
        else:
            keys.append(str(opt))
    return keys


def _as_list(value: Any, name: str, repairs: list[str]) -> list[Any]:
    if isinstance(value, list):
        return value
    repairs.append(f"{name}: one value given for a multiple input, sent as a list")
    return [value]


_INT_TEXT_RE = re.compile(r"^-?[0-9]{1,15}$")
_DECIMAL_TEXT_RE = re.compile(r"^-?[0-9]{1,15}(\.[0-9]{1,15})?$")
MAX_NUMBER = 1e15


def _scalar(value: Any, want: type, name: str, repairs: list[str]) -> Any:
    """Quoted numbers and booleans become the declared type; nothing else is converted."""
    if want is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            repairs.append(f"{name}: '{value}' sent as a boolean")
            return value.strip().lower() == "true"
        raise ToolError(f"{name} is a true/false input; got {value!r}. Nothing was sent.")
    kind = "a whole number" if want is int else "a number"
    number: int | float | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int) or (isinstance(value, float) and want is float):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        pattern = _INT_TEXT_RE if want is int else _DECIMAL_TEXT_RE
        if pattern.match(text):
            number = int(text) if want is int else float(text)
            repairs.append(f"{name}: '{value}' sent as a number")
    if number is None or not math.isfinite(number) or abs(number) > MAX_NUMBER:
        raise ToolError(
            f"{name} takes {kind} (at most 15 digits); got {value!r}. Nothing was sent."
        )
    return want(number)


def _check_range(inp: dict[str, Any], number: float, name: str) -> None:
    m = _RANGE_RE.match(str(inp.get("range") or ""))
    if m is None:
        return
    try:
        low, high = (None if x == "*" else float(x) for x in m.groups())
    except ValueError:  # a range this tool does not understand is not enforced
        return
    if (low is not None and number < low) or (high is not None and number > high):
        raise ToolError(f"{name} must be within {inp['range']}; got {number:g}. Nothing was sent.")


def encode_setting(
    inp: dict[str, Any],
    value: Any,
    known_devices: set[str] | None,
    device_allowed: Callable[[str], bool],
    repairs: list[str],
) -> tuple[str, str, bool]:
    """Validate one value against its input and encode it as the hub's form does."""
    name = str(inp["name"])
    input_type = str(inp.get("type") or "")
    multiple = bool(inp.get("multiple"))
    if input_type == "bool":
        return ("true" if _scalar(value, bool, name, repairs) else "false"), input_type, False
    if input_type in ("number", "decimal"):
        number = _scalar(value, int if input_type == "number" else float, name, repairs)
        _check_range(inp, float(number), name)
        return str(number), input_type, False
    if input_type in ("enum", "mode") and (inp.get("options") or input_type == "enum"):
        keys = enum_keys(inp.get("options"))
        if not keys:
            raise ToolError(
                f"{name} lists no options on this page, so it cannot be set here. Nothing "
                "was sent.",
                hint="Set it in the hub UI.",
            )
        values = _as_list(value, name, repairs) if multiple else [value]
        picked = [str(v) for v in values]
        bad = [v for v in picked if v not in keys]
        if bad or not picked:
            raise ToolError(
                f"{name} takes {'some' if multiple else 'one'} of: {', '.join(keys[:50])}; "
                f"got {', '.join(bad) or 'nothing'}. Nothing was sent.",
                hint="Use the option keys exactly as listed.",
            )
        return (json.dumps(picked) if multiple else picked[0]), input_type, multiple
    if input_type.startswith(DEVICE_TYPES):
        values = _as_list(value, name, repairs) if multiple else [value]
        ids = [str(v).strip() for v in values]
        if not ids or not all(re.fullmatch(r"[0-9]{1,12}", i) for i in ids):
            raise ToolError(
                f"{name} takes device ids (numbers); got {value!r}. Nothing was sent.",
                hint="Find ids with hub_list_devices.",
            )
        missing = [i for i in ids if known_devices is not None and i not in known_devices]
        if missing:
            raise ToolError(
                f"No device with id {', '.join(missing)} on the hub. Nothing was sent.",
                hint="Find ids with hub_list_devices.",
            )
        hidden = [i for i in ids if not device_allowed(i)]
        if hidden:
            raise ToolError(
                f"Device(s) {', '.join(hidden)} are outside the assistant's device allowlist. "
                "Nothing was sent to the hub.",
                code="device_not_allowed",
                hint="Do not retry with the same device; an admin can change the allowlist.",
            )
        return ",".join(ids), input_type, multiple
    if input_type == "mode" and multiple:
        listed = _as_list(value, name, repairs)
        if not listed or not all(isinstance(v, str) for v in listed):
            raise ToolError(f"{name} takes a list of mode names; got {value!r}. Nothing was sent.")
        return json.dumps(listed), input_type, True
    if input_type in _TEXT_TYPES or input_type == "mode":
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise ToolError(f"{name} takes text; got {value!r}. Nothing was sent.")
        text = str(value)
        if len(text) > MAX_SETTING_CHARS:
            raise ToolError(
                f"{name} is {len(text)} characters; the limit is {MAX_SETTING_CHARS}. "
                "Nothing was sent."
            )
        return text, input_type, False
    if input_type == "time":
        if not isinstance(value, str) or not _ISO_TIME_RE.match(value):
            raise ToolError(
                f"{name} is a time input: give an ISO date-time such as "
                f"2026-11-30T07:30:00.000-0500 (the form the page shows); got {value!r}. "
                "Nothing was sent."
            )
        return value, input_type, False
    if input_type == "date":
        if not isinstance(value, str) or not _DATE_RE.match(value):
            raise ToolError(
                f"{name} is a date input (YYYY-MM-DD); got {value!r}. Nothing was sent."
            )
        return value, input_type, False
    raise ToolError(
        f"{name} is a '{input_type}' input, which this tool does not set. Nothing was sent.",
        hint="Set it in the hub UI.",
    )


def same_setting(inp: dict[str, Any], current: Any, encoded: str) -> bool:
    """Whether the page now shows the value that was sent (tolerant of the hub's shapes)."""
    input_type = str(inp.get("type") or "")
    try:
        if input_type.startswith(DEVICE_TYPES):
            ids = inp.get("deviceIdsForDeviceList")
            if isinstance(ids, list):
                now = {str(i) for i in ids}
            elif isinstance(current, list):
                now = {str(c.get("id") if isinstance(c, dict) else c) for c in current}
            else:
                now = {p.strip() for p in str(current or "").split(",") if p.strip()}
            return now == {p for p in encoded.split(",") if p}
        if inp.get("multiple") and input_type in ("enum", "mode"):
            now_list = maybe_json(current) if isinstance(current, str) else current
            if not isinstance(now_list, list):
                now_list = [] if now_list is None else [now_list]
            return sorted(map(str, now_list)) == sorted(json.loads(encoded))
        if isinstance(current, list) and len(current) == 1:  # a single value shown as a list
            current = current[0]
        if input_type in ("number", "decimal"):
            return float(current) == float(encoded)
        if input_type == "bool":
            return str(current).lower() == encoded
        if input_type == "time" and isinstance(current, str):
            return current[:16] == encoded[:16]
        return str(current) == encoded
    except (TypeError, ValueError, OverflowError):
        return False


class _AppBase:
    """Installed apps and automations (the App Cloner part is in ``AppManager`` below)."""

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
            raise ToolError(
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
            raise ToolError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Visual Rule.",
                hint="List Visual Rules with hub_list_rules engine=visual.",
            )
        if visual is False and not app.is_rm_rule:
            raise ToolError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Rule Machine rule.",
                hint="List Rule Machine rules with hub_list_rules engine=rule_machine.",
            )
        if visual is None and not (app.is_rm_rule or app.is_visual_rule):
            raise ToolError(
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
                raise ToolError(
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
                raise ToolError(
                    "This firmware creates Visual Rules in the graph format, which this tool "
                    "does not write. The empty rule was removed.",
                    hint="Create the rule in the hub UI.",
                )
            await save_visual_rule(self._client, app_id, body)
        except (HubError, ToolError):
            await delete_app(self._client, app_id, force=True)
            raise
        return {"app_id": app_id, "name": body.get("name")}

    async def update_visual_rule(self, app_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Read-merge-write a classic Visual Rule; the previous definition is backed up."""
        current = await self.get_visual_rule(app_id)
        if current["format"] != "classic":
            raise ToolError(
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


# ---------------------------------------------------------------------- App Cloner

# The cloner re-renders asynchronously after a state change: poll its page this long.
CLONER_POLL_DELAYS = (0.25, 0.5, 1.0, 2.0)
MAX_INLINE_EXPORT_CHARS = 60_000
_CLONER_LOCKS: WeakKeyDictionary[HubClient, asyncio.Lock] = WeakKeyDictionary()
_UNCLONEABLE_TYPES = ("App Cloner", "Hub Variables")


def _cloner_lock(client: HubClient) -> asyncio.Lock:
    """One cloner operation at a time per hub, so the new app is identified unambiguously."""
    lock = _CLONER_LOCKS.get(client)
    if lock is None:
        lock = _CLONER_LOCKS[client] = asyncio.Lock()
    return lock


def parse_export(text: str) -> tuple[dict[str, Any], bool]:
    """Parse an App Cloner export; returns (document, repaired).

    Some firmwares escape multi-select values once too often (``\\\\"`` where JSON needs
    ``\\"``), which makes the text invalid JSON. Only when the text does not parse as it is,
    that one escape is collapsed, and the result is used only if it then parses.
    """
    repaired = False
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        try:
            doc = json.loads(text.replace('\\\\"', '\\"'))
            repaired = True
        except (ValueError, RecursionError) as err:
            raise ToolError(
                f"The export is not valid JSON ({err}). Nothing was sent to the hub.",
                hint="Pass the 'export' object exactly as hub_export_app returned it, or "
                "the name of the file it was saved to.",
            ) from err
    reps = doc.get("appReplacements") if isinstance(doc, dict) else None
    if (
        not isinstance(reps, dict)
        or not reps
        or not all(isinstance(v, dict) for v in reps.values())
    ):
        raise ToolError(
            "This is not an App Cloner export (it has no appReplacements map). Nothing was "
            "sent to the hub.",
            hint="Use a document made by hub_export_app (or the hub's Export button).",
        )
    return doc, repaired


def describe_export(doc: dict[str, Any]) -> dict[str, Any]:
    """The apps and devices an export holds, for the model to check before importing."""
    apps = [
        {
            "original_app_id": key,
            "label": rep.get("appLabel"),
            "type": rep.get("appTypeName"),
        }
        for key, rep in doc["appReplacements"].items()
    ]
    devs = doc.get("deviceReplacements")
    devices = [
        {"device_id": key, "label": rep.get("deviceLabel") if isinstance(rep, dict) else None}
        for key, rep in (devs.items() if isinstance(devs, dict) else [])
    ]
    return {"apps": apps, "devices": devices}


def export_root(doc: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(original id, entry) of the export's top app: the one whose parent is not in it."""
    reps: dict[str, Any] = doc["appReplacements"]
    for key, rep in reps.items():
        if str(rep.get("parentAppId")) not in reps:
            return key, rep
    key = next(iter(reps))
    return key, reps[key]


def _add_warnings(out: dict[str, Any], warning: str | None, left: str | None) -> None:
    notes = [out["warning"]] if out.get("warning") else []
    if warning:
        notes.append(warning)
    if left:
        out["cloner_left_behind"] = left
        notes.append(
            f"The temporary App Cloner app {left} could not be removed; delete it with "
            "hub_delete_app."
        )
    if notes:
        out["warning"] = " ".join(notes)


_NAME_FIELD_RE = re.compile(r"newName(\d+)")


def _name_field(page: dict[str, Any]) -> str | None:
    """The import page's new-name input (``newName<originalId>``), if that page is shown."""
    config = page.get("configPage")
    m = _NAME_FIELD_RE.search(json.dumps(config)) if isinstance(config, dict) else None
    return m.group(0) if m else None


@dataclass(slots=True)
class _Target:
    """How to recognise the app a clone or import creates."""

    before: set[str]
    cloner_id: str
    name: str
    parent_id: str | None
    app_type: str


class _NewApp:
    """What a clone or import created, once identified in the app tree."""

    def __init__(self, root: InstalledApp, tree: list[InstalledApp]) -> None:
        self.root = root
        by_id = {a.id: a for a in tree}
        self.descendants: list[InstalledApp] = []
        todo = list(root.children)
        while todo:
            node = by_id.get(todo.pop(0))
            if node is not None:
                self.descendants.append(node)
                todo.extend(node.children)


class AppManager(_AppBase):
    """Installed apps and automations, plus export, import and clone through the hub's own
    App Cloner."""

    async def snapshot(self, app: InstalledApp) -> dict[str, Any]:
        """The base snapshot plus the App Cloner export, so hub_import_app can re-create it."""
        snap = await super().snapshot(app)
        try:
            await self._cloneable(app.id, "exported")
            doc, _repaired, left = await self.export_document(app)
        except (HubError, ToolError) as err:
            snap["native_export_error"] = str(err)
        else:
            snap["native_export"] = json.dumps(doc, ensure_ascii=False)
            if left:
                snap["cloner_left_behind"] = left
        return snap

    async def _cloneable(self, app_id: str, purpose: str) -> InstalledApp:
        app = await self.find(app_id)
        if app.type in _UNCLONEABLE_TYPES:
            raise ToolError(
                f"App {app_id} ({app.name}) is the hub's {app.type} app; it cannot be "
                f"{purpose}. Nothing was sent."
            )
        if app.is_visual_rule:
            raise ToolError(
                f"App {app_id} is a Visual Rule; the App Cloner handles classic apps only. "
                "Nothing was sent.",
                hint="Read it with hub_get_visual_rule and create a copy with "
                "hub_create_visual_rule.",
            )
        if not app.user and app.parent_id is None:
            raise ToolError(
                f"App {app_id} ({app.name}) is a built-in top-level app; the App Cloner "
                f"works on the automations under it (rules, room lights, ...). It cannot be "
                f"{purpose}. Nothing was sent.",
                hint="Pick one of its child apps (hub_list_apps shows parent_id).",
            )
        return app

    async def _close(self, session: ClonerSession) -> str | None:
        """Remove the cloner; return its id when that failed (it is then left behind)."""
        try:
            await close_cloner(self._client, session)
        except HubError as err:
            _LOGGER.warning("Could not remove App Cloner instance %s: %s", session.cloner_id, err)
            return session.cloner_id
        return None

    async def _poll(
        self, session: ClonerSession, found: Callable[[dict[str, Any]], bool]
    ) -> dict[str, Any] | None:
        for delay in CLONER_POLL_DELAYS:
            await asyncio.sleep(delay)
            page = await fetch_cloner_page(self._client, session)
            if found(page):
                return page
        return None

    # ------------------------------------------------------------------ export

    async def _export_text(self, app: InstalledApp) -> tuple[str, str | None]:
        """Run the cloner's Export; returns (document text, cloner id left behind)."""
        session = await open_cloner(self._client, app.id)
        try:
            await cloner_click(self._client, session, "exportRuleButton")
            page = await cloner_refresh(
                self._client, session, page="main", view="source", referrer=session.context_url
            )
            text = cloner_export_text(page)
        finally:
            left = await self._close(session)
        if text is None:
            raise HubBadResponseError(
                f"The hub's App Cloner produced no export for app {app.id} ({app.name}).",
                hint="The App Cloner cannot export a Rule Machine rule that has a Required "
                "Expression: remove it in the hub UI, export, then add it back. For other "
                "apps this firmware's cloner page may differ; report the firmware version.",
            )
        return text, left

    async def export_document(self, app: InstalledApp) -> tuple[dict[str, Any], bool, str | None]:
        """(canonical export document, repaired, cloner id left behind) for one app."""
        async with _cloner_lock(self._client):
            text, left = await self._export_text(app)
        try:
            doc, repaired = parse_export(text)
        except ToolError as err:
            raise HubBadResponseError(
                f"The hub's App Cloner export of app {app.id} could not be read: {err}",
                hint="This firmware's export format may differ; report the firmware version.",
            ) from err
        return doc, repaired, left

    async def export_app(self, app_id: str, save_as: str | None) -> dict[str, Any]:
        """Export one app (with its child apps) to the cloner's JSON; large ones go to a file."""
        if save_as is not None:
            check_name(save_as)
        app = await self._cloneable(app_id, "exported")
        doc, repaired, left = await self.export_document(app)
        text = json.dumps(doc, ensure_ascii=False)
        out: dict[str, Any] = {
            "app_id": app_id,
            "name": app.name,
            "type": app.type,
            **describe_export(doc),
            "chars": len(text),
        }
        if repaired:
            out["repaired_escaping"] = True
        if left:
            out["warning"] = f"The temporary App Cloner app {left} could not be removed; "
            out["warning"] += "delete it with hub_delete_app."
        target = save_as
        if target is None and len(text) > MAX_INLINE_EXPORT_CHARS:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            target = f"hdt-export_app-{app_id}_{stamp}.json"
        if target is not None:
            written = await FilesManager(self._client).write(target, text)
            out["saved_as"] = target
            if written.get("backup_file"):
                out["replaced_file_backup"] = written["backup_file"]
            out["note"] = (
                f"Saved to the File Manager as {target}; import it with hub_import_app "
                f"from_file={target}."
            )
        else:
            out["export"] = doc
        return out

    # ------------------------------------------------------------------ clone / import

    async def _commit(
        self, session: ClonerSession, *, index: int, referrer: str, target: _Target
    ) -> tuple[_NewApp, str | None]:
        """Open the cloner's import page, name the app, press Import; find the new app.

        Returns (new app, warning). Once Import has been pressed an app may exist, so from
        then on a hub error is answered by looking for the app rather than by giving up.
        """
        client = self._client
        link = f"_action_href_name|importRule|{index}"
        page = await cloner_refresh(
            client,
            session,
            page="main",
            view="confirmation",
            referrer=referrer,
            extras={link: "", f"params_for_action_href_name|importRule|{index}": ""},
        )
        if (field_name := _name_field(page)) is None:
            polled = await self._poll(session, lambda p: _name_field(p) is not None)
            field_name = _name_field(polled) if polled else None
        if field_name is None:
            raise HubBadResponseError(
                "The App Cloner did not open its import page; nothing was created.",
                hint="Retry once; if it persists, report the firmware version.",
            )
        press = {  # the import page's inputs: the new name and the Import button
            f"settings[{field_name}]": target.name,
            f"{field_name}.type": "text",
            f"{field_name}.multiple": "false",
            "importNow.type": "button",
            "importNow.multiple": "false",
            "settings[importNow]": "",
        }
        await cloner_refresh(
            client, session, page="importRule", view="importRule", referrer=referrer, extras=press
        )
        # The hub can lose the first Import click. A second press is made only after the
        # first had time to show its app, so a slow hub never gets two presses.
        waits = (CLONER_POLL_DELAYS[:2], CLONER_POLL_DELAYS)
        for attempt, delays in enumerate(waits):
            try:
                await cloner_click(client, session, "importNow")
                await cloner_refresh(
                    client,
                    session,
                    page="importRule",
                    view="importRule",
                    referrer=referrer,
                    extras=press,
                )
            except HubError as err:
                return await self._after_failed_press(target, err)
            for delay in (0.0, *delays):
                await asyncio.sleep(delay)
                try:
                    new = await self._find_new(target)
                except HubError as err:
                    if attempt == len(waits) - 1 and delay == delays[-1]:
                        return await self._after_failed_press(target, err)
                    continue
                if new is not None:
                    return new, None
        raise HubBadResponseError(
            "The App Cloner accepted the import but no new app appeared.",
            hint="Check hub_list_apps in a minute before retrying: a late copy may appear, "
            "and retrying would make a second one.",
        )

    async def _after_failed_press(self, target: _Target, err: HubError) -> tuple[_NewApp, str]:
        """The hub failed after Import was pressed: the app may exist all the same."""
        with contextlib.suppress(HubError):
            new = await self._find_new(target)
            if new is not None:
                return new, f"The hub reported an error after creating the app ({err})."
        raise HubBadResponseError(
            f"The hub failed after Import was pressed ({err}); the new app may still appear.",
            hint="Check hub_list_apps before anything else; do not repeat this call blindly "
            "(that could make a second copy).",
        ) from err

    async def _find_new(self, target: _Target) -> _NewApp | None:
        """The app this operation created, if it is in the tree yet."""
        tree = await self.tree()
        fresh = [
            a
            for a in tree
            if a.id not in target.before
            and a.id != target.cloner_id
            and a.parent_id == target.parent_id
        ]
        named = [a for a in fresh if a.name == target.name]
        if len(named) == 1:
            return _NewApp(named[0], tree)
        if len(named) > 1:
            # Ours by name (e.g. a hub that made a copy per press): stop them all.
            for app in named:
                with contextlib.suppress(HubError):
                    await set_app_disabled(self._client, app.id, True)
            ids = ", ".join(a.id for a in named)
            raise HubBadResponseError(
                f"The hub made several apps named '{target.name}' ({ids}); all were disabled.",
                hint="Keep one (hub_get_app to compare) and delete the others with "
                "hub_delete_app; do not repeat this call.",
            )
        typed = [a for a in fresh if a.type == target.app_type]
        if len(typed) == 1:  # a hub that ignored the name: same parent, same type, new
            return _NewApp(typed[0], tree)
        return None

    async def _stage(self, new: _NewApp, enable: bool) -> dict[str, Any]:
        """Disable the new app and its child apps unless ``enable``; verified."""
        ids = [new.root.id, *(a.id for a in new.descendants)]
        out: dict[str, Any] = {
            "new_app_id": new.root.id,
            "name": new.root.name,
            "type": new.root.type,
            "parent_id": new.root.parent_id,
            "child_app_ids": ids[1:],
        }
        if enable:
            out["enabled"] = True
            return out
        failed: set[str] = set()
        for app_id in ids:
            try:
                await set_app_disabled(self._client, app_id, True)
            except HubError as err:
                _LOGGER.warning("Could not disable new app %s: %s", app_id, err)
                failed.add(app_id)
        try:
            failed |= {a.id for a in await self.tree() if a.id in ids and not a.disabled}
        except HubError:
            out["disable_unverified"] = True
        live = sorted(failed, key=int)
        out["enabled"] = new.root.id in failed
        out["disabled_app_ids"] = [i for i in ids if i not in failed]
        if live:
            out["still_enabled_app_ids"] = live
            out["warning"] = (
                f"The new app WAS created, but app(s) {', '.join(live)} could not be "
                "disabled and are live. Do not repeat this call (that makes a second copy); "
                "disable them with hub_set_app_disabled."
            )
        return out

    async def clone_app(self, app_id: str, new_name: str | None, enable: bool) -> dict[str, Any]:
        """Deep-copy one app (child apps, settings, state) under the same parent."""
        app = await self._cloneable(app_id, "cloned")
        name = (new_name or f"{app.name} (copy)").strip()
        client = self._client
        async with _cloner_lock(client):
            session = await open_cloner(client, app.id)
            try:
                before = {a.id for a in await self.tree()}
                index: int | None = None
                for _attempt in range(2):  # the hub can lose the first Clone click
                    await cloner_click(client, session, "cloneRuleButton")
                    page = await cloner_refresh(
                        client,
                        session,
                        page="main",
                        view="source",
                        referrer=session.context_url,
                    )
                    index = cloner_action_index(page, "importRule")
                    if index is not None:
                        break
                if index is None:
                    polled = await self._poll(
                        session, lambda p: cloner_action_index(p, "importRule") is not None
                    )
                    index = cloner_action_index(polled, "importRule") if polled else None
                if index is None:
                    raise HubBadResponseError(
                        f"The App Cloner did not offer a copy of app {app_id}; nothing was "
                        "created.",
                        hint="Retry once; if it persists, report the firmware version.",
                    )
                target = _Target(before, session.cloner_id, name, app.parent_id, app.type)
                new, warning = await self._commit(
                    session, index=index, referrer=session.context_url, target=target
                )
            finally:
                left = await self._close(session)
        out = {"source_app_id": app_id, **await self._stage(new, enable)}
        _add_warnings(out, warning, left)
        return out

    async def _export_source(
        self, export: Any, from_file: str | None, from_backup: str | None
    ) -> tuple[str, str]:
        """(export text, where it came from)."""
        if from_backup is not None:
            snap = await self.backups.read(from_backup)
            text = snap.get("native_export")
            if not isinstance(text, str):
                raise ToolError(
                    f"Backup {from_backup} holds no App Cloner export"
                    + (
                        f" ({snap['native_export_error']})"
                        if snap.get("native_export_error")
                        else ""
                    )
                    + ". Nothing was sent.",
                    hint="Only installed-app backups taken by hub_delete_app hold an export; "
                    "re-create the app from the settings in the backup by hand.",
                )
            return text, f"backup {from_backup}"
        if from_file is not None:
            check_name(from_file)
            try:
                return await read_text_file(self._client, from_file), f"file {from_file}"
            except HubNotFoundError as err:
                raise ToolError(
                    f"There is no file '{from_file}' in the File Manager. Nothing was sent.",
                    hint="hub_list_files shows the file names (they are case-sensitive).",
                ) from err
        if isinstance(export, str):
            return export, "argument"
        try:
            return json.dumps(export), "argument"
        except (TypeError, ValueError, RecursionError) as err:
            raise ToolError(
                f"The export object cannot be read ({err}). Nothing was sent.",
                hint="Pass the 'export' object exactly as hub_export_app returned it.",
            ) from err

    async def import_app(
        self,
        *,
        export: Any,
        from_file: str | None,
        from_backup: str | None,
        seed_app_id: str | None,
        new_name: str | None,
        enable: bool,
        allow_missing_devices: bool,
        device_allowed: Callable[[str], bool] = lambda _device_id: True,
    ) -> dict[str, Any]:
        """Create a new app from an export, under the parent of a seed app of the same type."""
        text, origin = await self._export_source(export, from_file, from_backup)
        doc, repaired = parse_export(text)
        original_id, first = export_root(doc)
        app_type = str(first.get("appTypeName") or "")
        devs = doc.get("deviceReplacements")
        wanted = [str(k) for k in devs] if isinstance(devs, dict) else []
        hidden = [d for d in wanted if not device_allowed(d)]
        if hidden:
            raise ToolError(
                f"The export uses device(s) {', '.join(hidden)}, outside the assistant's device "
                "allowlist. Nothing was created.",
                code="device_not_allowed",
                hint="Do not retry with this export; an admin can change the allowlist.",
            )
        missing: list[str] = []
        if wanted:
            have = {d.id for d in await fetch_devices(self._client)}
            missing = [d for d in wanted if d not in have]
        if missing and not allow_missing_devices:
            labels = {
                k: v.get("deviceLabel") if isinstance(v, dict) else None
                for k, v in (devs or {}).items()
            }
            listed = ", ".join(f"{d} ({labels.get(d) or 'unknown'})" for d in missing)
            raise ToolError(
                f"The export uses device(s) that are no longer on the hub: {listed}. Nothing "
                "was created.",
                hint="Pass allow_missing_devices=true to import anyway (the new app will be "
                "BROKEN until you pick replacement devices in it), or re-add the devices.",
            )
        tree = await self.tree()
        if seed_app_id is not None:
            seed = await self._cloneable(seed_app_id, "used to seed an import")
        else:
            same = [
                a
                for a in tree
                if a.type == app_type
                and app_type
                and a.type not in _UNCLONEABLE_TYPES
                and not (not a.user and a.parent_id is None)
            ]
            if not same:
                raise ToolError(
                    f"No installed app of type '{app_type or 'unknown'}' to seed the import: "
                    "the hub's App Cloner imports next to an existing app of the same kind. "
                    "Nothing was created.",
                    hint="Create one such app in the hub UI (e.g. an empty rule), or pass "
                    "seed_app_id: any app under the parent that should hold the import.",
                )
            seed = same[0]
        name = (new_name or str(first.get("appLabel") or "Imported app")).strip()
        canonical = json.dumps(doc, ensure_ascii=False)
        client = self._client
        async with _cloner_lock(client):
            session = await open_cloner(client, seed.id)
            try:
                before = {a.id for a in await self.tree()}
                page = await cloner_refresh(
                    client,
                    session,
                    page="main",
                    view="source",
                    referrer=session.config_url,
                    extras={"settings[ruleUpload]": canonical},
                )
                config = page.get("configPage")
                refused = config.get("error") if isinstance(config, dict) else None
                if refused:
                    raise HubBadResponseError(
                        f"The App Cloner refused the export: {_text(refused)}. Nothing was "
                        "created.",
                        hint="Use a document made by hub_export_app, unchanged.",
                    )
                index = cloner_action_index(page, "importRule")
                if index is None:
                    polled = await self._poll(
                        session, lambda p: cloner_action_index(p, "importRule") is not None
                    )
                    index = cloner_action_index(polled, "importRule") if polled else None
                if index is None:
                    raise HubBadResponseError(
                        "The App Cloner did not accept the uploaded export; nothing was created.",
                        hint="Retry once; if it persists, report the firmware version.",
                    )
                target = _Target(before, session.cloner_id, name, seed.parent_id, app_type)
                new, warning = await self._commit(
                    session, index=index, referrer=session.config_url, target=target
                )
            finally:
                left = await self._close(session)
        out: dict[str, Any] = {
            "source": origin,
            "original_app_id": original_id,
            "seed_app_id": seed.id,
            **await self._stage(new, enable),
        }
        if missing:
            out["missing_devices"] = missing
        if repaired:
            out["repaired_escaping"] = True
        _add_warnings(out, warning, left)
        return out

    # ------------------------------------------------------------------ settings editor

    async def update_settings(
        self,
        app_id: str,
        *,
        page: str | None,
        settings: dict[str, Any],
        press: str | None,
        device_allowed: Callable[[str], bool],
    ) -> dict[str, Any]:
        """Set inputs on one page of a classic app (validated first), then press a button."""
        app = await self.find(app_id)
        if app.type in _UNCLONEABLE_TYPES or app.is_visual_rule:
            raise ToolError(
                f"App {app_id} ({app.name}, {app.type}) is not edited through its settings "
                "here. Nothing was sent.",
                hint="Hub variables: hub_create_variable/hub_delete_variable; Visual Rules: "
                "hub_update_visual_rule.",
            )
        config = await fetch_config_page(self._client, app_id, page)
        page_name, version = _page_name_version(config, page)
        inputs, buttons = page_inputs(config)
        known_devices: set[str] | None = None
        if any(str(inputs.get(k, {}).get("type", "")).startswith(DEVICE_TYPES) for k in settings):
            known_devices = {d.id for d in await fetch_devices(self._client)}
        fields: dict[str, tuple[str, str, bool]] = {}
        repairs: list[str] = []
        for name, value in settings.items():
            if name not in inputs:
                listed = ", ".join(sorted(inputs)[:40]) or "none"
                raise ToolError(
                    f"Page '{page_name}' of app {app_id} has no input '{name}'. Its inputs: "
                    f"{listed}. Nothing was sent.",
                    hint="Read the page with hub_get_app (pass page= for the other pages "
                    "listed under 'pages'); some inputs appear only after an earlier one is set.",
                )
            fields[name] = encode_setting(
                inputs[name], value, known_devices, device_allowed, repairs
            )
        if press is not None and press not in buttons:
            listed = ", ".join(sorted(buttons)) or "none"
            raise ToolError(
                f"Page '{page_name}' of app {app_id} has no button '{press}'. Its buttons: "
                f"{listed}. Nothing was sent.",
                hint="Buttons are listed per section under 'buttons' by hub_get_app.",
            )
        backup = await self.backups.save(
            "installedapp", app_id, await self.snapshot(app), reason="before edit", series=True
        )
        if fields:
            await post_app_settings(
                self._client, app_id, page=page_name, version=version, fields=fields
            )
        if press is not None:
            if fields:  # the submit moved the page's version on: press with the new one
                _name, version = _page_name_version(
                    await fetch_config_page(self._client, app_id, page_name), page_name
                )
            await click_page_button(self._client, app_id, press, page=page_name, version=version)
        after = await fetch_config_page(self._client, app_id, page_name)
        now_inputs, _ = page_inputs(after)
        applied, not_applied = [], []
        for name, (encoded, _type, _multiple) in fields.items():
            current = now_inputs.get(name, {}).get("value")
            if name in now_inputs and same_setting(now_inputs[name], current, encoded):
                applied.append(name)
            else:
                not_applied.append({"name": name, "sent": encoded, "now": _bounded(current)})
        out: dict[str, Any] = {
            "app_id": app_id,
            "name": app.name,
            "page": page_name,
            "applied": applied,
            "item_backup": backup,
            "config_page": summarize_page(
                after["configPage"] if isinstance(after.get("configPage"), dict) else {}
            ),
        }
        if press is not None:
            out["pressed"] = press
        if not_applied:
            out["not_applied"] = not_applied
            out["warning"] = (
                "The hub did not keep some settings (see not_applied); the page may need an "
                "earlier input first, or rejected the value."
            )
        if repairs:
            out["repairs"] = repairs
        return out
