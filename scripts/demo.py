"""Demo: an emulated hub + a real Home Assistant with this integration and mcp_server.

Run with ``scripts/dev demo``. Everything listens on 127.0.0.1 only. Home Assistant is
set up the way a user would: onboarding creates the owner, then the config flows run
through Home Assistant's own HTTP API. Prints MCP_URL (our per-API endpoint), MCP_TOKEN
and HA_URL, then keeps running until interrupted (Ctrl+C), starting Home Assistant again
when it restarts itself. ``--exit-after-setup`` (CI) stops once everything is printed and
fails if the run would not last: a pending HTTP config, an open Repairs issue, or a setup
error in Home Assistant's log.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

from homeassistant.const import RESTART_EXIT_CODE

from scripts.ha_launcher import DOMAIN, PASSWORD, USERNAME, HomeAssistantLauncher, tools_list


async def _run_until_stopped(ha: HomeAssistantLauncher, stop: asyncio.Event) -> int:
    """Keep everything up until Ctrl+C; follow Home Assistant through its own restarts.

    Home Assistant asks for a restart by exiting with ``RESTART_EXIT_CODE`` (a supervisor
    would start it again): the demo does the same, on the same config, so the emulated hub,
    the printed URL and the token stay valid.
    """
    while True:
        assert ha.proc is not None
        wait_proc = asyncio.ensure_future(ha.proc.wait())
        wait_stop = asyncio.ensure_future(stop.wait())
        await asyncio.wait({wait_proc, wait_stop}, return_when=asyncio.FIRST_COMPLETED)
        if wait_stop.done():
            wait_proc.cancel()
            return 0
        wait_stop.cancel()
        if wait_proc.result() != RESTART_EXIT_CODE:
            print(f"Home Assistant exited ({wait_proc.result()})", file=sys.stderr)
            sys.stderr.write(ha.log_tail())
            return 1
        print("# Home Assistant restarted itself; starting it again", flush=True)
        await ha.restart_home_assistant()
        print("# Home Assistant is back; MCP_URL and MCP_TOKEN are unchanged", flush=True)


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

    ha = HomeAssistantLauncher(
        ha_port=opts.ha_port, hub_port=opts.hub_port, config_dir=opts.config, security=opts.security
    )
    hub_url = await ha.start_hub()
    print(f"HUB_URL={hub_url}", flush=True)
    await ha.start_home_assistant()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await ha.set_up()
        # The per-API URL: only our tools, with their own names and our gateway routing.
        mcp_url = f"{ha.url}/api/mcp/{DOMAIN}"
        _size, tools = await tools_list(ha.session, mcp_url, ha.token)
        print(f"MCP_URL={mcp_url}", flush=True)
        print(f"MCP_TOKEN={ha.token}", flush=True)
        print(f"HA_URL={ha.url}", flush=True)
        print(
            f"# {len(tools)} Hubitat Dev Tools tools served at MCP_URL; HA login "
            f"{USERNAME} / {PASSWORD}; config {ha.config_dir}",
            flush=True,
        )
        print(
            f"# merged endpoint of every selected LLM API (not recommended): {ha.url}/api/mcp",
            flush=True,
        )
        problems = [*await ha.check_stable(), *ha.setup_errors()]
        for problem in problems:
            print(f"# problem: {problem}", file=sys.stderr, flush=True)
        if opts.exit_after_setup:
            return 1 if problems else 0
        return await _run_until_stopped(ha, stop)
    except Exception as err:
        print(f"demo failed: {err}", file=sys.stderr)
        sys.stderr.write(ha.log_tail())
        return 1
    finally:
        await ha.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
