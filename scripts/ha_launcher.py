"""Start an emulated hub, and a real Home Assistant with mcp_server and this integration.

Shared by the demo (``scripts/dev demo``) and the benchmarks. Everything listens on
127.0.0.1 only. Home Assistant is set up the way a user would: onboarding creates the
owner, then the config flows run through Home Assistant's own HTTP API.

- ``running_hub()`` / ``hub_settings()``: an emulated hub alone, and how to reach it (the
  keys are the config flow's and ``HubConnection``'s field names).
- ``HomeAssistantLauncher``: the hub plus Home Assistant, set up with both config entries.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

import aiohttp
from homeassistant.components.http import config as http_config

from hubitat_emulator import HubEmulator

REPO = Path(__file__).resolve().parent.parent
DOMAIN = "hubitat_dev_tools"
USERNAME = "demo"
PASSWORD = "demo-password-1234"


def free_port() -> int:
    """Return a free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def hub_settings(hub: HubEmulator, *, maker: bool = True, login: bool = False) -> dict[str, Any]:
    """How to reach a started hub: host, port, and the Maker API and/or login if asked.

    The keys are both the integration's config flow fields and ``HubConnection``'s.
    """
    host, _, port = hub.url.removeprefix("http://").partition(":")
    settings: dict[str, Any] = {"host": host, "port": int(port)}
    if maker:
        settings.update(maker_app_id=str(hub.maker_app_id), maker_token=hub.maker_token)
    if login:
        settings.update(username=hub.username, password=hub.password)
    return settings


@contextlib.asynccontextmanager
async def running_hub(port: int = 0, **emulator: Any) -> AsyncIterator[HubEmulator]:
    """An emulated hub (``HubEmulator(**emulator)``) started on 127.0.0.1, stopped on exit."""
    hub = HubEmulator(**emulator)
    await hub.start(port=port)
    try:
        yield hub
    finally:
        await hub.stop()


def write_http_store(config_dir: Path, port: int) -> None:
    """Store HTTP on loopback as Home Assistant's confirmed (stable) HTTP config.

    Since 2026.10 ``http:`` YAML is migrated into storage as a *pending* trial that reverts
    (restarting Home Assistant) unless promoted within five minutes, and raises the
    ``deprecated_yaml`` Repairs issue. Writing the store in Home Assistant's own format
    (its schema, storage version and keys, imported from the installed version) before the
    first start is what a promoted config looks like: no trial, no revert, no issue.
    """
    stable = dict(
        http_config.HTTP_STORAGE_SCHEMA({"server_host": ["127.0.0.1"], "server_port": port})
    )
    stable.update(
        {
            http_config.HTTP_CONFIG_CREATED_AT: datetime.now(UTC).isoformat(),
            http_config.HTTP_CONFIG_ERROR: None,
            http_config.HTTP_CONFIG_ERROR_MESSAGE: None,
        }
    )
    store = {
        "version": http_config.STORAGE_VERSION,
        "minor_version": http_config.STORAGE_MINOR_VERSION,
        "key": http_config.STORAGE_KEY,
        "data": {
            http_config.KEY_STABLE: stable,
            http_config.KEY_PENDING: None,
            http_config.KEY_YAML_MIGRATION_DONE: True,
        },
    }
    storage = config_dir / ".storage"
    storage.mkdir(parents=True, exist_ok=True)
    (storage / http_config.STORAGE_KEY).write_text(json.dumps(store, indent=2, default=str))


def write_config(config_dir: Path, port: int) -> None:
    """A minimal configuration (no default_config); HTTP on loopback in the HTTP store."""
    config_dir.mkdir(parents=True, exist_ok=True)
    write_http_store(config_dir, port)
    (config_dir / "configuration.yaml").write_text(
        "homeassistant:\n"
        "  name: Hubitat Dev Tools demo\n"
        "  time_zone: UTC\n"
        "  unit_system: metric\n"
        "  country: US\n"
        "config:\n"
        "onboarding:\n"
        "logger:\n"
        "  default: error\n"
        "  logs:\n"
        "    custom_components.hubitat_dev_tools: info\n"
    )
    custom = config_dir / "custom_components"
    custom.mkdir(exist_ok=True)
    link = custom / DOMAIN
    if link.is_symlink() or link.exists():
        if link.is_symlink() or link.is_file():
            link.unlink()
        else:
            shutil.rmtree(link)
    link.symlink_to(REPO / "custom_components" / DOMAIN)


async def wait_for_http(session: aiohttp.ClientSession, url: str, timeout: float) -> None:
    """Wait until Home Assistant answers HTTP."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        with contextlib.suppress(aiohttp.ClientError, TimeoutError):
            async with session.get(f"{url}/api/onboarding", timeout=aiohttp.ClientTimeout(2)):
                return
        await asyncio.sleep(0.5)
    raise RuntimeError(f"Home Assistant did not start within {timeout:.0f} s")


async def onboard(session: aiohttp.ClientSession, url: str) -> str:
    """Create the owner through onboarding; return an access token."""
    client_id = f"{url}/"
    async with session.post(
        f"{url}/api/onboarding/users",
        json={
            "client_id": client_id,
            "name": "Demo Owner",
            "username": USERNAME,
            "password": PASSWORD,
            "language": "en",
        },
    ) as resp:
        if resp.status != 200:
            raise RuntimeError(f"onboarding failed: HTTP {resp.status} {await resp.text()}")
        auth_code = (await resp.json())["auth_code"]
    async with session.post(
        f"{url}/auth/token",
        data={"grant_type": "authorization_code", "code": auth_code, "client_id": client_id},
    ) as resp:
        token: str = (await resp.json())["access_token"]
        return token


async def ws_call(
    session: aiohttp.ClientSession, url: str, token: str, command: dict[str, Any]
) -> Any:
    """Send one command over Home Assistant's websocket API; return its result."""
    async with session.ws_connect(f"{url.replace('http', 'ws', 1)}/api/websocket") as ws:
        await ws.receive_json()  # auth_required
        await ws.send_json({"type": "auth", "access_token": token})
        auth = await ws.receive_json()
        if auth.get("type") != "auth_ok":
            raise RuntimeError(f"websocket auth failed: {auth}")
        await ws.send_json({"id": 1, **command})
        result = await ws.receive_json()
        if not result.get("success"):
            raise RuntimeError(f"{command['type']} failed: {result}")
        return result["result"]


async def long_lived_token(session: aiohttp.ClientSession, url: str, access: str) -> str:
    """Create a long-lived access token over the websocket API (as the UI does)."""
    token: str = await ws_call(
        session,
        url,
        access,
        {
            "type": "auth/long_lived_access_token",
            "client_name": "Hubitat Dev Tools demo (MCP)",
            "lifespan": 3650,
        },
    )
    return token


async def config_flow(
    session: aiohttp.ClientSession, url: str, token: str, handler: str, data: dict[str, Any]
) -> dict[str, Any]:
    """Run a config flow through HA's HTTP API, answering its first form with ``data``."""
    headers = {"Authorization": f"Bearer {token}"}
    async with session.post(
        f"{url}/api/config/config_entries/flow",
        json={"handler": handler, "show_advanced_options": False},
        headers=headers,
    ) as resp:
        result: dict[str, Any] = await resp.json()
    if result.get("type") == "form":
        async with session.post(
            f"{url}/api/config/config_entries/flow/{result['flow_id']}",
            json=data,
            headers=headers,
        ) as resp:
            result = await resp.json()
    if result.get("type") != "create_entry":
        raise RuntimeError(f"config flow for {handler} did not create an entry: {result}")
    return result


async def tools_list(
    session: aiohttp.ClientSession, mcp_url: str, token: str
) -> tuple[int, list[dict[str, Any]]]:
    """POST tools/list to an MCP endpoint: (bytes of the HTTP response body, the tools)."""
    async with session.post(
        mcp_url,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
        },
    ) as resp:
        body = await resp.read()
        if resp.status != 200:
            raise RuntimeError(f"tools/list: HTTP {resp.status} {body[:200]!r}")
    tools: list[dict[str, Any]] = json.loads(body)["result"]["tools"]
    return len(body), tools


class HomeAssistantLauncher:
    """An emulated hub and a real Home Assistant with this integration and mcp_server.

    Either ``async with HomeAssistantLauncher() as ha:`` (everything started and set up),
    or step by step: ``start_hub()``, ``start_home_assistant()``, ``set_up()``, and
    ``stop()`` in a ``finally`` (``log_tail()`` tells what Home Assistant wrote if a step
    failed). After ``set_up()``: ``url``, ``token``, ``entry_id`` and ``session``.
    """

    def __init__(
        self,
        *,
        ha_port: int = 0,
        hub_port: int = 0,
        config_dir: Path | None = None,
        security: bool = False,
        temp_prefix: str = "hdt-demo-",
    ) -> None:
        """Nothing starts yet. ``config_dir`` None: a temp dir, removed by ``stop()``."""
        self.hub = HubEmulator(security=security)
        self.security = security
        self._hub_port = hub_port
        self.port = ha_port
        self._temp_prefix = temp_prefix
        self._temp_dir: Path | None = None
        self._config_dir = config_dir
        self.proc: asyncio.subprocess.Process | None = None
        self._stderr: IO[bytes] | None = None
        self._session: aiohttp.ClientSession | None = None
        self.token = ""
        self.entry_id = ""

    @property
    def url(self) -> str:
        """Home Assistant's base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def session(self) -> aiohttp.ClientSession:
        """The HTTP session ``set_up()`` opened (closed by ``stop()``)."""
        assert self._session is not None, "set_up() first"
        return self._session

    @property
    def config_dir(self) -> Path:
        """Home Assistant's config dir (the given one, or the temp dir ``start_hub()`` made)."""
        assert self._config_dir is not None, "start_hub() first"
        return self._config_dir

    @property
    def stderr_path(self) -> Path:
        """Where Home Assistant's stderr goes."""
        return self.config_dir / "hass-stderr.log"

    async def start_hub(self) -> str:
        """Start the emulated hub and write Home Assistant's configuration; return the hub URL."""
        hub_url = await self.hub.start(port=self._hub_port)
        self.port = self.port or free_port()
        if self._config_dir is None:
            self._temp_dir = self._config_dir = Path(tempfile.mkdtemp(prefix=self._temp_prefix))
        write_config(self.config_dir, self.port)
        return hub_url

    async def start_home_assistant(self, *, append: bool = False) -> None:
        """Start Home Assistant (this Python, ``--skip-pip``, the checkout on PYTHONPATH)."""
        self._stderr = self.stderr_path.open("ab" if append else "wb")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "homeassistant",
            "--config",
            str(self.config_dir),
            "--skip-pip",
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stdout=asyncio.subprocess.DEVNULL,
            stderr=self._stderr,
        )

    async def set_up(self) -> None:
        """Wait for HTTP, onboard, make a long-lived token, add both config entries."""
        self._session = aiohttp.ClientSession()
        await wait_for_http(self.session, self.url, timeout=180)
        access = await onboard(self.session, self.url)
        self.token = await long_lived_token(self.session, self.url, access)
        created = await config_flow(
            self.session, self.url, self.token, DOMAIN, hub_settings(self.hub, login=self.security)
        )
        self.entry_id = created["result"]["entry_id"]
        await config_flow(self.session, self.url, self.token, "mcp_server", {})

    async def check_stable(self) -> list[str]:
        """What is wrong with this Home Assistant for a long run (empty: nothing).

        The HTTP config must be the confirmed one (no pending trial that reverts), and no
        Repairs issue may be open (``deprecated_yaml`` and the like).
        """
        problems = []
        http = await ws_call(self.session, self.url, self.token, {"type": "http/config"})
        if http.get("pending") is not None or http.get("active_config_type") != "stable":
            problems.append(
                f"HTTP config is {http.get('active_config_type')} "
                f"(revert at {http.get('revert_at')})"
            )
        issues = await ws_call(self.session, self.url, self.token, {"type": "repairs/list_issues"})
        for issue in issues.get("issues", []):
            # A venv install is what Home Assistant calls "Core" (a deprecated method): that
            # is the machine, not the demo.
            if (issue.get("domain"), issue.get("issue_id")) == (
                "homeassistant",
                "deprecated_method",
            ):
                continue
            if not issue.get("ignored"):
                problems.append(f"Repairs issue {issue.get('domain')}.{issue.get('issue_id')}")
        return problems

    def setup_errors(self) -> list[str]:
        """The lines of Home Assistant's log that report an integration that failed to set up.

        (Home Assistant's always-on media platforms may also log that the ``ffmpeg`` and
        ``libturbojpeg`` system binaries are missing: the demo uses no media.)
        """
        return [
            line
            for line in self.log_tail(200_000).splitlines()
            if "Setup failed for" in line or "Unable to set up" in line
        ]

    async def restart_home_assistant(self) -> None:
        """Start Home Assistant again on the same config (after it asked for a restart)."""
        if self._stderr is not None:
            self._stderr.close()
        await self.start_home_assistant(append=True)
        await wait_for_http(self.session, self.url, timeout=180)

    def log_tail(self, chars: int = 4000) -> str:
        """The end of what Home Assistant wrote to stderr so far."""
        if self._stderr is None:
            return ""
        self._stderr.flush()
        return self.stderr_path.read_text(errors="replace")[-chars:]

    async def stop(self) -> None:
        """Stop everything started; remove the config dir if it was a temp one."""
        if self._session is not None:
            await self._session.close()
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 30)
            except TimeoutError:
                self.proc.kill()
        await self.hub.stop()
        if self._stderr is not None:
            self._stderr.close()
        if self._temp_dir is not None:
            shutil.rmtree(self._temp_dir, ignore_errors=True)

    async def __aenter__(self) -> Self:
        """Start and set up everything."""
        try:
            await self.start_hub()
            await self.start_home_assistant()
            await self.set_up()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop everything."""
        await self.stop()
