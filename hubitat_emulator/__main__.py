"""``python -m hubitat_emulator --port 8088 [--security] [--devices N]``"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from .hub import HubEmulator


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m hubitat_emulator", description=__doc__)
    p.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8088, help="TCP port (0 = any free port)")
    p.add_argument("--security", action="store_true", help="enable Hub Security (login)")
    p.add_argument("--devices", type=int, default=None, help="pad/trim the home to N devices")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--username", default="admin")
    p.add_argument("--password", default="hubpass")
    p.add_argument("--maker-app-id", type=int, default=12)
    p.add_argument("--maker-token", default="maker-token-0001")
    p.add_argument("--ping-interval", type=float, default=120.0)
    p.add_argument("--command-delay", type=float, default=0.0)
    return p.parse_args(argv)


async def _run(args: argparse.Namespace) -> None:
    emu = HubEmulator(
        security=args.security,
        username=args.username,
        password=args.password,
        maker_app_id=args.maker_app_id,
        maker_token=args.maker_token,
        device_count=args.devices,
        seed=args.seed,
        ping_interval=args.ping_interval,
        command_delay=args.command_delay,
    )
    url = await emu.start(args.host, args.port)
    print(f"HUB_URL={url}")
    print(f"MAKER_APP_ID={emu.maker_app_id}")
    print(f"MAKER_TOKEN={emu.maker_token}")
    print(f"MAKER_URL={url}/apps/api/{emu.maker_app_id}/devices?access_token={emu.maker_token}")
    print(f"HUB_SECURITY={'on' if emu.security else 'off'}")
    print(f"HUB_USERNAME={emu.username}")
    print(f"HUB_PASSWORD={emu.password}")
    print(f"DEVICES={len(emu.state.devices)}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await emu.stop()


def main(argv: list[str] | None = None) -> None:
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_run(_parse(argv)))


if __name__ == "__main__":
    main()
