"""Where a tools/call's and a tools/list's time goes: our API against mcp_server's own work.

Run: ``scripts/dev py -m benchmarks.mcp_split`` (``HDT_HA_VERSION=2026.11.0`` for that
version). Runs ``tests/e2e/bench_mcp_split.py`` under pytest (it needs the test suite's real
``hass``, mcp_server and emulated hub, all in one process on loopback) and prints its table.
``benchmarks.mcp`` gives the figures over real HTTP with Home Assistant in its own process;
this one splits them. Figures, not assertions.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Run the case and print what it prints."""
    early = ["-p", "scripts.pytest_next_ha"] if os.environ.get("HDT_HA_VERSION") else []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *early,
            "-q",
            "-s",
            "-o",
            "python_files=bench_*.py",
            "tests/e2e/bench_mcp_split.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    lines = proc.stdout.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Inside")), None)
    if proc.returncode or start is None:
        print(proc.stdout[-3000:], proc.stderr[-2000:], sep="\n")
        return 1
    for line in lines[start:]:
        if not line.strip() or line.startswith(("PASSED", ".", "=")):
            break
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
