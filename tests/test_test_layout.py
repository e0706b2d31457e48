"""No test module imports another test module: shared helpers live in helper modules.

Read from the source (AST): every ``import`` and ``from ... import`` at any depth of every
``tests/**/*.py`` (inside functions too), relative or absolute, is checked. Importing a module
whose name starts with ``test_`` (``from .test_x import y``, ``from ..glue import test_x``,
``import tests.glue.test_x``) is a finding: a helper, constant, data table or fixture wanted by
more than one test module belongs in a ``*_util.py`` helper module or a ``conftest.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
ROOT = TESTS.parent


def _package(path: Path) -> list[str]:
    """The dotted package of a file under the checkout, as parts (``tests/glue/x.py``)."""
    return list(path.relative_to(ROOT).parent.parts)


def _is_test_module(parts: list[str]) -> bool:
    return bool(parts) and parts[-1].startswith("test_")


def _imported_modules(path: Path, node: ast.Import | ast.ImportFrom) -> list[list[str]]:
    """Every module (as dotted parts) the statement names, packages on the way included."""
    if isinstance(node, ast.Import):
        names = [alias.name.split(".") for alias in node.names]
    else:
        package = _package(path)
        base = package[: len(package) - (node.level - 1)] if node.level else []
        module = base + (node.module.split(".") if node.module else [])
        names = [module]
        # ``from pkg import name``: name is a module when pkg/name.py (or pkg/name/) exists
        for alias in node.names:
            target = ROOT.joinpath(*module, alias.name)
            if target.with_suffix(".py").is_file() or target.is_dir():
                names.append([*module, alias.name])
    return [parts[:i] for parts in names for i in range(1, len(parts) + 1)]


def test_no_test_module_imports_another_test_module() -> None:
    found: list[str] = []
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            bad = {".".join(m) for m in _imported_modules(path, node) if _is_test_module(m)}
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {m}" for m in sorted(bad)]
    assert found == [], "test modules import other test modules:\n" + "\n".join(found)
