"""``/eventsocket`` and ``/logsocket``: the connected clients and what is sent to them."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .faults import Faults


def _raw_ws_frame(fin: bool, opcode: int, payload: bytes) -> bytes:
    b0 = (0x80 if fin else 0x00) | opcode
    n = len(payload)
    if n < 126:
        header = bytes((b0, n))
    elif n < 65536:
        header = bytes((b0, 126)) + n.to_bytes(2, "big")
    else:
        header = bytes((b0, 127)) + n.to_bytes(8, "big")
    return header + payload


def abort(request: web.Request) -> None:
    """Drop a request's TCP connection (no close frame, no response)."""
    transport = request.transport
    if transport is not None:
        transport.abort()


@dataclass(eq=False)
class _Socket:
    ws: web.WebSocketResponse
    request: web.Request
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)


def oversize_frame(size: int) -> str:
    """A valid event- and log-shaped JSON frame whose text makes it about ``size`` chars."""
    half = "x" * max(1, size // 2)
    frame = {"source": "DEVICE", "name": "oversize", "deviceId": 1, "value": half}
    return json.dumps(frame | {"msg": half, "level": "info", "type": "dev", "id": 1})


class SocketChannel:
    """One websocket endpoint: its open sockets; frames broadcast to all of them in order.

    ``faults.junk_frames`` sends a non-JSON text frame before each frame;
    ``faults.split_frames`` sends each frame as two websocket fragments."""

    def __init__(self, faults: Faults) -> None:
        self.faults = faults
        self._sockets: set[_Socket] = set()

    def __len__(self) -> int:
        return len(self._sockets)

    async def serve(self, request: web.Request, *, heartbeat: float) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=heartbeat, autoping=True)
        await ws.prepare(request)
        sock = _Socket(ws, request)
        self._sockets.add(sock)
        sender = asyncio.get_running_loop().create_task(self._sender(sock))
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self._sockets.discard(sock)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
        return ws

    def broadcast(self, frame: dict[str, Any]) -> None:
        if not self._sockets:
            return
        text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
        for sock in self._sockets:
            sock.queue.put_nowait(text)

    def drop(self) -> None:
        """Abruptly close (TCP abort, no close frame) every socket."""
        for sock in list(self._sockets):
            abort(sock.request)

    async def close(self) -> None:
        """Close every socket with ``1001``; one that does not close in time is aborted."""
        for sock in list(self._sockets):
            try:
                await asyncio.wait_for(sock.ws.close(code=1001, message=b"Server shutdown"), 1.0)
            except (TimeoutError, ConnectionError, RuntimeError):
                abort(sock.request)

    async def _sender(self, sock: _Socket) -> None:
        while True:
            text = await sock.queue.get()
            if sock.ws.closed:
                return
            try:
                if self.faults.junk_frames:
                    await sock.ws.send_str("Hubitat: not a JSON frame")
                if self.faults.oversize_frames > 0:
                    await sock.ws.send_str(oversize_frame(self.faults.oversize_frames))
                if self.faults.split_frames and len(text) > 1:
                    self._send_fragmented(sock, text)
                else:
                    await sock.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    @staticmethod
    def _send_fragmented(sock: _Socket, text: str) -> None:
        transport = sock.request.transport
        if transport is None or transport.is_closing():
            raise ConnectionResetError("socket closed")
        half = len(text) // 2
        transport.write(_raw_ws_frame(False, 0x1, text[:half].encode()))
        transport.write(_raw_ws_frame(True, 0x0, text[half:].encode()))
