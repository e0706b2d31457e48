"""``refused_unsent``: a visual rule refused before any request reaches the hub, for
managers/test_visual_rules.py and managers/test_visual_nodes.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


async def refused_unsent(
    emu: HubEmulator, manager_hub: Hub, body: dict[str, Any], code: str = "invalid_request"
) -> ToolError:
    """The create is refused with ``code`` and nothing is written to the hub."""
    before, rules, apps = len(emu.requests), dict(emu.state.dev.vrb), set(emu.state.apps)
    with pytest.raises(ToolError) as refused:
        await manager_hub.rules.visual.create(body)
    assert refused.value.code == code, refused.value
    writes = [p for _m, p in emu.requests[before:] if "ruleBuilder" in p or "create" in p]
    assert writes == [] and emu.state.dev.vrb == rules and set(emu.state.apps) == apps
    return refused.value
