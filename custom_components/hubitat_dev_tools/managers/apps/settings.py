"""The settings editor: set inputs on one page of a classic app, then press a button, the
way the app's own page does."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...device_refs import device_refs
from ...errors import ToolError
from ...hub.app_page import AppPage, Setting
from ...hub.controllers import AppsController, DevicesController
from ...redact import REDACTED, redact_document
from ..item_backups import ItemBackups
from .cloner import UNCLONEABLE_TYPES
from .installed import AppManager
from .page_model import bounded, encode_setting, same_setting, summarize_page

if TYPE_CHECKING:
    from ..sensitivity import SensitivityModel


async def encode_page_settings(
    hub_devices: DevicesController,
    form: AppPage,
    settings: dict[str, Any],
    *,
    device_allowed: Callable[[str], bool],
    confirm: bool,
    app_ref: str,
    app_name: str,
    sensitivity: SensitivityModel,
) -> tuple[dict[str, Setting], list[str]]:
    """Validate ``settings`` against the inputs ``form`` shows and encode them as its submit
    posts them: (fields, repairs). Device inputs take ids of existing devices inside the
    allowlist; giving an app a security-sensitive device needs confirm=true."""
    inputs = form.inputs
    known_devices: set[str] | None = None
    device_inputs = {k for k in settings if k in inputs and inputs[k].is_device}
    if device_inputs:
        devices = await hub_devices.list()
        known_devices = {d.id for d in devices}
        named = device_refs({"settings": settings}, device_inputs=device_inputs)
        sensitivity.require(
            await sensitivity.devices(sorted(named & known_devices)),
            confirm=confirm,
            allowed=device_allowed,
            what=f"These settings give {app_ref} ({app_name}) devices that",
        )
    fields: dict[str, Setting] = {}
    repairs: list[str] = []
    for name, value in settings.items():
        if REDACTED in json.dumps(value, default=str):
            raise ToolError(
                f"{name}: the value holds {REDACTED}, a secret a read left out (a password, "
                "a URL's token); storing it would break the app. Nothing was sent.",
                hint="Give the real value, or leave that input out of settings.",
            )
        if name not in inputs:
            listed = ", ".join(sorted(inputs)[:40]) or "none"
            raise ToolError(
                f"Page '{form.name}' of {app_ref} has no input '{name}'. Its inputs: "
                f"{listed}. Nothing was sent.",
                hint="Some inputs appear only after an earlier one is set.",
                subject="page_input",
            )
        fields[name] = encode_setting(inputs[name], value, known_devices, device_allowed, repairs)
    return fields, repairs


class AppSettingsManager:
    """Edit installed classic apps through their pages (each edit backed up first)."""

    def __init__(
        self,
        hub_apps: AppsController,
        devices: DevicesController,
        apps: AppManager,
        backups: ItemBackups,
        sensitivity: SensitivityModel,
    ) -> None:
        self._hub_apps = hub_apps
        self._devices = devices  # device inputs take ids of existing devices
        self._apps = apps
        self._backups = backups
        self._sensitivity = sensitivity

    async def update_settings(
        self,
        app_id: str,
        *,
        page: str | None,
        settings: dict[str, Any],
        press: str | None,
        device_allowed: Callable[[str], bool],
        confirm: bool = False,
        state_attribute: str | None = None,
        sub_page: str | None = None,
    ) -> dict[str, Any]:
        """Set inputs on one page of a classic app (validated first), then press a button.

        Editing a safety system (HSM, Mode Manager, the Maker API we use), or wiring a
        sensitive device into an app, needs confirm=true.
        """
        app = await self._apps.find(app_id)
        # what the app does decides (a rule that locks a door, a safety system): any
        # setting or button of its pages can make it act or change what it does
        # ... and what the new values would make it do (a rule picked to run, HSM, a file)
        given = await self._sensitivity.document(
            {"settings": settings}, label=f"app {app_id} ({app.name}) with these settings"
        )
        self._sensitivity.require(
            await self._sensitivity.apps([app_id]) | given,
            confirm=confirm,
            allowed=device_allowed,
            what=f"Changing the settings of, or pressing a button of, app {app_id} ({app.name})",
        )
        if app.type in UNCLONEABLE_TYPES or app.is_visual_rule:
            raise ToolError(
                f"App {app_id} ({app.name}, {app.type}) is not edited through its settings "
                "here. Nothing was sent.",
                subject="settings_not_editable",
            )
        form = await self._hub_apps.page(app_id, page)
        page_name, buttons = form.name, form.buttons
        fields, repairs = await encode_page_settings(
            self._devices,
            form,
            settings,
            device_allowed=device_allowed,
            confirm=confirm,
            app_ref=f"app {app_id}",
            app_name=app.name,
            sensitivity=self._sensitivity,
        )
        if sub_page is not None and sub_page not in {str(h.get("page")) for h in form.links()}:
            listed = ", ".join(sorted({str(h.get("page")) for h in form.links()})) or "none"
            raise ToolError(
                f"Page '{page_name}' of app {app_id} links to no page '{sub_page}'. Its "
                f"links: {listed}. Nothing was sent.",
                subject="page_link",
            )
        if press is not None and press not in buttons:
            listed = ", ".join(sorted(buttons)) or "none"
            raise ToolError(
                f"Page '{page_name}' of app {app_id} has no button '{press}'. Its buttons: "
                f"{listed}. Nothing was sent.",
                subject="page_button",
            )
        backup = await self._backups.save(
            "installedapp",
            app_id,
            await self._apps.snapshot(app),
            reason="before edit",
            series=True,
        )
        if fields:
            await form.set(fields)
        if press is not None:
            # read the page again (a submit re-rendered it: its buttons, its version; the
            # backup read another page), so the click acts on the page the UI would show
            await form.reload()
            await form.press(press, state_attribute=state_attribute)
        await form.reload()
        after = {"config": {"settings": form.config.get("settings")}}
        shown = form.config
        if sub_page is not None:  # the sub-page, rendered from the link's params
            opened = AppPage(form.client, app_id, name=sub_page)  # the page's own client
            _index, answer = await form.follow(sub_page)
            if not opened.take_answer(answer):
                await opened.reload()
            shown = opened.config
        self._backups.edited("installedapp", app_id, after)  # what the next edit checks
        applied, not_applied = [], []
        for name, sent in fields.items():
            now = form.inputs.get(name)
            if now is not None and same_setting(now, sent.value):
                applied.append(name)
            else:
                current = now.value if now is not None else None
                not_applied.append({"name": name, "sent": sent.value, "now": bounded(current)})
        out: dict[str, Any] = {
            "app_id": app_id,
            "name": app.name,
            "page": page_name,
            "applied": applied,
            "item_backup": backup,
            "config_page": summarize_page(
                shown["configPage"] if isinstance(shown.get("configPage"), dict) else {}
            ),
        }
        if sub_page is not None:
            out["opened"] = sub_page
        if press is not None:
            out["pressed"] = press
            if state_attribute:
                out["state_attribute"] = state_attribute
        if not_applied:
            out["not_applied"] = not_applied
            out["warning"] = (
                "The hub did not keep some settings (see not_applied); the page may need an "
                "earlier input first, or rejected the value."
            )
        if repairs:
            out["repairs"] = repairs
        redacted: dict[str, Any] = redact_document(out, types_from=form.config)
        return redacted
