"""The tool-side error: what a tool call answers when it cannot do what was asked.

Raised by the safety chokepoint, the managers and the tools alike (no Home Assistant
import here), and turned into one ``llm.ToolResult(error=True)`` by ``tools/base.py``.
``outcome`` is what the audit trail records: ``refused`` (nothing was sent to the hub)
or ``failed`` (the hub was asked and something went wrong).
"""

from __future__ import annotations

from typing import Any, Literal

Outcome = Literal["refused", "failed"]


class ToolError(Exception):
    """A failure with a stable code, a message that says what happened, and a hint."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "invalid_request",
        hint: str | None = None,
        outcome: Outcome = "refused",
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.hint = hint
        self.outcome: Outcome = outcome
        # JSON-safe data the error result carries besides code, message and hint
        self.extra = extra
