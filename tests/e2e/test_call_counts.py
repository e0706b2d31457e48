"""Owner-style tasks through the real mcp_server on the compact surface, calls bounded."""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..mcp_client import Mcp
from ..owner_tasks import TASKS, Assistant, Task


def _gateway_of(name: str) -> str | None:
    from custom_components.hubitat_dev_tools.tools.surface import registry

    return registry()[name].gateway()


def test_at_least_twenty_tasks() -> None:
    assert len(TASKS) >= 20


@pytest.mark.parametrize("task", TASKS, ids=[t.ask for t in TASKS])
async def test_owner_task_call_count(
    entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator, task: Task
) -> None:
    bot = Assistant(mcp.call, _gateway_of)
    await task.run(bot)
    assert bot.calls <= task.max_calls, (task.ask, bot.calls)
