"""The rule manager's make/read/update calls the managers' rule-action tests go through, for
managers/test_rule_actions_more.py and managers/test_rule_conditions_more.py.
"""

from __future__ import annotations

from typing import Any

from custom_components.hubitat_dev_tools.managers.hub import Hub


async def _made(authoring: Hub, spec: dict[str, Any]) -> str:
    made = await authoring.rule_authoring.create(spec, confirm=False, validate_only=False)
    assert made["verified"] is True, made
    return str(made["app_id"])


async def _get(authoring: Hub, app_id: str) -> dict[str, Any]:
    got = await authoring.rule_authoring.get(app_id)
    assert got["undecompiled"] == [], got
    return got


async def _read(authoring: Hub, app_id: str) -> dict[str, Any]:
    spec: dict[str, Any] = (await _get(authoring, app_id))["spec"]
    return spec


async def _updated(authoring: Hub, app_id: str, spec: dict[str, Any]) -> None:
    done = await authoring.rule_authoring.update(
        app_id, spec, None, confirm=False, validate_only=False
    )
    assert done["app_id"] == app_id and done["edited_in_place"] is True, done
