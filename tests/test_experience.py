"""The assistant's experience: answers that let a model recover in one more call."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from .conftest import ToolCaller


async def test_wrong_arguments_answer_the_input_schema(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_set_rule_paused", {"app_id": "140"})  # paused missing
    assert result.error and result.data["error"] == "invalid_arguments", result.data
    schema = result.data["input_schema"]
    assert schema["type"] == "object"
    assert "paused" in schema["properties"] and "paused" in schema.get("required", [])
    assert "input_schema" in result.data["hint"]
