"""Background work of the emulated hub: every task it starts, so ``stop()`` can cancel them."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class Tasks:
    """A set of running asyncio tasks (done ones drop out by themselves)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def later(self, delay: float, action: Any) -> asyncio.Task[Any]:
        """Run the no-argument callable ``action`` after ``delay`` seconds."""

        async def run() -> None:
            await asyncio.sleep(delay)
            action()

        return self.spawn(run())

    async def cancel_all(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
