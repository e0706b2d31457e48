"""Hostile: no secret of the seeded home reaches a tool result, the event ring, a log line,
diagnostics or an item backup (issue 13, deliverable 1).

The seeded home holds each kind of secret a real hub has: lock codes (two devices), the
Maker API instance's ``state.accessToken``, dashboard access tokens, a password-type app
setting, an OAuth client secret setting and OAuth tokens in app state, a password-type
driver preference; plus the Maker token and the hub password of the connection. Every read
tool is called (with ids from a small table where it needs one), then the writes that answer
with device or app data, and the JSON text of every answer is searched for each secret.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.diagnostics import async_get_config_entry_diagnostics
from custom_components.hubitat_dev_tools.hub.answers import check_success
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubRefusedError
from custom_components.hubitat_dev_tools.redact import (
    REDACTED,
    redact,
    redact_document,
    redact_text,
)
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER
from hubitat_emulator.seed_dev import SEEDED_APP_SECRETS
from hubitat_emulator.seed_specs import APP_ECOBEE, DASH_MAIN, RULE_MOTION

from ..conftest import ToolCaller, ensure_stream, until
from ..helpers.hostile import call_all_reads, front_door_lock, read_args
from ..mcp_client import Mcp
from .hostile_secrets_util import NEW_PIN, NEW_PREF_PASSWORD, leaks, seeded_secrets

pytestmark = pytest.mark.usefixtures("fast_stream")


async def test_no_secret_in_any_result(
    hass: HomeAssistant,
    hub: HubEmulator,
    entry: MockConfigEntry,
    call_tool: ToolCaller,
    request: pytest.FixtureRequest,
) -> None:
    caplog: pytest.LogCaptureFixture | None = None
    if request.config.pluginmanager.has_plugin("logging"):
        caplog = request.getfixturevalue("caplog")
        caplog.set_level(logging.DEBUG)
    secrets = seeded_secrets(hub)
    # a configuration snapshot before the secrets change: hub_diff_snapshots reads against it
    snapshot = await call_tool("hub_create_snapshot", {})
    assert not snapshot.error, snapshot.data
    cache = await ensure_stream(hass, entry)
    await until(lambda: cache.logs_live, what="log socket")
    lock = front_door_lock(hub)
    outputs: list[Any] = []

    # writes that answer with device/app data (and create an event, a log line, a backup)
    for name, args in (
        (
            "hub_call_device_command",
            {
                "commands": [
                    {"device_id": str(lock), "command": "setCode", "arguments": [4, NEW_PIN, "Eve"]}
                ],
                "confirm": True,
            },
        ),
        (
            "hub_call_device_command",
            {
                "device_id": str(lock),
                "command": "setCode",
                "arguments": [5, NEW_PIN, "Eve 2"],
                "confirm": True,
                "wait_for": {
                    "attribute": "lockCodes",
                    "comparator": "ne",
                    "expected_value": "x",
                    "timeout_ms": 2000,
                },
            },
        ),
        (
            "hub_update_device",
            {"device_id": str(lock), "preferences": {"bridgeLogin": NEW_PREF_PASSWORD}},
        ),
        ("hub_update_app_settings", {"app_id": str(APP_ECOBEE), "settings": {"pollMinutes": 7}}),
        ("hub_export_app", {"app_id": str(RULE_MOTION)}),
        ("hub_export_app", {"app_id": str(APP_ANNOUNCER)}),
        ("hub_update_app_settings", {"app_id": str(APP_ANNOUNCER), "settings": {"volume": 40}}),
    ):
        result = await call_tool(name, args)
        outputs.append({"tool": name, "args": args, "result": result.data})
        assert not result.error, (name, result.data)
    await until(
        lambda: any(e.name == "lockCodes" for e in cache.events), what="lockCodes event in the ring"
    )
    assert NEW_PIN in hub.device(lock)["attributes"]["lockCodes"]  # the write did land

    backups = (await call_tool("hub_list_item_backups", {"limit": 100})).data
    names = [b["backup"] for b in backups["backups"]]
    assert names, backups
    files = hub.home.files
    outputs.append(
        {"item_backup_files": {n: (files.read(n) or b"").decode(errors="replace") for n in names}}
    )
    extra = {
        "hub_get_item_backup": [{"backup": n} for n in names],
        "hub_read_file": [{"file_name": n} for n in files.names()],
        "hub_diff_snapshots": [{"from_snapshot": snapshot.data["name"]}],
        "hub_get_restore_plan": [{"snapshot": snapshot.data["name"]}],
    }
    outputs += await call_all_reads(call_tool, hub, extra)
    # the ring holds the raw event (in memory); what leaves it is redacted
    recent = next(o for o in outputs if o.get("tool") == "hub_list_recent_events")["result"]
    lock_events = [e for e in recent["events"] if e["name"] == "lockCodes"]
    assert lock_events and all("Eve" in e["value"] for e in lock_events)
    assert all(REDACTED in e["value"] for e in lock_events)
    outputs.append({"diagnostics": await async_get_config_entry_diagnostics(hass, entry)})

    by_tool: dict[str, list[str]] = {}
    for out in outputs:
        found = leaks(
            json.dumps({k: v for k, v in out.items() if k != "args"}, default=str), secrets
        )
        if found:
            by_tool.setdefault(str(out.get("tool") or next(iter(out))), []).extend(found)
    assert not by_tool, {k: sorted(set(v)) for k, v in by_tool.items()}
    if caplog is not None:
        assert not leaks(caplog.text, secrets)
    # the redacted forms are there: slots and names kept, codes replaced
    listed = next(o for o in outputs if o.get("args") == read_args(hub)["hub_list_devices"][1])
    assert "Alice" in json.dumps(listed) and REDACTED in json.dumps(listed)


async def test_no_secret_through_mcp_server(hub: HubEmulator, mcp: Mcp) -> None:
    secrets = seeded_secrets(hub)
    outputs = []
    for name, args in (
        ("hub_list_devices", {"text": "Front Door Lock", "fields": ["states.lockCodes"]}),
        ("hub_get_device", {"device_id": str(front_door_lock(hub))}),
        ("hub_get_app", {"app_id": str(DASH_MAIN), "include_state": True}),
        ("hub_get_app", {"app_id": str(APP_ECOBEE), "include_state": True}),
        ("hub_get_app", {"app_id": "12", "include_state": True}),
    ):
        is_error, data = await mcp.call(name, args)
        assert not is_error, data
        outputs.append(data)
    text = json.dumps(outputs)
    assert not leaks(text, secrets)
    assert "Alice" in text and REDACTED in text
    # the Maker API page quotes its token in a URL: the same value is replaced there too
    assert f"devices/all?access_token={REDACTED}" in json.dumps(outputs[-1])
    # nothing was written to the hub by reading
    assert all(method == "GET" for method, _path in hub.requests), hub.requests


# ------------------------------------------------------------------ the rules, one by one


def test_records_by_type_name_and_attribute() -> None:
    assert redact({"name": "ecobeeLogin", "type": "password", "value": "pw"})["value"] == REDACTED
    assert redact({"name": "apiPass", "type": "PASSWORD", "defaultValue": "pw"}) == {
        "name": "apiPass",
        "type": "PASSWORD",
        "defaultValue": REDACTED,
    }
    # an OAuth client secret by its input name, whatever its declared type
    assert redact({"name": "clientSecret", "type": "text", "value": "s"})["value"] == REDACTED
    assert redact({"name": "clientId", "type": "text", "value": "id"})["value"] == "id"
    # an event or attribute record of lock codes: slots and names kept, codes not
    event = redact(
        {
            "name": "lockCodes",
            "value": '{"1":{"name":"Alice","code":"4821"}}',
            "description": 'Lock lockCodes is {"1":{"name":"Alice","code":"4821"}}',
        }
    )
    assert "4821" not in json.dumps(event) and "Alice" in event["value"]
    assert "Alice" in event["description"]
    # setCode's PIN, wherever the command record is
    cmd = redact({"command": "setCode", "arguments": [3, "1234", "Eve"]})
    assert cmd["arguments"] == [3, REDACTED, "Eve"]
    assert redact({"command": "on", "arguments": [1, "2"]})["arguments"] == [1, "2"]


def test_document_redacts_password_settings_by_name() -> None:
    page = {
        "configPage": {"sections": [{"input": [{"name": "login", "type": "password"}]}]},
        "settings": {"login": "pw", "other": "x"},
        "not_applied": [{"name": "login", "sent": "pw2", "now": "pw"}],
    }
    out = redact_document(page)
    assert out["settings"] == {"login": REDACTED, "other": "x"}
    assert out["not_applied"] == [{"name": "login", "sent": REDACTED, "now": REDACTED}]
    # the types may come from the raw page the answer was built from
    built = {"settings": {"login": "pw"}}
    assert redact_document(built, types_from=page)["settings"]["login"] == REDACTED
    assert redact(built)["settings"]["login"] == "pw"  # plain redact has no types


def test_state_keys_by_pattern() -> None:
    state = {
        "accessToken": "t",
        "refreshToken": "r",
        "oauth": {"client_secret": "s", "clientSecret": "s2"},
        "count": 3,
    }
    assert redact(state) == {
        "accessToken": REDACTED,
        "refreshToken": REDACTED,
        "oauth": {"client_secret": REDACTED, "clientSecret": REDACTED},
        "count": 3,
    }


def test_free_text() -> None:
    assert redact_text("GET /apps/api/12/devices?access_token=abc-123&x=1") == (
        f"GET /apps/api/12/devices?access_token={REDACTED}&x=1"
    )
    assert redact_text("login failed: password=hunter2") == f"login failed: password={REDACTED}"
    assert "4821" not in redact_text('codes {\\"1\\":{\\"code\\":\\"4821\\"}} {"code":4821}')
    assert redact({"message": "token: abc"}) == {"message": f"token: {REDACTED}"}
    assert redact({"source": "token: abc"}) == {"source": "token: abc"}  # not a text key


async def test_hub_error_snippets_are_redacted() -> None:
    conn = HubConnection("192.0.2.5", password="pw-77", maker_app_id="12", maker_token="tok-9")
    async with aiohttp.ClientSession() as session:
        client = HubClient(session, conn)
    body = "pw-77 error: tok-9 rejected for /x?access_token=tok-9 and password=hunter2"
    with pytest.raises(HubBadResponseError) as err:
        client._decode(500, body, "/x?access_token=tok-9", "json")
    for secret in ("tok-9", "hunter2", "pw-77"):
        assert secret not in str(err.value)
    assert REDACTED in str(err.value)


async def test_import_of_a_redacted_export_leaves_the_secret_unset(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    exported = await call_tool("hub_export_app", {"app_id": str(APP_ANNOUNCER)})
    assert not exported.error, exported.data
    text = json.dumps(exported.data)
    assert SEEDED_APP_SECRETS["announcer_password"] not in text and REDACTED in text
    before = set(hub.home.state.apps)
    result = await call_tool("hub_import_app", {"export": exported.data["export"]})
    assert not result.error, result.data
    assert result.data["secrets_to_reenter"] == ["speakerLogin"]
    (made,) = set(hub.home.state.apps) - before
    login = next(
        i for i in hub.home.state.dev.internals[made].inputs if i["name"] == "speakerLogin"
    )
    assert login.get("value") in (None, "")  # unset: never the placeholder
    volume = next(i for i in hub.home.state.dev.internals[made].inputs if i["name"] == "volume")
    assert volume["value"] == 60  # the other settings travel


def test_document_scrubs_a_secret_quoted_elsewhere() -> None:
    doc = {
        "state": {"accessToken": "tok-abcdef"},
        "page": {"text": ["Use http://hub/apps/api/12/x?token=tok-abcdef"]},
        "other": "see tok-abcdef",
    }
    out = json.dumps(redact_document(doc))
    assert "tok-abcdef" not in out


async def test_filters_cannot_probe_a_lock_code(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = front_door_lock(hub)
    raw = str(hub.device(lock)["attributes"]["lockCodes"])
    probe = await call_tool(
        "hub_list_devices", {"attribute": "lockCodes", "value": raw, "text": "Front Door Lock"}
    )
    assert not probe.error, probe.data
    assert probe.data["devices"] == []  # the raw value matches nothing: filters see redacted
    wait = await call_tool(
        "hub_get_device_attribute",
        {"device_id": str(lock), "attribute": "lockCodes", "expected_value": raw, "timeout_ms": 0},
    )
    assert not wait.error, wait.data
    assert wait.data["matched"] is False


def test_hub_refusal_reasons_are_redacted() -> None:
    with pytest.raises(HubRefusedError) as err:
        check_success({"success": False, "message": "bad access_token=tok-123"}, "do it")
    assert "tok-123" not in str(err.value) and "tok-123" not in str(err.value.reason)
