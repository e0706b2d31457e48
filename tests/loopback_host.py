"""A loopback web server standing in for a place on the internet a tool downloads from
(GitHub's raw host, where a backup file is kept): tests have no internet."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from aiohttp import web
from multidict import CIMultiDict


class LoopbackHost:
    """Serves what ``add`` put at a path (else 404) and records the paths asked for.

    ``raw_paths``: look paths up as the URL spells them (``%20`` kept), not decoded. A text
    body is answered as text (``text/plain; charset=utf-8``), bytes as they are; a header may
    be sent more than once (``header_pairs``).
    """

    def __init__(self, *, raw_paths: bool = False) -> None:
        self.raw_paths = raw_paths
        self.files: dict[str, tuple[int, str | bytes, list[tuple[str, str]]]] = {}
        self.hits: list[str] = []
        self.base = ""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.raw_path.split("?")[0] if self.raw_paths else request.path
        self.hits.append(path)
        status, body, pairs = self.files.get(path, (404, "Not Found", []))
        headers = CIMultiDict(pairs)
        if isinstance(body, bytes):
            return web.Response(status=status, body=body, headers=headers)
        return web.Response(status=status, text=body, headers=headers)

    def add(
        self,
        path: str,
        body: str | bytes,
        status: int = 200,
        *,
        header_pairs: Sequence[tuple[str, str]] = (),
        **headers: str,
    ) -> str:
        self.files[path] = (status, body, [*headers.items(), *header_pairs])
        return self.base + path


@asynccontextmanager
async def serving(host: LoopbackHost) -> AsyncIterator[LoopbackHost]:
    """``host`` on 127.0.0.1 at a free port (``host.base``) until the block ends."""
    app = web.Application()
    app.router.add_route("GET", "/{tail:.*}", host.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host.base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield host
    finally:
        await runner.cleanup()
