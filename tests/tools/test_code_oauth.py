"""OAuth on app code: enable/disable through hub_update_code, the client id in hub_get_code,
and the client secret nowhere (results, audit trail, logs). What the code manager sends and
reads back is tested without hass in tests/managers/test_code.py."""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.code_oauth import parse_app_detail, set_app_oauth
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
from custom_components.hubitat_dev_tools.redact import is_secret_key, redact
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..contract import assert_same_shape, load_fixture


def oauth_requests(hub: HubEmulator, since: int = 0) -> list[dict[str, list[str]]]:
    return [
        parse_qs(urlsplit(p).query, keep_blank_values=True)
        for _m, p in hub.requests[since:]
        if p.startswith("/app/updateOAuth")
    ]


async def enable(call_tool: ToolCaller, app_id: str = "1", on: bool = True) -> dict[str, Any]:
    result = await call_tool(
        "hub_update_code", {"type": "app", "id": app_id, "oauth": on, "confirm": True}
    )
    assert not result.error, result.data
    return result.data


async def test_enable_read_disable_never_the_secret(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The tools' part: the answers' shape and summaries, the secret kept out of them, the
    audit trail and the logs (what is sent to the hub, the credentials sent back on a second
    enable and the read back: tests/managers/test_code.py)."""
    caplog.set_level(logging.DEBUG)
    item = hub.state.dev.code[("app", 1)]
    data = await enable(call_tool)
    secret = item.oauth_client_secret
    assert secret and item.oauth and item.oauth_client_id
    assert data["oauth"] == {"enabled": True, "client_id": item.oauth_client_id}
    assert data["summary"] == (
        f"OAuth for app code 1 is on (client id {item.oauth_client_id}); "
        "the client secret is not shown"
    )
    assert len(oauth_requests(hub)) == 1
    read = await call_tool("hub_get_code", {"type": "app", "id": "1"})
    assert read.data["oauth"] == {"enabled": True, "client_id": item.oauth_client_id}
    listed = await call_tool("hub_list_code", {"type": "app", "text": "Motion"})
    assert listed.data["code"][0]["oauth"] is True
    off = await enable(call_tool, on=False)
    assert off["oauth"]["enabled"] is False
    assert off["summary"] == "OAuth for app code 1 is off; the client secret is not shown"
    assert not hub.state.dev.code[("app", 1)].oauth
    audit = await call_tool("hub_list_audit_entries", {"limit": 50})
    outputs = json.dumps([data, read.data, off, audit.data, listed.data])
    assert secret not in outputs and secret not in caplog.text


async def test_oauth_with_a_source_change(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    item = hub.state.dev.code[("app", 1)]
    source = item.source + "\n// oauth\n"
    result = await call_tool(
        "hub_update_code",
        {"type": "app", "id": "1", "source": source, "oauth": True, "confirm": True},
    )
    assert not result.error, result.data
    assert item.source == source and result.data["oauth"]["enabled"] is True
    hub.state.dev.oauth_refusal = "OAuth is not available"
    failed = await call_tool(
        "hub_update_code",
        {"type": "app", "id": "1", "source": source + "//2\n", "oauth": False, "confirm": True},
    )
    assert not failed.error, failed.data  # the source is saved; the OAuth step says it failed
    assert failed.data["oauth"]["failed"] is True and "FAILED" in failed.data["summary"]
    assert item.oauth is True


async def test_oauth_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    for args in (
        {"type": "app", "id": "1", "oauth": True},  # no confirm
        {"type": "driver", "id": "1", "oauth": True, "confirm": True},
    ):
        result = await call_tool("hub_update_code", args)
        assert result.error and result.data["error"] in (
            "confirmation_required",
            "invalid_request",
        )
    assert oauth_requests(hub, before) == []
    missing = await call_tool(
        "hub_update_code", {"type": "app", "id": "999", "oauth": True, "confirm": True}
    )
    assert missing.error and missing.data["error"] == "not_found"


async def test_oauth_decided_by_effect(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    item = hub.state.dev.code[("app", 1)]
    hub.state.dev.oauth_refusal = "Unable to enable OAuth"
    refused = await call_tool(
        "hub_update_code", {"type": "app", "id": "1", "oauth": True, "confirm": True}
    )
    assert refused.error and refused.data["error"] == "hub_bad_response"
    assert "Unable to enable OAuth" in refused.data["message"]
    hub.state.dev.oauth_refusal = None
    hub.state.dev.oauth_ignored = True  # says success, changes nothing
    lied = await call_tool(
        "hub_update_code", {"type": "app", "id": "1", "oauth": True, "confirm": True}
    )
    assert lied.error and lied.data["error"] == "hub_bad_response"
    assert "reading it back" in lied.data["message"] and not item.oauth


def test_detail_parser_and_secret_names() -> None:
    detail = parse_app_detail(load_fixture("code/app_detail").answer)
    assert detail is not None and detail.client_id == "" and detail.enabled is None
    answer = load_fixture("code/app_detail").answer
    on = parse_app_detail([{**answer[0], "oauthClientId": "abc", "oauthClientSecret": "s3"}])
    assert on is not None and on.client_id == "abc" and "s3" not in repr(on)
    assert parse_app_detail([]) is None
    for key in ("oauthClientSecret", "clientSecret", "client_secret"):
        assert is_secret_key(key)
    out = redact({"oauthClientId": "abc", "oauthClientSecret": "s3", "clientSecret": "s3"})
    assert "s3" not in json.dumps(out) and "abc" in json.dumps(out)
    assert load_fixture("code/update_oauth").answer["success"] is True


async def test_update_oauth_answer_shape(socket_enabled: None, hub: HubEmulator) -> None:
    async with aiohttp.ClientSession() as session:
        params = {
            "id": "1",
            "oauthEnabled": "true",
            "clientId": "",
            "clientSecret": "",
            "refreshSecret": "false",
        }
        async with session.get(f"{hub.url}/app/updateOAuth", params=params) as resp:
            answer = await resp.json(content_type=None)
    assert_same_shape("code/update_oauth", answer)


class _FailingClient:
    """A hub whose OAuth request fails with the request's query echoed in the message."""

    def __init__(self) -> None:
        self.sent: dict[str, str] = {}

    async def get_json(self, path: str, params: Any = None) -> Any:
        return [{"id": 1, "oauthClientId": "cid", "oauthClientSecret": "TOPSECRET-1"}]

    async def request(self, method: str, path: str, **kw: Any) -> Any:
        self.sent = kw["params"]
        query = "&".join(f"{k}={v}" for k, v in self.sent.items())
        try:
            raise OSError(query)
        except OSError as cause:
            raise HubBadResponseError(f"HTTP 500 for {path}?{query}") from cause


async def test_secret_scrubbed_from_errors() -> None:
    client = _FailingClient()
    with pytest.raises(HubBadResponseError) as err:
        await set_app_oauth(client, "1", True)  # type: ignore[arg-type]
    assert client.sent["clientSecret"] == "TOPSECRET-1"  # sent back, as the dialog does
    assert "TOPSECRET-1" not in str(err.value) and "cid" in str(err.value)
    assert err.value.__cause__ is None and err.value.__context__ is None


async def test_get_code_without_the_detail_read(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.fail_paths["/app/list/single/data/"] = 404  # a hub without the editor's read
    read = await call_tool("hub_get_code", {"type": "app", "id": "1"})
    assert not read.error, read.data
    assert "oauth" not in read.data and read.data["source"]
