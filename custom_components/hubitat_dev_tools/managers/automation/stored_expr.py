"""A Rule Machine expression as the hub stores it, read into a tree.

A rule's state keeps its expressions in ``eval``, a map from an expression id to its tokens
(rule-storage notes: GordonThelander/hubitat-automation-map,
``Supporting Docs/rule_machine_5_1_storage_format.md``, 2026-09-18 revision, live on 2.5.1:
``eval["0"]`` is the Required Expression while ``hasPredicate`` is true; an IF, ELSE-IF or
Wait for Expression action names its own expression by the ``rule`` field of its entry in
the state's ``actions`` map). The value is not consistently typed: a list, a bare number or
a quoted string, and within a list condition numbers may be numbers or digit strings
(``[5, "AND", 7, "OR", "10"]``). Operators are ``AND``, ``OR`` and ``XOR``. A
sub-expression's brackets are tokens of their own (``"("`` and ``")"``: the on-hub server's
expression-editor fake of the live 5.1.8 format); a bracket token in another spelling (the
picker's ``end-sub-expression )``) is read the same way. ``parens`` beside ``eval`` is 0 for
every expression those notes saw; a non-zero value with no bracket tokens is grouping this
reader cannot see, and is reported as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OPERATORS = ("AND", "OR", "XOR")


@dataclass
class Group:
    """Conditions (numbers) and groups, and the operators between them."""

    items: list[int | Group] = field(default_factory=list)
    operators: list[str] = field(default_factory=list)


class Unreadable(ValueError):
    """The tokens are not an expression this reader understands (the reason is the text)."""


def tokens_of(value: Any) -> list[int | str] | None:
    """The tokens of one ``eval`` entry (None when there is nothing there)."""
    if value is None or value == "" or value == []:
        return None
    raw = value if isinstance(value, list) else [value]
    out: list[int | str] = []
    for tok in raw:
        if isinstance(tok, bool):
            raise Unreadable(f"the token {tok!r} is not a condition or an operator")
        if isinstance(tok, int):
            out.append(tok)
            continue
        text = str(tok).strip()
        if text.isdigit():
            out.append(int(text))
        elif text.upper() in OPERATORS:
            out.append(text.upper())
        elif "(" in text and ")" not in text:
            out.append("(")
        elif ")" in text and "(" not in text:
            out.append(")")
        else:
            raise Unreadable(f"the token {text!r} is not a condition, operator or bracket")
    return out


def parse_tokens(tokens: list[int | str]) -> Group:
    """The tokens as a tree; raises :class:`Unreadable` when they are not well formed."""
    pos = 0

    def group(depth: int) -> Group:
        nonlocal pos
        out = Group()
        want_operand = True
        while pos < len(tokens):
            tok = tokens[pos]
            pos += 1
            if tok == ")":
                if depth == 0:
                    raise Unreadable("a closing bracket without its opening one")
                break
            if want_operand:
                if tok == "(":
                    out.items.append(group(depth + 1))
                elif isinstance(tok, int):
                    out.items.append(tok)
                else:
                    raise Unreadable(f"an operator ({tok}) where a condition belongs")
                want_operand = False
            elif isinstance(tok, str) and tok in OPERATORS:
                out.operators.append(tok)
                want_operand = True
            else:
                raise Unreadable("two conditions without an operator between them")
        else:
            if depth:
                raise Unreadable("an opening bracket that is never closed")
        if want_operand:
            raise Unreadable("an expression that ends without its last condition")
        return out

    return group(0)


def read_expression(evals: Any, expr_id: Any, parens: Any = None) -> Group | None:
    """Expression ``expr_id`` of a rule's ``eval`` map as a tree (None: not there)."""
    if not isinstance(evals, dict) or expr_id is None:
        return None
    key = str(expr_id)
    tokens = tokens_of(evals.get(key))
    if tokens is None:
        return None
    marked = parens.get(key) if isinstance(parens, dict) else None
    if marked not in (None, 0, "0", "") and "(" not in tokens:
        raise Unreadable(f"the hub marks it grouped (parens {marked!r}) in a way not read here")
    return parse_tokens(tokens)


def action_expression_ids(actions: Any) -> dict[int, Any]:
    """The ``eval`` id each action names (its non-null ``rule``), by action number."""
    out: dict[int, Any] = {}
    if isinstance(actions, dict):
        for key, entry in actions.items():
            if str(key).isdigit() and isinstance(entry, dict) and entry.get("rule") is not None:
                out[int(key)] = entry["rule"]
    return out
