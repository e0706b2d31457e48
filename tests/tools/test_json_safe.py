"""json_safe answers as the standard round trip ``json.loads(json.dumps(x, default=str))``."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.tools.base import _surely_fits, json_safe, json_size


class _Word(enum.StrEnum):
    ON = "on"


class _Level(enum.IntEnum):
    HIGH = 2


@dataclasses.dataclass
class _Point:
    x: int


CASES: list[Any] = [
    {"a": 1, 2: "b", None: 3, True: 4, 1.5: 5},
    [dt.datetime(2026, 12, 3, 1, 2, 3, tzinfo=dt.UTC), dt.date(2026, 1, 2), dt.time(1, 2)],
    {"word": _Word.ON, "level": _Level.HIGH, "point": _Point(1), "set": {1}, "pair": (1, 2)},
    {"bytes": b"x"},
    [2**70, 1],
    "caf\u00e9 \U0001f600",
    [1.0, 0.1, 1e300, -0.0],
    {"nested": [{"k": [None, "null", ""]}]},
]


@pytest.mark.parametrize("value", CASES)
def test_same_as_the_standard_round_trip(value: Any) -> None:
    want = json.loads(json.dumps(value, default=str))
    assert repr(json_safe(value)) == repr(want)


def test_non_finite_floats_become_null() -> None:
    """JSON has no NaN or infinity: they become null, not a token strict clients reject."""
    assert json_safe([float("nan"), 1.5, {"deep": [float("-inf")]}]) == [
        None,
        1.5,
        {"deep": [None]},
    ]


def test_a_copy_not_the_same_object() -> None:
    value = {"states": {"switch": "on"}}
    out = json_safe(value)
    out["states"]["switch"] = "off"
    assert value["states"]["switch"] == "on"


@pytest.mark.parametrize(
    "value",
    [
        {"devices": [{"device_id": str(i), "level": i / 3, "on": i % 2 == 0} for i in range(300)]},
        {"numbers": [1e16, 1e-7, 123456789.123, -0.0] * 500},
        {"text": "x" * 30_000, "empty": {}, "lists": [[]] * 1000},
        {str(i): {"k": None} for i in range(2000)},
    ],
)
def test_quick_fit_never_wrong(value: Any) -> None:
    """The quick size check only says "fits" when the exact mcp_server size does."""
    exact = json_size(value)
    for limit in (exact - 1, exact, exact * 2, exact * 3):
        if _surely_fits(value, limit):
            assert exact <= limit
    assert _surely_fits(value, exact * 3)
