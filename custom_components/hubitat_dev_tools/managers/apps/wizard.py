"""A walker for wizard-style classic app pages (Rule Machine's editors).

Such pages show a field only once the one before it is set, and number their rows
themselves. A plan is a list of steps; the walker runs them in order on one app, one field
per settings submit, and stops at the first step the page does not allow: a field that did
not appear, a value the page's options do not offer, a button that is not there. Field and
button names may hold ``{slot}`` placeholders (``tCapab{N}``), bound by :class:`Reveal` steps
from the row numbers the page itself shows. Every step carries ``where``: the part of the
caller's document it comes from, so an error can say which part the hub refused.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ...errors import ToolError
from ...hub.app_page import AppPage, PageInput
from ...hub.client import HubClient
from .page_model import encode_setting, same_setting


@dataclass(frozen=True, slots=True)
class SlotValue:
    """A Write's value that is a slot's row number (a conditional trigger's condition id)."""

    slot: str


@dataclass(frozen=True, slots=True)
class Write:
    """Set one field (must be on the page, unless ``optional``)."""

    page: str
    field: str
    value: Any
    where: str = ""
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Reveal:
    """Bind ``slot`` to the row number of the newest unset field matching ``pattern``."""

    page: str
    pattern: str  # one group: the number, e.g. r"tCapab(\d+)"
    slot: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class Click:
    """Press a button of the page (with the page's context, as the wizard's UI does)."""

    page: str
    button: str
    state_attribute: str | None = None
    where: str = ""
    context: bool = True
    optional: bool = False  # a missing button is skipped


@dataclass(frozen=True, slots=True)
class Seal:
    """Post a ``submitOnChange`` button as a settings submit (how an expression is sealed)."""

    page: str
    button: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class Goto:
    """Follow the page's link to ``to`` (its href name and params read from the page)."""

    page: str
    to: str
    where: str = ""
    slot: str | None = None  # bind the link's params.n to this slot


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave a sub-page back to ``parent`` (``_action_previous=Done``)."""

    page: str
    parent: str
    where: str = ""
    params_slot: str | None = None  # the sub-page's params {"n": <slot>}


@dataclass(frozen=True, slots=True)
class Submit:
    """An empty settings submit (some pages initialise their counters on it)."""

    page: str
    where: str = ""


Step = Write | Reveal | Click | Seal | Goto | Leave | Submit


def describe(step: Step) -> str:
    """One line saying what the step does (for a plan shown before anything is sent)."""
    if isinstance(step, Write):
        if isinstance(step.value, SlotValue):
            return f"{step.page}: set {step.field} = {{{step.value.slot}}}"
        return f"{step.page}: set {step.field} = {json.dumps(step.value, ensure_ascii=False)}"
    if isinstance(step, Reveal):
        return f"{step.page}: read the new row number ({step.pattern}) as {{{step.slot}}}"
    if isinstance(step, Click):
        return f"{step.page}: press {step.button}"
    if isinstance(step, Seal):
        return f"{step.page}: submit {step.button}"
    if isinstance(step, Goto):
        return f"{step.page}: open {step.to}"
    if isinstance(step, Leave):
        return f"{step.page}: Done, back to {step.parent}"
    return f"{step.page}: submit the page"


class WizardRefused(ToolError):
    """The page did not allow a step (nothing after it was sent)."""


def _fill(text: str, slots: dict[str, str]) -> str:
    try:
        return text.format_map(slots)
    except KeyError as err:  # a plan bug: a slot used before its Reveal
        raise ToolError(f"Internal plan error: slot {err} is not bound yet.") from None


def _unset(inp: PageInput) -> bool:
    return inp.value in (None, "", [], "null") and not inp.device_ids


class Wizard:
    """Runs steps on one app's pages; :attr:`sent` counts the requests that changed it."""

    def __init__(self, client: HubClient, app_id: str) -> None:
        self.client = client
        self.app_id = app_id
        self.slots: dict[str, str] = {}
        self.sent = 0
        self._pages: dict[str, AppPage] = {}
        self._echoed: set[str] = set()  # pages known only from a submit's answer

    async def page(self, name: str) -> AppPage:
        """The page as it is now: read unless the last request's answer showed it."""
        page = self._pages.get(name)
        if page is None:
            page = await AppPage.load(self.client, self.app_id, name)
            page.name = name
            self._pages[name] = page
        return page

    def _forget(self, answer: Any = None, page: AppPage | None = None) -> None:
        """Any change may move every page of the app on; a settings submit answers with the
        re-rendered page it was posted from, which is then current."""
        self._pages.clear()
        self._echoed.clear()
        if page is not None and page.take_answer(answer):
            self._pages[page.name] = page
            self._echoed.add(page.name)

    async def run(self, steps: list[Step]) -> None:
        """Run every step in order."""
        for step in steps:
            await self.step(step)

    async def step(self, step: Step) -> None:
        """Run one step."""
        if isinstance(step, Reveal):
            page = await self.page(step.page)
            fresh = self._fresh_rows(page, step)
            if not fresh and step.page in self._echoed:  # the echo may lag (see _write)
                page = await self._reread(step.page)
                fresh = self._fresh_rows(page, step)
            if not fresh:
                raise self._refused(step, page, f"no new row ({step.pattern}) appeared")
            self.slots[step.slot] = str(max(fresh))
            return
        if isinstance(step, Write):
            await self._write(step)
            return
        if isinstance(step, Click):
            page = await self.page(step.page)
            button = _fill(step.button, self.slots)
            if button not in page.buttons:
                if step.optional:
                    return
                raise self._refused(step, page, f"the page has no '{button}' button")
            self.sent += 1
            await page.click(
                button,
                state_attribute=_fill(step.state_attribute, self.slots)
                if step.state_attribute
                else None,
                with_context=step.context,
            )
            self._forget()
            return
        if isinstance(step, Seal):
            page = await self.page(step.page)
            form = page.settings_form({})
            form[f"settings[{step.button}]"] = "button"  # the button's HTML value (on-hub server)
            form[f"{step.button}.type"] = "button"
            self.sent += 1
            answer = await page.post_update(form, what=f"seal the expression on app {self.app_id}")
            self._forget(answer, page)
            return
        if isinstance(step, Goto):
            await self._goto(step)
            return
        if isinstance(step, Leave):
            page = await self.page(step.page)
            form = {
                "id": self.app_id,
                "version": str(page.version if page.version is not None else ""),
                "formAction": "update",
                "currentPage": step.page,
                "_action_previous": "Done",
                "pageBreadcrumbs": json.dumps(["mainPage", step.parent]),
            }
            if step.params_slot:
                form["paramsForPage"] = json.dumps({"n": int(self.slots[step.params_slot])})
            self.sent += 1
            await page.post_update(form, what=f"leave {step.page} on app {self.app_id}")
            self._forget()
            return
        page = await self.page(step.page)
        self.sent += 1
        answer = await page.post_update(page.settings_form({}), what=f"submit {step.page}")
        self._forget(answer, page)

    async def _goto(self, step: Goto) -> None:
        page = await self.page(step.page)
        index, _answer = await page.follow(step.to, what=f"open {step.to} on app {self.app_id}")
        if step.slot:
            self.slots[step.slot] = index
        self.sent += 1
        self._forget()

    async def _write(self, step: Write) -> None:
        page = await self.page(step.page)
        name = _fill(step.field, self.slots)
        inp = page.inputs.get(name)
        if inp is None and step.page in self._echoed:
            # a submit's echo can lag a render behind (the on-hub server, live 2026-06-21: after an
            # `oper` write the echo lacks the `cond` picker the next write needs): read it afresh
            page = await self._reread(step.page)
            inp = page.inputs.get(name)
        if inp is None:
            if step.optional:
                return
            raise self._refused(step, page, f"the field '{name}' did not appear")
        repairs: list[str] = []
        value = step.value
        if isinstance(value, SlotValue):
            value = _fill(f"{{{value.slot}}}", self.slots)
        try:
            setting = encode_setting(inp, value, None, lambda _i: True, repairs)
        except ToolError as err:
            raise WizardRefused(
                f"{step.where or step.page}: the hub's Rule Machine page refused it: {err}",
                hint="Change that part of the spec; nothing after it was sent.",
            ) from None
        before = set(page.inputs)
        self.sent += 1
        answer = await page.set({name: setting}, what=f"set {name} on app {self.app_id}")
        self._forget(answer, page)
        after = await self.page(step.page)

        def unkept(page: AppPage) -> bool:
            now = page.inputs.get(name)
            return (
                now is not None
                and not same_setting(now, setting.value)
                and set(page.inputs) == before
            )

        if unkept(after) and step.page in self._echoed:  # the echo may lag (see above)
            after = await self._reread(step.page)
        if unkept(after):
            raise self._refused(step, after, f"the hub did not keep {name} = {setting.value}")

    def _fresh_rows(self, page: AppPage, step: Reveal) -> list[int]:
        pattern = _fill(step.pattern, self.slots)
        return [
            int(m.group(1))
            for inp in page.inputs.values()
            if (m := re.fullmatch(pattern, inp.name)) is not None and _unset(inp)
        ]

    async def _reread(self, name: str) -> AppPage:
        self._pages.pop(name, None)
        self._echoed.discard(name)
        return await self.page(name)

    def _refused(self, step: Step, page: AppPage, problem: str) -> WizardRefused:
        shown = ", ".join(sorted(page.inputs)[:30]) or "no inputs"
        return WizardRefused(
            f"{step.where or step.page}: {problem} on Rule Machine's {page.name} page (it "
            f"shows: {shown}). Nothing after that was sent.",
            code="hub_bad_response",
            hint="This part of the spec may not match this firmware's Rule Machine; change "
            "it, or build that part in the hub UI.",
        )
