"""The layers stay layers: a library that stands alone, tools that only reach managers.

Read from the source (AST), so a violation fails here whatever the tests exercise:
- ``hub/`` imports nothing of Home Assistant and nothing above it (managers, tools, glue),
  and none of its text names one of our tools or a Home Assistant screen;
- ``managers/`` imports no Home Assistant and no tools, and sends no request itself: every
  endpoint is a function of ``hub/`` (where the endpoint table points); none of its text
  (strings, docstrings, comments) names one of our tools: the advice that names them is the
  tools layer's (``tools/errors.py``, the tool classes), so renaming a tool touches only it;
- ``tools/`` never imports the hub client and never calls a request method: every hub
  request goes through a manager.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from custom_components.hubitat_dev_tools.tools.surface import gateway_groups, registry

PACKAGE = Path(__file__).parent.parent / "custom_components" / "hubitat_dev_tools"
REQUEST_METHODS = {"request", "get_json", "get_text", "get_bytes", "post_json", "post_form"}
REQUEST_METHODS |= {"maker_get", "get_location"}
# Home Assistant's own screens and roles (the hub's screens, "Settings > Hub Variables" on
# the hub, are the library's business).
HA_SCREENS = re.compile(r"Devices & services|Reconfigure|Home Assistant (admin|user)", re.I)


def _modules(layer: str) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        yield path, ast.parse(path.read_text(), filename=str(path))


def _imports(tree: ast.Module) -> Iterator[str]:
    """Every imported module, relative ones written with their leading dots."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or "")


def _strings(tree: ast.Module) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


@pytest.mark.parametrize("layer", ["hub", "managers"])
def test_no_home_assistant_below_the_glue(layer: str) -> None:
    offenders = [
        f"{path.name}: {name}"
        for path, tree in _modules(layer)
        for name in _imports(tree)
        if name.startswith(("homeassistant", "probatio", "voluptuous"))
    ]
    assert offenders == []


def _tool_names() -> re.Pattern[str]:
    names = [cls.name for cls in TOOL_CLASSES] + list(gateway_groups(registry().values()))
    return re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")


def test_hub_library_stands_alone() -> None:
    tool_name = _tool_names()
    upward = [
        f"{path.name}: {name}"
        for path, tree in _modules("hub")
        for name in _imports(tree)
        if name.startswith("..")  # hub/ may import only itself
    ]
    assert upward == []
    texts = [
        f"{path.name}: {text[:80]!r}"
        for path, tree in _modules("hub")
        for text in _strings(tree)
        if tool_name.search(text) or HA_SCREENS.search(text)
    ]
    assert texts == [], "hints naming tools or HA screens belong in tools/errors.py"


def test_managers_do_not_import_tools() -> None:
    offenders = [
        f"{path.name}: {name}"
        for path, tree in _modules("managers")
        for name in _imports(tree)
        if name.startswith("..tools") or name.startswith("...tools")
    ]
    assert offenders == []


def test_tools_reach_the_hub_only_through_managers() -> None:
    offenders: list[str] = []
    for path, tree in _modules("tools"):
        offenders += [
            f"{path.name}: imports {name}"
            for name in _imports(tree)
            if name.endswith("hub.client") or name.endswith("hub.state_cache")
        ]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "client":
                offenders.append(f"{path.name}:{node.lineno}: .client")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in REQUEST_METHODS
            ):
                offenders.append(f"{path.name}:{node.lineno}: .{node.func.attr}()")
    assert offenders == []


def test_managers_send_requests_only_through_the_library() -> None:
    offenders = [
        f"{path.name}:{node.lineno}: .{node.func.attr}()"
        for path, tree in _modules("managers")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in REQUEST_METHODS
        and isinstance(node.func.value, ast.Attribute | ast.Name)
        and "client" in ast.unparse(node.func.value)
    ]
    assert offenders == []


def _comments(path: Path) -> Iterator[tuple[int, str]]:
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string


def test_managers_name_no_tool() -> None:
    """Managers say what happened (a code, a subject, the facts); the tools name the tools."""
    tool_name = _tool_names()
    offenders: list[str] = []
    for path, tree in _modules("managers"):
        where = path.relative_to(PACKAGE / "managers")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and (found := tool_name.search(node.value))
            ):
                offenders.append(f"{where}:{node.lineno}: {found[0]} in a string")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "ToolError"
            ):
                for kw in node.keywords:
                    if kw.arg == "hint" and (found := tool_name.search(ast.unparse(kw.value))):
                        offenders.append(f"{where}:{node.lineno}: {found[0]} in a hint")
        offenders += [
            f"{where}:{line}: {found[0]} in a comment"
            for line, text in _comments(path)
            if (found := tool_name.search(text))
        ]
    assert offenders == [], "advice naming tools belongs in tools/ (tools/errors.py or the tool)"


def test_tool_hints_fill_their_fields() -> None:
    """Every ``{field}`` of an advice entry is filled when the error carries that fact."""
    from custom_components.hubitat_dev_tools.errors import ToolError
    from custom_components.hubitat_dev_tools.tools.errors import (
        FACT_HINTS,
        TOOL_HINTS,
        advice_for,
    )

    tool_name = _tool_names()
    for (code, subject), advice in TOOL_HINTS.items():
        assert tool_name.search(advice) or "{" in advice, (code, subject)
        fields = dict.fromkeys(re.findall(r"\{(\w+)\}", advice), "X")
        err = ToolError("m", code=code, hint="own", subject=subject, extra=fields or None)
        assert advice_for(err) == re.sub(r"\{\w+\}", "X", advice), (code, subject)
    for fact, advice in FACT_HINTS.items():
        err = ToolError("m", hint="own", extra={fact: "42"})
        assert advice_for(err) == "own " + advice.replace("{" + fact + "}", "42")
    # no subject, or a subject without an entry: the call site's own hint stays
    assert advice_for(ToolError("m", hint="own")) == "own"
    assert advice_for(ToolError("m", hint="own", subject="no such subject")) == "own"


def test_managers_send_requests_through_the_controllers() -> None:
    """Managers reach the hub through the library's controllers (``Hubitat``), never by
    calling an endpoint function (one whose first parameter is the ``HubClient``)."""
    import importlib
    import inspect

    calls_client: list[str] = []
    for path, tree in _modules("managers"):
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            if not re.match(r"^hub\.\w+$", node.module.lstrip(".")) or node.level < 2:
                continue
            module = importlib.import_module(
                f"custom_components.hubitat_dev_tools.{node.module.lstrip('.')}"
            )
            for alias in node.names:
                obj = getattr(module, alias.name, None)
                if not inspect.isfunction(obj):
                    continue
                params = list(inspect.signature(obj).parameters.values())
                if params and params[0].name == "client":
                    calls_client.append(f"{path.relative_to(PACKAGE)}: {alias.name}")
    assert calls_client == [], calls_client
