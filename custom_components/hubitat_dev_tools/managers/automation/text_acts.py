"""The newer device and value actions in words, for a spec's preview (:mod:`.text`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .parse_device_acts import param
from .spec import Action

if TYPE_CHECKING:
    from .check import Resolved


def _names(ids: Any, res: Resolved) -> str:
    return ", ".join(res.label(str(i)) for i in ids)


def action_words(a: Action, res: Resolved) -> str | None:
    """One line for the action, or None for the kinds :mod:`.text` words itself."""
    k, value = a.kind, a.value
    who = _names(a.device_ids, res)
    if k == "set_level_per_mode":
        return f"Dim per mode: {who}: " + ", ".join(f"{m}: {v}" for m, v in value.items())
    if k == "switch_per_mode":
        return f"Switch per mode: {who}: " + ", ".join(f"{m}: {v}" for m, v in value.items())
    if k == "choose_per_mode":
        return "Choose switches per mode: " + "; ".join(
            f"{m}: " + ", ".join(f"{side} {_names(ids, res)}" for side, ids in lists.items())
            for m, lists in value.items()
        )
    if k == "color_per_mode":
        return f"Color per mode: {who}: " + ", ".join(
            f"{m}: {v['color']} level {v['level']}" for m, v in value.items()
        )
    if k == "color_temperature_per_mode":
        return f"Color temperature per mode: {who}: " + ", ".join(
            f"{m}: {v['kelvin']}K level {v['level']}" for m, v in value.items()
        )
    if k in ("fade_level", "fade_color_temperature"):
        what = "Fade" if k == "fade_level" else "Fade color temperature"
        return (
            f"{what}: {who}: {param(a, 'direction')} to {value} over {param(a, 'minutes')} minutes"
        )
    if k == "start_level_change":
        return f"Start {'Lowering' if value == 'lower' else 'Raising'}: {who}"
    if k == "stop_level_change":
        return f"Stop Changing: {who}"
    if k == "adjust_level":
        return f"Adjust: {who}: by {value}"
    if k == "cancel_timers":
        return "Cancel Rule Timers: " + ", ".join(res.rules.get(r, r) for r in a.rule_ids)
    if k == "delay_from_variable":
        return (
            f"Delay by variable {a.text}"
            + (" (random)" if param(a, "random") else "")
            + (" (cancelable)" if a.cancelable else "")
        )
    if k == "set_variable" and a.params:
        source = param(a, "from_device")
        if isinstance(source, dict):
            return f"Set {a.text} to {res.label(str(source['device_id']))} {source['attribute']}"
        m = param(a, "math")
        expr = f"{m['left']} {m['op']} {m['right']}" if "right" in m else f"{m['op']} {m['left']}"
        return f"Set {a.text} to {expr}"
    return None
