"""A stand-in for HubClient that answers from a table (contract fixtures fed to hub/ code)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from custom_components.hubitat_dev_tools.hub import HubClient


class FakeHub:
    """``answers`` maps ``"GET /path"`` to an answer, an exception, or a callable giving one."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    @property
    def client(self) -> HubClient:
        return cast(HubClient, self)

    async def request(self, method: str, path: str, **kwargs: Any) -> Any:
        self.calls.append((method, path, kwargs))
        answer = self.answers[f"{method} {path}"]
        if isinstance(answer, Callable):  # type: ignore[arg-type]
            answer = answer()
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def get_json(self, path: str, params: dict[str, str] | None = None, **kw: Any) -> Any:
        return await self.request("GET", path, params=params, **kw)

    async def post_json(self, path: str, body: Any, **kw: Any) -> Any:
        return await self.request("POST", path, json_body=body, **kw)

    async def post_form(self, path: str, form: dict[str, str], **kw: Any) -> Any:
        return await self.request("POST", path, data=form, **kw)
