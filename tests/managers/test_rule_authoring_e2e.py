"""Rule authoring (``managers/automation/``, ``hub.rule_authoring``) end to end on its own, no
hass: rules built on the emulated hub's Rule Machine pages, read back, changed and cleaned up. A
wide rule (every trigger kind, nested conditions, IF/ELSE, modes, variables, messages) reads
back as its spec; a build the pages refuse, or a cancelled one, leaves no rule behind; a patch
cannot bring in a device outside the allowlist the manager is given; an update that cannot be
built puts the rule back as it was, or, when that fails too, names the item backup that brings
it back and leaves it paused; a number attribute is not compared with text; local variables
are made on the actions page with the clicks the on-hub server makes, read back, checked before
anything is sent, and added by a patch in place. ``wide_spec`` is shared with other tests.

Moved from tests/tools/test_rule_authoring_e2e.py (the tools' answers stay there: a wide rule
created and read through hub_create_rule and hub_get_rule, a failed update as an error result,
and the device allowlist from the integration's options)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.rule_authoring import porch_spec
from ..helpers.rule_authoring_e2e import _rule_ids, assert_reads_back, wide_spec
from ..home_util import dev_id


async def _create(authoring: Hub, spec: dict[str, Any]) -> dict[str, Any]:
    """A rule built as hub_create_rule builds it (no device allowlist)."""
    return await authoring.rule_authoring.create(spec, confirm=False, validate_only=False)


async def _patch(authoring: Hub, app_id: str, patch: list[dict[str, Any]]) -> dict[str, Any]:
    """A rule changed by a JSON Patch, as hub_update_rule changes it (no device allowlist)."""
    return await authoring.rule_authoring.update(
        app_id, None, patch, confirm=False, validate_only=False
    )


def _writes(emu: HubEmulator) -> int:
    return len([r for r in emu.requests if r[0] != "GET"])


async def test_a_wide_rule_is_built_and_reads_back_as_its_spec(
    emu: HubEmulator, authoring: Hub
) -> None:
    spec = wide_spec(emu)
    made = await _create(authoring, spec)
    assert made["verified"] is True and made["name"] == "Office evening", made
    assert int(made["app_id"]) in _rule_ids(emu)
    assert_reads_back(await authoring.rule_authoring.get(str(made["app_id"])), spec)


async def test_a_build_the_pages_refuse_leaves_nothing_behind(
    emu: HubEmulator, authoring: Hub
) -> None:
    before = _rule_ids(emu)
    emu.rule_machine.hidden_fields = [r"delayMinute\.\d+"]  # this "firmware" has no such field
    with pytest.raises(ToolError) as refused:
        await _create(authoring, porch_spec(emu))
    message = str(refused.value)
    assert "rule.actions[3].delay" in message and "delayMinute" in message
    assert "was removed" in message
    assert _rule_ids(emu) == before  # the partial rule is gone


async def test_a_cancelled_build_is_removed(emu: HubEmulator, authoring: Hub) -> None:
    before = _rule_ids(emu)
    emu.faults.delay_paths = {"/installedapp/update/json": 0.05}
    task = asyncio.ensure_future(_create(authoring, porch_spec(emu)))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if _rule_ids(emu) - before:
            break
    assert _rule_ids(emu) - before, "the build never started"
    await asyncio.sleep(0.1)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    emu.faults.delay_paths = {}
    for _ in range(100):
        if _rule_ids(emu) == before:
            break
        await asyncio.sleep(0.02)
    assert _rule_ids(emu) == before


async def test_a_build_cancelled_while_the_hub_makes_the_rule_leaves_no_rule(
    emu: HubEmulator, authoring: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelled after the hub made the rule and before its answer arrived: the id never
    comes back, so the new rule (unnamed, not there before) is found under Rule Machine and
    removed."""
    before = _rule_ids(emu)
    rules = emu.rule_machine
    make = rules.create
    task: asyncio.Future[Any] | None = None

    def made_then_cancelled(namespace: str, parent: Any) -> Any:
        """The hub makes the rule; the call is cancelled before its answer arrives."""
        new_id = make(namespace, parent)
        assert task is not None
        task.cancel()
        return new_id

    monkeypatch.setattr(rules, "create", made_then_cancelled)
    task = asyncio.ensure_future(_create(authoring, porch_spec(emu)))
    with contextlib.suppress(asyncio.CancelledError):
        await task
    monkeypatch.setattr(rules, "create", make)
    assert _rule_ids(emu) == before


async def test_a_patch_cannot_bring_in_a_device_outside_the_allowlist(
    emu: HubEmulator, authoring: Hub
) -> None:
    spec = porch_spec(emu)
    created = await _create(authoring, spec)
    app_id = str(created["app_id"])
    allowed = {spec["triggers"][0]["device_id"], spec["actions"][1]["device_ids"][0]}
    other = dev_id(emu, "Kitchen Light")
    writes = _writes(emu)
    with pytest.raises(ToolError) as refused:
        await authoring.rule_authoring.update(
            app_id,
            None,
            [{"op": "replace", "path": "/actions/1/device_ids", "value": [other]}],
            confirm=False,
            validate_only=False,
            device_allowed=lambda device_id: device_id in allowed,
        )
    assert refused.value.code == "device_not_allowed", refused.value
    assert int(app_id) in _rule_ids(emu)  # untouched
    assert _writes(emu) == writes
    assert (await authoring.rule_authoring.get(app_id))["spec"]["actions"] == spec["actions"]


async def test_an_update_that_cannot_be_built_puts_the_rule_back_as_it_was(
    emu: HubEmulator, authoring: Hub
) -> None:
    app_id = str((await _create(authoring, porch_spec(emu)))["app_id"])
    before = _rule_ids(emu)
    was = await authoring.rule_authoring.get(app_id)
    emu.rule_machine.hidden_fields = [r"logmsg\.\d+"]  # only the new action needs it
    with pytest.raises(ToolError) as failed:
        await _patch(
            authoring, app_id, [{"op": "add", "path": "/actions/-", "value": {"log": "x"}}]
        )
    emu.rule_machine.hidden_fields = []
    assert f"The rule (app {app_id}) was put back as it was" in str(failed.value)
    assert _rule_ids(emu) == before
    still = await authoring.rule_authoring.get(app_id)
    assert still["spec"] == was["spec"] and still["paused"] is False
    assert still["undecompiled"] == []


async def test_an_update_whose_put_back_fails_names_the_backup_that_brings_it_back(
    emu: HubEmulator, authoring: Hub
) -> None:
    app_id = str((await _create(authoring, porch_spec(emu)))["app_id"])
    emu.rule_machine.hidden_fields = [r"delayMinute\.\d+"]  # the old rule needs it too
    with pytest.raises(ToolError) as failed:
        await _patch(
            authoring,
            app_id,
            [{"op": "replace", "path": "/actions/3/delay", "value": {"minutes": 10}}],
        )
    emu.rule_machine.hidden_fields = []
    message = str(failed.value)
    assert f"The rule (app {app_id}) could not be put back as it was" in message
    assert "item backup hdt-backup_installedapp-" in message, message
    assert (await authoring.rule_authoring.get(app_id))["paused"] is True


async def test_a_number_attribute_is_not_compared_with_text(
    emu: HubEmulator, authoring: Hub
) -> None:
    sensor = dev_id(emu, "Dining Room Sensor")
    rule = {
        **porch_spec(emu),
        "triggers": [{"device_id": sensor, "attribute": "temperature", "op": "eq", "value": "hot"}],
    }
    writes = _writes(emu)
    with pytest.raises(ToolError) as refused:
        await authoring.rule_authoring.create(rule, confirm=False, validate_only=True)
    assert "is a number" in str(refused.value), refused.value
    assert _writes(emu) == writes


async def test_local_variables_are_made_on_the_actions_page_and_read_back(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion = dev_id(emu, "Office Motion")
    spec: dict[str, Any] = {
        "name": "Count office visits",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "local_variables": [
            {"name": "visits", "type": "integer", "value": "0"},
            {"name": "lastNote", "type": "string", "value": "none"},
            {"name": "armed", "type": "boolean", "value": True},
        ],
        "conditions": {"variable": "armed", "op": "eq", "value": "true"},
        "actions": [{"set_variable": "visits", "value": 1}],
    }
    app_id = int((await _create(authoring, spec))["app_id"])
    model = emu.rule_machine.rules[app_id]
    assert model.local.variables == {
        "visits": {"type": "integer", "value": 0},
        "lastNote": {"type": "string", "value": "none"},
        "armed": {"type": "boolean", "value": True},
    }
    assert model.settings["xVarV.1"] == "visits"
    got = await authoring.rule_authoring.get(str(app_id))
    assert got["spec"]["local_variables"] == [
        {"name": "armed", "type": "boolean", "value": True},
        {"name": "lastNote", "type": "string", "value": "none"},
        {"name": "visits", "type": "integer", "value": 0},
    ]
    # the clicks and writes are the ones the on-hub server's live probe makes
    clicks = [c for c in emu.state.dev.clicks if c.get("name") == "moreVar"]
    assert len(clicks) == 3 and all(c.get("stateAttribute") == "moreVar" for c in clicks)


async def test_local_variables_are_checked_before_anything_is_sent(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion = dev_id(emu, "Office Motion")
    base: dict[str, Any] = {
        "name": "Bad locals",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"log": "x"}],
    }
    before = {a.id for a in emu.home.state.apps.values()}
    writes = _writes(emu)
    cases: list[tuple[Any, str]] = [
        ([{"name": "1st", "type": "integer", "value": 1}], "start with a letter"),
        ([{"name": "a", "type": "date", "value": "x"}], "must be one of"),
        ([{"name": "a", "type": "datetime", "value": "x"}], "UTC offset"),
        ([{"name": "a", "type": "integer", "value": 1.5}], "whole number"),
        ([{"name": "a", "type": "bigdecimal", "value": "nan"}], "finite"),
        ([{"name": "a", "type": "integer", "value": True}], "not true/false"),
        ([{"name": "a", "type": "boolean", "value": "yes"}], "true or false"),
        ([{"name": "a", "type": "string"}], "start value"),
        (
            [
                {"name": "a", "type": "string", "value": "x"},
                {"name": "A", "type": "string", "value": "y"},
            ],
            "given twice",
        ),
        ([{"name": "guestCount", "type": "integer", "value": 1}], "also a hub variable"),
    ]
    for locals_, words in cases:
        with pytest.raises(ToolError) as refused:
            await _create(authoring, {**base, "local_variables": locals_})
        assert words in str(refused.value), (locals_, refused.value)
    with pytest.raises(ToolError) as trig:
        await _create(
            authoring,
            {
                **base,
                "triggers": [{"variable": "n", "op": "gt", "value": 1}],
                "local_variables": [{"name": "n", "type": "integer", "value": 0}],
            },
        )
    assert "does not trigger" in str(trig.value)
    assert {a.id for a in emu.home.state.apps.values()} == before
    assert _writes(emu) == writes


async def test_a_patch_adds_a_local_variable_and_the_rebuilt_rule_has_it(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion = dev_id(emu, "Office Motion")
    spec: dict[str, Any] = {
        "name": "Office counter",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "local_variables": [{"name": "visits", "type": "integer", "value": 0}],
        "actions": [{"set_variable": "visits", "value": 1}],
    }
    app_id = str((await _create(authoring, spec))["app_id"])
    patch: list[dict[str, Any]] = [
        {
            "op": "add",
            "path": "/local_variables/-",
            "value": {"name": "limit", "type": "bigdecimal", "value": "2.5"},
        },
        {"op": "replace", "path": "/actions/0/set_variable", "value": "limit"},
    ]
    updated = await _patch(authoring, app_id, patch)
    assert updated["edited_in_place"] is True, updated
    assert updated["app_id"] == app_id
    assert emu.rule_machine.rules[int(app_id)].local.variables["limit"]["type"] == "bigdecimal"
    got = await authoring.rule_authoring.get(app_id)
    assert got["spec"]["local_variables"] == [
        {"name": "limit", "type": "bigdecimal", "value": 2.5},
        {"name": "visits", "type": "integer", "value": 0},
    ]
    assert got["spec"]["actions"] == [{"set_variable": "limit", "value": 1}]
