"""A client of the emulated Rule Machine 5.1 pages, walking them as
docs/rule-machine-pages.md says (tests/emulator/test_emu_rule_machine.py uses it)."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import APP_RULE_MACHINE


class Wizard:
    """A client of the pages, as the doc describes it."""

    def __init__(self, session: aiohttp.ClientSession, app_id: int) -> None:
        self.s = session
        self.id = app_id

    async def page(self, name: str = "mainPage") -> dict[str, Any]:
        async with self.s.get(f"/installedapp/configure/json/{self.id}/{name}") as resp:
            assert resp.status == 200
            data: dict[str, Any] = json.loads(await resp.text())
            return data

    @staticmethod
    def inputs(page: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {i["name"]: i for sec in page["configPage"]["sections"] for i in sec["input"]}

    @staticmethod
    def text(page: dict[str, Any]) -> list[str]:
        return [
            b["description"]
            for sec in page["configPage"]["sections"]
            for b in sec["body"]
            if b.get("element") == "paragraph"
        ]

    def _base(self, page: str, version: int) -> dict[str, str]:
        crumbs = [] if page == "mainPage" else ["mainPage"]
        return {
            "id": str(self.id),
            "version": str(version),
            "formAction": "update",
            "currentPage": page,
            "pageBreadcrumbs": json.dumps(crumbs),
        }

    async def _post(self, path: str, form: dict[str, str]) -> dict[str, Any]:
        async with self.s.post(path, data=form) as resp:
            assert resp.status == 200
            data: dict[str, Any] = json.loads(await resp.text())
            assert data["status"] == "success", data
            return data

    async def write(
        self, page: str, field: str, value: object, *, multiple: bool | None = None
    ) -> dict[str, Any]:
        """Write one field the page shows (the page is read first, as a client must)."""
        current = await self.page(page)
        spec = self.inputs(current).get(field)
        assert spec is not None, f"{field} is not on {page}: {sorted(self.inputs(current))}"
        form = self._base(page, current["app"]["version"])
        raw = json.dumps(value) if isinstance(value, list) else str(value)
        if isinstance(value, bool):
            raw = "true" if value else "false"
        form[f"settings[{field}]"] = raw
        form[f"{field}.type"] = spec["type"]
        is_multi = bool(spec.get("multiple")) if multiple is None else multiple
        if is_multi:
            form[f"{field}.multiple"] = "true"
        if spec["type"].startswith("capability."):
            form["deviceList"] = field
        return await self._post("/installedapp/update/json", form)

    async def raw_write(self, page: str, fields: dict[str, str]) -> dict[str, Any]:
        current = await self.page(page)
        form = self._base(page, current["app"]["version"])
        form.update(fields)
        return await self._post("/installedapp/update/json", form)

    async def click(
        self, page: str | None, name: str, attribute: str | None = None
    ) -> dict[str, Any]:
        form = {"id": str(self.id), "name": name, f"settings[{name}]": "clicked"}
        form[f"{name}.type"] = "button"
        if attribute:
            form["stateAttribute"] = attribute
        if page is not None:
            form.update(self._base(page, (await self.page(page))["app"]["version"]))
        return await self._post("/installedapp/btn", form)

    async def go(self, origin: str, target: str) -> dict[str, Any]:
        return await self.raw_write(origin, {f"_action_href_name|{target}|0": ""})

    async def leave(self, page: str) -> dict[str, Any]:
        return await self.raw_write(page, {"_action_previous": "Done"})

    async def shows(self, page: str, field: str) -> dict[str, Any]:
        spec = self.inputs(await self.page(page)).get(field)
        assert spec is not None, f"{field} did not appear on {page}"
        return spec

    async def new_action(self) -> int:
        """Open a new action on doActPage; its index is read from the page."""
        await self.raw_write("selectActions", {})
        await self.click("selectActions", "N", "doActN")
        act = next(f for f in self.inputs(await self.page("doActPage")) if f.startswith("actType"))
        return int(act.split(".")[1])

    async def open_condition(self, page: str) -> int:
        """Start a condition (``cond=a``); its index is read from the page."""
        await self.write(page, "cond", "a")
        cond = next(f for f in self.inputs(await self.page(page)) if f.startswith("rCapab_"))
        return int(cond.split("_")[1])

    async def required_expression(self) -> int:
        await self.write("mainPage", "useST", True)
        await self.go("mainPage", "STPage")
        return await self.open_condition("STPage")

    async def add_action(self, act_type: str, sub: str, *fields: tuple[str, object]) -> int:
        n = await self.new_action()
        await self.write("doActPage", f"actType.{n}", act_type)
        await self.write("doActPage", f"actSubType.{n}", sub)
        for name, value in fields:
            await self.write("doActPage", name.replace("<N>", str(n)), value)
        await self.shows("doActPage", "actionDone")
        await self.click("doActPage", "actionDone")
        await self.go("doActPage", "selectActions")
        return n


async def create_rule(session: aiohttp.ClientSession, parent: int = APP_RULE_MACHINE) -> Wizard:
    url = f"/installedapp/createchild/hubitat/Rule-5.1/parent/{parent}"
    async with session.get(url, allow_redirects=False) as resp:
        assert resp.status == 302
        location = resp.headers["Location"]
    assert location.startswith("/installedapp/configure/")
    return Wizard(session, int(location.rsplit("/", 1)[1]))


def dev_id(hub: HubEmulator, label: str) -> int:
    return int(hub.find_device(label)["id"])
