"""Installed apps as data, shared by the app routes (``routes_apps.py``,
``routes_app_create.py``) and the apps modelled on their own (``rule_machine.py``,
``button_controller.py``): a new instance, the names as the hub keeps them, and configure/json's
``app`` object. No HTTP here.
"""

from __future__ import annotations

import html
import re
from typing import Any

from .devstate import AppInternals
from .model import App, HomeState

_MARKUP_RE = re.compile(r"(</?[A-Za-z][^<>]*>)")


def escaped(name: str | None) -> str | None:
    """A name as the hub keeps it in app records: the user's text entity-escaped
    (``Heat On &lt;67``), the hub's own markup (``<b>``, a ``(Paused)`` span) left as is."""
    if name is None:
        return None
    parts = _MARKUP_RE.split(name)
    return "".join(p if i % 2 else html.escape(p, quote=False) for i, p in enumerate(parts))


def app_model(app: App, version: int, *, installed: bool = True) -> dict[str, Any]:
    """configure/json's ``app`` object (``installed`` false: a pending new instance)."""
    return {
        "id": app.id,
        "name": app.name,
        "label": escaped(app.label),
        "trueLabel": escaped(app.true_label),
        "installed": installed,
        "version": version,
        "parentAppId": app.parent_id,
        "appType": {"name": app.type, "namespace": "hubitat"},
        "disabled": app.disabled,
    }


def add_instance(
    state: HomeState,
    type_name: str,
    type_id: int,
    inputs: list[dict[str, Any]],
    *,
    user: bool,
    parent_id: int | None = None,
    pending: bool = True,
) -> int:
    """A new app instance (a pending shell until its Done, unless ``pending`` False)."""
    dev = state.dev
    new_id = dev.alloc_app_id()
    state.apps[new_id] = App(
        new_id,
        type_name,
        None,
        type_name,
        parent_id=parent_id,
        user=user,
        app_type_id=type_id,
    )
    dev.internals[new_id] = AppInternals(page_title=type_name, inputs=inputs)
    if pending:
        dev.pending.add(new_id)
    return new_id
