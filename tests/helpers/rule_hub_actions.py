"""``_night_guard``: a rule of rule and hub actions, for managers/test_rule_hub_actions.py and
tools/test_rule_hub_actions.py.
"""

from __future__ import annotations

from typing import Any


def _night_guard(motion: str, other: str) -> dict[str, Any]:
    """A rule of rule and hub actions: on motion it sets its own and ``other``'s Private
    Boolean, pauses ``other``, logs, arms HSM for the night and exits before its last log."""
    return {
        "name": "Night guard",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {"set_private_boolean": False},
            {"set_private_boolean": True, "rule_ids": [other]},
            {"pause_rules": [other]},
            {"comment": "arm for the night, then stop"},
            {"log": "guard ran"},
            {"set_hsm": "armNight"},
            {"exit_rule": True},
            {"log": "never logged"},
        ],
    }
