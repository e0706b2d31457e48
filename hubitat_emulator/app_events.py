"""Per-app event history: what an app or rule logged as its own events.

``GET /installedapp/eventsJson/<id>`` is what the hub UI's app events page reads
(vue-hub2.min.js: it shows ``name``, ``descriptionText`` (HTML), ``value`` and ``date``;
the on-hub server's hub_list_device_events appId form reads the same four). Newest first; an unknown
app id answers 404 (as ``/installedapp/json/<id>``); served by ``routes_app_events.py``. Seeded
for a few rules; ``add_app_event`` records more (tests, or a rule that runs).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .model import AppEvent, HomeState
from .seed_specs import RULE_LEAK


def add_app_event(
    state: HomeState, app_id: int, name: str, value: str, description: str, when: datetime
) -> None:
    """Record an event of app ``app_id`` (kept oldest first)."""
    state.apps[app_id].events.append(AppEvent(name, value, description, when))


def seed_app_events(state: HomeState, now: datetime) -> None:
    """What the story (story.py) does not make: Leak Alarm was paused once. The rules that
    run record their own events as the story plays them."""
    for app_id, rows in ((RULE_LEAK, [(600, "ruleState", "paused", "Leak Alarm paused")]),):
        if app_id in state.apps:
            for minutes, name, value, text in rows:
                add_app_event(state, app_id, name, value, text, now - timedelta(minutes=minutes))
