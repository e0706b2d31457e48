"""Demo: an emulated hub + a real Home Assistant with this integration and mcp_server.

Run with ``scripts/dev demo``. Everything listens on 127.0.0.1 only. Home Assistant is
set up the way a user would: onboarding creates the owner, then the config flows run
through Home Assistant's own HTTP API. Prints MCP_URL, MCP_TOKEN and HA_URL, then keeps
running until interrupted (Ctrl+C).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

from scripts.ha_launcher import PASSWORD, USERNAME, HomeAssistantLauncher, tools_list


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
        mcp_url = f"{ha.url}/api/mcp"
        _size, tools = await tools_list(ha.session, mcp_url, ha.token)
        print(f"MCP_URL={mcp_url}", flush=True)
        print(f"MCP_TOKEN={ha.token}", flush=True)
        print(f"HA_URL={ha.url}", flush=True)
        print(
            f"# {len(tools)} tools served; HA login {USERNAME} / {PASSWORD}; "
            f"config {ha.config_dir}",
            flush=True,
        )
        if not opts.exit_after_setup:
            assert ha.proc is not None
            wait_proc = asyncio.ensure_future(ha.proc.wait())
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
        sys.stderr.write(ha.log_tail())
        return 1
    finally:
        await ha.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
