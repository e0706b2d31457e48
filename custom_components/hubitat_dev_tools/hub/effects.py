"""Writes decided by their effect: send, then read the result back (bounded polling).

Some hub answers are uncertain or known to lie (a delete that answers failure but deleted,
an envelope that says success with nothing changed). :func:`confirm_effect` sends the write,
then polls a read-back check for a short while: the effect decides, not the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from .errors import HubBadResponseError, HubNotFoundError

# How long (seconds) a write's effect is waited for, and how often it is re-read.
EFFECT_WAIT = 2.0
EFFECT_INTERVAL = 0.25


async def poll_until[T](
    read: Callable[[], Awaitable[T]],
    done: Callable[[T], bool],
    *,
    seconds: float = EFFECT_WAIT,
    interval: float = EFFECT_INTERVAL,
) -> T:
    """Read (first at once, then every ``interval``) until ``done`` holds or ``seconds`` ran
    out; the last read. ``seconds=0`` reads once."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        value = await read()
        if done(value) or loop.time() >= deadline:
            return value
        await asyncio.sleep(interval)


async def wait_for_effect(
    check: Callable[[], Awaitable[bool]],
    *,
    seconds: float = EFFECT_WAIT,
    interval: float = EFFECT_INTERVAL,
) -> bool:
    """True as soon as ``check`` passes; False once ``seconds`` have run out."""
    return await poll_until(check, bool, seconds=seconds, interval=interval)


async def confirm_effect(
    send: Callable[[], Awaitable[Any]], check: Callable[[], Awaitable[bool]], *, failed: str
) -> Any:
    """Send a write and return its answer once ``check`` sees the effect.

    A refusal or error answer (bad status, failure envelope, 404) whose effect is there
    anyway counts as a success; without the effect, the hub's own error is raised, or
    :class:`HubBadResponseError` (``failed``) when the hub claimed success.
    """
    answer: Any = None
    error: HubBadResponseError | HubNotFoundError | None = None
    try:
        answer = await send()
    except (HubBadResponseError, HubNotFoundError) as err:
        error = err
    if await wait_for_effect(check):
        return answer
    if error is not None:
        raise error
    raise HubBadResponseError(
        failed,
        hint="The hub accepted the request but nothing changed. Read the item again; retry "
        "once if it is unchanged.",
    )
