"""``streaming``: a hub manager with its event socket, log socket and state cache running
against the emulator, for the managers' event-driven tests: managers/test_events.py,
managers/test_devices.py, managers/test_device_commands.py and managers/test_device_create.py.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from custom_components.hubitat_dev_tools.hub.events import EVENT_PATH, LOG_PATH, HubSocket
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from custom_components.hubitat_dev_tools.managers.hub import Hub

from ..conftest import until


@contextlib.asynccontextmanager
async def streaming(hub: Hub) -> AsyncIterator[StateCache]:
    """The hub's live state cache over its event and log sockets (as ``event_stream.py``
    wires it, with the tests' small timings), set on ``hub`` until the block ends."""
    cache = StateCache(hub.client)

    def on_state() -> None:
        if events.connected:
            cache.resynced()
        else:
            cache.mark_stale()

    timings: dict[str, Any] = {"backoff_initial": 0.05, "backoff_max": 0.2, "connect_timeout": 2.0}
    events = HubSocket(
        hub.client,
        EVENT_PATH,
        cache.handle_event_text,
        on_connect=cache.hydrate,
        on_state=on_state,
        **timings,
    )
    logs = HubSocket(hub.client, LOG_PATH, cache.handle_log_text, **timings)
    cache.event_socket, cache.log_socket = events, logs
    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(events.run()), loop.create_task(logs.run())]
    hub.cache = cache
    try:
        await until(lambda: cache.live, what="stream live")
        await until(lambda: cache.logs_live, what="log socket")
        yield cache
    finally:
        hub.cache = None
        cache.clear_waiters()
        for sock in (events, logs):
            await sock.stop()
        _done, pending = await asyncio.wait(tasks, timeout=3.0)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
