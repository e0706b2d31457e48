"""The tools, one module per domain. Each module lists its tool classes in ``TOOLS``."""

from __future__ import annotations

from . import devices, hub, rooms
from .base import HubTool

# Order here is the order of tools/list and the catalog snapshot.
DOMAIN_MODULES = (hub, devices, rooms)

TOOL_CLASSES: tuple[type[HubTool], ...] = tuple(
    cls for module in DOMAIN_MODULES for cls in module.TOOLS
)


def all_tools() -> list[HubTool]:
    """Instantiate every tool once (tools hold no per-call state)."""
    return [cls() for cls in TOOL_CLASSES]


__all__ = ["DOMAIN_MODULES", "TOOL_CLASSES", "HubTool", "all_tools"]
