"""What the tools that need the hub's Maker API (HSM changes, hub variables) say about it."""

from __future__ import annotations

MAKER_NOTE = (
    "Needs the hub's Maker API (app id + token in the integration); without it the error "
    "says what to configure."
)
