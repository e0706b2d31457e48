"""The options that turn approvals in Home Assistant on for every tier, for the snapshot restore
tool tests: tools/test_snapshot_restore.py and tools/test_snapshot_restore_hostile.py.
"""

from __future__ import annotations

from custom_components.hubitat_dev_tools.const import OPT_APPROVAL_TIERS, OPT_APPROVE_IN_HA
from custom_components.hubitat_dev_tools.errors import TIERS

APPROVE = {OPT_APPROVE_IN_HA: True, OPT_APPROVAL_TIERS: list(TIERS)}
