"""The meeting point of the emulated Rule Machine's pages and its rule runner.

``rule_machine.py`` (the pages) builds a :class:`RuleDefinition` from a rule's stored settings
when the rule is (re)initialised (``updateRule``), paused, resumed, stopped, started or
removed, and hands it to the hub's :class:`RuleEngine` (``rule_runner.py``), which subscribes
to events and the emulated clock and runs the actions. The settings keys and value shapes are
the ones ``docs/rule-machine-pages.md`` lists: device inputs as the hub keeps them (``"5,7"``,
with the ids also in the page's ``deviceIdsForDeviceList``), bools, numbers, enum lists, text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

ExprToken = int | str  # a condition index C, or "AND" / "OR" / "XOR"


@dataclass
class RuleDefinition:
    """One Rule Machine 5.1 rule as its settings define it."""

    app_id: int
    name: str
    settings: dict[str, Any]
    triggers: list[int] = field(default_factory=list)  # committed trigger indexes N
    actions: list[int] = field(default_factory=list)  # action indexes N, in list order
    # the Required Expression: condition indexes and operators, left to right ([1, "AND", 2]);
    # None when the rule has none (``useST`` off or nothing sealed)
    required: list[ExprToken] | None = None
    # the expression of each IF-THEN / Repeat-While action, by action index
    action_expressions: dict[int, list[ExprToken]] = field(default_factory=dict)
    wait_events: list[int] = field(default_factory=list)  # event indexes E (tCapab-<E> ...)
    # the rule's local variables {name: {type, value}}: the pages' own dict, so a Set Variable
    # run shows in statusJson's allLocalVars
    local_vars: dict[str, dict[str, Any]] = field(default_factory=dict)
    paused: bool = False
    stopped: bool = False


class RuleEngine(Protocol):
    """What the pages need of the runner."""

    def install(self, rule: RuleDefinition) -> None:
        """(Re)initialise a rule: replaces what an earlier install of the same app set up."""

    def remove(self, app_id: int) -> None:
        """Forget a rule (deleted): its subscriptions, timers and running actions."""

    def run_actions(self, app_id: int) -> None:
        """Run the rule's actions now (the Run Actions button), whatever its triggers."""

    def shutdown(self) -> None:
        """The hub stops: forget every rule and cancel everything pending."""

    def set_private_boolean(self, app_ids: list[int], value: bool) -> None:
        """Set rules' private booleans (a Set Private Boolean action, or Start's reset)."""
