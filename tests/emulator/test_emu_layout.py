"""The emulated hub keeps its domain model apart from its HTTP routes.

Read from the source: only the route modules (``routes_*.py``) and the HTTP plumbing
(the server, its sockets, responses, faults, the Maker API's postURL delivery and ``hub.py``,
which assembles them) import aiohttp. The state and behaviour of the simulated home (``home.py``,
the ``*_state.py`` modules, the rule engine, ...) can be driven and read without a server.
"""

from __future__ import annotations

import ast
from pathlib import Path

EMULATOR = Path(__file__).parent.parent.parent / "hubitat_emulator"
HTTP_PLUMBING = {"hub", "server", "sockets", "responses", "faults", "postdelivery"}


def _imports_aiohttp(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "aiohttp" for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "aiohttp":
            return True
    return False


def test_only_routes_and_plumbing_speak_http() -> None:
    http = {p.stem for p in EMULATOR.glob("*.py") if _imports_aiohttp(p)}
    assert http, "the emulator serves HTTP somewhere"
    misplaced = sorted(m for m in http if not m.startswith("routes_") and m not in HTTP_PLUMBING)
    assert misplaced == [], f"domain modules importing aiohttp: {misplaced}"
    # and the plumbing list names modules that exist (a rename must update it)
    modules = {p.stem for p in EMULATOR.glob("*.py")}
    assert modules >= HTTP_PLUMBING
