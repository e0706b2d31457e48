"""MCP cases for the development tools (code, apps, rules, dashboards)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp

PLUG = """metadata {
    definition(name: "Acme Smart Plug", namespace: "acme", author: "Acme") {
        capability "Switch"
    }
}
def on() { }
def off() { }
"""
NEW_DRIVER = PLUG.replace("Acme Smart Plug", "MCP Case Driver")


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each development tool."""
    await mcp.call("hub_create_backup", {})
    # setup calls by name: unlisted tools are routed through their gateway by the API
    upd = await mcp.ok(
        "hub_update_code",
        {"type": "driver", "id": "1", "source": PLUG + "// setup\n", "confirm": True},
    )
    backup = upd["item_backup"]["backup"]
    vrb = await mcp.ok("hub_get_visual_rule", {"app_id": "170"})
    export = (await mcp.ok("hub_export_app", {"app_id": "142"}))["export"]
    return {
        "hub_list_code": {"type": "app"},
        "hub_get_code": {"type": "library", "id": "1"},
        "hub_install_code": {"type": "driver", "source": NEW_DRIVER, "confirm": True},
        "hub_update_code": {
            "type": "driver",
            "id": "1",
            "source": PLUG + "// mcp\n",
            "confirm": True,
        },
        "hub_delete_code": {"type": "driver", "id": "2", "confirm": True},
        "hub_list_item_backups": {},
        "hub_get_item_backup": {"backup": backup},
        "hub_restore_item_backup": {"backup": backup, "confirm": True},
        "hub_list_bundles": {},
        "hub_install_bundle": {
            "url": "https://example.com/bundles/acme-tools.zip",
            "confirm": True,
        },
        "hub_delete_bundle": {"bundle_id": "1", "confirm": True},
        "hub_export_bundle": {"bundle_id": "1"},
        "hub_list_apps": {"kind": "user"},
        "hub_get_app": {"app_id": "140"},
        "hub_set_app_disabled": {"app_id": "200", "disabled": True},
        "hub_delete_app": {"app_id": "160", "confirm": True},
        "hub_update_app_settings": {"app_id": "140", "settings": {"origLabel": "MCP label"}},
        "hub_export_app": {"app_id": "140"},
        "hub_clone_app": {"app_id": "140", "new_name": "MCP copy"},
        "hub_import_app": {"export": export, "new_name": "MCP import"},
        "hub_list_hpm_packages": {},
        "hub_list_rules": {},
        "hub_get_rule_health": {"app_id": "141"},
        "hub_list_rule_local_variables": {"app_id": "140"},
        "hub_call_rule": {"app_id": "140", "action": "run_actions"},
        "hub_set_rule_paused": {"app_id": "140", "paused": True},
        "hub_get_visual_rule": {"app_id": "170"},
        "hub_create_visual_rule": {
            "name": "MCP rule",
            "when_nodes": vrb["definition"]["whenNodes"],
            "then_nodes": vrb["definition"]["thenNodes"],
        },
        "hub_update_visual_rule": {"app_id": "170", "paused": True},
        "hub_delete_visual_rule": {"app_id": "170", "confirm": True},
        "hub_list_dashboards": {},
        "hub_get_dashboard": {"dashboard_id": "400"},
        "hub_create_dashboard": {"name": "MCP dash"},
        "hub_update_dashboard": {"dashboard_id": "400", "name": "Renamed"},
        "hub_clone_dashboard": {"dashboard_id": "400"},
        "hub_delete_dashboard": {"dashboard_id": "400", "confirm": True},
    }
