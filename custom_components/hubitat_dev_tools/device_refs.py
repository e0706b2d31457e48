"""Every device a tool call's arguments (or a rule's definition) names, in every shape.

One function, ``device_refs``, used by the device allowlist (``safety.check_devices``, before
any tool runs) and by the sensitive-device confirm rules (managers). No Home Assistant
import: managers use it too. The shapes it knows, at any depth:

- a key spelled ``device_id``, ``deviceId``, ``device-id``, ``DEVICE_ID``, ``device_ids``,
  ``deviceIds``, ``deviceIdList``... (case, ``_`` and ``-`` ignored; a key ending in
  ``deviceid`` or ``deviceids``): a scalar id, a comma-separated text, a list of ids, or
  objects carrying an ``id``;
- a key ``devices`` or ``device`` (Visual Rule nodes, room and batch shapes) holding ids or
  objects carrying an ``id``;
- app-settings inputs (the ``settings`` object of hub_update_app_settings): a value given as
  a list of numeric ids (or, when the caller knows the page's device inputs and passes
  ``device_inputs``, any value of those inputs);
- the hub's own setting and input shapes (app pages, statusJson ``appSettings``): an object
  whose ``type`` is ``capability.*``/``device.*`` names devices in its ``value``, and
  ``deviceIdsForDeviceList`` lists the picked ids.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

_DEVICE_INPUT_TYPES = ("capability.", "device.")
_ID_RE = re.compile(r"^\s*\d{1,12}\s*$")
_SPLIT_RE = re.compile(r",")


def _norm(key: str) -> str:
    return re.sub(r"[_\-\s]", "", key).lower()


def is_device_key(key: str) -> bool:
    """True for a key that names device ids in any spelling (device_id, deviceIds, ...)."""
    return _norm(key).endswith(("deviceid", "deviceids", "deviceidlist", "deviceidsfordevicelist"))


def _is_loose_device_key(key: str) -> bool:
    """``device``/``devices``: ids or objects with an id (rule nodes), names ignored."""
    return _norm(key) in ("device", "devices")


def _ids_of(value: Any, *, numeric_only: bool = False) -> Iterator[str]:
    """The ids a device-keyed value holds: scalars, 'a,b' texts, lists, objects with id.

    ``numeric_only`` (the loose keys ``device``/``devices``): texts that are not ids, such
    as a device's name, are not taken for ids.
    """
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int | float):
        yield str(int(value)) if float(value).is_integer() else str(value)
    elif isinstance(value, str):
        for part in _SPLIT_RE.split(value.strip().strip("[]")):
            part = part.strip().strip("\"'")
            if part and (not numeric_only or _ID_RE.match(part)):
                yield part
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _ids_of(item, numeric_only=numeric_only)
    elif isinstance(value, dict):
        if "id" in value:
            yield from _ids_of(value["id"], numeric_only=numeric_only)
        yield from _walk(value)


def _settings_refs(
    settings: dict[Any, Any], device_inputs: Collection[str] | None
) -> Iterator[str]:
    for name, value in settings.items():
        if device_inputs is not None and str(name) in device_inputs:
            yield from _ids_of(value)
            continue
        items = value if isinstance(value, list) else None
        if items and all(
            (isinstance(v, str) and _ID_RE.match(v))
            or (isinstance(v, int) and not isinstance(v, bool))
            for v in items
        ):
            yield from _ids_of(items)
        else:
            yield from _walk(value)


def _walk(value: Any, device_inputs: Collection[str] | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        kind = value.get("type")
        if isinstance(kind, str) and kind.startswith(_DEVICE_INPUT_TYPES) and "value" in value:
            yield from _ids_of(value["value"], numeric_only=True)
        for key, sub in value.items():
            skey = str(key)
            if is_device_key(skey):
                yield from _ids_of(sub)
            elif _is_loose_device_key(skey):
                yield from _ids_of(sub, numeric_only=True)
            elif skey == "settings" and isinstance(sub, dict):
                yield from _settings_refs(sub, device_inputs)
            else:
                yield from _walk(sub, device_inputs)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _walk(item, device_inputs)


def device_refs(value: Any, *, device_inputs: Collection[str] | None = None) -> set[str]:
    """Every device id ``value`` (tool arguments, a rule definition) names, stripped.

    ``device_inputs``: names of the app-settings inputs known to be device inputs (from the
    app's page); without it, a settings value given as a list of numeric ids counts.
    """
    return {i.strip() for i in _walk(value, device_inputs) if i.strip()}
