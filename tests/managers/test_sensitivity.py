"""The sensitivity model's own rules, against the emulated hub (no hass): what it derives
and when it judges afresh."""

from __future__ import annotations

from typing import cast

from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.sensitivity import Reach
from hubitat_emulator import HubEmulator
from hubitat_emulator.scenes import SCENE_LOCKUP, SCENE_MOVIE
from hubitat_emulator.seed_specs import APP_HSM, RULE_GOODNIGHT, RULE_MOTION


async def test_what_the_model_derives(emu: HubEmulator, manager_hub: Hub) -> None:
    model = manager_hub.sensitivity
    lock = str(emu.find_device("Back Door Lock")["id"])
    activator = str(emu.find_device("Lock Up Activator")["id"])
    assert (await model.apps([str(APP_HSM)])).sensitive
    assert (await model.apps([str(RULE_GOODNIGHT)])).sensitive  # its text locks a door
    assert not (await model.apps([str(RULE_MOTION)])).sensitive
    scene = await model.apps([str(SCENE_LOCKUP)])
    assert scene.sensitive and lock in scene.devices
    assert not (await model.apps([str(SCENE_MOVIE)])).sensitive
    through = await model.devices([activator])
    assert through.sensitive and lock in through.devices and "Lock Up" in through.reasons[0]


async def test_an_app_or_hub_event_makes_the_model_judge_afresh(manager_hub: Hub) -> None:
    model = manager_hub.sensitivity
    kept = Reach(("kept",))
    model._app_cache["999"] = (1e18, kept)  # an answer kept "forever"
    cache = cast(StateCache, type("Live", (), {"app_events_seen": 0})())
    model.cache = cache
    model._refresh()
    model._app_cache["999"] = (1e18, kept)
    model._refresh()
    assert "999" in model._app_cache  # no event since: still good
    cache.app_events_seen = 1  # e.g. the hub reports an app changed
    model._refresh()
    assert "999" not in model._app_cache


def test_the_state_cache_counts_app_and_hub_events() -> None:
    from custom_components.hubitat_dev_tools.hub.events import HubEvent

    cache = StateCache(cast(HubClient, None))
    cache.apply(HubEvent(source="DEVICE", name="switch", value="on", device_id="1"))
    assert cache.app_events_seen == 0
    cache.apply(HubEvent(source="APP", name="ruleUpdated", value=None, app_id="142"))
    cache.apply(HubEvent(source="HUB", name="deviceCreated", value="7"))
    assert cache.app_events_seen == 2
