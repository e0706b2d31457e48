"""The library's lifecycle functions (``hub/lifecycle.py``) on their own, no hass: the
firmware update check read from the hub's recorded answer without the owner's e-mails, the
install and its status read from their recorded answers, and whether an update started read
from every shape the hub answers it in (yes, no, or unknown).

Moved from tests/tools/test_lifecycle.py (test_update_fixtures_parse,
test_update_answers_in_every_shape: the lifecycle tools' confirmation and backup gates, the
integration recovering after a reboot, signing in again on a hub with security and the
arguments handed on stay there; the wait for a reboot, the shutdown and the firmware install
are tested on the manager in tests/managers/test_lifecycle.py)."""

from __future__ import annotations

from typing import Any

from custom_components.hubitat_dev_tools.hub import lifecycle as hub_lifecycle

from ..contract import load_fixture
from ..fixture_client import fixture_client


async def test_update_fixtures_parse() -> None:
    check = await hub_lifecycle.check_for_update(fixture_client("lifecycle/check_for_update"))
    assert check["status"] == "UPDATE_AVAILABLE" and check["version"] == "2.5.0.157"
    assert not [k for k in check if "email" in k.lower()]  # the owner's e-mails never leave
    assert hub_lifecycle.update_started(load_fixture("lifecycle/update_platform").answer)
    await hub_lifecycle.install_update(fixture_client("lifecycle/update_platform"))
    status = await hub_lifecycle.update_status(fixture_client("lifecycle/update_status"))
    assert str(status["status"]) in hub_lifecycle.UPDATE_RUNNING


def test_update_answers_in_every_shape() -> None:
    for yes in ({"success": "true"}, {"success": True}, True, "true", " true\n"):
        assert hub_lifecycle.update_started(yes) is True
    for no in ({"success": "false", "message": "No update"}, {"success": False}):
        assert hub_lifecycle.update_started(no) is False
    unknown: Any
    for unknown in ("ok", None, {}, [], {"status": "x"}):
        assert hub_lifecycle.update_started(unknown) is None
