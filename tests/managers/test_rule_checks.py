"""The rule checks (``managers/rule_checks.py``) on their own, no hass: each finding names the
rule, the evidence and the fix (and, as data, only those); the home summary names the rules
with findings; checking one app that is not a rule, or an unknown one, is refused. Rules and the
faults around them are made through the managers, over the emulated hub.

Moved from tests/tools/test_rule_checks.py (the checks are the manager's; the tool's allowlist
screening of findings stays there)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers import rule_checks
from custom_components.hubitat_dev_tools.managers.devices.admin import DeviceUpdate
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.rule_checks import Finding
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER

from ..home_util import dev_id


def _kinds(found: list[Finding], rule: str) -> set[str]:
    return {f.kind for f in found if f.rule == rule}


def _rule(motion: str, command: str, light: str, name: str) -> dict[str, Any]:
    trigger = {"device_id": motion, "attribute": "motion", "is": "active"}
    return {
        "name": name,
        "triggers": [trigger],
        "actions": [{"command": command, "device_ids": [light]}],
    }


async def _create(manager_hub: Hub, spec: dict[str, Any]) -> str:
    made = await manager_hub.rule_authoring.create(spec, confirm=False, validate_only=False)
    app_id: str = made["app_id"]
    return app_id


async def test_the_seeded_faults_are_found(manager_hub: Hub) -> None:
    found, checked, page = await manager_hub.rule_checks.check()
    assert checked >= 4 and found and page is None
    assert "never_runs" in _kinds(found, "Goodnight")
    assert {"broken", "errors", "restricted"} <= _kinds(found, "Leak Alarm")
    goodnight = next(f for f in found if f.rule == "Goodnight")
    assert "Night" in goodnight.evidence and goodnight.fix
    leak = next(f for f in found if f.kind == "errors")
    assert "NullPointerException" in leak.evidence
    # one rule: its page's markers too, and only its findings
    one, one_checked, one_page = await manager_hub.rule_checks.check(goodnight.app_id)
    assert {f.rule for f in one} == {"Goodnight"} and one_checked == 1
    assert one_page is not None and "broken_markers" in one_page
    # the owner's summaries point at them
    home = await manager_hub.home.summary(device_allowed=lambda _id: True, battery_threshold=20)
    named = {r["rule"]: r["kinds"] for r in home["rules_with_findings"]}
    assert "never_runs" in named["Goodnight"] and "broken" in named["Leak Alarm"]
    listed = await manager_hub.home.rules_with_findings()
    assert isinstance(listed, list)
    assert {r["rule"] for r in listed} >= {"Goodnight", "Leak Alarm"}


async def test_rules_made_through_the_managers(emu: HubEmulator, manager_hub: Hub) -> None:
    motion, porch = dev_id(emu, "Kitchen Motion"), dev_id(emu, "Porch Light")
    office = dev_id(emu, "Office Light")
    on = await _create(manager_hub, _rule(motion, "on", porch, "Porch on"))
    await _create(manager_hub, _rule(motion, "off", porch, "Porch off"))
    target = await _create(manager_hub, _rule(motion, "on", office, "Office on"))
    runner = _rule(motion, "on", office, "Runner")
    runner["actions"] = [{"run_rule": [target]}, {"set_variable": "guestCount", "value": 1}]
    await _create(manager_hub, runner)
    await manager_hub.apps.set_disabled(target, True, confirm=True)
    await manager_hub.devices.admin.update_device(office, DeviceUpdate(enabled=False))
    # the variable the Runner sets is deleted under it
    await manager_hub.variables.delete_variable("guestCount", force=True)
    found, _checked, _page = await manager_hub.rule_checks.check()
    assert "conflict" in _kinds(found, "Porch on") and "conflict" in _kinds(found, "Porch off")
    clash = next(f for f in found if f.rule == "Porch on")
    assert porch in clash.evidence and "Porch off" in clash.evidence
    assert porch in clash.devices  # the devices the evidence names, for the allowlist
    assert {"runs_inactive_rule", "variable_undefined"} <= _kinds(found, "Runner")
    assert "device_disabled" in _kinds(found, "Office on")
    # a rule without problems has no finding
    assert _kinds(found, "Motion Lights - Kitchen") <= {"restricted"}
    assert on in {f.app_id for f in found}


async def test_a_rule_whose_trigger_fired_without_it_running(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Motion Lights - Kitchen logs when it runs (the seeded story's days): kitchen motion
    twice more, with no line from the rule (the emulator does not run the seeded rule live),
    is a rule that did not run; a firing under ten minutes old may still be running."""
    checks = manager_hub.rule_checks
    motion = int(dev_id(emu, "Kitchen Motion"))
    found, _checked, _page = await checks.check()
    assert "not_running" not in {f.kind for f in found}  # the story: it ran
    for _ in range(2):
        emu.set_device_attribute(motion, "motion", "inactive")
        emu.set_device_attribute(motion, "motion", "active")
    emu.set_device_attribute(motion, "motion", "inactive")
    found, _checked, _page = await checks.check("140")
    assert "not_running" not in _kinds(found, "Motion Lights - Kitchen")  # too recent
    monkeypatch.setattr(rule_checks, "RUN_GRACE", timedelta(0))  # as if ten minutes passed
    found, _checked, _page = await checks.check("140")
    late = next(f for f in found if f.kind == "not_running")
    assert "fired 2 times" in late.evidence and "motion active" in late.evidence
    assert late.fix


async def test_one_rule_that_is_not_a_rule_is_refused(manager_hub: Hub) -> None:
    """Checking one app that is not a rule, or no app at all, is refused (and says which)."""
    with pytest.raises(ToolError) as not_rule:
        await manager_hub.rule_checks.check(str(APP_ANNOUNCER))
    assert not_rule.value.code == "invalid_request" and not_rule.value.subject == "not_rule"
    assert "is not a Rule Machine rule or Visual Rule" in str(not_rule.value)
    with pytest.raises(ToolError) as missing:
        await manager_hub.rule_checks.check("99999")
    assert missing.value.code == "not_found" and "has no app 99999" in str(missing.value)


async def test_a_finding_as_data_names_the_rule_the_evidence_and_the_fix(
    manager_hub: Hub,
) -> None:
    """A finding as the rule health answers it: the rule, its kind, the evidence and the fix
    (the devices it names are for the allowlist, not shown)."""
    found, _checked, _page = await manager_hub.rule_checks.check()
    goodnight = next(f for f in found if f.rule == "Goodnight")
    data = goodnight.as_dict()
    assert set(data) == {"app_id", "rule", "kind", "evidence", "fix"}
    assert data["rule"] == "Goodnight" and data["app_id"] == goodnight.app_id
    assert data["evidence"] == goodnight.evidence and data["fix"] == goodnight.fix
