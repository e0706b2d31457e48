"""Rule authoring (``managers/automation/``, ``hub.rule_authoring``) on its own, no hass: Rule
Machine's Periodic Schedule at every frequency it offers, a dated one-shot Certain Time and
conditional triggers, each built through the emulated rule's pages, read back equal, edited in
place (the same app id) and run by the emulated rule on the emulated clock; the fields the
periodic sub-page holds, the dry run's rule text and plan, the schema and the parser agreeing,
and bad specs refused before anything is sent.

Moved from tests/tools/test_rule_triggers_periodic.py (the tools' answers stay there: their
summaries, the app id and edited_in_place they answer, a refusal as an error result and a dry
run's summary)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.rule_triggers_periodic import _at, _fires_at, _light, _spec
from ..home_util import dev_id, sent


async def _create(authoring: Hub, spec: dict[str, Any]) -> dict[str, Any]:
    """A rule built as hub_create_rule builds it (no device allowlist)."""
    return await authoring.rule_authoring.create(spec, confirm=False, validate_only=False)


async def _update(authoring: Hub, app_id: str, spec: dict[str, Any]) -> dict[str, Any]:
    """A rule changed to a whole spec, as hub_update_rule changes it."""
    return await authoring.rule_authoring.update(
        app_id, spec, None, confirm=False, validate_only=False
    )


# (trigger, start, when it runs, the edited trigger, start, when that runs)
CASES: list[tuple[str, dict[str, Any], datetime, datetime, dict[str, Any], datetime, datetime]] = [
    (
        "seconds",
        {"periodic": {"frequency": "seconds", "every": 5}},
        _at(3, 10, 0, 1),
        _at(3, 10, 0, 5),
        {"periodic": {"frequency": "seconds", "every": 20}},
        _at(3, 10, 0, 21),
        _at(3, 10, 0, 40),
    ),
    (
        "minutes at minutes",
        {"periodic": {"frequency": "minutes", "minutes": [10, 40]}},
        _at(3, 10, 11),
        _at(3, 10, 40),
        {"periodic": {"frequency": "minutes", "minutes": [5]}},
        _at(3, 10, 41),
        _at(3, 11, 5),
    ),
    (
        "hourly every",
        {"periodic": {"frequency": "hourly", "every": 3, "at": "01:20"}},
        _at(3, 2, 0),
        _at(3, 4, 20),
        {"periodic": {"frequency": "hourly", "every": 4, "at": "00:30"}},
        _at(3, 2, 0),
        _at(3, 4, 30),
    ),
    (
        "hourly at hours",
        {"periodic": {"frequency": "hourly", "hours": [6, 18], "minute": 15}},
        _at(3, 7, 0),
        _at(3, 18, 15),
        {"periodic": {"frequency": "hourly", "hours": [9], "minute": 0}},
        _at(3, 7, 0),
        _at(3, 9, 0),
    ),
    (
        "daily every n days",
        {"periodic": {"frequency": "daily", "every": 2, "at": "07:30"}},
        _at(3, 8, 0),
        _at(5, 7, 30),  # the 1st, 3rd, 5th ... of the month
        {"periodic": {"frequency": "daily", "every": 3, "at": "06:00"}},
        _at(3, 8, 0),
        _at(4, 6, 0),  # the 1st, 4th, 7th ...
    ),
    (
        "daily weekdays",
        {"periodic": {"frequency": "daily", "weekdays_only": True, "at": "07:30"}},
        _at(4, 8, 0),  # a Friday
        _at(7, 7, 30),  # Monday
        {"periodic": {"frequency": "daily", "weekdays_only": True, "at": "06:45"}},
        _at(4, 8, 0),
        _at(7, 6, 45),
    ),
    (
        "daily days of month",
        {"periodic": {"frequency": "daily", "days_of_month": [1, 15], "at": "07:30"}},
        _at(3, 8, 0),
        _at(15, 7, 30),
        {"periodic": {"frequency": "daily", "days_of_month": [4], "at": "07:30"}},
        _at(3, 8, 0),
        _at(4, 7, 30),
    ),
    (
        "weekly",
        {"periodic": {"frequency": "weekly", "days": ["monday", "friday"], "at": "07:30"}},
        _at(3, 8, 0),  # a Thursday
        _at(4, 7, 30),
        {"periodic": {"frequency": "weekly", "days": ["sunday"], "at": "09:00"}},
        _at(3, 8, 0),
        _at(6, 9, 0),
    ),
    (
        "monthly day",
        {"periodic": {"frequency": "monthly", "day": 15, "every_months": 2, "at": "09:30"}},
        _at(3, 8, 0),
        _at(15, 9, 30, month=1),  # January, March ...
        {"periodic": {"frequency": "monthly", "day": 10, "every_months": 1, "at": "09:30"}},
        _at(3, 8, 0),
        _at(10, 9, 30),
    ),
    (
        "monthly nth weekday",
        {
            "periodic": {
                "frequency": "monthly",
                "week": "second",
                "weekday": "monday",
                "every_months": 1,
                "at": "08:00",
            }
        },
        _at(3, 8, 0),
        _at(14, 8, 0),
        {
            "periodic": {
                "frequency": "monthly",
                "week": "third",
                "weekday": "friday",
                "every_months": 1,
                "at": "08:00",
            }
        },
        _at(3, 8, 0),
        _at(18, 8, 0),
    ),
    (
        "yearly",
        {
            "periodic": {
                "frequency": "yearly",
                "week": "first",
                "weekday": "monday",
                "month": "december",
                "at": "08:00",
            }
        },
        _at(3, 8, 0),
        _at(7, 8, 0),
        {
            "periodic": {
                "frequency": "yearly",
                "week": "last",
                "weekday": "friday",
                "month": "december",
                "at": "09:00",
            }
        },
        _at(3, 8, 0),
        _at(25, 9, 0),
    ),
    (
        "cron",
        {"periodic": {"frequency": "cron", "cron": "0 0 12 ? * MON-FRI"}},
        _at(4, 12, 30),  # a Friday after noon
        _at(7, 12, 0),
        {"periodic": {"frequency": "cron", "cron": "0 30 6 * * ?"}},
        _at(4, 12, 30),
        _at(5, 6, 30),
    ),
    (
        "dated time",
        {"time": "07:30", "date": "2026-12-10"},
        _at(3, 8, 0),
        _at(10, 7, 30),
        {"time": "18:00", "date": "2026-12-05"},
        _at(3, 8, 0),
        _at(5, 18, 0),
    ),
]


@pytest.mark.parametrize(
    ("trigger", "start", "due", "edited", "start2", "due2"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
async def test_a_trigger_is_built_read_back_edited_and_run(
    emu: HubEmulator,
    authoring: Hub,
    trigger: dict[str, Any],
    start: datetime,
    due: datetime,
    edited: dict[str, Any],
    start2: datetime,
    due2: datetime,
) -> None:
    made = await _create(authoring, _spec(emu, trigger))
    app_id = str(made["app_id"])
    got = await authoring.rule_authoring.get(app_id)
    assert got["undecompiled"] == [], got
    assert got["spec"]["triggers"] == [trigger]
    await _fires_at(emu, start, due)

    updated = await _update(authoring, app_id, _spec(emu, edited))
    assert updated["app_id"] == app_id and updated["edited_in_place"] is True
    got = await authoring.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["triggers"] == [edited], got
    await _fires_at(emu, start2, due2)


async def test_the_periodic_sub_page_holds_the_fields_the_hub_ui_writes(
    emu: HubEmulator, authoring: Hub
) -> None:
    weekly = {"periodic": {"frequency": "weekly", "days": ["monday", "friday"], "at": "07:30"}}
    made = await _create(authoring, _spec(emu, weekly))
    s = emu.rule_machine.rules[int(made["app_id"])].settings
    n = next(k[6:] for k, v in s.items() if k.startswith("tCapab") and v == "Periodic Schedule")
    assert s[f"whichPeriod{n}"] == "Weekly"
    assert sorted(s[f"selectDoWC{n}"]) == ["Friday", "Monday"]
    assert s[f"startingWC{n}"].startswith("2000-01-01T07:30:00.000")
    assert any("Periodic Schedule: every Monday, Friday at 7:30 AM" in t for t in made["rule_text"])


async def test_every_minutes_written_as_periodic_reads_back_as_every(
    emu: HubEmulator, authoring: Hub
) -> None:
    trigger = {"periodic": {"frequency": "minutes", "every": 15}}
    made = await _create(authoring, _spec(emu, trigger))
    got = await authoring.rule_authoring.get(str(made["app_id"]))
    assert got["spec"]["triggers"] == [{"every": {"minutes": 15}}]
    await _fires_at(emu, _at(3, 10, 1), _at(3, 10, 15))


async def test_a_dated_time_fires_once(emu: HubEmulator, authoring: Hub) -> None:
    made = await _create(authoring, _spec(emu, {"time": "07:30", "date": "2026-12-10"}))
    s = emu.rule_machine.rules[int(made["app_id"])].settings
    assert any(
        str(v).startswith("2026-12-10T07:30:00.000") for k, v in s.items() if k.startswith("atTime")
    )
    await _fires_at(emu, _at(9, 8, 0), _at(10, 7, 30))
    emu.run_command(int(dev_id(emu, "Office Light")), "off", [])
    await emu.clock.advance(timedelta(days=2).total_seconds())
    assert _light(emu) == "off"  # not the next day again


async def test_a_conditional_trigger_runs_only_when_its_condition_holds(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion, lamp = dev_id(emu, "Office Motion"), dev_id(emu, "Porch Light")
    gate = {"device_id": lamp, "attribute": "switch", "is": "on"}
    trigger = {"device_id": motion, "attribute": "motion", "is": "active", "only_if": gate}
    made = await _create(authoring, _spec(emu, trigger))
    app_id = str(made["app_id"])
    got = await authoring.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["triggers"] == [trigger], got
    assert "conditions" not in got["spec"]  # bound to the trigger, not the Required Expression
    s = emu.rule_machine.rules[int(app_id)].settings
    n = next(k[6:] for k, v in s.items() if k.startswith("tCapab") and v == "Motion")
    assert s[f"isCondTrig.{n}"] is True and s[f"condTrig.{n}"].isdigit()

    async def moved(porch: str) -> str:
        emu.run_command(int(dev_id(emu, "Office Light")), "off", [])
        emu.run_command(int(lamp), porch, [])
        emu.set_device_attribute(int(motion), "motion", "inactive")
        emu.set_device_attribute(int(motion), "motion", "active")
        await emu.clock.settle()
        return _light(emu)

    assert await moved("off") == "off"
    assert await moved("on") == "on"

    # edited in place: a conditional weekly schedule gated on the porch light being off
    edited = {
        "periodic": {"frequency": "weekly", "days": ["friday"], "at": "07:30"},
        "only_if": {"not": gate},
    }
    updated = await _update(authoring, app_id, _spec(emu, edited))
    assert updated["app_id"] == app_id
    got = await authoring.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["triggers"] == [edited], got
    emu.run_command(int(lamp), "on", [])
    emu.run_command(int(dev_id(emu, "Office Light")), "off", [])
    emu.clock.set(_at(3, 8, 0))
    await emu.clock.advance(timedelta(days=1).total_seconds())  # Friday 07:30 passes
    assert _light(emu) == "off"  # the porch light was on: let go
    emu.run_command(int(lamp), "off", [])
    await _fires_at(emu, _at(5, 8, 0), _at(11, 7, 30))


@pytest.mark.parametrize(
    ("trigger", "where"),
    [
        ({"periodic": {"frequency": "fortnightly", "every": 2}}, "periodic.frequency"),
        ({"periodic": {"frequency": "weekly", "days": ["funday"], "at": "07:00"}}, "days[0]"),
        ({"periodic": {"frequency": "weekly", "days": ["monday"]}}, "needs at"),
        ({"periodic": {"frequency": "seconds", "every": 7}}, "periodic.every"),
        ({"periodic": {"frequency": "cron", "cron": "0 0 12 * *"}}, "has 5 fields"),
        ({"periodic": {"frequency": "cron", "cron": "0 0 25 * * ?"}}, "hour field"),
        ({"periodic": {"frequency": "cron", "cron": "0 0 12 * * MON"}}, "exactly one"),
        (
            {
                "periodic": {
                    "frequency": "monthly",
                    "day": 15,
                    "week": "first",
                    "weekday": "monday",
                    "every_months": 1,
                    "at": "08:00",
                }
            },
            "two different monthly",
        ),
        ({"time": "07:30", "date": "2026-02-30"}, "triggers[0].date"),
        (
            {"time": "07:30", "only_if": {"any": [{"mode": ["Night"]}, {"mode": ["Day"]}]}},
            "only_if",
        ),
    ],
)
async def test_bad_triggers_are_refused_and_nothing_changes(
    emu: HubEmulator, authoring: Hub, trigger: dict[str, Any], where: str
) -> None:
    made = await _create(authoring, _spec(emu, {"time": "06:00"}))
    app_id = str(made["app_id"])
    before_settings = dict(emu.rule_machine.rules[int(app_id)].settings)
    before = len(emu.requests)
    with pytest.raises(ToolError) as created:
        await _create(authoring, _spec(emu, trigger))
    assert where in str(created.value), str(created.value)
    with pytest.raises(ToolError) as updated:
        await _update(authoring, app_id, _spec(emu, trigger))
    assert where in str(updated.value), str(updated.value)
    assert sent(emu, before) == []
    assert emu.rule_machine.rules[int(app_id)].settings == before_settings


def test_the_schema_takes_what_the_parser_takes() -> None:
    import jsonschema  # type: ignore[import-untyped]

    from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
    from custom_components.hubitat_dev_tools.managers.automation.schema import SPEC_SCHEMA

    validator = jsonschema.Draft202012Validator(SPEC_SCHEMA)
    gate = {"not": {"device_id": "3", "attribute": "switch", "is": "on"}}
    triggers = [t for c in CASES for t in (c[1], c[4])]
    triggers += [{**t, "only_if": gate} for t in triggers[:4]]
    for trigger in triggers:
        spec = {"name": "x", "triggers": [trigger], "actions": [{"log": "x"}]}
        assert not list(validator.iter_errors(spec)), trigger
        parsed = parse_spec(spec)
        assert parse_spec(parsed.as_dict()).as_dict() == parsed.as_dict()
        assert parsed.as_dict()["triggers"] == [trigger]
    for bad in (
        {"periodic": {"frequency": "fortnightly"}},
        {"periodic": {"frequency": "weekly", "days": ["monday"]}},
        {"time": "07:30", "date": "25-12-2026"},
    ):
        spec = {"name": "x", "triggers": [bad], "actions": [{"log": "x"}]}
        assert list(validator.iter_errors(spec)), bad


async def test_the_preview_says_what_the_triggers_do(emu: HubEmulator, authoring: Hub) -> None:
    spec = _spec(
        emu,
        {
            "periodic": {
                "frequency": "yearly",
                "week": "last",
                "weekday": "friday",
                "month": "june",
                "at": "18:00",
            }
        },
    )
    spec["triggers"].append({"time": "07:30", "date": "2027-01-10", "only_if": {"mode": ["night"]}})
    before = len(emu.requests)
    result = await authoring.rule_authoring.create(spec, confirm=False, validate_only=True)
    assert result["valid"] is True and result["sent"] is False
    text = [line.strip() for line in result["rule_text"]]
    assert "On the Last Friday of June at 18:00" in text
    assert "When time is 07:30 on 2027-01-10 (once) only if ( Mode is Night )" in text
    assert any("condTrig.{N} = {C}" in s for s in result["plan"]["steps"])
    assert sent(emu, before) == []  # a dry run sends nothing


@pytest.mark.parametrize(
    "gate",
    [
        {"mode": ["Night"]},
        {"between": {"from": "sunset", "to": "07:00"}},
        {"not": {"dates": {"from": "12-24", "to": "12-26"}}},
    ],
)
async def test_a_conditional_trigger_takes_the_condition_vocabulary(
    emu: HubEmulator, authoring: Hub, gate: dict[str, Any]
) -> None:
    button = dev_id(emu, "Bedside Button")
    trigger = {"button_device_id": button, "button": 1, "event": "pushed", "only_if": gate}
    spec = _spec(emu, trigger)
    spec["triggers"].insert(0, {"periodic": {"frequency": "seconds", "every": 30}})
    spec["conditions"] = {"mode": ["Day", "Night", "Evening", "Away"]}
    made = await _create(authoring, spec)
    got = await authoring.rule_authoring.get(str(made["app_id"]))
    assert got["undecompiled"] == [], got
    assert got["spec"]["triggers"] == spec["triggers"]
    assert got["spec"]["conditions"] == spec["conditions"]
