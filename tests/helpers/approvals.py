"""Approvals through Home Assistant's Repairs (the pending approval issues, an HTTP client with
repairs set up, and the owner's Approve/Deny over the fix flow), for glue/test_approvals.py and
the snapshot restore tool tests (tools/test_snapshot_restore.py,
tools/test_snapshot_restore_hostile.py).
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools.const import DOMAIN


def approval_issues(hass: HomeAssistant) -> set[str]:
    return {i for (d, i) in ir.async_get(hass).issues if d == DOMAIN and i.startswith("approval_")}


async def repairs_client(hass: HomeAssistant, hass_client: ClientSessionGenerator) -> Any:
    assert await async_setup_component(hass, "repairs", {})
    return await hass_client()


async def decide(
    hass: HomeAssistant,
    client: Any,
    entry: MockConfigEntry,
    approval_id: str,
    choice: str = "approve",
) -> dict[str, Any]:
    """Open the approval's fix flow over HA's HTTP API and pick Approve or Deny."""
    resp = await client.post(
        "/api/repairs/issues/fix",
        json={"handler": DOMAIN, "issue_id": f"approval_{entry.entry_id}_{approval_id}"},
    )
    assert resp.status == 200, await resp.text()
    flow: dict[str, Any] = await resp.json()
    assert flow["type"] == "menu" and flow["step_id"] == "decide", flow
    assert set(flow["menu_options"]) == {"approve", "deny"}
    resp = await client.post(
        f"/api/repairs/issues/fix/{flow['flow_id']}", json={"next_step_id": choice}
    )
    assert resp.status == 200, await resp.text()
    done: dict[str, Any] = await resp.json()
    assert done["type"] == "create_entry", done
    flow["done"] = done
    return flow
