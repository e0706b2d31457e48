"""The classic app page engine: read one page of a classic (Groovy UI) app, post its
settings submit, click its buttons, and run transient helper apps.

Every driver of a classic app page (the settings editor, Rule Machine buttons, Swap Device,
the Hub Variables wizard, the App Cloner) goes through :class:`AppPage`, so a fix to how a
button is clicked or a submit is posted is made once. The forms are the ones the hub's own
page (``appUI.js``) sends:

* settings submit, ``POST /installedapp/update/json``: ``id``, ``version`` (versioned pages),
  ``formAction=update``, ``currentPage``, ``pageBreadcrumbs``, then per input
  ``settings[<name>]``, ``<name>.type``, ``<name>.multiple``, and ``deviceList`` naming the
  device inputs (the UI posts every field of the page's form, these hidden ones included);
* button click, ``POST /installedapp/btn``: ONLY ``id``, ``name``, ``stateAttribute`` (when
  the button has one), ``settings[<button>]=clicked`` and ``<button>.type=button``. The on-hub
  server's live captures found that page-context fields in a click (``formAction``, ``currentPage``,
  breadcrumbs) make Rule Machine treat it as a settings save, so a click carries them only
  where a caller says a button needs them (``with_context=True``: the on-hub server's Hub Variables
  wizard clicks, verified live on the ``hubVar`` page).

Both answer ``{"status": "success", ...}`` (the page model, for update/json); a refusal is a
``status`` other than success. :func:`check_page_answer` also accepts the
``{"success": false}`` envelope, since sources disagree on how firmware words a refusal.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any, NamedTuple, Self

from .answers import check_success, redact_snippet
from .apps import delete_app, fetch_app_tree, fetch_config_page
from .client import HubClient
from .errors import HubError, HubRefusedError, failure_reason

_LOGGER = logging.getLogger(__name__)

DEVICE_TYPES = ("capability.", "device.")
_NOT_SETTABLE = ("href", "paragraph", "image", "label_text")


@dataclass(frozen=True, slots=True)
class PageInput:
    """One settable input of a page, with its current value."""

    name: str
    type: str
    multiple: bool
    options: Any
    value: Any
    range: Any  # e.g. "1..100" (number inputs)
    device_ids: list[Any] | None  # device inputs: the ids the page lists as picked

    @classmethod
    def from_json(cls, inp: dict[str, Any]) -> PageInput:
        """From one ``input`` entry of a configure/json section."""
        ids = inp.get("deviceIdsForDeviceList")
        return cls(
            name=str(inp["name"]),
            type=str(inp.get("type") or ""),
            multiple=bool(inp.get("multiple")),
            options=inp.get("options"),
            value=inp.get("value"),
            range=inp.get("range"),
            device_ids=ids if isinstance(ids, list) else None,
        )

    @property
    def is_device(self) -> bool:
        """Whether the input takes devices."""
        return self.type.startswith(DEVICE_TYPES)


@dataclass(frozen=True, slots=True)
class PageButton:
    """One button of a page (``title`` as the page gives it, markup included).

    ``submit_on_change``: the hub UI follows a click of such a button with the page's
    settings submit (``appUI.js``: a ``submitOnChange`` button calls ``changeSubmit``).
    """

    name: str
    title: str
    submit_on_change: bool = False


class Setting(NamedTuple):
    """One input's value as the settings submit posts it."""

    value: str
    type: str
    multiple: bool


def setting_fields(name: str, setting: Setting) -> dict[str, str]:
    """The form fields of one input in a settings submit."""
    return {
        f"settings[{name}]": setting.value,
        f"{name}.type": setting.type,
        f"{name}.multiple": "true" if setting.multiple else "false",
    }


def current_setting(inp: PageInput) -> Setting:
    """An input's current value as the page's form posts it unchanged."""
    value = inp.value
    if inp.is_device:
        ids = inp.device_ids if inp.device_ids is not None else []
        text = ",".join(str(i) for i in ids) if ids or value in (None, "") else str(value)
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, list):
        text = json.dumps([str(v) for v in value])
    else:
        text = "" if value is None else str(value)
    return Setting(text, inp.type, inp.multiple)


def parse_page(config: dict[str, Any]) -> tuple[dict[str, PageInput], dict[str, PageButton]]:
    """The settable inputs and the buttons (both by name) of a configure/json answer."""
    inputs: dict[str, PageInput] = {}
    buttons: dict[str, PageButton] = {}
    page = config.get("configPage")
    sections = page.get("sections") if isinstance(page, dict) else None
    for sec in sections if isinstance(sections, list) else []:
        items = sec.get("input") if isinstance(sec, dict) else None
        for inp in items if isinstance(items, list) else []:
            if not isinstance(inp, dict) or not isinstance(inp.get("name"), str):
                continue
            if inp.get("type") == "button":
                buttons[inp["name"]] = PageButton(
                    inp["name"],
                    str(inp.get("title") or ""),
                    submit_on_change=inp.get("submitOnChange") in (True, "true"),
                )
            elif inp.get("type") not in _NOT_SETTABLE:
                inputs[inp["name"]] = PageInput.from_json(inp)
    return inputs, buttons


def check_page_answer(answer: Any, what: str) -> Any:
    """The answer of a click or a settings submit, raising :class:`HubRefusedError` on a refusal.

    Refusals: a ``status`` other than ``"success"`` (the hub UI's own test), or the
    ``{"success": false}`` envelope. An answer with neither key (a page model alone, a text
    body) is not a refusal: callers that must know decide by the effect.
    """
    check_success(answer, what)
    if isinstance(answer, dict) and "status" in answer:
        status = answer["status"]
        if not (isinstance(status, str) and status.strip().lower() == "success"):
            reason = failure_reason(answer) or f"status {str(status)[:60]!r}"
            raise HubRefusedError(
                f"The hub refused to {what}: {redact_snippet(reason)}",
                reason=redact_snippet(reason),
            )
    return answer


def breadcrumbs(page: str, root: str) -> str:
    """``pageBreadcrumbs`` as a page's UI posts it: empty on the app's root page."""
    return "[]" if page == root else json.dumps([root])


class AppPage:
    """One page of one installed classic app: what it shows, and its submit and buttons.

    ``load`` reads the page; an ``AppPage`` built directly is not read (enough to click a
    button that needs no page context). ``versioned=False`` pages post no ``version``
    (the Hub Variables wizard's page does not).
    """

    root_page = "mainPage"  # the page whose breadcrumbs are empty

    def __init__(
        self,
        client: HubClient,
        app_id: str,
        *,
        name: str | None = None,
        versioned: bool = True,
    ) -> None:
        self.client = client
        self.app_id = app_id
        self.name = name or self.root_page
        self.versioned = versioned
        self.version: Any = None
        self.config: dict[str, Any] = {}
        self.inputs: dict[str, PageInput] = {}
        self.buttons: dict[str, PageButton] = {}

    @classmethod
    async def load(cls, client: HubClient, app_id: str, page: str | None = None) -> Self:
        """Read ``/installedapp/configure/json/<id>[/<page>]`` (no page: the app's first)."""
        loaded = cls(client, app_id, name=page)
        loaded._parse(await loaded._read(page), initial=True)
        return loaded

    async def reload(self) -> None:
        """Read the page again (a submit or a click changes it, and the app's version)."""
        self._parse(await self._read(self.name), initial=False)

    async def _read(self, page: str | None) -> dict[str, Any]:
        return await fetch_config_page(self.client, self.app_id, page)

    def _parse(self, config: dict[str, Any], *, initial: bool) -> None:
        self.config = config
        page_info, app_info = config.get("configPage"), config.get("app")
        if initial and isinstance(page_info, dict) and page_info.get("name"):
            self.name = str(page_info["name"])
        if isinstance(app_info, dict):  # a read that carries no version keeps the known one
            self.version = app_info.get("version", self.version)
        self.inputs, self.buttons = parse_page(config)

    def take_answer(self, answer: Any) -> bool:
        """Adopt a settings submit's answer when it is this page re-rendered (the hub answers
        ``update/json`` with the page model); True when it was."""
        if not (isinstance(answer, dict) and isinstance(answer.get("configPage"), dict)):
            return False
        if answer["configPage"].get("name") not in (None, self.name):
            return False
        self._parse(answer, initial=False)
        return True

    def _location(self) -> dict[str, str]:
        return {
            "formAction": "update",
            "currentPage": self.name,
            "pageBreadcrumbs": breadcrumbs(self.name, self.root_page),
        }

    def _version(self) -> dict[str, str]:
        if not self.versioned:
            return {}
        return {"version": str(self.version if self.version is not None else "")}

    def settings_form(self, fields: dict[str, Setting]) -> dict[str, str]:
        """The settings submit of ``fields`` (input name -> value) on this page."""
        form = {"id": self.app_id, **self._version(), **self._location()}
        for name, setting in fields.items():
            form.update(setting_fields(name, setting))
        device_lists = [n for n, s in fields.items() if s.type.startswith(DEVICE_TYPES)]
        if device_lists:
            form["deviceList"] = ",".join(device_lists)
        return form

    def full_form(
        self, overrides: dict[str, Setting], *, label: str | None = None
    ) -> dict[str, str]:
        """The whole page's settings submit: every input the page shows at its current value
        (buttons empty), ``overrides`` on top, and the form's hidden ``appTypeId`` /
        ``appTypeName`` (and ``paramsForPage`` naming the app's label). This is what the hub
        UI posts when a ``submitOnChange`` input changes (the on-hub server's full-page submit,
        live: Rule Machine runs the handler of such an input only on this whole form)."""
        fields = {name: current_setting(inp) for name, inp in self.inputs.items()}
        fields.update(overrides)
        form = self.settings_form(fields)
        for button in self.buttons:
            form.setdefault(f"settings[{button}]", "")
        form.update({"appTypeId": "", "appTypeName": ""})
        if label is not None:
            form["paramsForPage"] = json.dumps({"label": label})
        return form

    async def set(
        self,
        fields: dict[str, Setting],
        *,
        what: str | None = None,
        subject: str | None = "app_settings",
    ) -> Any:
        """Post the settings submit; a refusal is a :class:`HubRefusedError` (``subject``)."""
        return await self.post_update(
            self.settings_form(fields),
            what=what or f"save the settings of app {self.app_id}",
            subject=subject,
        )

    async def post_update(
        self, form: dict[str, str], *, what: str | None, subject: str | None = None
    ) -> Any:
        """``POST /installedapp/update/json`` with a ready form (``what=None``: not checked)."""
        try:
            answer = await self.client.post_form("/installedapp/update/json", form, check=False)
            return answer if what is None else check_page_answer(answer, what)
        except HubRefusedError as err:
            if subject is not None:
                err.subject = subject
            raise

    @property
    def installed(self) -> bool | None:
        """configure/json ``app.installed``: False for a pending shell (a new instance whose
        page's Done was not submitted yet: the on-hub server), None when the answer does not say."""
        app_info = self.config.get("app")
        value = app_info.get("installed") if isinstance(app_info, dict) else None
        return value if isinstance(value, bool) else None

    def done_form(self, fields: dict[str, Setting], *, label: str | None = None) -> dict[str, str]:
        """The page's Done as the hub UI submits it: the settings submit of ``fields`` with
        ``_action_update=Done`` and the form's hidden ``appTypeId``, ``appTypeName`` and
        ``_cancellable`` (``main.js``; the on-hub server, live: the hub's update handler fails
        without them), and the app's name in the bare ``label`` field (``main.js``:
        ``name="label"``)."""
        form = self.settings_form(fields)
        form.update({"_action_update": "Done", "appTypeId": "", "appTypeName": ""})
        form["_cancellable"] = "false"
        if label is not None:
            form["label"] = label
        return form

    async def done(self, fields: dict[str, Setting], *, label: str | None = None) -> Any:
        """Submit the page's Done (a pending shell installs: ``installed()`` runs; an
        installed app runs ``updated()``). Callers decide by the effect (:attr:`installed`)."""
        return await self.post_update(
            self.done_form(fields, label=label),
            what=f"finish the page of app {self.app_id}",
            subject="app_settings",
        )

    def button_form(
        self, button: str, *, state_attribute: str | None = None, with_context: bool = False
    ) -> dict[str, str]:
        """The click of ``button`` as the hub UI posts it; with this page's context (and
        version) only when ``with_context``."""
        form = {
            "id": self.app_id,
            "name": button,
            f"settings[{button}]": "clicked",
            f"{button}.type": "button",
        }
        if with_context:
            form.update(self._location())
            form.update(self._version())
        if state_attribute:
            form["stateAttribute"] = state_attribute
        return form

    async def click(
        self,
        button: str,
        *,
        state_attribute: str | None = None,
        with_context: bool = False,
        what: str | None = None,
    ) -> Any:
        """``POST /installedapp/btn``: click one of the page's buttons; return the answer.

        The answer says ``{"status": "success"}`` when the hub took the click, not that the
        click did what it should: callers that must know read the effect back.
        """
        answer = await self.client.post_form(
            "/installedapp/btn",
            self.button_form(button, state_attribute=state_attribute, with_context=with_context),
            check=False,
        )
        return check_page_answer(answer, what or f"press {button} on app {self.app_id}")

    def links(self) -> list[dict[str, Any]]:
        """The page's links to other pages (``href`` elements and inputs), as the page
        gives them (``name``, ``page``, ``params``)."""
        page = self.config.get("configPage")
        found: list[dict[str, Any]] = []
        for sec in page.get("sections", []) if isinstance(page, dict) else []:
            for item in (sec.get("body") or []) if isinstance(sec, dict) else []:
                if isinstance(item, dict) and item.get("element") == "href":
                    found.append(item)
            for item in (sec.get("input") or []) if isinstance(sec, dict) else []:
                if isinstance(item, dict) and item.get("type") == "href":
                    found.append(item)
        return found

    async def follow(self, to: str, *, what: str | None = None) -> tuple[str, Any]:
        """Open the page ``to`` through this page's link to it, as the hub UI does (a
        settings submit carrying ``_action_href_<name>|<to>|<index>`` and the link's params:
        a sub-page such as Rule Machine's Periodic Schedule is rendered from them). Returns
        the link's index (its ``params.n``) and the hub's answer (the page opened)."""
        name, params = "name", None
        for href in self.links():
            if href.get("page") == to:
                name = str(href.get("name") or "name")
                params = href.get("params") if isinstance(href.get("params"), dict) else None
                break
        index = str(params.get("n", 0)) if params else "0"
        form = {
            "id": self.app_id,
            **self._version(),
            **self._location(),
            f"_action_href_{name}|{to}|{index}": "",
        }
        if params:
            form[f"params_for_action_href_{name}|{to}|{index}"] = json.dumps(params)
        answer = await self.post_update(form, what=what or f"open {to} on app {self.app_id}")
        return index, answer

    async def press(
        self, button: str, *, what: str | None = None, state_attribute: str | None = None
    ) -> None:
        """Click one of the page's buttons as the hub UI does: the bare click (with the
        button's ``stateAttribute`` when it has one), then, for a ``submitOnChange`` button,
        the page's settings submit (no inputs changed)."""
        await self.click(button, what=what, state_attribute=state_attribute)
        known = self.buttons.get(button)
        if known is not None and known.submit_on_change:
            await self.reload()  # the click moved the app's version on
            await self.post_update(
                self.settings_form({}), what=what or f"press {button} on app {self.app_id}"
            )


class TransientApp:
    """A helper app the hub creates per visit (Swap Device, the App Cloner), removed on
    every exit path::

        async with TransientApp(client, app_id) as helper:
            ...  # drive its pages
        if helper.left_behind: ...  # it could not be removed

    The removal is a force delete; with ``verify`` the app tree is read afterwards, and an
    app still listed (or a tree that cannot be read) counts as left behind.
    """

    def __init__(self, client: HubClient, app_id: str, *, verify: bool = True) -> None:
        self.client = client
        self.app_id = app_id
        self.verify = verify
        self.left_behind = False

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self.left_behind = await self._remove()

    async def _remove(self) -> bool:
        try:
            await delete_app(self.client, self.app_id, force=True)
        except HubError as err:
            _LOGGER.warning("Could not remove the transient app %s: %s", self.app_id, err)
            if not self.verify:
                return True
        if not self.verify:
            return False
        try:
            return any(a.id == self.app_id for a in await fetch_app_tree(self.client))
        except HubError:
            return True
