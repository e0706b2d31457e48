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

Its read side, ``DeviceScreen``, leaves the devices outside the allowlist out of an answer in
the same shapes (and their labels out of its text): every read that can show another
object's devices (apps, rules, dashboards, radios, snapshot diffs) goes through one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
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


# ------------------------------------------------------------------ the read side

OUTSIDE = "(device outside the allowlist)"  # what an answer shows instead of such a device
OUTSIDE_COUNT = "devices_outside_allowlist"  # an answer's count of the devices it left out
_WORD_START = re.compile(r"^\w")
_WORD_END = re.compile(r"\w$")


def _allow_all(_device_id: str) -> bool:
    return True


def _id_text(value: Any) -> str | None:
    """The id a scalar stands for (an int, or a text of digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str) and _ID_RE.match(value):
        return value.strip()
    return None


def _id_parts(text: str) -> list[str] | None:
    """The ids of a text that is only ids ("28", "6,28", "[6, 28]"), else None."""
    parts = [p.strip().strip("\"'") for p in _SPLIT_RE.split(text.strip().strip("[]"))]
    if not parts or not all(_ID_RE.match(p) for p in parts):
        return None
    return parts


def _typed_input_names(value: Any, out: set[str]) -> set[str]:
    """Names of the device inputs (``type`` capability.*/device.*) anywhere in ``value``."""
    if isinstance(value, dict):
        kind, name = value.get("type"), value.get("name")
        if isinstance(kind, str) and kind.startswith(_DEVICE_INPUT_TYPES) and isinstance(name, str):
            out.add(name)
        for sub in value.values():
            _typed_input_names(sub, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _typed_input_names(item, out)
    return out


@dataclass(frozen=True, slots=True)
class _Shapes:
    """What one screening knows besides ``device_refs``' shapes."""

    inputs: frozenset[str]  # settings names known to be device inputs
    keys: frozenset[str]  # further keys holding device ids (normalised)
    keyed: bool  # maps whose keys are all the hub's device ids are keyed by device


@dataclass(slots=True)
class DeviceScreen:
    """What a read may show of the hub's devices under the device allowlist.

    The read side of :func:`device_refs`: every shape it finds in a call's arguments is
    screened in an answer, at any depth: a device outside the allowlist is left out of a list
    (an id, or an object with that ``id``), and a single id (``device_id: 28``) becomes
    :data:`OUTSIDE`; its label in any text (rule text, page paragraphs, node names) becomes
    :data:`OUTSIDE` too (whole labels only, the longest first, so an allowed "Front Door"
    stays inside "Front Door Lock" of an allowed device). ``hidden`` collects what was left
    out; :meth:`answer` adds their count (:data:`OUTSIDE_COUNT`). Without an allowlist
    nothing changes. ``labels`` (every device of the hub) comes from the device manager.
    """

    allowed: Callable[[str], bool] = _allow_all
    labels: dict[str, str] = field(default_factory=dict)
    hidden: set[str] = field(default_factory=set)
    _pattern: re.Pattern[str] | None = None
    _outside_labels: dict[str, list[str]] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        """Whether an allowlist limits what is shown (an allowlist never holds the empty id)."""
        return not self.allowed("")

    def learn(self, labels: Mapping[str, str]) -> None:
        """Also know these devices (id -> label), e.g. those of an older snapshot."""
        for dev_id, label in labels.items():
            self.labels.setdefault(str(dev_id), str(label))
        self._pattern = None

    def __call__(
        self,
        value: Any,
        *,
        device_inputs: Collection[str] = (),
        id_keys: Collection[str] = (),
        keyed_maps: bool = False,
    ) -> Any:
        """``value`` with every device outside the allowlist left out (a copy).

        ``device_inputs``: settings names known to be device inputs (besides those typed in
        ``value`` itself); ``id_keys``: further keys whose values are device ids (a rule
        spec's ``capture``); ``keyed_maps``: a map whose keys are all device ids of the hub
        (an app's state, such as a scene's captured states) is keyed by device.
        """
        if not self.active:
            return value
        shapes = _Shapes(
            frozenset(device_inputs) | _typed_input_names(value, set()),
            frozenset(_norm(k) for k in id_keys),
            keyed_maps,
        )
        return self._walk(value, shapes)

    def answer(self, data: dict[str, Any], **shapes: Any) -> dict[str, Any]:
        """A dict answer screened, with the count of the devices left out (if any)."""
        out: dict[str, Any] = self(data, **shapes)
        return self.count(out)

    def count(self, out: dict[str, Any]) -> dict[str, Any]:
        """``out`` with :data:`OUTSIDE_COUNT` when this screen left devices out."""
        if self.hidden:
            out[OUTSIDE_COUNT] = len(self.hidden)
        return out

    def text(self, text: str) -> str:
        """``text`` with the labels of devices outside the allowlist replaced."""
        if not self.active:
            return text
        pattern = self._labels_pattern()
        return pattern.sub(self._label, text) if pattern is not None else text

    # -------------------------------------------------------------- inside

    def _hide(self, device_id: str) -> bool:
        if self.allowed(device_id):
            return False
        self.hidden.add(device_id)
        return True

    def _labels_pattern(self) -> re.Pattern[str] | None:
        if self._pattern is None:
            by_label: dict[str, list[str]] = {}
            for dev_id, label in self.labels.items():
                if len(label.strip()) >= 2:
                    by_label.setdefault(label.strip(), []).append(dev_id)
            # a label some allowed device also has names nothing the answer may not show
            self._outside_labels = {
                label: ids
                for label, ids in by_label.items()
                if not any(self.allowed(i) for i in ids)
            }
            if not self._outside_labels:
                return None
            alternatives = []
            for label in sorted(by_label, key=lambda t: (-len(t), t)):
                before = r"(?<!\w)" if _WORD_START.search(label) else ""
                after = r"(?!\w)" if _WORD_END.search(label) else ""
                alternatives.append(before + re.escape(label) + after)
            self._pattern = re.compile("|".join(alternatives))
        return self._pattern if self._outside_labels else None

    def _label(self, match: re.Match[str]) -> str:
        ids = self._outside_labels.get(match.group(0))
        if ids is None:
            return match.group(0)
        self.hidden.update(ids)
        return OUTSIDE

    def _walk(self, value: Any, shapes: _Shapes) -> Any:
        if isinstance(value, dict):
            return self._dict(value, shapes)
        if isinstance(value, list | tuple):
            return [self._walk(item, shapes) for item in value]
        if isinstance(value, str):
            return self.text(value)
        return value

    def _dict(self, value: dict[Any, Any], shapes: _Shapes) -> dict[Any, Any]:
        kind = value.get("type")
        typed = isinstance(kind, str) and kind.startswith(_DEVICE_INPUT_TYPES)
        keyed = shapes.keyed and self._device_keyed(value)
        out: dict[Any, Any] = {}
        for key, sub in value.items():
            skey = str(key)
            if keyed and self._hide(skey):
                continue
            norm = _norm(skey)
            if (typed and skey == "value") or is_device_key(skey) or norm in shapes.keys:
                out[key] = self._ids(sub, shapes)
            elif norm == "device" or norm.endswith("devices"):
                # a number right under a ...devices key is a count, not an id
                out[key] = self._ids(sub, shapes, loose=norm != "device")
            elif skey == "settings" and isinstance(sub, dict):
                out[key] = self._settings(sub, shapes)
            else:
                out[key] = self._walk(sub, shapes)
        return out

    def _device_keyed(self, value: dict[Any, Any]) -> bool:
        """A map whose keys are all devices of the hub (a scene's captured states)."""
        return bool(value) and all(str(k) in self.labels for k in value)

    def _ids(self, value: Any, shapes: _Shapes, *, loose: bool = False) -> Any:
        """A value a device key holds: ids, 'a,b' texts, lists, objects with an id."""
        if isinstance(value, list | tuple):
            out = []
            for item in value:
                found = _id_text(item.get("id")) if isinstance(item, dict) else _id_text(item)
                if found is not None and self._hide(found):
                    continue
                out.append(self._ids(item, shapes, loose=loose))
            return out
        if isinstance(value, dict):
            found = _id_text(value.get("id"))
            if found is not None and self._hide(found):
                return OUTSIDE
            if "id" not in value and value and all(_id_text(str(k)) for k in value):
                return {
                    k: self._walk(v, shapes) for k, v in value.items() if not self._hide(str(k))
                }
            return self._walk(value, shapes)
        if isinstance(value, str):
            parts = _id_parts(value)
            if parts is None:
                return self.text(value)
            kept = [p for p in parts if not self._hide(p)]
            if len(kept) == len(parts):
                return value
            return ",".join(kept) if len(parts) > 1 else OUTSIDE
        found = _id_text(value)
        if found is not None and not loose and self._hide(found):
            return OUTSIDE
        return value

    def _settings(self, settings: dict[Any, Any], shapes: _Shapes) -> dict[Any, Any]:
        """An app's settings map: device inputs by name, else (no types known) values made
        only of the hub's device ids (ids at all, when the hub's devices are not known)."""
        out: dict[Any, Any] = {}
        for name, value in settings.items():
            if str(name) in shapes.inputs or (not shapes.inputs and self._only_ids(value)):
                out[name] = self._ids(value, shapes)
            else:
                out[name] = self._walk(value, shapes)
        return out

    def _only_ids(self, value: Any) -> bool:
        ids: list[str | None]
        if isinstance(value, list) and value:
            ids = [_id_text(v) for v in value]
        elif isinstance(value, str) and self.labels:
            parts = _id_parts(value)
            ids = list(parts) if parts is not None else [None]
        else:
            return False
        known = self.labels or None
        return all(i is not None and (known is None or i in known) for i in ids)
