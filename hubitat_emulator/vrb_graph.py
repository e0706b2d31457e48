"""Graph-format Visual Rules (the 2.0 editor): new rules and the editor's save.

Evidence: the hub UI bundle (``vue-hub2.min.js``, ``VisualRuleBuilder20``): the editor
reads ``window.HubitatRuleBuilder20AppId`` from the page ``/app/createVisualRuleBuilderRule``
opens, loads ``/app/ruleBuilder20Json/<id>`` ``{name, rulePaused, ruleJson (text),
validationErrors}`` (a blank ``ruleJson`` shows the empty sample graph) and saves
``{name, ruleJson}`` to the same path, reading back ``name``, ``ruleJson`` and
``validationErrors`` from the answer (only ``success: false`` is a failure). The on-hub server
``libraries/mcp-visual-rules-lib.groovy`` (``_vrbCreate`` matches either global;
``_vrbSaveGraph``: a save with validation errors is kept). What the hub itself puts in
``validationErrors`` is not in the evidence: the emulator keeps what tests store there.
"""

from __future__ import annotations

import json
from typing import Any

NEW_NAME = "New Visual Rule"


def new_graph_rule() -> dict[str, Any]:
    """A rule the create page just made: never saved, so its ruleJson is blank."""
    return {"name": NEW_NAME, "rulePaused": False, "ruleJson": "", "validationErrors": []}


def create_page(app_id: int, *, graph: bool) -> str:
    """The builder page the create endpoint answers, naming the new rule's id."""
    var = "HubitatRuleBuilder20AppId" if graph else "HubitatRuleBuilderAppId"
    return (
        f"<html><head><script>window.{var} = {app_id};</script></head>"
        "<body><div id='app'></div></body></html>"
    )


def save(rule: dict[str, Any], raw: str, *, drop: bool) -> tuple[dict[str, Any], str | None]:
    """Apply the editor's save ``{name, ruleJson (text)}`` to ``rule``: (answer, new name).

    A body that is not JSON or whose ruleJson is not text is refused
    (``{"success": false, "errorMessage"}``); ``drop`` (a knob) answers as if saved and
    keeps nothing, as a hub that lies would.
    """
    try:
        body = json.loads(raw)
    except ValueError:
        return {"success": False, "errorMessage": "Invalid JSON"}, None
    if not isinstance(body, dict) or not isinstance(body.get("ruleJson", ""), str):
        return {"success": False, "errorMessage": "Invalid rule definition"}, None
    if drop:
        return dict(rule), None
    rule.update({k: body[k] for k in ("name", "ruleJson") if k in body})
    name = body.get("name")
    return dict(rule), str(name) if name else None
