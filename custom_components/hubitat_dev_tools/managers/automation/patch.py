"""Changes to a rule's spec before it is built again: a JSON Patch of the spec a rule read
returned, and the originals of what that read showed redacted."""

from __future__ import annotations

import copy
import json
from typing import Any

from ...errors import ToolError
from ...redact import REDACTED, redact


def restore_redacted(value: Any, current: Any) -> Any:
    """``value`` with each part that reads exactly as one of the current rule's parts holding
    a redacted secret (a rule's URL, a POST body, a lock code: a rule read never shows their
    secrets) put back to the original, so a spec read, changed and given back loses nothing.

    The unit put back is the whole object the secret sits in (an action with its URL, body
    and content type), never a string on its own: a redacted string copied elsewhere (a log
    line, a variable's value, another host's POST body) stays redacted and is refused by
    :func:`refuse_redacted`, so a secret cannot be moved to where a read or a request shows
    it. When two of the rule's objects read the same (two URLs that differ only in their
    token), which one is meant cannot be told, and it stays redacted too."""
    originals: dict[str, list[Any]] = {}

    def key(node: Any) -> str:
        return json.dumps(node, sort_keys=True, default=str)

    def collect(raw: Any, shown: Any) -> None:
        if isinstance(raw, dict) and isinstance(shown, dict):
            if raw != shown:
                originals.setdefault(key(shown), []).append(raw)
            for k, v in raw.items():
                collect(v, shown.get(k))
        elif isinstance(raw, list) and isinstance(shown, list):
            for a, b in zip(raw, shown, strict=False):
                collect(a, b)

    def swap(node: Any) -> Any:
        if isinstance(node, dict):
            raws = originals.get(key(node), [])
            if len({key(r) for r in raws}) == 1:
                return copy.deepcopy(raws[0])
            return {k: swap(v) for k, v in node.items()}
        if isinstance(node, list):
            return [swap(v) for v in node]
        return node

    collect(current, redact(current))
    return swap(value) if originals else value


def refuse_redacted(value: Any, path: str = "rule") -> None:
    """Refuse a spec that still holds a redacted part: it would be stored as the
    placeholder (a URL, a POST body or a PIN the hub then uses)."""
    if isinstance(value, str) and REDACTED in value:
        raise ToolError(
            f"{path}: holds a part that was redacted when the rule was read (a read "
            "never shows a secret) and that cannot be told to be one of the rule's own (two "
            "of them read the same, or none does). Nothing was sent.",
            hint="Give that value in full, or change the rule with a JSON Patch that leaves "
            "it as it is.",
        )
    if isinstance(value, dict):
        for k, v in value.items():
            refuse_redacted(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            refuse_redacted(v, f"{path}[{i}]")


def refuse_unread(value: Any, path: str = "rule") -> None:
    """Refuse a spec that still holds a placeholder a rule read left for a part it could not
    read (``{"unknown": why}``, beside a partly read part too): built from it, the rule would
    lose that part without a word."""
    if isinstance(value, dict):
        if "unknown" in value:
            raise ToolError(
                f"{path}: is a part of the rule its read could not decode ({value['unknown']})"
                ", so the spec cannot build it. Nothing was sent.",
                hint="Give that part in full in the spec's form (its text is in the read's "
                "undecompiled), or leave it out; an update keeps such a part of an existing "
                "rule where the read shows it.",
            )
        for k, v in value.items():
            refuse_unread(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            refuse_unread(v, f"{path}[{i}]")


def apply_patch(doc: Any, ops: list[Any]) -> Any:
    """RFC 6902 ``add`` / ``replace`` / ``remove`` on a copy of ``doc``."""
    out = copy.deepcopy(doc)
    for i, op in enumerate(ops):
        where = f"patch[{i}]"
        if not isinstance(op, dict) or op.get("op") not in ("add", "replace", "remove"):
            raise ToolError(
                f"{where}: each change is {{op: add|replace|remove, path, value}}. "
                "Nothing was sent."
            )
        path = op.get("path")
        if not isinstance(path, str) or not path.startswith("/"):
            raise ToolError(
                f"{where}.path must be a JSON Pointer such as /actions/3/delay. Nothing was sent."
            )
        parts = [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]
        parent: Any = out
        for part in parts[:-1]:
            parent = _child(parent, part, where)
        last = parts[-1]
        if isinstance(parent, list):
            idx = len(parent) if last == "-" else _index(last, parent, where, op["op"] == "add")
            if op["op"] == "remove":
                parent.pop(idx)
            elif op["op"] == "add":
                parent.insert(idx, op.get("value"))
            else:
                parent[idx] = op.get("value")
        elif isinstance(parent, dict):
            if op["op"] == "remove":
                if last not in parent:
                    raise ToolError(f"{where}: {path} is not in the rule. Nothing was sent.")
                parent.pop(last)
            elif op["op"] == "replace" and last not in parent:
                raise ToolError(f"{where}: {path} is not in the rule (use add). Nothing was sent.")
            else:
                parent[last] = op.get("value")
        else:
            raise ToolError(f"{where}: {path} does not lead into the rule. Nothing was sent.")
    return out


def _index(part: str, items: list[Any], where: str, adding: bool) -> int:
    if not part.isdigit() or int(part) > len(items) - (0 if adding else 1):
        raise ToolError(
            f"{where}: no item {part} there (there are {len(items)}). Nothing was sent."
        )
    return int(part)


def _child(node: Any, part: str, where: str) -> Any:
    if isinstance(node, list):
        return node[_index(part, node, where, False)]
    if isinstance(node, dict) and part in node:
        return node[part]
    raise ToolError(
        f"{where}: '{part}' is not in the rule. Nothing was sent.",
        hint="Read the rule again; paths follow its spec.",
        subject="patch_path",
    )
