"""The item backups (``managers/item_backups.py``) on their own, no hass: the snapshots of
one item kept to a bound, the oldest (the original before the first edit) always kept, over
the emulated hub.

Moved from tests/tools/test_code.py (pruning is the item backups' logic; the tools that list,
read and restore backups are tested there)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.item_backups import MAX_PER_ITEM, owned_backups
from hubitat_emulator import HubEmulator


def backups(emu: HubEmulator) -> list[str]:
    return [n for n in emu.files.names() if n.startswith("hdt-backup_")]


async def test_backups_pruned_to_bound(emu: HubEmulator, manager_hub: Hub) -> None:
    owned = owned_backups(manager_hub.client)
    for day in range(1, 11):
        name = f"hdt-backup_driver-1_202601{day:02d}-120000.json"
        emu.files.write(name, b'{"kind": "driver", "id": "1", "source": "old"}')
        await owned.add(name)  # written by us (only those are pruned: test_hostile_infra)
    src = emu.state.dev.code[("driver", 1)].source + "\n// new\n"
    result = await manager_hub.code.update("driver", "1", src, None)
    # the oldest copy (the pre-edit original) is always kept: the next oldest goes
    assert result["item_backup"]["pruned"] == ["hdt-backup_driver-1_20260102-120000.json"]
    assert len(backups(emu)) == MAX_PER_ITEM == 10
    assert "hdt-backup_driver-1_20260101-120000.json" in backups(emu)
    assert result["item_backup"]["backup"] in backups(emu)
    # the pruned file is no longer counted as ours; the new one is
    assert "hdt-backup_driver-1_20260102-120000.json" not in owned
    assert result["item_backup"]["backup"] in owned
