"""Arguments for calling every tool through mcp_server, one module per domain.

Each module defines ``async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]`` mapping a
tool name to arguments that make a successful call against the seeded emulated hub.
test_mcp_server.py collects them all and fails if a tool has no case.
"""
