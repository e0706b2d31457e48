"""The tools, one module per domain.

Every module in this package that defines ``TOOLS`` (a tuple of tool classes) is served.
``ORDER`` (an int, default 100) sorts the modules; ties sort by module name. This order is
the order of tools/list and of the catalog snapshot.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

from .base import HubTool


def _domain_modules() -> tuple[ModuleType, ...]:
    modules = []
    for info in pkgutil.iter_modules(__path__):
        if info.name == "base" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "TOOLS"):
            modules.append(module)
    return tuple(sorted(modules, key=lambda m: (getattr(m, "ORDER", 100), m.__name__)))


DOMAIN_MODULES = _domain_modules()

TOOL_CLASSES: tuple[type[HubTool[Any]], ...] = tuple(
    cls for module in DOMAIN_MODULES for cls in module.TOOLS
)


def all_tools() -> list[HubTool[Any]]:
    """Instantiate every tool once (tools hold no per-call state)."""
    return [cls() for cls in TOOL_CLASSES]


__all__ = ["DOMAIN_MODULES", "TOOL_CLASSES", "HubTool", "all_tools"]
