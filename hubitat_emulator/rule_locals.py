"""A rule's Local Variables, as Rule Machine 5.1's selectActions page keeps them.

The on-hub server (``mcp-native-rules-lib.groovy`` ``_rmAddLocalVariable``, verified live): the
page's ``moreVar`` button (``stateAttribute=moreVar``) opens a form; ``hbVar`` names the variable,
``varType`` picks Number, Decimal, String, Boolean or DateTime, and the write of
``varValue`` saves it (there is no save button) and closes the form. The rule's state keeps
them as ``allLocalVars`` ``{name: {type, value}}`` (``integer``, ``bigdecimal``, ``string``,
``boolean``, ``datetime``). The variable pickers of the rule's actions and conditions list
them first, under `` --LOCAL VARIABLES--``, then the hub's under `` --HUB VARIABLES--``.

The rule runner reads them in Variable conditions and sets them with Set Variable (the same
dict: statusJson shows the new value). Deleting one (``deleteGV``/``delConfirm``) is in
``rule_edits.py``. A DateTime's value is kept as written (the hub's stored form,
``yyyy-MM-ddTHH:mm:ss.SSS+hhmm``, as the on-hub server writes it). Not modelled: a local
variable's text in a message (``%name%``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .rule_fields import Env, Inp, inp

VAR_TYPES = {
    "Number": ("integer", "number"),
    "Decimal": ("bigdecimal", "decimal"),
    "String": ("string", "text"),
    "Boolean": ("boolean", "bool"),
    "DateTime": ("datetime", "text"),
}
FORM_FIELDS = ("hbVar", "varType", "varValue")
_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
LOCAL_HEADER, HUB_HEADER = " --LOCAL VARIABLES--", " --HUB VARIABLES--"


@dataclass
class LocalVariables:
    """The rule's variables and the open form (None: closed)."""

    variables: dict[str, dict[str, Any]] = field(default_factory=dict)
    form: dict[str, Any] | None = None

    def lines(self) -> list[str]:
        """The page's list of them."""
        if not self.variables:
            return []
        return ["<b>Local Variables</b>"] + [
            f"{name} ({var['type']}): {var['value']}" for name, var in self.variables.items()
        ]

    def inputs(self) -> list[Inp]:
        """The button, and the open form's fields as far as they are filled."""
        out: list[Inp] = [
            {"name": "moreVar", "type": "button", "title": "Create New Local Variable"}
        ]
        form = self.form
        if form is None:
            return out
        out.append(inp("hbVar", "text", "Variable name"))
        if "hbVar" in form:
            out.append(inp("varType", "enum", "Variable type", options=list(VAR_TYPES)))
        if "varType" in form:
            kind = VAR_TYPES[str(form["varType"])][1]
            out.append(inp("varValue", kind, "Initial value"))
        return out

    def open(self) -> None:
        self.form = {}

    def write(self, name: str, value: Any) -> bool:
        """A form field's value; the value's write saves the variable (False: refused)."""
        form = self.form
        if form is None:
            return False
        if name == "hbVar":
            text = str(value).strip()
            if not _NAME_RE.match(text) or text in self.variables:
                return False
            form["hbVar"] = text
        elif name == "varType":
            if value not in VAR_TYPES:
                return False
            form["varType"] = value
        else:
            if "varType" not in form:  # the value field is not shown before the type
                return False
            stored, _kind = VAR_TYPES[str(form["varType"])]
            self.variables[str(form["hbVar"])] = {"type": stored, "value": value}
            self.form = None
        return True

    def state(self) -> dict[str, dict[str, Any]]:
        """``allLocalVars`` of the rule's state."""
        return {name: dict(var) for name, var in self.variables.items()}


class WithLocals:
    """The hub's Env, with the rule's own variables first in every variable picker."""

    def __init__(self, env: Env, local: LocalVariables) -> None:
        self._env, self._local = env, local

    def device_name(self, dev_id: int) -> str | None:
        return self._env.device_name(dev_id)

    def has_capability(self, dev_id: int, capability: str) -> bool:
        return self._env.has_capability(dev_id, capability)

    def modes(self) -> list[tuple[str, str]]:
        return self._env.modes()

    def variables(self) -> list[str]:
        hub = self._env.variables()
        if not self._local.variables:
            return hub
        return [LOCAL_HEADER, *self._local.variables, HUB_HEADER, *hub]

    def variable_type(self, name: str) -> str | None:
        local = self._local.variables.get(name)
        return str(local["type"]) if local is not None else self._env.variable_type(name)

    def attributes(self, ids: Sequence[int]) -> list[str]:
        return self._env.attributes(ids)

    def commands(self, ids: Sequence[int]) -> list[str]:
        return self._env.commands(ids)

    def rules(self, exclude: int) -> list[tuple[str, str]]:
        return self._env.rules(exclude)

    def files(self) -> list[str]:
        return self._env.files()
