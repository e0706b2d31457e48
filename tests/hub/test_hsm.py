"""The library's Hubitat Safety Monitor calls (``hub/hsm.py``) on their own, no hass: an HSM
command through the Maker API reads the hub's recorded answer, and the hub's messages page
(the current mode, HSM status and alert) reads defensively, whatever its shape.

Moved from tests/tools/test_home_location.py (test_hub_messages_are_parsed_defensively, and
test_maker_mode_and_hsm_fixtures, its HSM part: the parsing is the library's; the HSM tools
called by name, their confirmation gate, argument check and advice stay there, and the HSM
manager's logic is tested in tests/managers/test_hsm.py)."""

from __future__ import annotations

from typing import Any

from custom_components.hubitat_dev_tools.hub.hsm import HubMessages, hsm_command, parse_messages

from ..fixture_client import fixture_client


async def test_maker_hsm_fixture() -> None:
    assert await hsm_command(fixture_client("maker/hsm"), "armAway") == "armedAway"


def test_hub_messages_are_parsed_defensively() -> None:
    # /hub/messages rests on no evidence: every shape reads, none fails.
    sample: dict[str, Any] = {"messages": [], "mode": {"id": 2, "name": "Evening"}}
    sample |= {"hsm": None, "hsmAlert": None}
    assert parse_messages(sample) == HubMessages(mode="Evening")
    assert parse_messages({"mode": "Night", "hsm": "armedAway", "hsmAlert": "intrusion"}) == (
        HubMessages("Night", "armedAway", "intrusion")
    )
    nested = {"mode": {"name": ""}, "hsm": {"status": "disarmed"}, "hsmAlert": "null"}
    assert parse_messages(nested) == HubMessages(hsm="disarmed")
    odd: Any
    for odd in (None, [], "text", 3, {"mode": [1], "hsm": True, "hsmAlert": {}}):
        assert parse_messages(odd) == HubMessages()
