"""A weekdays-only mode schedule as the hub UI's mode editor saves it, for the emulator's mode
tests (hub/test_modes.py) and the mode manager's (managers/test_modes.py).
"""

from __future__ import annotations

from typing import Any


def _weekdays(mode_id: int) -> dict[str, list[dict[str, Any]]]:
    """A weekdays-only schedule for ``mode_id`` as the hub UI's mode editor saves it."""

    def entry(days: list[int], text: str) -> dict[str, Any]:
        return {
            "deviceIds": [],
            "index": 0,
            "triggerType": "daysOfWeek",
            "daysOfWeek": days,
            "description": f"When day is {text}",
            "type": "when",
        }

    return {
        str(mode_id): [entry([1, 2, 3, 4, 5], "Mon, Tue, Wed, Thu, Fri")],
        f"alt-{mode_id}": [entry([0, 6], "Sun, Sat")],
    }
