"""What acting on some targets reaches: the sensitivity model's answer (``sensitivity.py``),
shared with the gates that ask the model (device commands, rule checks) without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Reach:
    """What acting on some targets reaches: why it is sensitive, and which devices."""

    reasons: tuple[str, ...] = ()
    devices: frozenset[str] = frozenset()
    # the hub shows a sensitive action whose device it does not name by id (a rule's text):
    # what it reaches cannot be checked against an allowlist
    unnamed: bool = False

    @property
    def sensitive(self) -> bool:
        """True when acting on the targets needs confirm=true."""
        return bool(self.reasons)

    def __or__(self, other: Reach) -> Reach:
        reasons = tuple(dict.fromkeys(self.reasons + other.reasons))
        return Reach(reasons, self.devices | other.devices, self.unnamed or other.unnamed)


NOTHING = Reach()
