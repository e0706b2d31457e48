"""MCP cases for the hub-operations tools (files, backups, logs, health, radios, lifecycle)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each hub-operations tool."""
    # Destructive tools need a backup from the last 24 hours: make one through MCP.
    await mcp.ok("hub_create_backup")
    listing = await mcp.ok("hub_list_backups")
    oldest = listing["backups"][-1]["name"]
    newest = listing["backups"][0]["name"]
    radios = await mcp.ok("hub_get_radio_details", {"radio": "zwave"})
    failed_node = radios["zwave"]["failed_nodes"][0]["node_id"]
    return {
        "hub_list_files": {"filter": "*.txt"},
        "hub_read_file": {"file_name": "notes.txt", "length": 200},
        "hub_write_file": {"file_name": "notes.txt", "content": "hello", "confirm": True},
        "hub_delete_file": {"file_name": "energy-2026.csv", "confirm": True},
        "hub_list_backups": {},
        "hub_update_backup_schedule": {"local_frequency_days": 7, "time": "04:15"},
        "hub_delete_backup": {"file_name": oldest, "confirm": True},
        "hub_restore_backup": {"file_name": newest, "confirm": True},
        "hub_get_logs": {"level": "warn", "limit": 5},
        "hub_list_events": {"source": "all", "limit": 5},
        "hub_list_changes": {"hours_back": 2, "limit": 20},
        "hub_get_performance_stats": {"limit": 5},
        "hub_get_jobs": {},
        "hub_get_health_report": {"history_points": 3},
        "hub_get_device_health": {"battery_threshold": 30},
        "hub_get_radio_details": {"radio": "all", "limit": 5},
        "hub_start_zwave_repair": {},
        "hub_get_zwave_repair_status": {},
        "hub_call_radio_action": {"radio": "zigbee", "action": "channel_scan"},
        "hub_delete_zwave_node": {"node_id": failed_node, "confirm": True},
        "hub_update_radio_settings": {"radio": "zigbee", "channel": 25, "confirm": True},
        "hub_reboot_hub": {"confirm": True},
        "hub_shutdown_hub": {"confirm": True},
        "hub_check_firmware_update": {},
        "hub_install_firmware_update": {"confirm": True},
    }
