"""Call-count benchmark: owner-style tasks done over MCP, and how many calls each takes.

Run: ``scripts/dev py -m benchmarks.calls``. Starts an emulated hub and a real Home Assistant
(as ``scripts/dev demo`` does, loopback only), then does every task of
``tests/owner_tasks.py`` through ``/api/mcp/hubitat_dev_tools`` on the compact surface, as a
model would (a gateway call counts as one; the model is taken to know the tool and its
arguments, as hub_search_tools answers them: a gateway's schema call is not counted).
Prints each task's calls, the total and the median per task. Figures, not assertions
(``tests/e2e/test_call_counts.py`` bounds each task).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from typing import Any

from scripts.ha_launcher import DOMAIN, HomeAssistantLauncher, tools_list
from tests.owner_tasks import TASKS, Assistant, TaskFailed


async def measure() -> list[tuple[str, int, str]]:
    """(task, calls, "ok" or the failure) for every task."""
    out: list[tuple[str, int, str]] = []
    async with HomeAssistantLauncher(temp_prefix="hdt-bench-") as ha:
        url = f"{ha.url}/api/mcp/{DOMAIN}"
        headers = {
            "Authorization": f"Bearer {ha.token}",
            "Accept": "application/json, text/event-stream",
        }
        _size, tools = await tools_list(ha.session, url, ha.token)
        where: dict[str, str] = {}
        for tool in tools:
            sub = tool["inputSchema"]["properties"].get("tool", {})
            for name in sub.get("enum", []):
                where[name] = tool["name"]

        async def call(name: str, args: dict[str, Any]) -> tuple[bool, Any]:
            body = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": name, "arguments": args},
            }
            async with ha.session.post(url, json=body, headers=headers) as resp:
                result = json.loads(await resp.read())["result"]
            text = result["content"][0]["text"]
            try:
                data = json.loads(text)
            except ValueError:
                data = text
            return bool(result.get("isError")), data

        for task in TASKS:
            bot = Assistant(call, where.get)
            try:
                await task.run(bot)
                verdict = "ok"
            except TaskFailed as err:
                verdict = f"failed: {str(err)[:80]}"
            out.append((task.ask, bot.calls, verdict))
    return out


def main() -> int:
    """Print the table, the total and the median."""
    rows = asyncio.run(measure())
    print("owner tasks over MCP (compact surface): calls per task")
    for ask, calls, verdict in rows:
        print(f"  {calls:2d}  {ask}  {'' if verdict == 'ok' else verdict}")
    counts = [c for _a, c, _v in rows]
    failed = sum(1 for _a, _c, v in rows if v != "ok")
    print(
        f"tasks {len(rows)}  calls total {sum(counts)}  median {statistics.median(counts):g}"
        f"  failed {failed}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
