"""Writes made of several hub calls in order: a failure says which steps landed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from ..hub.errors import HubError

Step = tuple[str, Callable[[], Awaitable[None]]]


async def run_steps(
    steps: Sequence[Step], *, after_each: Callable[[], None] | None = None
) -> list[str]:
    """Run ``steps`` in order; the names of those done. A hub error is re-raised (same type,
    same hint) naming what was applied and what was not; ``after_each`` runs after every
    step, failed ones too (a failed step may have landed)."""
    done: list[str] = []
    for name, step in steps:
        try:
            await step()
        except HubError as err:
            pending = [n for n, _ in steps if n not in done]
            raise type(err)(
                f"{err} Applied: {', '.join(done) or 'nothing'}; NOT applied: "
                f"{', '.join(pending)}.",
                hint=err.hint,
                subject=err.subject,
            ) from err
        finally:
            if after_each is not None:
                after_each()
        done.append(name)
    return done
