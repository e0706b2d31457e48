"""Rule authoring (``managers/automation/``, ``hub.rule_authoring``) on its own, no hass: the
"Between two dates" condition, written in the settings a live hub's rules store
(``startDateType``/``monthStart``/``dayStart``/``timeStart`` and the end's), read back equal to
the spec, shown in the rule text, and run by the emulated rule (across New Year too), with and
without times and negated; bad dates refused naming the part, nothing sent.

Moved from tests/tools/test_rule_dates.py (the tools' answers stay there: their summaries,
the spec and rule text hub_get_rule answers, and a refusal as an error result)."""

from __future__ import annotations

from datetime import datetime

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import HUB_TZ

from ..helpers.rule_dates import _pressed_at, _spec
from ..home_util import sent


async def test_a_between_dates_condition_is_built_read_back_and_run(
    emu: HubEmulator, authoring: Hub
) -> None:
    spec = _spec(emu, {"from": "12-20", "to": "1-5"})  # across New Year; 1-5 is 01-05
    made = await authoring.rule_authoring.create(spec, confirm=False, validate_only=False)
    app_id = str(made["app_id"])
    assert "Required Expression" in made["rule_text"]
    assert any("Between December 20 and January 5" in t for t in made["rule_text"])
    got = await authoring.rule_authoring.get(app_id)
    assert got["undecompiled"] == []
    assert got["spec"]["conditions"] == {"dates": {"from": "12-20", "to": "01-05"}}
    settings = emu.rule_machine.rules[int(app_id)].settings
    c = next(k[7:] for k, v in settings.items() if v == "Between two dates")
    assert (settings[f"startDateType{c}"], settings[f"monthStart{c}"]) == ("mm-dd", "12")
    assert (settings[f"dayEnd{c}"], settings.get(f"timeStart{c}")) == ("5", None)

    assert await _pressed_at(emu, datetime(2026, 12, 24, 20, 0, tzinfo=HUB_TZ)) == "on"
    assert await _pressed_at(emu, datetime(2027, 1, 5, 23, 0, tzinfo=HUB_TZ)) == "on"
    assert await _pressed_at(emu, datetime(2027, 1, 6, 0, 30, tzinfo=HUB_TZ)) == "off"
    assert await _pressed_at(emu, datetime(2027, 7, 4, 12, 0, tzinfo=HUB_TZ)) == "off"


async def test_dates_with_times_and_not(emu: HubEmulator, authoring: Hub) -> None:
    spec = _spec(emu, {"from": "10-31 15:00", "to": "10-31 23:00"})
    spec["conditions"] = {"not": spec["conditions"]}
    made = await authoring.rule_authoring.create(spec, confirm=False, validate_only=False)
    got = await authoring.rule_authoring.get(str(made["app_id"]))
    assert got["spec"]["conditions"] == {
        "not": {"dates": {"from": "10-31 15:00", "to": "10-31 23:00"}}
    }
    assert any(
        "NOT Between October 31 at 15:00 and October 31 at 23:00" in t for t in got["rule_text"]
    )
    assert await _pressed_at(emu, datetime(2026, 10, 31, 16, 0, tzinfo=HUB_TZ)) == "off"
    assert await _pressed_at(emu, datetime(2026, 10, 31, 12, 0, tzinfo=HUB_TZ)) == "on"


@pytest.mark.parametrize(
    ("dates", "where"),
    [
        ({"from": "13-01", "to": "12-31"}, "dates.from"),
        ({"from": "02-30", "to": "03-01"}, "dates.from"),
        ({"from": "12-20", "to": "12-25 24:00"}, "dates.to"),
        ({"from": "December 20", "to": "12-25"}, "dates.from"),
        ({"from": "12-20"}, "dates.to"),
    ],
)
async def test_bad_dates_are_refused_naming_the_part(
    emu: HubEmulator, authoring: Hub, dates: dict[str, str], where: str
) -> None:
    before = len(emu.requests)
    rules = set(emu.rule_machine.rules)
    with pytest.raises(ToolError) as refused:
        await authoring.rule_authoring.create(_spec(emu, dates), confirm=False, validate_only=False)
    assert refused.value.code == "invalid_request", str(refused.value)
    assert where in str(refused.value), str(refused.value)
    assert sent(emu, before) == [] and set(emu.rule_machine.rules) == rules
