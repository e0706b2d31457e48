"""A stand-in for :class:`HubClient` that answers every read with one contract fixture.

The ``hub/`` fetch functions are the parsers of their endpoints: giving them a fixture's
answer through this stub tests them against the real shape, without the emulator.
"""

from __future__ import annotations

from typing import Any, cast

from custom_components.hubitat_dev_tools.hub.answers import check_success
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.firmware import UNKNOWN_PLATFORM

from .contract import Fixture, load_fixture


class FixtureClient:
    """Answers every read and write (``get_json``, ``request``, ``post_json``, ``maker_get``,
    ...) with the fixture."""

    def __init__(self, fixture: Fixture | str) -> None:
        self.fixture = load_fixture(fixture) if isinstance(fixture, str) else fixture
        self.connection = HubConnection("192.0.2.10", maker_app_id="7", maker_token="t")
        self.platform = UNKNOWN_PLATFORM
        self.time_zone = None
        self.paths: list[str] = []

    def _answer(self, path: str) -> Any:
        self.paths.append(path)
        fx = self.fixture
        return fx.answer_text if fx.answer_text is not None else fx.answer

    async def get_json(self, path: str, *_a: Any, **_k: Any) -> Any:
        return self._answer(path)

    async def get_text(self, path: str, *_a: Any, **_k: Any) -> Any:
        return self._answer(path)

    async def request(self, _method: str, path: str, *_a: Any, **_k: Any) -> Any:
        return self._answer(path)

    async def post_json(
        self, path: str, _body: Any, *, what: str | None = None, check: bool = True
    ) -> Any:
        answer = self._answer(path)
        if check:  # the real client checks the failure envelope the same way
            check_success(answer, what or f"accept POST {path}")
        return answer

    post_form = post_json

    async def maker_get(self, path: str, *_a: Any, **_k: Any) -> Any:
        return self._answer(path)


def fixture_client(name: str) -> HubClient:
    """A :class:`FixtureClient` typed as the client the ``hub/`` functions take."""
    return cast(HubClient, FixtureClient(name))
