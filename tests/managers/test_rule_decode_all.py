"""Rule authoring's read of a rule (``managers/automation/``, ``hub.rule_authoring.get``) on its
own, no hass: every part a rule's page shows is accounted for. Each trigger, condition,
restriction and action row the hub's rule text lists is in the spec, or listed in
``undecompiled`` with the hub's own line for it (and left as a placeholder in the spec, so a
change cannot drop it silently); the seeded rules' settings say what their text says, their
broken parts stay visible (the rule checks find them) and they subscribe to their triggers;
a change that would drop an unread part is refused with nothing sent, one to a part read whole
keeps it; a rule built from a wide spec reads back every part.

Moved from tests/tools/test_rule_decode_all.py (the tools' answers stay there: a seeded rule and
a built one read through hub_get_rule, hub_get_rule_health's verdict, hub_get_app's
subscriptions, and hub_update_rule's refusal with its hint and its answer)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_dev import GONE_HALL_SIREN, GONE_LEAK_SENSOR
from hubitat_emulator.seed_specs import RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..helpers.rule_decode_all import _norm, assert_accounted, wide_spec_and_a_wait
from ..home_util import dev_id

# ------------------------------------------------------------ the seeded rules


@pytest.mark.parametrize("app_id", [RULE_MOTION, RULE_LEAK, RULE_GOODNIGHT])
async def test_every_seeded_rule_part_is_read_or_listed(
    emu: HubEmulator, manager_hub: Hub, app_id: int
) -> None:
    data = await manager_hub.rule_authoring.get(str(app_id))
    assert_accounted(data)
    # the restriction to modes Day and Evening: no form in the spec, so listed with its text
    (restriction,) = [u for u in data["undecompiled"] if u["part"].startswith("restrictions")]
    assert restriction["text"] == "only in modes Day, Evening"
    assert data["spec"]["restrictions"] == [{"unknown": restriction["why"]}]


async def test_goodnight_reads_its_mode_trigger_and_both_actions(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    data = await manager_hub.rule_authoring.get(str(RULE_GOODNIGHT))
    spec = data["spec"]
    assert spec["triggers"] == [{"mode": ["Night"]}]
    off, lock = spec["actions"]
    assert off["command"] == "off" and dev_id(emu, "Kitchen Light") in off["device_ids"]
    assert all("lights" in emu.state.devices[int(d)].tags for d in off["device_ids"])
    assert lock == {"command": "lock", "device_ids": [dev_id(emu, "Front Door Lock")]}
    assert [u["part"] for u in data["undecompiled"]] == ["restrictions[0]"]
    # the hub's own text is kept as it was
    text = [_norm(t) for t in data["rule_text"]]
    assert "Off: all lights" in text and "Lock: Front Door" in text
    assert "Trigger Events: Mode becomes Night" in text


async def test_motion_lights_reads_whole_but_its_restriction(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    data = await manager_hub.rule_authoring.get(str(RULE_MOTION))
    spec = data["spec"]
    motion, light = dev_id(emu, "Kitchen Motion"), dev_id(emu, "Kitchen Light")
    assert spec["triggers"] == [{"device_id": motion, "attribute": "motion", "is": "active"}]
    assert spec["actions"] == [
        {"command": "on", "device_ids": [light]},
        {
            "wait": [
                {
                    "device_id": motion,
                    "attribute": "motion",
                    "is": "inactive",
                    "stays_for": {"minutes": 5},
                }
            ]
        },
    ]
    assert spec["local_variables"] == [{"name": "timeout", "type": "integer", "value": 300}]
    assert [u["part"] for u in data["undecompiled"]] == ["restrictions[0]"]


async def test_leak_alarm_keeps_its_broken_parts_and_names_the_siren_undecoded(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    data = await manager_hub.rule_authoring.get(str(RULE_LEAK))
    spec = data["spec"]
    # the trigger's sensor was deleted: its id stays in the settings, BROKEN on the page
    assert spec["triggers"] == [
        {"device_id": str(GONE_LEAK_SENSOR), "attribute": "water", "is": "wet"}
    ]
    assert str(GONE_LEAK_SENSOR) not in {str(d) for d in emu.state.devices}
    assert GONE_HALL_SIREN not in emu.state.devices
    siren, notify = spec["actions"]
    assert set(siren) == {"unknown"} and "getSiren" in siren["unknown"]
    assert notify == {
        "notify": "Water leak in the basement",
        "device_ids": [dev_id(emu, "Family Phone")],
    }
    by_part = {u["part"]: u for u in data["undecompiled"]}
    assert by_part["actions[0]"]["text"] == "Siren: **BROKEN** Hall Siren"
    assert set(by_part) == {"actions[0]", "restrictions[0]"}
    # the faults an owner must find are still there
    assert len(data["broken_markers"]) == 2
    found, _checked, page = await manager_hub.rule_checks.check(str(RULE_LEAK))
    assert found  # not healthy
    assert page is not None and page["compiled_broken"] is True


async def test_seeded_rules_subscribe_to_their_triggers(emu: HubEmulator, manager_hub: Hub) -> None:
    want = {RULE_MOTION: ["motion"], RULE_LEAK: ["water"], RULE_GOODNIGHT: ["mode"]}
    for app_id, subscriptions in want.items():
        app = await manager_hub.apps.get_app(str(app_id), None, include_state=True)
        assert app["subscriptions"] == subscriptions, app_id
    # the settings an owner edits on the generic page are where they were
    names = {i["name"] for i in emu.state.dev.internals[RULE_MOTION].inputs}
    assert {"origLabel", "tDev0", "logging", "modesRestrict"} <= names


async def test_a_change_that_would_drop_an_unread_part_is_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    authoring = manager_hub.rule_authoring
    app_id = str(RULE_GOODNIGHT)
    # removing the restriction (no form in the spec): refused, nothing sent
    before = len(emu.requests)
    dropped = [{"op": "remove", "path": "/restrictions/0"}]
    with pytest.raises(ToolError) as refused:
        await authoring.update(app_id, None, dropped, confirm=True, validate_only=False)
    assert refused.value.code == "not_supported" and "rule.restrictions" in str(refused.value)
    assert refused.value.extra is not None and refused.value.extra["page"] == "mainPage"
    assert [p for m, p in emu.requests[before:] if m != "GET"] == []
    # a change to a part read whole keeps the restriction as it is, and the app id
    patch = [{"op": "replace", "path": "/name", "value": "Goodnight 2"}]
    done = await authoring.update(app_id, None, patch, confirm=True, validate_only=False)
    assert done["app_id"] == app_id and done["edits"]["name"] == "changed"
    again = await authoring.get(app_id)
    assert again["spec"]["name"] == "Goodnight 2"
    assert [u["part"] for u in again["undecompiled"]] == ["restrictions[0]"]


# ------------------------------------------------------------ rules the authoring built


async def test_a_rule_built_from_a_wide_spec_reads_back_every_part(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    spec = wide_spec_and_a_wait(emu)
    made = await manager_hub.rule_authoring.create(spec, confirm=False, validate_only=False)
    data = await manager_hub.rule_authoring.get(str(made["app_id"]))
    assert data["undecompiled"] == []
    assert data["spec"]["actions"] == spec["actions"]
    assert_accounted(data)
