"""Running instances of app code: press each one's Done so it runs ``updated()``.

Saving app code does not call ``updated()`` on the apps that run it (the hub's editor save
does not; the on-hub server documents the same and offers a refresh for it). The hub UI's way
is to open the app and press Done: ``POST /installedapp/update/json`` with the page's whole
form and ``_action_update=Done`` (``main.js``'s Done button; ``AppPage.done``). On an
installed app the hub then calls ``updated()``.

Done re-submits every input of the page, so a value sent wrong is a value overwritten. The
on-hub server found live that a page may show a configured bool at its default, and keeps the
values of ``statusJson`` ``appSettings`` first; so do we for plain values (text, numbers,
bools, enum lists). Device inputs come from the page's ``deviceIdsForDeviceList``. After
Done, each instance is read back: its page must still say installed, and its settings must
read as before (nothing but ``updated()`` should have happened).

Which apps run the code: the ``usedBy`` of its Apps Code entry. Pressing Done makes each app
act, so the sensitivity model's gate (safety apps, apps that command locks, HSM, ...) and
the device allowlist are applied to all of them before anything is sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..hub.app_page import AppPage, PageInput, Setting, current_setting
from ..hub.controllers import AppsController, CodeController
from ..hub.errors import HubError
from .apps.page_model import status_settings
from .code_sources import item_error
from .sensitivity import SensitivityModel


def _status_settings(status: Any) -> dict[str, Any]:
    """statusJson ``appSettings`` by name (value as the hub keeps it)."""
    raw = status.get("appSettings") if isinstance(status, dict) else None
    return status_settings(raw)[0]


def _plain(value: Any) -> bool:
    """A stored value that goes back into the form as it is (no map, no nested list)."""
    if isinstance(value, list):
        return all(isinstance(v, str | int | float | bool) for v in value)
    return isinstance(value, str | int | float | bool)


def done_fields(inputs: dict[str, PageInput], stored: dict[str, Any]) -> dict[str, Setting]:
    """Every input of the page at its current value: the stored one for plain values, the
    page's for device inputs and anything else (see the module doc). Password inputs are
    left out: what a page shows for one may be a mask, and a settings submit leaves the
    inputs it does not name as they are (the on-hub server writes one field a submit)."""
    fields: dict[str, Setting] = {}
    for name, inp in inputs.items():
        if str(inp.type).lower() == "password":
            continue
        value = stored.get(name)
        if not inp.is_device and value not in (None, "") and _plain(value):
            inp = PageInput(
                inp.name, inp.type, inp.multiple, inp.options, value, inp.range, inp.device_ids
            )
        fields[name] = current_setting(inp)
    return fields


def _norm(value: Any) -> Any:
    """A setting's value for comparing before and after (JSON list text or list, ids)."""
    if isinstance(value, str) and value.startswith("["):
        try:
            value = json.loads(value)
        except ValueError:
            return value
    if isinstance(value, list):
        return sorted(str(v) for v in value)
    return None if value in (None, "") else str(value)


class AppInstanceDone:
    """Press Done on the installed apps that run one app code."""

    def __init__(
        self, hub_apps: AppsController, code: CodeController, sensitivity: SensitivityModel
    ) -> None:
        self._hub_apps = hub_apps
        self._code = code
        self._sensitivity = sensitivity

    async def instances(self, app_code_id: str) -> list[tuple[str, str]]:
        """The installed apps (id, name) that run this app code."""
        return await self._code.app_instances(app_code_id)

    async def gate(
        self,
        instances: list[tuple[str, str]],
        *,
        confirm: bool,
        device_allowed: Callable[[str], bool],
        what: str,
    ) -> None:
        """Refuse (nothing sent) when pressing Done on these apps reaches a device outside
        the allowlist, or something sensitive without confirm."""
        if not instances:
            return
        reach = await self._sensitivity.apps(i for i, _n in instances)
        self._sensitivity.require(reach, confirm=confirm, allowed=device_allowed, what=what)

    async def press_all(self, instances: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """Done on each instance, one by one; one result each (a failure does not stop the
        rest)."""
        results = []
        for app_id, name in instances:
            try:
                results.append(await self._press(app_id, name))
            except HubError as err:
                results.append(
                    {"app_id": app_id, "name": name, "status": "failed"} | item_error(err)
                )
        self._sensitivity.forget()
        return results

    async def _press(self, app_id: str, name: str) -> dict[str, Any]:
        page = await self._hub_apps.page(app_id)
        head: dict[str, Any] = {"app_id": app_id, "name": name}
        if page.installed is False:
            # a pending shell: Done would install it (installed()), not update it
            return head | {
                "status": "skipped",
                "reason": "not installed yet (its page was never finished): Done would "
                "install it, not update it",
            }
        before = _status_settings(await self._hub_apps.status(app_id))
        fields = done_fields(page.inputs, before)
        await page.done(fields)
        return head | await self._verify(app_id, page, before, len(fields))

    async def _verify(
        self, app_id: str, page: AppPage, before: dict[str, Any], sent: int
    ) -> dict[str, Any]:
        """The page read back (still installed, no error) and the settings as before."""
        await page.reload()
        if page.installed is False:
            return {
                "status": "failed",
                "error": "hub_bad_response",
                "message": f"After Done, app {app_id}'s page no longer reads as installed.",
            }
        after = _status_settings(await self._hub_apps.status(app_id))
        changed = sorted(
            n for n in set(before) | set(after) if _norm(before.get(n)) != _norm(after.get(n))
        )
        out: dict[str, Any] = {"status": "updated", "inputs_resubmitted": sent}
        if changed:
            out["settings_changed"] = changed
            out["note"] = (
                "Some settings read differently after Done (the app's updated() may change "
                "them, or a value was not re-submitted as stored): check them."
            )
        return out


__all__ = ["AppInstanceDone", "done_fields"]
