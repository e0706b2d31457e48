"""The owner's porch rule as a rule spec (over given devices, or the seeded home's Kitchen Motion
and Porch Light), the rule most authoring tests build: managers/test_rule_authoring.py,
managers/test_rule_authoring_e2e.py, managers/test_rule_raw_pages.py,
tools/test_rule_authoring.py, tools/test_rule_authoring_e2e.py, tools/test_rule_raw_pages.py,
tools/test_honest_answers.py, tools/test_snapshot_restore.py, glue/test_snapshots.py and
e2e/test_rule_scenarios.py.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator

from ..home_util import dev_id


def porch_spec(emu: HubEmulator) -> dict[str, Any]:
    """The porch rule over the seeded home's Kitchen Motion and Porch Light."""
    return porch_rule(dev_id(emu, "Kitchen Motion"), dev_id(emu, "Porch Light"))


def porch_rule(motion: str, light: str) -> dict[str, Any]:
    """The owner's porch rule: on with motion after sunset, off 5 minutes after it stops."""
    return {
        "name": "Porch light at night",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "conditions": {"between": {"from": "sunset", "to": "sunrise"}},
        "actions": [
            {"cancel_delays": True},
            {"command": "on", "device_ids": [light]},
            {"wait": [{"device_id": motion, "attribute": "motion", "is": "inactive"}]},
            {"delay": {"minutes": 5}, "cancelable": True},
            {"command": "off", "device_ids": [light]},
        ],
    }
