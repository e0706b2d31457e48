"""Visual Rules in the graph format (the 2.0 editor): the structural check of a draft.

A graph rule is ``{version, nodes, edges}``. Evidence: the hub UI bundle
(``vue-hub2.min.js``, component ``VisualRuleBuilder20``): the empty rule (one
``sampleTrigger`` trigger joined to one ``sample`` action by a ``next`` edge);
``normalizeNodeRecord`` / ``nodeToDialogData`` / ``dialogDataToNode`` (a node is the dialog's
data plus ``id``, ``type`` trigger|condition|action, ``index``, ``deviceIds``; a trigger or
condition keeps its kind in ``triggerCondition`` and the sub-choice, e.g. ``sunset``, in
``condition``); ``validateRule`` (every rule below that the editor checks, in its words);
``portOptionsForKind`` (a condition has ports ``true``/``false``, the others ``next``). The
node dialogs are the classic builder's (same components), so the per-type keys are
``visual_nodes``'s. No Home Assistant import.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ...errors import ToolError
from .visual_nodes import (
    ACTION_TYPES,
    CONDITIONS,
    TRIGGERS,
    WHEN_TYPES,
    DeviceUse,
    check_nodes,
)

KINDS = ("trigger", "condition", "action")
_LIST_OF = {"trigger": "when_nodes", "condition": "when_nodes", "action": "then_nodes"}
_SAMPLE_OF = {"trigger": "sampleTrigger", "condition": "sampleCondition", "action": "sample"}
MAX_PROBLEMS = 20


@dataclass(slots=True)
class CheckedGraph:
    """A graph draft after the check: its normalised copy, what is wrong, the devices."""

    graph: dict[str, Any]
    problems: list[str] = field(default_factory=list)
    uses: list[DeviceUse] = field(default_factory=list)


def is_graph(body: dict[str, Any]) -> bool:
    return "nodes" in body or "edges" in body


def ports_of(kind: Any) -> tuple[str, ...]:
    return ("true", "false") if kind == "condition" else ("next",)


def _label(node: dict[str, Any], idx: int) -> str:
    return f"nodes[{idx}] ('{node.get('id')}')" if node.get("id") else f"nodes[{idx}]"


def _check_node(node: dict[str, Any], idx: int, out: CheckedGraph) -> dict[str, Any]:
    """One node: kind, type, keys and device ids (the classic node schema); its copy."""
    where = _label(node, idx)
    kind = node.get("type")
    if kind not in KINDS:
        out.problems.append(f"{where}: type must be trigger, condition or action.")
        return dict(node)
    key = "actionType" if kind == "action" else "triggerType"
    name = node.get(key)
    if name == _SAMPLE_OF[kind]:
        return {**node, "deviceIds": node.get("deviceIds") or [], "index": idx}
    if kind != "action":
        known = TRIGGERS if kind == "trigger" else CONDITIONS
        if name not in known:
            other = WHEN_TYPES.get(str(name))
            why = f"'{name}' is a {other.kind}" if other else f"unknown {key} '{name}'"
            out.problems.append(f"{where}: {why}; a {kind} node takes one of {', '.join(known)}.")
            return dict(node)
    # the node's dialog data (the sub-choice sits in triggerCondition there) checked as a
    # classic node, then put back in the graph's shape
    dialog = {k: v for k, v in node.items() if k not in ("id", "type", "index", "condition")}
    if kind != "action":
        dialog["triggerCondition"] = node.get("condition")
    spec = (ACTION_TYPES if kind == "action" else WHEN_TYPES).get(str(name))
    ids = dialog.get("deviceIds")
    if spec is not None and spec.devices and spec.devices not in dialog and ids:
        dialog[spec.devices] = ids[0] if spec.single and isinstance(ids, list) else ids
    list_key = _LIST_OF[kind]
    try:
        checked = check_nodes({list_key: [dialog]})
    except ToolError as err:
        text = str(err).replace(f"{list_key}[0]", where).replace(" Nothing was sent.", "")
        out.problems.append(text)
        return dict(node)
    fixed = checked.lists[list_key][0]
    fixed.update({"id": node.get("id"), "type": kind, "index": idx})
    if kind != "action":
        fixed["condition"] = fixed.pop("triggerCondition", None)
        fixed["triggerCondition"] = kind
    out.uses += [
        DeviceUse(u.path.replace(f"{list_key}[0]", where), u.device_id, u.node, list_key)
        for u in checked.uses
    ]
    return fixed


def _edge_problems(
    nodes: dict[str, dict[str, Any]], edges: list[Any], out: CheckedGraph
) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    incoming: Counter[str] = Counter()
    for idx, edge in enumerate(edges):
        where = f"edges[{idx}]"
        if not isinstance(edge, dict):
            out.problems.append(f"{where}: must be an object {{from, to, port}}.")
            continue
        src, dst, port = edge.get("from"), edge.get("to"), edge.get("port") or "next"
        if src not in nodes:
            out.problems.append(f"{where}: source node '{src}' does not exist.")
        if dst not in nodes:
            out.problems.append(f"{where}: destination node '{dst}' does not exist.")
        if src == dst:
            out.problems.append(f"{where}: an edge cannot join a node to itself.")
        if src in nodes and port not in ports_of(nodes[src].get("type")):
            ports = " or ".join(ports_of(nodes[src].get("type")))
            out.problems.append(f"{where}: port '{port}' is invalid for '{src}' (use {ports}).")
        if f"{src}:{port}" in seen:
            out.problems.append(f"{where}: node '{src}' has more than one '{port}' edge.")
        seen.add(f"{src}:{port}")
        incoming[str(dst)] += 1
        kept.append({"from": src, "to": dst, "port": port})
    for nid, node in nodes.items():
        count = incoming[nid]
        if node.get("type") == "trigger" and count:
            out.problems.append(f"trigger node '{nid}' cannot have incoming edges.")
        if node.get("type") in ("condition", "action") and count != 1:
            out.problems.append(
                f"{node.get('type')} node '{nid}' must have exactly one incoming edge "
                f"(it has {count})."
            )
    out.problems += _cycles(nodes, kept)
    return kept


def _cycles(nodes: dict[str, dict[str, Any]], edges: list[dict[str, Any]]) -> list[str]:
    """A cycle, if any (Kahn's order: nodes left with an incoming edge lie on or after one)."""
    after: dict[str, list[str]] = {nid: [] for nid in nodes}
    waiting: Counter[str] = Counter()
    for edge in edges:
        src, dst = str(edge["from"]), str(edge["to"])
        if src in nodes and dst in nodes:
            after[src].append(dst)
            waiting[dst] += 1
    ready = [nid for nid in nodes if not waiting[nid]]
    while ready:
        for nxt in after[ready.pop()]:
            waiting[nxt] -= 1
            if not waiting[nxt]:
                ready.append(nxt)
    left = [nid for nid in nodes if waiting[nid] > 0]
    return [f"cycles are not supported; node '{left[0]}' is on or after one."] if left else []


def check_graph(raw: dict[str, Any], *, runnable: bool = True) -> CheckedGraph:
    """Check a graph draft as the 2.0 editor's ``validateRule`` does, plus every node's
    keys and device ids (classic schema) and, with ``runnable``, that it has a real trigger
    and a real action. Collects every problem (up to :data:`MAX_PROBLEMS`); raises nothing."""
    nodes_in, edges_in = raw.get("nodes"), raw.get("edges")
    out = CheckedGraph({"version": raw.get("version") or 1, "nodes": [], "edges": []})
    if not isinstance(nodes_in, list) or not isinstance(edges_in, list):
        out.problems.append("a graph needs both lists: nodes and edges.")
        return out
    by_id: dict[str, dict[str, Any]] = {}
    for idx, node in enumerate(nodes_in):
        if not isinstance(node, dict):
            out.problems.append(f"nodes[{idx}]: must be an object.")
            continue
        nid = node.get("id")
        if not isinstance(nid, str) or not nid.strip():
            out.problems.append(f"nodes[{idx}]: id is missing (a text such as 'trigger-1').")
        elif nid in by_id:
            out.problems.append(f"nodes[{idx}]: duplicate node id '{nid}'.")
        fixed = _check_node(node, idx, out)
        out.graph["nodes"].append(fixed)
        if isinstance(nid, str) and nid.strip():
            by_id.setdefault(nid, fixed)
    out.graph["edges"] = _edge_problems(by_id, edges_in, out)
    if runnable:
        nodes = out.graph["nodes"]
        if not any(n.get("type") == "trigger" and n.get("triggerType") in TRIGGERS for n in nodes):
            out.problems.append("no trigger: the graph needs a trigger node that is not a sample.")
        if not any(
            n.get("type") == "action" and n.get("actionType") in ACTION_TYPES for n in nodes
        ):
            out.problems.append("no action: the graph needs an action node that is not a sample.")
    del out.problems[MAX_PROBLEMS:]
    return out


def graph_counts(graph: Any) -> tuple[int, int]:
    """(nodes, edges) of a stored graph; (-1, -1) when it is not one (for the read-back)."""
    if not isinstance(graph, dict):
        return (-1, -1)
    nodes, edges = graph.get("nodes"), graph.get("edges")
    return (
        len(nodes) if isinstance(nodes, list) else -1,
        len(edges) if isinstance(edges, list) else -1,
    )
