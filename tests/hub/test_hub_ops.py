"""The library's network helpers (``hub/network.py``) on their own, no hass: a host given for
a network test checked and normalised (an address or a name, nothing else), a network
test's output read into figures (packet loss, average time, speed; a long output cut), and
the hub's network page parsed (its recorded answer, the static name servers as a list or as
one text).

Moved from tests/tools/test_hub_ops.py (test_valid_host, test_summaries_read_the_figures,
test_network_configuration_fixture_parses: the parsing is the library's; each hub operation
tool called by name, the network test's host refusals and default host, and the hub
settings tool's gates stay there, and running the tests, the identify LED and the memory
cleanup are tested on the manager in tests/managers/test_hub_ops.py)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.hub.network import (
    network_config_from,
    summarize_test,
    valid_host,
)

from ..contract import load_fixture


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("1.1.1.1", "1.1.1.1"),
        ("Example.COM", "example.com"),
        ("router-1.lan", "router-1.lan"),
        ("300.1.1.1", None),
        ("1.1.1", None),
        ("gateway", None),
        ("default", None),
        ("-bad.com", None),
        ("a..b", None),
        ("x" * 64 + ".com", None),
    ],
)
def test_valid_host(text: str, host: str | None) -> None:
    assert valid_host(text) == host


def test_summaries_read_the_figures() -> None:
    ping = (
        "4 packets transmitted, 3 packets received, 25% packet loss\n"
        "round-trip min/avg/max = 1.0/2.5/4.0 ms"
    )
    assert summarize_test("ping", ping) == {
        "packet_loss_percent": 25.0,
        "average_ms": 2.5,
        "output": ping,
    }
    assert summarize_test("speed_test", "Download: 41.5 Mbps")["speed"] == "41.5 Mbps"
    long = summarize_test("traceroute", "x" * 5000)
    assert len(long["output"]) == 4000 and long["output_truncated"] is True


def test_network_configuration_fixture_parses() -> None:
    answer = load_fixture("network/network_configuration").answer
    cfg = network_config_from(answer)
    assert cfg.lan_address == "192.168.1.40" and cfg.dns_servers == ["192.168.1.1"]
    assert cfg.static_name_servers == ["9.9.9.9"] and not cfg.using_static_ip
    # the page also copes with the static name servers as one text
    text = network_config_from({**answer, "staticNameServers": "1.1.1.1, 8.8.8.8"})
    assert text.static_name_servers == ["1.1.1.1", "8.8.8.8"]
