"""A resolver for the code tier's URL check: the tests have no DNS.

``use_fake_dns(monkeypatch)`` makes ``safety.resolve_host`` answer from ``HOSTS`` (public
documentation hosts resolve to a public address, LAN names to private ones) and fail like
an unknown name for anything else.
"""

from __future__ import annotations

import socket

import pytest

from custom_components.hubitat_dev_tools import safety

HOSTS: dict[str, list[str]] = {
    "example.com": ["93.184.215.14"],
    "github.com": ["140.82.112.3"],
    "hubitat.lan": ["192.168.1.20"],
    "rebind.example.net": ["93.184.215.14", "127.0.0.1"],
    "localhost": ["127.0.0.1", "::1"],
}


def use_fake_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resolve bundle hosts from ``HOSTS`` instead of the network."""

    async def resolve(host: str, port: int) -> list[str]:
        if host.lower() in HOSTS:
            return HOSTS[host.lower()]
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(safety, "resolve_host", resolve)
