"""Print the pip requirements of Home Assistant components, read from the installed manifests.

Usage: python scripts/ha_requirements.py mcp_server conversation ...
Follows each component's "dependencies" so the list is complete for tests that set them up.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


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
        for req in data.get("requirements", []):
            if req not in reqs:
                reqs.append(req)
    print("\n".join(sorted(reqs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
