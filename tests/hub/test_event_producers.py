"""The library's reader of the producer a hub records on a device event (``hub/events.py``
``parse_produced_by``), no hass: the hub's link to the app that called the command, a
missing producer, and another named producer.

Moved from tests/tools/test_event_cause.py (test_produced_by_and_times_parse: the tool's
reading of at= stays there; the event cause manager is tested in
tests/managers/test_event_cause.py)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.hub.events import parse_produced_by


def test_produced_by_parses() -> None:
    link = "<a href='/installedapp/configure/583' target='_blank'>HomeKit Integration</a>"
    found = parse_produced_by(link)
    assert found is not None and (found.kind, found.id, found.name) == (
        "app",
        "583",
        "HomeKit Integration",
    )
    assert parse_produced_by("null") is None and parse_produced_by(None) is None
    other = parse_produced_by("Dashboard")
    assert other is not None and other.kind == "other"
