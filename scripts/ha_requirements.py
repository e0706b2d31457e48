"""Print the pip requirements of Home Assistant components, read from the installed manifests.

Usage: python scripts/ha_requirements.py mcp_server conversation ...
Follows each component's "dependencies" so the list is complete for tests that set them up.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# Pins with no wheel for Python 3.14 (building them needs a C++ toolchain the test root does
# not have): releases that ship abi3 wheels instead. Only assist_pipeline imports them,
# which Home Assistant always sets up (a base platform's dependency); nothing here uses them.
OVERRIDES = {
    "pymicro-vad": "pymicro-vad==2.1.0",
    "pyspeex-noise": "pyspeex-noise==2.0.1",
}


def main(components: list[str]) -> int:
    import homeassistant.components as comps

    root = Path(next(iter(comps.__path__)))
    seen: set[str] = set()
    reqs: list[str] = []
    todo = list(components)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        manifest = root / name / "manifest.json"
        if not manifest.exists():
            continue
        data = json.loads(manifest.read_text())
        todo.extend(data.get("dependencies", []))
        for pinned in data.get("requirements", []):
            req = OVERRIDES.get(pinned.split("==")[0].lower(), pinned)
            if req not in reqs:
                reqs.append(req)
    print("\n".join(sorted(reqs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
