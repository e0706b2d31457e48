"""Config entry migrations (options whose meaning moved between versions).

1.1 -> 1.2: the small domains' gateways were folded into their neighbours' (``hsm`` into
modes, ``snapshots`` into backups, ``lifecycle`` and ``health`` into hub; see
``tools.base.GATEWAY_DOMAIN``). A retired gateway name in "Disabled gateways" becomes the
tools it held in "Disabled tools", so nothing an admin switched off comes back on.
"""

from __future__ import annotations

from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant

from .const import OPT_DISABLED_GATEWAYS, OPT_DISABLED_TOOLS
from .safety import ToolKind
from .tools.base import GATEWAY_DOMAIN
from .tools.surface import registry

CURRENT_MINOR = 2


def retired_gateways() -> dict[str, list[str]]:
    """Each retired gateway name -> the tools it held, in catalog order."""
    out: dict[str, list[str]] = {}
    for domain in GATEWAY_DOMAIN:
        for prefix in ("read", "manage"):
            out[f"hub_{prefix}_{domain}"] = [
                tool.name
                for tool in registry().values()
                if not tool.core
                and tool.domain == domain
                and (tool.kind is ToolKind.READ) == (prefix == "read")
            ]
    return out


def migrate_disabled_gateways(options: dict[str, Any]) -> dict[str, Any]:
    """Options with retired gateways replaced by their tools (a copy; input untouched)."""
    retired = retired_gateways()
    gateways = list(options.get(OPT_DISABLED_GATEWAYS) or [])
    if not any(name in retired for name in gateways):
        return dict(options)
    tools = list(options.get(OPT_DISABLED_TOOLS) or [])
    for name in gateways:
        tools.extend(t for t in retired.get(name, []) if t not in tools)
    out = dict(options)
    out[OPT_DISABLED_GATEWAYS] = [g for g in gateways if g not in retired]
    out[OPT_DISABLED_TOOLS] = tools
    return out


async def async_migrate(hass: HomeAssistant, entry: ConfigEntry[Any]) -> bool:
    """Bring an entry's options to the current minor version; False for a newer major."""
    if entry.version > 1:
        return False
    if entry.minor_version < CURRENT_MINOR:
        hass.config_entries.async_update_entry(
            entry,
            options=migrate_disabled_gateways(dict(entry.options)),
            minor_version=CURRENT_MINOR,
        )
    return True
