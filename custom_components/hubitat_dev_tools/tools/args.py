"""Typed tool arguments: one dataclass per tool is both the schema and what ``run`` gets.

A tool declares its arguments as a frozen dataclass deriving from :class:`ToolArgs`::

    @dataclass(frozen=True, slots=True, kw_only=True)
    class GetDeviceArgs(ToolArgs):
        device_id: str = arg(DEVICE_ID, "Device id", required=True)
        include_events: bool = arg(bool, "Add recent events", default=False)
        room: str | None = arg(str, "Room name or id")  # absent: None

and derives from ``HubTool[GetDeviceArgs]``. The served schema (and so the JSON schema in
``tools/list``) is built from those fields in declaration order, the call's arguments are
validated by it, and ``run`` receives a ``GetDeviceArgs`` instance. ``hub`` and
``confirm`` are added by the base class (``confirm`` for the destructive tier only).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass
from typing import Any

import probatio as vol

_ABSENT: Any = object()
_META = "hubitat_dev_tools_arg"
_DECLARED = itertools.count()  # the order arg() was called in: the schema's order


@dataclass(frozen=True, slots=True)
class ArgSpec:
    """How one argument appears in the schema."""

    validator: Any
    description: str | None
    required: bool
    default: Any  # _ABSENT: an omitted optional argument arrives as None
    seq: int = dataclasses.field(default_factory=lambda: next(_DECLARED), compare=False)


def arg(
    validator: Any,
    description: str | None = None,
    *,
    required: bool = False,
    default: Any = _ABSENT,
) -> Any:
    """Declare one tool argument (a dataclass field carrying its schema entry).

    ``default`` is what the schema fills in when the argument is omitted (and shows in the
    JSON schema); ``list``/``dict`` mean a fresh empty one. Without it an omitted optional
    argument is ``None``.
    """
    spec = ArgSpec(validator, description, required, default)
    metadata = {_META: spec}
    if required:
        return dataclasses.field(metadata=metadata)
    if default is _ABSENT:
        return dataclasses.field(default=None, metadata=metadata)
    if default is list or default is dict:
        return dataclasses.field(default_factory=default, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolArgs:
    """Arguments every tool may get: ``hub`` (several hubs) and ``confirm`` (destructive)."""

    hub: str | None = None
    confirm: bool | None = None


def schema_fields(args_type: type[ToolArgs]) -> dict[Any, Any]:
    """The schema entries of a tool's own arguments, in declaration order.

    A field a tool re-declares (its own ``confirm`` with a default, say) sits where the tool
    declares it, not where the base class has it.
    """
    specs = [
        (f.name, spec)
        for f in dataclasses.fields(args_type)
        if isinstance(spec := f.metadata.get(_META), ArgSpec)  # hub / confirm: the base class
    ]
    out: dict[Any, Any] = {}
    for name, spec in sorted(specs, key=lambda item: item[1].seq):
        if spec.required:
            key: Any = vol.Required(name, description=spec.description)
        elif spec.default is _ABSENT:
            key = vol.Optional(name, description=spec.description)
        else:
            key = vol.Optional(name, default=spec.default, description=spec.description)
        out[key] = spec.validator
    return out


def build_args[A: ToolArgs](args_type: type[A], validated: dict[str, Any]) -> A:
    """The typed arguments from a schema-validated dict."""
    return args_type(**validated)


def ascii_re(pattern: str) -> re.Pattern[str]:
    """A schema pattern whose ``\\d`` means 0-9 only (as in JSON Schema), not any digit."""
    return re.compile(pattern, re.ASCII)


class FullMatch(vol.Match):
    r"""``vol.Match`` that must match the WHOLE string.

    ``re.match`` with ``^...$`` accepts a trailing newline (``$`` matches before a final
    ``\n``), so ``"12\n"`` passed as an id; the pattern is also checked anchored at ``\Z``.
    The served JSON schema keeps the same ``pattern`` text (read from ``.pattern.pattern``).
    """

    def __init__(self, pattern: str | re.Pattern[str], msg: str | None = None) -> None:
        super().__init__(pattern, msg=msg)
        source = self.pattern
        text = source.pattern if isinstance(source.pattern, str) else source.pattern.decode()
        # The same pattern, anchored at the very end of the text (\Z, not $).
        self._whole = vol.Match(re.compile(f"(?:{text})\\Z", source.flags), msg=msg)

    def __call__[T](self, value: T) -> T:
        """Return the value if the pattern matches all of it, else raise MatchInvalid."""
        return super().__call__(self._whole(value))


def match(pattern: str | re.Pattern[str], msg: str | None = None) -> Any:
    """A schema pattern validator (as ``vol.Match``) that rejects trailing newlines."""
    return FullMatch(pattern, msg=msg)


def numeric_id(field_name: str) -> Any:
    """Validator of a numeric hub id (``device_id``, ``app_id`` ...): digits 0-9, as a str."""
    return vol.All(
        vol.Coerce(str),
        match(ascii_re(r"^\d+$"), msg=f"{field_name} must be a numeric id"),
    )


def short_text(max_length: int = 100) -> Any:
    """Validator of a name or id given as text (numbers are coerced): 1..max_length chars."""
    return vol.All(vol.Coerce(str), vol.Length(min=1, max=max_length))
