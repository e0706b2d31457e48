"""``FailingEngine``: the rule engine with a fault switched on after the helper's actions ran,
for managers/test_rule_private_boolean.py and tools/test_rule_private_boolean.py.
"""

from __future__ import annotations

from hubitat_emulator import HubEmulator
from hubitat_emulator.rule_definition import RuleDefinition, RuleEngine


class FailingEngine:
    """The hub's rule engine, with a fault switched on once the helper's actions ran."""

    def __init__(self, emu: HubEmulator, inner: RuleEngine, fail: dict[str, int]) -> None:
        self.emu, self.inner, self.fail = emu, inner, fail

    def install(self, rule: RuleDefinition) -> None:
        self.inner.install(rule)

    def remove(self, app_id: int) -> None:
        self.inner.remove(app_id)

    def run_actions(self, app_id: int) -> None:
        self.inner.run_actions(app_id)
        self.emu.faults.fail_paths.update(self.fail)

    def shutdown(self) -> None:
        self.inner.shutdown()

    def set_private_boolean(self, app_ids: list[int], value: bool) -> None:
        self.inner.set_private_boolean(app_ids, value)
