"""Devices: find, read, wait, run commands validated against what each device declares,
and administer them (the parts are described in ``query.DeviceManager``)."""

from __future__ import annotations

from .admin import (
    CreateResult,
    DeleteResult,
    DeviceAdmin,
    DeviceUpdate,
    ReplaceResult,
    UpdateResult,
    coerce_preference,
    edit_form,
)
from .commands import (
    HARMLESS_COMMANDS,
    SENSITIVE_CAPABILITIES,
    BatchResult,
    CommandEntry,
    DeviceCommands,
    PreparedCommand,
    describe_command,
    prepare_command,
)
from .compatible import CompatibleDevices, CompatibleSearch
from .filters import NUMERIC_COMPARATORS, DeviceFilter, is_light
from .query import DeviceManager
from .values import to_number, values_equal
from .waits import COMPARATORS, MAX_WAIT_MS, AttributeCondition, AttributeWaits, WaitResult

__all__ = [
    "COMPARATORS",
    "HARMLESS_COMMANDS",
    "MAX_WAIT_MS",
    "NUMERIC_COMPARATORS",
    "SENSITIVE_CAPABILITIES",
    "AttributeCondition",
    "AttributeWaits",
    "BatchResult",
    "CommandEntry",
    "CompatibleDevices",
    "CompatibleSearch",
    "CreateResult",
    "DeleteResult",
    "DeviceAdmin",
    "DeviceCommands",
    "DeviceFilter",
    "DeviceManager",
    "DeviceUpdate",
    "PreparedCommand",
    "ReplaceResult",
    "UpdateResult",
    "WaitResult",
    "coerce_preference",
    "describe_command",
    "edit_form",
    "is_light",
    "prepare_command",
    "to_number",
    "values_equal",
]
