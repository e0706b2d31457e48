"""Demo: an emulated hub + a real Home Assistant with this integration and mcp_server.

Run with ``scripts/dev demo``. Everything listens on 127.0.0.1 only. Home Assistant is
set up the way a user would: onboarding creates the owner, then the config flows run
through Home Assistant's own HTTP API. Prints MCP_URL, MCP_TOKEN and HA_URL, then keeps
running until interrupted (Ctrl+C).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

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


def write_config(config_dir: Path, port: int) -> None:
    """A minimal configuration: HTTP on loopback, no default_config."""
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "configuration.yaml").write_text(
        "homeassistant:\n"
        "  name: Hubitat Dev Tools demo\n"
        "  time_zone: UTC\n"
        "  unit_system: metric\n"
        "http:\n"
        "  server_host: 127.0.0.1\n"
        f"  server_port: {port}\n"
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


async def long_lived_token(session: aiohttp.ClientSession, url: str, access: str) -> str:
    """Create a long-lived access token over the websocket API (as the UI does)."""
    async with session.ws_connect(f"{url.replace('http', 'ws', 1)}/api/websocket") as ws:
        await ws.receive_json()  # auth_required
        await ws.send_json({"type": "auth", "access_token": access})
        auth = await ws.receive_json()
        if auth.get("type") != "auth_ok":
            raise RuntimeError(f"websocket auth failed: {auth}")
        await ws.send_json(
            {
                "id": 1,
                "type": "auth/long_lived_access_token",
                "client_name": "Hubitat Dev Tools demo (MCP)",
                "lifespan": 3650,
            }
        )
        result = await ws.receive_json()
        if not result.get("success"):
            raise RuntimeError(f"token creation failed: {result}")
        token: str = result["result"]
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


async def count_tools(session: aiohttp.ClientSession, mcp_url: str, token: str) -> int:
    """Ask the MCP endpoint for tools/list; return how many tools it serves."""
    async with session.post(
        mcp_url,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
        },
    ) as resp:
        body = await resp.json()
    return len(body["result"]["tools"])


async def main(argv: list[str]) -> int:
    """Start everything, print the connection details, run until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ha-port", type=int, default=0, help="HA port (default: free port)")
    parser.add_argument("--hub-port", type=int, default=0, help="hub port (default: free port)")
    parser.add_argument("--config", type=Path, help="HA config dir (default: a temp dir)")
    parser.add_argument("--security", action="store_true", help="enable Hub Security")
    parser.add_argument(
        "--exit-after-setup", action="store_true", help="stop once the URLs are printed (CI)"
    )
    opts = parser.parse_args(argv)

    hub = HubEmulator(security=opts.security)
    hub_url = await hub.start(port=opts.hub_port)
    ha_port = opts.ha_port or free_port()
    config_dir = opts.config or Path(tempfile.mkdtemp(prefix="hdt-demo-"))
    write_config(config_dir, ha_port)
    url = f"http://127.0.0.1:{ha_port}"
    print(f"HUB_URL={hub_url}", flush=True)

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    stderr_path = config_dir / "hass-stderr.log"
    stderr_file = stderr_path.open("wb")
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "homeassistant",
        "--config",
        str(config_dir),
        "--skip-pip",
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=stderr_file,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with aiohttp.ClientSession() as session:
            await wait_for_http(session, url, timeout=180)
            access = await onboard(session, url)
            token = await long_lived_token(session, url, access)
            hub_host, _, hub_port = hub_url.removeprefix("http://").partition(":")
            hub_data: dict[str, Any] = {
                "host": hub_host,
                "port": int(hub_port),
                "maker_app_id": str(hub.maker_app_id),
                "maker_token": hub.maker_token,
            }
            if opts.security:
                hub_data.update(username=hub.username, password=hub.password)
            await config_flow(session, url, token, DOMAIN, hub_data)
            await config_flow(session, url, token, "mcp_server", {})
            mcp_url = f"{url}/api/mcp"
            tools = await count_tools(session, mcp_url, token)
            print(f"MCP_URL={mcp_url}", flush=True)
            print(f"MCP_TOKEN={token}", flush=True)
            print(f"HA_URL={url}", flush=True)
            print(
                f"# {tools} tools served; HA login {USERNAME} / {PASSWORD}; config {config_dir}",
                flush=True,
            )
            if not opts.exit_after_setup:
                wait_proc = asyncio.ensure_future(proc.wait())
                wait_stop = asyncio.ensure_future(stop.wait())
                await asyncio.wait({wait_proc, wait_stop}, return_when=asyncio.FIRST_COMPLETED)
                wait_stop.cancel()
                if wait_proc.done():
                    print("Home Assistant exited", file=sys.stderr)
                    return 1
                wait_proc.cancel()
        return 0
    except Exception as err:
        print(f"demo failed: {err}", file=sys.stderr)
        stderr_file.flush()
        sys.stderr.write(stderr_path.read_text(errors="replace")[-4000:])
        return 1
    finally:
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except TimeoutError:
                proc.kill()
        await hub.stop()
        stderr_file.close()
        if opts.config is None:
            shutil.rmtree(config_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
