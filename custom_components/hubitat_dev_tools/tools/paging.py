"""Shared cursor pagination for list tools.

Usage in a tool::

    @dataclass(frozen=True, slots=True, kw_only=True)
    class ListThingsArgs(ToolArgs):
        text: str | None = arg(str, "...")
        limit: int = limit_arg(default=100, maximum=500)
        cursor: str | None = cursor_arg()

    async def run(self, call, args: ListThingsArgs):
        items = [r for r in await manager.list() if call.device_allowed(r["device_id"])]
        return paginate(items, args, key="devices")

``paginate`` returns ``{key: page, "total": n, "offset": k, "next_cursor": "..."}``;
``next_cursor`` is absent on the last page. A cursor is opaque to the model (an encoded
offset); a malformed or out-of-range cursor is refused with ``invalid_cursor``. The
base class' size cap knows this shape: if it has to cut a page, it moves ``next_cursor``
to the first item not shown, so paging still round-trips.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import Any, Protocol

import probatio as vol

from ..errors import ToolError
from .args import arg

_PREFIX = "o:"

CURSOR_DESC = "Opaque cursor from a previous next_cursor; omit for the first page."


class Paged(Protocol):
    """Typed arguments of a paged list tool (declare ``limit`` and ``cursor``)."""

    @property
    def limit(self) -> int: ...

    @property
    def cursor(self) -> str | None: ...


def limit_arg(*, default: int = 100, maximum: int = 500) -> Any:
    """The ``limit`` argument of a paged list tool (a field of its args dataclass)."""
    return arg(vol.All(int, vol.Range(min=1, max=maximum)), "Max items per page", default=default)


def cursor_arg() -> Any:
    """The ``cursor`` argument of a paged list tool (a field of its args dataclass)."""
    return arg(str, CURSOR_DESC)


def encode_cursor(offset: int) -> str:
    """Encode an offset as an opaque cursor."""
    return base64.urlsafe_b64encode(f"{_PREFIX}{offset}".encode()).decode().rstrip("=")


MAX_CURSOR_CHARS = 64


def decode_cursor(cursor: str | None) -> int:
    """Decode a cursor to an offset (0 for none); raise ToolError(invalid_cursor) if malformed.

    Only what :func:`encode_cursor` makes is accepted: ASCII base64 of ``o:`` and ASCII
    digits. (``str.isdigit`` alone also accepts ``"²"``, which ``int()`` then refuses.)
    """
    if cursor is None or cursor == "":
        return 0
    digits = ""
    if len(cursor) <= MAX_CURSOR_CHARS and cursor.isascii():
        try:
            padded = cursor + "=" * (-len(cursor) % 4)
            text = base64.urlsafe_b64decode(padded.encode()).decode("ascii")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            text = ""
        digits = text.removeprefix(_PREFIX) if text.startswith(_PREFIX) else ""
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 12):
        raise ToolError(
            "The cursor is not one this tool returned.",
            code="invalid_cursor",
            hint="Omit cursor to start from the first page, then pass next_cursor as is.",
        )
    return int(digits)


def paginate(
    items: Sequence[Any],
    args: Paged,
    *,
    key: str = "items",
    default_limit: int = 100,
) -> dict[str, Any]:
    """Return one page of ``items`` with total, offset and next_cursor (if more)."""
    offset = decode_cursor(args.cursor)
    total = len(items)
    if offset > total:
        raise ToolError(
            f"The cursor points past the end of the list ({total} items now).",
            code="invalid_cursor",
            hint="The list changed since; start again without a cursor.",
        )
    limit = int(args.limit or default_limit)
    page = list(items[offset : offset + limit])
    out: dict[str, Any] = {key: page, "total": total, "offset": offset}
    if offset + limit < total:
        out["next_cursor"] = encode_cursor(offset + limit)
    return out
