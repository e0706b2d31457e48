"""``stoppable_spec``: a rule with a stoppable repeat, for managers/test_rule_repeat_stoppable.py
and tools/test_rule_repeat_stoppable.py.
"""

from __future__ import annotations

from typing import Any


def stoppable_spec(button: str, light: str, *, stoppable: bool) -> dict[str, Any]:
    """Two repeats on a button press: twice every 30 s, and every 20 s while the light is on."""
    flag: dict[str, Any] = {"stoppable": True} if stoppable else {}
    return {
        "name": "Blink while on",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "actions": [
            {"repeat": 2, "every": {"seconds": 30}, **flag, "do": [{"log": "blink"}]},
            {
                "repeat_while": {"device_id": light, "attribute": "switch", "is": "on"},
                "every": {"seconds": 20},
                **flag,
                "do": [{"log": "tick"}],
            },
        ],
    }
