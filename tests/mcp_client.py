"""A minimal JSON-RPC client for mcp_server's stateless streamable HTTP endpoint."""

from __future__ import annotations

import json
from typing import Any

HEADERS = {"Accept": "application/json, text/event-stream"}


class Mcp:
    """Talks to /api/mcp (or /api/mcp/<api_id>) through an aiohttp test client."""

    def __init__(self, client: Any, path: str = "/api/mcp") -> None:
        self.client = client
        self.path = path
        self.next_id = 0

    async def rpc(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """Send one JSON-RPC request; fail the test on a JSON-RPC error."""
        self.next_id += 1
        resp = await self.client.post(
            self.path,
            headers=HEADERS,
            json={"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}},
        )
        assert resp.status == 200, await resp.text()
        body = await resp.json()
        assert "error" not in body, body  # a JSON-RPC error means an exception escaped
        return body["result"]

    async def call(self, name: str, args: dict[str, Any] | None = None) -> tuple[bool, Any]:
        """Call a tool; return (isError, decoded JSON data or text)."""
        result = await self.rpc("tools/call", {"name": name, "arguments": args or {}})
        text = result["content"][0]["text"]
        try:
            data = json.loads(text)
        except ValueError:
            data = text
        return bool(result.get("isError")), data

    async def ok(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call a tool and assert it succeeded with a JSON object; return that object."""
        is_error, data = await self.call(name, args)
        assert not is_error and isinstance(data, dict), (name, data)
        return data
