"""Visual Rules in the graph format (the 2.0 editor): the save endpoint.

Evidence: the hub UI bundle (``vue-hub2.min.js``, component ``VisualRuleBuilder20``):
``saveRuleDefinition`` posts ``{name, ruleJson}`` to ``/app/ruleBuilder20Json/<id>`` with
``ruleJson`` the graph as JSON text (not an object), and takes the answer
``{success?, name, ruleJson, validationErrors, errorMessage}``: only ``success: false`` is a
failure; a save with validation errors is kept. The on-hub server
``libraries/mcp-visual-rules-lib.groovy`` (``_vrbSaveGraph``) agrees. The read
(``fetch_rule_builder20``) is in ``hub/apps.py``.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from .client import HubClient
from .errors import HubRefusedError


def graph_text(graph: dict[str, Any]) -> str:
    """The graph as the editor sends it: compact JSON text."""
    return json.dumps(graph, separators=(",", ":"))


def parse_graph_text(text: Any) -> dict[str, Any] | None:
    """A stored ``ruleJson`` as a graph ``{version, nodes, edges}``; None when blank (a rule
    created and never saved) or not a JSON object (the editor then shows an empty graph)."""
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


async def save_visual_graph(
    client: HubClient, app_id: str, name: str, graph: dict[str, Any]
) -> dict[str, Any]:
    """``POST /app/ruleBuilder20Json/<id>`` ``{name, ruleJson}``; the hub's answer (``{}``
    when it is not JSON). ``{"success": false}`` raises :class:`HubRefusedError`."""
    try:
        answer = await client.post_json(
            f"/app/ruleBuilder20Json/{quote(app_id, safe='')}",
            {"name": name, "ruleJson": graph_text(graph)},
            what=f"save the graph of Visual Rule {app_id}",
        )
    except HubRefusedError as err:
        err.subject = "visual_rule"
        raise
    return answer if isinstance(answer, dict) else {}
