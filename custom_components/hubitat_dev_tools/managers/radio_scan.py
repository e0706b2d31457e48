"""The Zigbee channel scan as a job that outlives one tool call.

The hub answers ``/hub/zigbeeChannelScanJson`` only when its scan is done, about a minute
later: longer than one tool call may wait. So the request runs as a background task owned by
the radio manager (one per hub, never two at once, never retried); a call waits for it as
long as its own budget allows and otherwise answers "running" with when to ask again. The
next call picks up the finished result (or its error). A result is handed out once; one
older than :data:`RESULT_KEPT_S` is dropped and a new scan starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..hub.controllers import RadiosController
from ..hub.errors import HubTimeoutError
from ..hub.radios import CHANNEL_SCAN_SECONDS
from ..hub.results import ChannelScanRow

# The request's own bound: the hub's minute plus a margin (it runs in the background).
SCAN_REQUEST_TIMEOUT = CHANNEL_SCAN_SECONDS + 30.0
# A finished scan not yet handed out is kept this long (a later call starts a new one).
RESULT_KEPT_S = 600.0
# A call answers this long before its deadline.
ANSWER_MARGIN_S = 2.0


@dataclass(slots=True)
class _Job:
    task: asyncio.Task[list[ChannelScanRow]]
    started: float  # time.monotonic()
    started_at: str  # ISO 8601
    finished: float | None = None


class ChannelScanJob:
    """At most one Zigbee channel scan per hub, handed to whichever call comes for it."""

    def __init__(self, radios: RadiosController) -> None:
        self._radios = radios
        self._job: _Job | None = None

    async def run(self, deadline: float | None) -> dict[str, Any]:
        """The scan's rows, or ``{"status": "running", ...}`` if it is still going."""
        job = self._job
        if (
            job is not None
            and job.finished is not None
            and time.monotonic() - job.finished > RESULT_KEPT_S
        ):
            job = self._job = None  # too old to hand out as "the" scan
        if job is None:
            job = self._job = self._start()
        wait = None if deadline is None else max(0.0, deadline - time.monotonic() - ANSWER_MARGIN_S)
        done, _pending = await asyncio.wait({job.task}, timeout=wait)
        if not done:
            elapsed = time.monotonic() - job.started
            return {
                "status": "running",
                "started_at": job.started_at,
                "retry_after_s": max(5, round(CHANNEL_SCAN_SECONDS - elapsed)),
            }
        self._job = None  # handed out (rows or the error) exactly once
        try:
            rows = job.task.result()
        except HubTimeoutError as err:
            raise HubTimeoutError(
                "The Zigbee channel scan takes about a minute on the hub and did not answer "
                f"within {SCAN_REQUEST_TIMEOUT:.0f} s.",
                hint="The hub may still be scanning: wait a minute before scanning again.",
            ) from err
        return {"status": "done", "started_at": job.started_at, "channels": rows}

    def close(self) -> None:
        """Cancel a scan still running (the entry is unloading)."""
        if self._job is not None and not self._job.task.done():
            self._job.task.cancel()
        self._job = None

    def _start(self) -> _Job:
        task = asyncio.get_running_loop().create_task(
            self._radios.zigbee_channel_scan(SCAN_REQUEST_TIMEOUT),
            name="hubitat_dev_tools zigbee channel scan",
        )
        job = _Job(task, time.monotonic(), datetime.now(UTC).isoformat(timespec="seconds"))

        def _finished(done: asyncio.Task[list[ChannelScanRow]]) -> None:
            job.finished = time.monotonic()
            if not done.cancelled():
                # Retrieved here so an unclaimed failure is not logged as "never retrieved";
                # the next call still gets it from result().
                with contextlib.suppress(Exception):
                    done.exception()

        task.add_done_callback(_finished)
        return job
