"""Contract fixtures: hub answers in the real shapes, independent of the emulator.

Each fixture is ``tests/fixtures/hub/<domain>/<name>.json``, written by us from the shapes
that code running against real hubs shows (the sources named in ``docs/hub-endpoints.md``),
never captured from the emulator::

    {
      "endpoint": "GET /hub/zigbeeChannelScanJson",
      "firmware": "2.5.0.143",
      "evidence": "hub UI: vue-hub2.min.js, the Zigbee settings page's scan ...",
      "answer": [...],               # the JSON answer, or
      "answer_text": "...",          # a body that is not JSON
      "emulator": {"path": "/hub/zigbeeChannelScanJson", "params": {}},   # optional
      "maps": ["$.nodes"]            # optional: dicts keyed by ids, values share one shape
    }

Two uses:

- the domain tests feed ``fixture.answer`` straight to the ``hub/`` parsers (reality ->
  parser), referring to the fixture by its name (``"radios/zigbee_channel_scan"``);
- :func:`assert_same_shape` checks an emulator answer against the fixture (emulator ->
  reality): the same keys and the same JSON types at every level. Fixtures with an
  ``emulator`` request are checked generically by ``test_contract_fixtures.py``; answers to
  writes are checked by the domain tests that make them.

Shapes: a dict's keys must match exactly; in a list every element must have the keys all of
the fixture's elements have and no key none of them has; a scalar's JSON type (``str``,
``number``, ``bool``, ``null``) must be one the fixture shows at that place. Values never
matter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures" / "hub"


@dataclass(frozen=True, slots=True)
class Fixture:
    """One contract fixture."""

    name: str
    endpoint: str
    evidence: str
    firmware: str | None
    answer: Any
    answer_text: str | None
    emulator: dict[str, Any] | None
    maps: tuple[str, ...] = field(default=())

    @property
    def method(self) -> str:
        return self.endpoint.split(" ", 1)[0]

    @property
    def path(self) -> str:
        return self.endpoint.split(" ", 1)[1]


def fixture_names() -> list[str]:
    """Every fixture's name (``<domain>/<name>``), sorted."""
    return sorted(
        str(path.relative_to(FIXTURES).with_suffix("")) for path in FIXTURES.rglob("*.json")
    )


def load_fixture(name: str) -> Fixture:
    """Read ``tests/fixtures/hub/<name>.json``."""
    raw = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"fixture {name} is not an object")
    for key in ("endpoint", "evidence"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise ValueError(f"fixture {name} needs a non-empty {key!r}")
    if ("answer" in raw) == ("answer_text" in raw):
        raise ValueError(f"fixture {name} needs exactly one of 'answer' and 'answer_text'")
    emulator = raw.get("emulator")
    return Fixture(
        name=name,
        endpoint=raw["endpoint"],
        evidence=raw["evidence"],
        firmware=raw.get("firmware"),
        answer=raw.get("answer"),
        answer_text=raw.get("answer_text"),
        emulator=emulator if isinstance(emulator, dict) else None,
        maps=tuple(raw.get("maps", ())),
    )


def json_type(value: Any) -> str:
    """The JSON type name of a scalar (ints and floats are both ``number``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return type(value).__name__


def shape_errors(expected: Any, actual: Any, maps: tuple[str, ...] = ()) -> list[str]:
    """Every place where ``actual`` differs in shape from ``expected`` (empty: the same)."""
    errors: list[str] = []
    _compare([expected], actual, "$", set(maps), errors)
    return errors


def assert_same_shape(fixture: Fixture | str, actual: Any) -> None:
    """Fail, listing the differences, unless ``actual`` has the fixture answer's shape."""
    fx = load_fixture(fixture) if isinstance(fixture, str) else fixture
    if fx.answer_text is not None:
        assert isinstance(actual, str), f"{fx.name}: expected a text body, got {json_type(actual)}"
        return
    errors = shape_errors(fx.answer, actual, fx.maps)
    assert not errors, f"{fx.name} ({fx.endpoint}): " + "; ".join(errors[:20])


def _compare(
    samples: list[Any], actual: Any, where: str, maps: set[str], errors: list[str]
) -> None:
    """Compare ``actual`` with every value the fixture shows at ``where``."""
    types = {json_type(sample) for sample in samples}
    kind = json_type(actual)
    if kind not in types:
        errors.append(f"{where}: {kind}, the fixture has {'/'.join(sorted(types))}")
        return
    if kind == "dict":
        dicts = [sample for sample in samples if isinstance(sample, dict)]
        if where in maps:
            values = [value for sample in dicts for value in sample.values()]
            for key, value in actual.items():
                if values:
                    _compare(values, value, f"{where}.<{key}>", maps, errors)
            return
        required = set.intersection(*(set(sample) for sample in dicts))
        allowed = set.union(*(set(sample) for sample in dicts))
        missing = sorted(required - set(actual))
        extra = sorted(set(actual) - allowed)
        if missing:
            errors.append(f"{where}: missing keys {missing}")
        if extra:
            errors.append(f"{where}: keys the fixture does not have {extra}")
        for key in sorted(set(actual) & allowed):
            _compare(
                [sample[key] for sample in dicts if key in sample],
                actual[key],
                f"{where}.{key}",
                maps,
                errors,
            )
    elif kind == "list":
        elements = [item for sample in samples if isinstance(sample, list) for item in sample]
        if not elements:
            return  # the fixture shows an empty list: any elements are fine
        for item in actual:
            _compare(elements, item, f"{where}[]", maps, errors)
