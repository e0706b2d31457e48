"""Hostile review of the infrastructure around the gates.

- Code downloads made by the integration check TLS certificates (Home Assistant's verifying
  session, not the hub's session, which has to accept the hub's self-signed certificate).
- An administrator's refused calls cannot flush the audit trail: they are compacted and
  counted, evicted before any write's record, and every record reaches Home Assistant's log.
- Item-backup pruning deletes and counts only the snapshots this integration wrote: files
  forged with backup names are neither counted nor deleted, across a restart too.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import ssl
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools import audit as audit_module
from custom_components.hubitat_dev_tools.audit import AuditTrail
from custom_components.hubitat_dev_tools.const import OPT_ALLOW_LOCAL_CODE_URLS
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.managers.code_sources import fetch_url_text
from custom_components.hubitat_dev_tools.managers.item_backups import MAX_PER_ITEM
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, a_switch

DRIVER = """metadata {
    definition(name: "Tls Relay", namespace: "t", author: "t") {
        capability "Switch"
    }
}
def on() { }
def off() { }
"""
AUDIT_LOGGER = "custom_components.hubitat_dev_tools.audit"


# ---------------------------------------------------------------- downloads verify TLS


@dataclass
class Served:
    """A loopback web server: what it serves, what was asked, its base URL."""

    pages: dict[str, tuple[int, str, dict[str, str]]]
    hits: list[str]
    base: str = ""


def _self_signed(tmp_path: Path) -> ssl.SSLContext:
    """A server context with a self-signed certificate for 127.0.0.1 (right name, no trust)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert_file, key_file)
    return ctx


async def _serve() -> tuple[Served, web.AppRunner]:
    served = Served({}, [])

    async def handle(request: web.Request) -> web.StreamResponse:
        served.hits.append(request.path)
        status, body, headers = served.pages.get(request.path, (404, "Not Found", {}))
        return web.Response(status=status, text=body, headers=headers)

    app = web.Application()
    app.router.add_route("GET", "/{tail:.*}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    served.base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    return served, runner


@pytest.fixture
def tls_host(socket_enabled: None, tmp_path: Path) -> Iterator[Served]:
    """A loopback https server with a self-signed certificate (a man in the middle).

    In a thread of its own: a refused handshake is the server's business there, not an
    error of the test's event loop."""
    served = Served({}, [])

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served.hits.append(self.path)
            status, body, headers = served.pages.get(self.path, (404, "Not Found", {}))
            data = body.encode()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = _self_signed(tmp_path).wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    served.base = f"https://127.0.0.1:{server.server_address[1]}"
    yield served
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
async def plain_host(socket_enabled: None) -> AsyncIterator[Served]:
    """A loopback plain-http server."""
    served, runner = await _serve()
    yield served
    await runner.cleanup()


@pytest.fixture
def local_urls(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    """The admin option allowing local URLs (else the loopback host is url_not_allowed)."""
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_LOCAL_CODE_URLS: True})


def code_saves(hub: HubEmulator, since: int) -> list[str]:
    return [p for m, p in hub.requests[since:] if m == "POST" and "save" in p.lower()]


@pytest.mark.usefixtures("local_urls")
async def test_download_refuses_an_untrusted_certificate(
    entry: MockConfigEntry,
    hub: HubEmulator,
    tls_host: Served,
    plain_host: Served,
    call_tool: ToolCaller,
) -> None:
    tls_host.pages["/relay.groovy"] = (200, DRIVER, {})
    url = tls_host.base + "/relay.groovy"

    async def allow(_url: str) -> None:
        return None

    # The path exists: the hub's session (no certificate check, for the hub's self-signed
    # certificate) downloads this code from the impostor without a word.
    hub_session = entry.runtime_data.hub.client.session
    assert await fetch_url_text(hub_session, url, allow) == DRIVER
    assert tls_host.hits == ["/relay.groovy"]

    codes = len(hub.state.dev.code)
    before = len(hub.requests)
    result = await call_tool(
        "hub_install_code", {"type": "driver", "source_url": url, "confirm": True}
    )
    assert result.error, result.data
    assert result.data["error"] == "certificate_not_trusted", result.data
    assert "certificate is not trusted" in result.data["message"]
    assert "self-signed" in result.data["message"]
    assert "file_name" in result.data["hint"]  # what to do instead
    assert tls_host.hits == ["/relay.groovy"]  # the handshake failed: nothing was asked
    assert code_saves(hub, before) == [] and len(hub.state.dev.code) == codes

    # A plain-http link redirecting to the impostor is refused the same way.
    plain_host.pages["/go"] = (302, "", {"Location": url})
    start = plain_host.base + "/go"
    result = await call_tool(
        "hub_update_code",
        {"type": "driver", "id": "1", "source_url": start, "confirm": True},
    )
    assert result.error and result.data["error"] == "certificate_not_trusted", result.data
    assert "redirected to" in result.data["message"] and plain_host.hits == ["/go"]
    assert code_saves(hub, before) == [] and len(hub.state.dev.code) == codes

    # Plain http from the local network (the option) still downloads and installs.
    plain_host.pages["/ok.groovy"] = (200, DRIVER, {})
    result = await call_tool(
        "hub_install_code",
        {"type": "driver", "source_url": plain_host.base + "/ok.groovy", "confirm": True},
    )
    assert not result.error, result.data
    assert hub.state.dev.code[("driver", int(result.data["id"]))].source == DRIVER
    assert len(hub.state.dev.code) == codes + 1


# ---------------------------------------------------------------- the audit trail


def trail(hass: HomeAssistant) -> AuditTrail:
    shared = get_domain_data(hass)
    assert shared is not None
    return shared.audit


async def test_refused_junk_does_not_evict_a_real_write(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    switch = str(a_switch(hub))
    done = await call_tool("hub_call_device_command", {"device_id": switch, "command": "on"})
    assert not done.error, done.data
    (real,) = [r for r in trail(hass).recent(None) if r["outcome"] == "ok"]
    # junk that fills a full record (8 KB once bounded): 200 of them are over 1.5 MB
    junk = {f"junk{j}": "J" * 300 for j in range(60)}
    bulk = "J" * 200

    # The path exists: an administrator's refused call is a record of its own.
    first = await call_tool(
        "hub_call_device_command", {"device_id": switch, "command": "on", **junk}
    )
    assert first.error and first.data["error"] == "invalid_arguments"
    assert [r["outcome"] for r in trail(hass).recent(None)] == ["refused", "ok"]

    # 300 more refused calls with long junk arguments, two kinds: refused before the record
    # is begun (invalid arguments), and after it (the code tier's missing confirm).
    for i in range(300):
        if i % 6:
            refused = await call_tool(
                "hub_call_device_command", {"device_id": switch, "command": "on", **junk}
            )
            assert refused.error and refused.data["error"] == "invalid_arguments"
        else:
            refused = await call_tool("hub_install_code", {"type": "driver", "source": bulk})
            assert refused.error and refused.data["error"] == "confirmation_required"
    records = trail(hass).recent(None)
    assert real in records  # the real write is still there, unchanged
    assert real["outcome"] == "ok" and real["args"] == {"device_id": switch, "command": "on"}
    refusals = [r for r in records if r["outcome"] == "refused"]
    counts = {(r["tool"], r["code"]): r["count"] for r in refusals}
    assert counts == {
        ("hub_call_device_command", "invalid_arguments"): 251,
        ("hub_install_code", "confirmation_required"): 50,
    }
    assert len(records) == 3
    for rec in refusals:  # compact: a digest, never the junk
        assert rec["user"] and rec["time"] and rec["last_time"]
        assert len(json.dumps(rec)) < 1_500
        assert bulk[:60] not in json.dumps(rec)
    assert trail(hass).stats()["refused_repeats"] == 299
    listed = await call_tool("hub_list_audit_entries", {"outcome": "refused"})
    assert not listed.error and listed.data["total"] == 2
    assert {e["count"] for e in listed.data["entries"]} == {251, 50}


def _record(audit: AuditTrail, tool: str, outcome: str, detail: str) -> str:
    return audit.record(
        user="admin",
        user_id="u1",
        tool=tool,
        hub="Home",
        args={"junk": "x" * 5_000},
        outcome=outcome,
        detail=detail,
    )


def test_eviction_drops_refusals_before_writes(
    hass: HomeAssistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The path exists: refusals used to be evicted with writes, oldest first, in one line.
    audit = AuditTrail(hass, max_entries=20)
    writes = [_record(audit, "hub_set_mode", "ok", f"write {i}") for i in range(5)]
    # distinct refusals (another tool each): nothing to fold, the trail fills up
    for i in range(100):
        _record(audit, f"hub_tool_{i}", "refused", "tool_disabled: off")
    kept = {r["id"] for r in audit.recent(None)}
    assert set(writes) <= kept  # 100 refusals over a 20-record bound: every write kept
    assert len(audit) == 20 and audit.stats()["evicted"] == 85
    refused = [r["tool"] for r in reversed(audit.recent(None)) if r["outcome"] == "refused"]
    assert refused == [f"hub_tool_{i}" for i in range(85, 100)]  # the oldest went first
    # writes go only when no refusal is left, oldest first
    more = [_record(audit, "hub_set_mode", "failed", f"more {i}") for i in range(17)]
    left = [r["id"] for r in reversed(audit.recent(None))]
    assert [r for r in left if r not in writes + more] == []  # every refusal gone
    assert left == writes[2:] + more
    # a repeat within the window raises the count; after it, a new record
    fresh = AuditTrail(hass)
    first = _record(fresh, "hub_x", "refused", "writes_disabled: off")
    assert _record(fresh, "hub_x", "refused", "writes_disabled: off") == first
    assert fresh.recent(None)[0]["count"] == 2 and len(fresh) == 1
    monkeypatch.setattr(audit_module, "REFUSAL_WINDOW", 0.0)
    assert _record(fresh, "hub_x", "refused", "writes_disabled: off") != first
    assert len(fresh) == 2


async def test_every_record_reaches_the_home_assistant_log(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger=AUDIT_LOGGER)
    switch = str(a_switch(hub))
    pin = "739164"

    def lines() -> list[dict[str, Any]]:
        out = []
        for rec in caplog.records:
            if rec.name == AUDIT_LOGGER:
                msg = rec.getMessage()
                assert "\n" not in msg and msg.startswith("Audit: ")
                out.append(json.loads(msg.removeprefix("Audit: ")))
        return out

    assert not (
        await call_tool("hub_call_device_command", {"device_id": switch, "command": "on"})
    ).error
    await call_tool("hub_install_code", {"type": "driver", "source": "x"})
    await call_tool("hub_install_code", {"type": "driver", "source": "y"})
    await call_tool("hub_update_app_settings", {"app_id": "1", "settings": {"password": pin}})
    logged = lines()
    stored = trail(hass).recent(None)
    # every record, and every outcome of a write, is one line, under the record's id
    for rec in stored:
        mine = [line for line in logged if rec["id"] in (line["id"], line.get("record"))]
        assert mine, rec
        assert mine[-1]["outcome"] == rec["outcome"] and mine[-1]["tool"] == rec["tool"]
    command = next(r for r in stored if r["tool"] == "hub_call_device_command")
    assert [line["outcome"] for line in logged if line["id"] == command["id"]] == [
        "started",
        "ok",
    ]
    refusals = [line for line in logged if line.get("code") == "confirmation_required"]
    assert [line["count"] for line in refusals] == [1, 2]
    assert pin not in caplog.text  # redacted like the trail


# ---------------------------------------------------------------- item backup pruning


def item_backups(hub: HubEmulator, kind: str, item_id: str) -> list[str]:
    return sorted(n for n in hub.files.names() if n.startswith(f"hdt-backup_{kind}-{item_id}_"))


def forged_doc(stamp: str) -> str:
    return json.dumps({"kind": "driver", "id": "1", "saved_at": stamp, "source": "def evil(){}"})


async def forge(hub: HubEmulator, call_tool: ToolCaller) -> list[str]:
    """One copy older than every real one, eight newer: the shape that made the next edit
    prune the real pre-edit copy. Half written through hub_write_file, half on the hub."""
    names = ["hdt-backup_driver-1_20000101-000000-000-01.json"]
    names += [f"hdt-backup_driver-1_20990101-00000{i}-000-01.json" for i in range(8)]
    for n, name in enumerate(names):
        if n % 2:
            hub.files.write(name, forged_doc(name).encode())
        else:
            wrote = await call_tool(
                "hub_write_file", {"file_name": name, "content": forged_doc(name), "confirm": True}
            )
            assert not wrote.error, wrote.data
    return names


async def restores_until_pruned(
    call_tool: ToolCaller, hub: HubEmulator, oldest: str, forged: list[str], first: str
) -> list[str]:
    """Alternate restores from ``first`` (each backs up the current state first), past the
    point where pruning runs."""
    pruned: list[str] = []
    target = first
    for i in range(2 * MAX_PER_ITEM):
        done = await call_tool("hub_restore_item_backup", {"backup": target, "confirm": True})
        assert not done.error, done.data
        target = oldest if target != oldest else done.data["item_backup"]["backup"]
        pruned += done.data["item_backup"].get("pruned", [])
        names = item_backups(hub, "driver", "1")
        assert oldest in names, f"restore {i} pruned the real pre-edit original"
        assert set(forged) <= set(names), f"restore {i} deleted a file we did not write"
    return pruned


async def test_forged_backup_names_are_not_pruned_nor_counted(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_storage: dict[str, Any],
) -> None:
    hub.mark_backup_now()
    source = hub.state.dev.code[("driver", 1)].source
    first = await call_tool(
        "hub_update_code",
        {"type": "driver", "id": "1", "source": source + "\n// edited\n", "confirm": True},
    )
    assert not first.error, first.data
    oldest = first.data["item_backup"]["backup"]
    forged = await forge(hub, call_tool)
    # The path exists: the forged files are taken for backups of driver 1.
    listed = await call_tool("hub_list_item_backups", {"type": "driver", "id": "1"})
    assert {b["backup"] for b in listed.data["backups"]} == {oldest, *forged}

    pruned = await restores_until_pruned(call_tool, hub, oldest, forged, oldest)
    assert pruned, "pruning never ran"
    assert not set(pruned) & {oldest, *forged}
    ours = set(item_backups(hub, "driver", "1")) - set(forged)
    assert len(ours) == MAX_PER_ITEM  # the bound holds for our own copies
    key = f"hubitat_dev_tools.item_backups.{hub.hub_uid}"
    recorded = set(hass_storage[key]["data"]["files"])
    assert recorded == ours  # recorded in Home Assistant, not the forged ones


async def test_backup_record_survives_a_restart(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    source = hub.state.dev.code[("driver", 1)].source
    first = await call_tool(
        "hub_update_code",
        {"type": "driver", "id": "1", "source": source + "\n// edited\n", "confirm": True},
    )
    oldest = first.data["item_backup"]["backup"]
    second = await call_tool("hub_restore_item_backup", {"backup": oldest, "confirm": True})
    before_restart = second.data["item_backup"]["backup"]
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    forged = await forge(hub, call_tool)
    pruned = await restores_until_pruned(call_tool, hub, oldest, forged, before_restart)
    # what was written before the restart is still known as ours: pruned in its turn
    assert pruned[0] == before_restart
    assert oldest in item_backups(hub, "driver", "1")
