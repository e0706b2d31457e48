"""MCP cases for the code tools' other forms: a source from a URL or a File Manager file,
several items in one call, OAuth on app code and the built-in driver catalog.

Each code tool's one default case lives in ``dev.py`` (the generic every-tool test takes one
case per tool); these variants need a loopback URL served by the test, so
``tests/tools/test_code_sources.py`` runs them through both surfaces with :func:`source_cases`.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator

from ..mcp_client import Mcp

FILE_DRIVER = """metadata {
    definition(name: "Mcp File Relay", namespace: "t", author: "t") {
        capability "Switch"
    }
}
def on() { }
"""


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """No default cases here (see the module docstring)."""
    return {}


async def source_cases(mcp: Mcp, hub: HubEmulator, url: str) -> dict[str, dict[str, Any]]:
    """``tool#variant`` -> arguments of a successful call; ``url`` serves a driver's source."""
    hub.files.write("mcp-relay.groovy", FILE_DRIVER.encode())
    plug = hub.state.dev.code[("driver", 1)].source
    return {
        "hub_install_code#url": {"type": "driver", "source_url": url, "confirm": True},
        "hub_install_code#file": {
            "type": "driver",
            "file_name": "mcp-relay.groovy",
            "confirm": True,
        },
        "hub_update_code#items": {
            "type": "driver",
            "items": [
                {"id": "1", "source": plug + "// mcp items\n"},
                {"id": "2", "source_url": url},
            ],
            "confirm": True,
        },
        "hub_update_code#oauth": {"type": "app", "id": "1", "oauth": True, "confirm": True},
        "hub_get_code#oauth": {"type": "app", "id": "1"},
        "hub_list_code#builtin": {"type": "driver", "builtin": True},
    }
