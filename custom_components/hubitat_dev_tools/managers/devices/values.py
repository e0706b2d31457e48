"""Loose value comparison shared by filters, waits and preferences."""

from __future__ import annotations

from typing import Any


def _norm_text(value: Any) -> str:
    return str(value).strip().lower()


def values_equal(actual: Any, expected: Any) -> bool:
    """Compare an attribute value loosely: numbers numerically, text case-insensitively."""
    if actual is None or expected is None:
        return actual is expected
    a_num, e_num = to_number(actual), to_number(expected)
    if a_num is not None and e_num is not None:
        return a_num == e_num
    return _norm_text(actual) == _norm_text(expected)


def to_number(value: Any) -> float | None:
    """A float for numbers and numeric text; None otherwise (booleans are not numbers)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        return None
