from __future__ import annotations
import cProfile, pstats, io, time, statistics
from typing import Any
from tests.mcp_client import Mcp


async def test_profile(mcp: Mcp) -> None:
    for name, args in (("hub_list_devices", {}),):
        async def once() -> None:
            await mcp.ok(name, args)
        for _ in range(3):
            await once()
        ts = []
        for _ in range(30):
            t = time.perf_counter(); await once(); ts.append(time.perf_counter() - t)
        print("\n#### median", statistics.median(ts) * 1000)
        prof = cProfile.Profile()
        for _ in range(20):
            prof.enable()
            await once()
            prof.disable()
        s = io.StringIO()
        st = pstats.Stats(prof, stream=s).sort_stats("cumulative")
        st.print_stats("hubitat_dev_tools", 40)
        print(s.getvalue()[:8000])
