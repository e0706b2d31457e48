"""The seeded home's Mode Manager (``state.mode_manager``; served by ``routes_modemanager``)."""

from __future__ import annotations

from typing import Any

from .model import HomeState
from .seed_specs import APP_MODE_MANAGER


def seed_mode_manager(state: HomeState) -> None:
    """The seeded home's Integrated triggers (they match the seeded modes' texts)."""
    phones = [d.id for d in state.devices.values() if d.label in ("Alice's Phone", "Bob's Phone")]
    mm = state.mode_manager
    mm.app_id = APP_MODE_MANAGER if APP_MODE_MANAGER in state.apps else 0
    mm.integrated_app_id = 65
    base: dict[str, Any] = {"triggerCondition": None, "deviceIds": []}
    mm.conditions = {
        "1": [
            {
                **base,
                "triggerType": "sunriseSunset",
                "triggerCondition": "afterSunrise",
                "minutesAfterSunrise": 15,
                "description": "At <b>15 minutes</b> after sunrise",
            }
        ],
        "2": [
            {
                **base,
                "triggerType": "sunriseSunset",
                "triggerCondition": "sunset",
                "description": "At sunset",
            }
        ],
        "3": [
            {**base, "triggerType": "timeOfDay", "timeOfDay": "22:30", "description": "At 10:30 PM"}
        ],
        "4": [
            {
                **base,
                "triggerType": "presence",
                "deviceIds": phones,
                "presenceSensors": phones,
                "presenceSensorEvent": "Everyone leaves",
                "description": "When all presence sensors are not present",
            }
        ],
    }
