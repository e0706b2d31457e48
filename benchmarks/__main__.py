"""Run every benchmark module and collect what they print.

``scripts/dev bench`` (or ``python -m benchmarks``): runs each ``benchmarks/<name>.py`` in
its own process (one emulated hub each, loopback only), prints its table, and writes
everything to ``benchmarks/results/latest.json``. Figures, not assertions.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    """Run the selected (default: all) benchmark modules."""
    names = argv or sorted(
        m.name for m in pkgutil.iter_modules([str(HERE)]) if not m.name.startswith("_")
    )
    results: dict[str, object] = {"when": datetime.now(UTC).isoformat(timespec="seconds")}
    failed = 0
    for name in names:
        print(f"== benchmarks.{name}", flush=True)
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", f"benchmarks.{name}"],
            capture_output=True,
            text=True,
            cwd=HERE.parent,
            timeout=900,
            check=False,
        )
        print(proc.stdout, end="", flush=True)
        if proc.returncode:
            failed += 1
            print(proc.stderr[-3000:], file=sys.stderr)
        results[name] = {
            "seconds": round(time.perf_counter() - start, 1),
            "returncode": proc.returncode,
            "output": proc.stdout.splitlines(),
        }
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "latest.json").write_text(json.dumps(results, indent=2))
    print(f"== wrote {out / 'latest.json'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
