"""Button Rules, made by their Button Controller's own add-button flow.

A Button Rule-5.1 gets its trigger (the controller's button device, the button number and the
event) only when the controller creates it; a bare ``createchild`` of it is a broken orphan
(the on-hub server, verified live on 2.5.0.143: ``_createButtonRuleViaController``). The
controller's page is driven as its UI does, in one chain with no page read between the mutations (a
read ends the add-button mode): the ``addBut`` click, the page's settings submit re-sending its
current form (``buttonDev``, ``origLabel``), the same with ``newBut=["<n>"]``, the
``"<n> <event>"`` click (``setBut``); then the page is read again (which also ends the mode),
and the new rule is the controller's new child app.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from ...errors import ToolError
from ...hub.app_page import AppPage, Setting
from ...hub.apps import app_name_text
from ...hub.controllers import AppsController
from ...hub.errors import HubBadResponseError, HubError
from ...hub.models import dict_list, norm_id
from .page_model import enum_keys

BUTTON_EVENTS = ("pushed", "held", "doubleTapped", "released")
CONTROLLER_TYPE = "Button Controller-5.1"
_RULE_NAMES = ("button rule", "button rule-5.1")


def is_button_rule(app_type: str) -> bool:
    """Whether ``app_type`` names a Button Rule."""
    return " ".join(app_type.lower().split()) in _RULE_NAMES


def parse_button(text: str) -> tuple[int, str]:
    """``"3 pushed"`` -> (3, "pushed"); a ToolError otherwise."""
    number, _, event = text.strip().partition(" ")
    if not number.isdigit() or int(number) < 1 or event not in BUTTON_EVENTS:
        raise ToolError(
            f"button must be '<number> <event>' with event one of {', '.join(BUTTON_EVENTS)}; "
            f"got {text!r}. Nothing was sent."
        )
    return int(number), event


def picked_devices(page: AppPage, name: str) -> list[str]:
    """The device ids a device input of ``page`` holds: its ``deviceIdsForDeviceList``, or
    configure/json ``settings[name]`` (a map id -> label: the on-hub server; a list or CSV: other
    shapes)."""
    inp = page.inputs.get(name)
    if inp is not None and inp.device_ids:
        return [str(i) for i in inp.device_ids]
    shown = page.config.get("settings")
    value = shown.get(name) if isinstance(shown, dict) else None
    if value is None and inp is not None:
        value = inp.value
    if isinstance(value, dict):
        return [str(k) for k in value]
    if isinstance(value, list):
        return [str(v.get("id") if isinstance(v, dict) else v) for v in value]
    if isinstance(value, str | int) and not isinstance(value, bool):
        return [p.strip() for p in str(value).split(",") if p.strip().isdigit()]
    return []


def _children(page: AppPage) -> dict[str, str]:
    return {
        i: app_name_text(c.get("label") or c.get("name"))
        for c in dict_list(page.config.get("childApps"))
        if (i := norm_id(c.get("id"))) is not None
    }


def _text_setting(page: AppPage, name: str) -> str | None:
    shown = page.config.get("settings")
    value = shown.get(name) if isinstance(shown, dict) else None
    if value is None and (inp := page.inputs.get(name)) is not None:
        value = inp.value
    return None if value is None else str(value)


class ButtonRuleCreator:
    """Creates a Button Rule under an installed Button Controller."""

    def __init__(self, apps: AppsController) -> None:
        self._apps = apps

    async def _controller(
        self, controller_id: str, device_allowed: Callable[[str], bool]
    ) -> tuple[AppPage, list[str]]:
        page = await self._apps.page(controller_id)
        info = page.config.get("app")
        kind = info.get("appType") if isinstance(info, dict) else None
        type_name = str(kind.get("name") or "") if isinstance(kind, dict) else ""
        if type_name != CONTROLLER_TYPE:
            raise ToolError(
                f"App {controller_id} is a '{type_name or 'unknown'}', not a {CONTROLLER_TYPE}; "
                "Button Rules are made under a Button Controller. Nothing was sent.",
                subject="not_button_controller",
            )
        ids = picked_devices(page, "buttonDev")
        if not ids:
            raise ToolError(
                f"Button Controller {controller_id} has no button device yet. Nothing was sent.",
                subject="no_button_device",
                extra={"app_id": controller_id},
            )
        if hidden := [i for i in ids if not device_allowed(i)]:
            raise ToolError(
                f"The controller's button device(s) {', '.join(hidden)} are outside the "
                "assistant's device allowlist. Nothing was sent to the hub.",
                code="device_not_allowed",
                hint="Do not retry with the same controller; an admin can change the allowlist.",
            )
        return page, ids

    async def create(
        self, controller_id: str, button: str, *, device_allowed: Callable[[str], bool]
    ) -> dict[str, Any]:
        """Run the controller's add-button flow for ``button`` ("3 pushed"); read it back."""
        number, event = parse_button(button)
        page, ids = await self._controller(controller_id, device_allowed)
        dev_input = page.inputs.get("buttonDev")
        form = {
            "buttonDev": Setting(
                ",".join(ids),
                dev_input.type if dev_input else "capability.pushableButton",
                dev_input.multiple if dev_input else True,
            )
        }
        label = _text_setting(page, "origLabel")
        if label is not None:
            form["origLabel"] = Setting(label, "text", False)
        before = _children(page)
        what = f"add button {number} {event} on Button Controller {controller_id}"
        try:
            await page.click("true", state_attribute="addBut", what=what)
            page.take_answer(await page.post_update(page.settings_form(form), what=what))
            picker = page.inputs.get("newBut")
            offered = enum_keys(picker.options) if picker is not None else []
            if offered and str(number) not in offered:
                raise ToolError(
                    f"Button Controller {controller_id}'s device has no button {number} "
                    f"(it offers {', '.join(offered[:40])}). No rule was made.",
                )
            define = {**form, "newBut": Setting(json.dumps([str(number)]), "enum", True)}
            page.take_answer(await page.post_update(page.settings_form(define), what=what))
            await page.click(f"{number} {event}", state_attribute="setBut", what=what)
        except Exception:
            with suppress(HubError):
                await page.reload()  # a page read ends add-button mode
            raise
        await page.reload()  # the effect read (it ends add-button mode too)
        return await self._result(page, controller_id, number, event, before, ids, label)

    async def _result(
        self,
        page: AppPage,
        controller_id: str,
        number: int,
        event: str,
        before: dict[str, str],
        ids: list[str],
        label: str | None,
    ) -> dict[str, Any]:
        after = _children(page)
        new = [i for i in after if i not in before]
        if not new:
            raise HubBadResponseError(
                f"Button Controller {controller_id} made no Button Rule for button {number} "
                f"{event} (no new child app after its add-button flow).",
                hint=f"Check that the device has button {number} and that no rule for it "
                f"exists already (app {controller_id} lists its child apps).",
                subject="button_rule",
            )
        rule = await self._apps.page(new[0])
        info = rule.config.get("app")
        kind = info.get("appType") if isinstance(info, dict) else None
        out: dict[str, Any] = {
            "summary": f"Created a Button Rule for button {number} {event} under Button "
            f"Controller {controller_id} as app {new[0]}",
            "app_id": new[0],
            "name": after[new[0]],
            "type": str(kind.get("name") or "") if isinstance(kind, dict) else "",
            "parent_id": controller_id,
            "created": True,
            "trigger": f"button {number} {event} of device(s) {', '.join(ids)}, set by the "
            "controller",
            "page": rule.name,
            "next": "Add its actions on its pages (or in the hub UI); it shows (Not Installed) "
            "until it has one.",
        }
        if rule.installed is not None:
            out["installed"] = rule.installed
        if len(new) > 1:
            out["other_new_children"] = new[1:]
        now_ids, now_label = picked_devices(page, "buttonDev"), _text_setting(page, "origLabel")
        if set(now_ids) != set(ids) or now_label != label:
            out["warning"] = (
                f"The controller now shows button device(s) {', '.join(now_ids) or 'none'} and "
                f"name {now_label!r} (before: {', '.join(ids)}, {label!r})."
            )
        return out
