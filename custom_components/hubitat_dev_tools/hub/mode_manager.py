"""Mode Manager endpoints: the Integrated Mode Manager's triggers and the manager selection.

Evidence (hub UI bundle ``vue-hub2.min.js``, components ``ModeController`` and the modes
page; the on-hub server's ``libraries/mcp-system-lib.groovy`` ``toolGetModes`` /
``toolSetModeManager``):

* ``GET /modes/easyModeManager/json`` answers one object for every mode: ``"<modeId>"`` -> the
  mode's triggers, ``"alt-<modeId>"`` -> its triggers on the days its ``daysOfWeek`` entry
  leaves out, ``"exitAway"`` -> the triggers that end Away; ``{}`` when none is set. It is
  independent of which manager is selected.
* ``POST /modes/easyModeManager/json`` replaces the WHOLE object (the hub UI posts its full
  copy after every edit) and answers ``{success, message?}``.
* ``GET /modes/setModeManager/<id>`` selects the manager that runs: ``builtIn`` (Integrated),
  ``app`` (the classic Mode Manager app, offered when ``modeManagerAppId`` is set),
  ``legacy`` (offered when ``legacyModeManagerAppId`` is set), ``none`` ("Other apps");
  answers ``{success, message?}``. ``/modes/json`` carries the selection back.
"""

from __future__ import annotations

from typing import Any

from .client import HubClient
from .models import dict_list

CONDITIONS_PATH = "/modes/easyModeManager/json"
MANAGER_IDS = ("builtIn", "app", "legacy", "none")
EXIT_AWAY = "exitAway"
ALT_PREFIX = "alt-"


def parse_conditions(data: Any) -> dict[str, list[dict[str, Any]]]:
    """The trigger lists by key (mode id, ``alt-<id>``, ``exitAway``); other shapes read as
    none set (the hub answers ``{}`` then)."""
    if not isinstance(data, dict):
        return {}
    return {str(key): dict_list(value) for key, value in data.items()}


async def fetch_conditions(client: HubClient) -> dict[str, list[dict[str, Any]]]:
    """GET /modes/easyModeManager/json."""
    return parse_conditions(await client.get_json(CONDITIONS_PATH))


async def save_conditions(client: HubClient, conditions: dict[str, list[dict[str, Any]]]) -> Any:
    """POST /modes/easyModeManager/json with the complete object; a failure envelope raises
    :class:`HubRefusedError` (the caller decides by reading the triggers back)."""
    return await client.post_json(
        CONDITIONS_PATH, conditions, what="save the Mode Manager triggers"
    )


async def select_manager(client: HubClient, manager: str) -> Any:
    """GET /modes/setModeManager/<id>; a failure envelope (e.g. "Invalid mode manager") raises
    :class:`HubRefusedError` (the caller reads ``/modes/json`` back)."""
    return await client.request(
        "GET",
        f"/modes/setModeManager/{manager}",
        expect="any",
        retry=False,
        what=f"select the mode manager '{manager}'",
    )
