"""docs/hub-endpoints.md is true: every path the client sends is there, nothing else is, and
every row rests on evidence with a contract fixture, or says how its effect is verified."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from .contract import fixture_names, load_fixture

ROOT = Path(__file__).parent.parent
TABLE = ROOT / "docs" / "hub-endpoints.md"
PACKAGE = ROOT / "custom_components" / "hubitat_dev_tools"
# Where requests are built: the library, and the config flow's probe of the Maker API.
SOURCES = [*sorted((PACKAGE / "hub").glob("*.py")), PACKAGE / "config_flow.py"]
# The only places outside hub/ allowed to name a hub path (checked by test_paths_live_in_hub).
_FIRST_SEGMENTS = (
    "app|apps|bundle|bundle2|dashboard|device|driver|eventsocket|hub|hub2|hubStatus|"
    "installedapp|library|local|location|login|logs|logsocket|mobileapi|modes|room"
)
# A first segment filled in (``f"/{kind}/ajax/code"``) matches every kind the table lists.
_PATH_RE = re.compile(rf"^/(?:{_FIRST_SEGMENTS}|<id>(?=/[a-zA-Z]))(?:[/?][^\s()\\]*)?$")
_MAKER_CALLS = {"maker_get", "maker_request", "maker_post"}
# The client's generic Maker API URL builder (its callers' paths are listed instead).
_MAKER_BUILDER = "/apps/api/<id>/<id>"


def _normalise(path: str) -> str:
    """Drop the query, and write every filled-in segment as ``<id>``."""
    path = path.split("?", 1)[0]
    path = re.sub(r"<[^>/]*>", "<id>", path)
    return re.sub(r"\{[^}/]*\}", "<id>", path)


def _render(node: ast.expr) -> str | None:
    """A string literal or f-string as text, formatted values as ``<id>``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            else:
                parts.append("<id>")
        return "".join(parts)
    return None


def code_paths(sources: list[Path]) -> dict[str, set[str]]:
    """Every hub path the sources name -> the files naming it."""
    found: dict[str, set[str]] = {}
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        # Parts of f-strings and Maker API call arguments are read with their whole.
        skip = {
            id(part)
            for node in ast.walk(tree)
            if isinstance(node, ast.JoinedStr)
            for part in node.values
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _MAKER_CALLS
                and node.args
            ):
                text = _render(node.args[0])
                if text is not None:
                    skip.add(id(node.args[0]))
                    path = "/apps/api/<id>/" + text.lstrip("/")
                    found.setdefault(_normalise(path), set()).add(source.name)
        for node in ast.walk(tree):
            if not isinstance(node, ast.expr) or id(node) in skip:
                continue
            if isinstance(node, ast.JoinedStr) or (
                isinstance(node, ast.Constant) and isinstance(node.value, str)
            ):
                text = _render(node)
                if text and _PATH_RE.match(text) and text != _MAKER_BUILDER:
                    found.setdefault(_normalise(text), set()).add(source.name)
    return found


@dataclass(frozen=True)
class Row:
    method: str
    paths: tuple[str, ...]
    evidence: str
    fixture_cell: str
    fixtures: tuple[str, ...]
    effect: str
    line: int


def _row_paths(cell: str) -> tuple[str, ...]:
    """The paths a row's path cell names (backticked, or the bare cell); ``[/x]`` optional."""
    found = re.findall(r"`(/[^`\s]*)`", cell) or [
        part.strip() for part in cell.split(" · ") if part.strip().startswith("/")
    ]
    paths: list[str] = []
    for path in found:
        optional = re.search(r"\[(/[^\]]*)\]", path)
        if optional:
            paths.append(path.replace(optional.group(0), ""))
            paths.append(path.replace(optional.group(0), optional.group(1)))
        else:
            paths.append(path)
    return tuple(_normalise(p) for p in paths)


def table_rows() -> list[Row]:
    rows = []
    for number, line in enumerate(TABLE.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) != 8 or cells[0] in {"Method", ""} or set(cells[0]) <= {"-", ":"}:
            continue
        method, path, _params, _answer, _fw, evidence, fixture, effect = cells
        fixtures = tuple(re.findall(r"`([a-z_]+/[a-z0-9_]+)`", fixture))
        rows.append(Row(method, _row_paths(path), evidence, fixture, fixtures, effect, number))
    return rows


def _matches(listed: str, sent: str) -> bool:
    """A listed path names a sent one (a filled-in segment of either matches any segment)."""
    a, b = listed.split("/"), sent.split("/")
    return len(a) == len(b) and all(x == y or "<id>" in (x, y) for x, y in zip(a, b, strict=True))


def test_no_section_left_unwritten() -> None:
    for doc in (TABLE, ROOT / "hubitat_emulator" / "README.md"):
        assert "_(to be written" not in doc.read_text(encoding="utf-8"), doc


def test_every_path_the_client_sends_is_in_the_table() -> None:
    listed = [path for row in table_rows() for path in row.paths]
    missing = {
        path: files
        for path, files in code_paths(SOURCES).items()
        if not any(_matches(row_path, path) for row_path in listed)
    }
    assert not missing, f"paths sent but not in docs/hub-endpoints.md: {missing}"


def test_the_table_lists_nothing_the_client_does_not_send() -> None:
    sent = list(code_paths(SOURCES))
    stale = [
        (row.line, path)
        for row in table_rows()
        for path in row.paths
        if not any(_matches(path, code) for code in sent)
    ]
    assert not stale, f"rows for paths no code sends (line, path): {stale}"


def test_every_row_names_its_path() -> None:
    assert all(row.paths for row in table_rows()), [r.line for r in table_rows() if not r.paths]


def test_paths_live_in_hub() -> None:
    others = [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if "hub" not in path.relative_to(PACKAGE).parts[:1] and path.name != "config_flow.py"
    ]
    leaked = code_paths(others)
    # The tools and managers name the websocket paths only through the library's constants.
    assert not leaked, f"hub paths outside hub/: {leaked}"


@pytest.mark.parametrize("row", table_rows(), ids=lambda row: f"line {row.line}")
def test_row_rests_on_evidence_or_verifies_by_effect(row: Row) -> None:
    assert row.method in {"GET", "POST", "WS"}, row
    assert row.evidence, row
    names = set(fixture_names())
    if re.match(r"\**none\b", row.evidence, re.IGNORECASE):
        assert row.effect and row.effect not in {"-", "—"}, (
            f"line {row.line}: an endpoint without evidence must say how its effect is verified"
        )
    elif not row.fixtures:
        # No answer sample: only where the row says why (a redirect, HTML, no body read).
        assert re.match(r"none \(.+\)", row.fixture_cell), (
            f"line {row.line}: an endpoint with evidence needs a fixture, or says why not"
        )
    for fixture in row.fixtures:
        assert fixture in names, f"line {row.line}: no fixture {fixture}"
        fixture_path = _normalise(load_fixture(fixture).path)
        assert any(_matches(path, fixture_path) for path in row.paths), (
            f"line {row.line}: fixture {fixture} is for {load_fixture(fixture).endpoint}"
        )


def test_every_fixture_is_named_in_the_table() -> None:
    text = TABLE.read_text(encoding="utf-8")
    unnamed = [name for name in fixture_names() if f"`{name}`" not in text]
    assert not unnamed, f"fixtures docs/hub-endpoints.md does not name: {unnamed}"
