"""Device administration: update, create, delete, replace."""

from __future__ import annotations

import asyncio
import difflib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict, cast

from ...errors import ToolError
from ...hub.controllers import AppsController, DevicesController, RoomsController
from ...hub.devices import FORM_SWITCHES, match_drivers
from ...hub.errors import HubError
from ...hub.models import (
    AppUse,
    DeviceDetail,
    DeviceDetailEntry,
    DeviceEntry,
    DevicePreferenceEntry,
    Room,
    add_page,
    norm_id,
    parse_csv,
    parse_device_full,
)
from ...hub.results import DevicePreference
from ..confirm import require_confirm
from ..steps import Step, run_steps
from .commands import SENSITIVE_CAPABILITIES
from .filters import DeviceFilter
from .values import to_number

if TYPE_CHECKING:
    from ...hub.models import DeviceSummary

# Devices that guard the home: the command gate's sensitive capabilities, plus the
# detectors (smoke, CO), which protect by reporting: disabling or deleting one silences it.
PROTECTIVE_CAPABILITIES = SENSITIVE_CAPABILITIES | {"SmokeDetector", "CarbonMonoxideDetector"}


def is_sensitive_device(capabilities: Iterable[str]) -> bool:
    """True for a lock, garage door, valve, keypad, siren/alarm or smoke/CO detector."""
    return not PROTECTIVE_CAPABILITIES.isdisjoint(capabilities)


def _s(value: Any) -> str:
    return "" if value is None else str(value)


def _flag(value: Any) -> str:
    return "on" if value is True or str(value).lower() in ("true", "on") else "false"


def edit_form(raw: dict[str, Any]) -> dict[str, str]:
    """The COMPLETE /device/update form from a fresh fullJson read (omitted = blanked).

    As the hub UI's device page builds it (``populateData`` + ``saveDevice``): every field
    as read, ``null`` as ``""`` (so ``roomId`` is ``""`` for a device in no room; choosing
    "No room assigned" there sends ``0``), and ``defaultIcon`` the custom icon read as
    ``device.defaultIcon || device.icon`` (``""`` would remove it, as its remove button does).
    """
    dev: dict[str, Any] = raw["device"]
    dashboards = raw.get("dashboards") or []
    return {
        "id": _s(dev.get("id")),
        "version": _s(dev.get("version")),
        "name": _s(dev.get("name")),
        "label": _s(dev.get("label")),
        "zigbeeId": _s(dev.get("zigbeeId")),
        "maxEvents": _s(dev.get("maxEvents")),
        "maxStates": _s(dev.get("maxStates")),
        "spammyThreshold": _s(dev.get("spammyThreshold")),
        "deviceNetworkId": _s(dev.get("deviceNetworkId")),
        "deviceTypeId": _s(dev.get("deviceTypeId")),
        "deviceTypeReadableType": _s(dev.get("deviceTypeReadableType")),
        "roomId": _s(dev.get("roomId")),
        "meshEnabled": _flag(dev.get("meshEnabled")),
        "retryEnabled": _flag(dev.get("retryEnabled")),
        "meshFullSync": _flag(dev.get("meshFullSync")),
        "homeKitEnabled": _flag(raw.get("homeKitEnabled")),
        "locationId": _s(dev.get("locationId")),
        "hubId": _s(dev.get("hubId")),
        "groupId": _s(dev.get("groupId")),
        "dashboardIds": ",".join(
            str(d.get("id")) for d in dashboards if isinstance(d, dict) and d.get("selected")
        ),
        "tags": ",".join(parse_csv(dev.get("tags"))),
        "defaultIcon": _s(dev.get("defaultIcon") or dev.get("icon")),
        "notes": _s(dev.get("notes")),
        "controllerType": _s(dev.get("controllerType")),
    }


def coerce_preference(pref: DevicePreferenceEntry, value: Any) -> Any:
    """Type a driver preference value by its declared type; refuse unsafe mismatches."""
    name, ptype = pref.get("name"), str(pref.get("type") or "text").lower()
    if ptype == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise ToolError(f"Preference '{name}' is a bool; give true or false.")
    if ptype in ("number", "decimal"):
        number = to_number(value)
        if number is None:
            raise ToolError(f"Preference '{name}' is a {ptype}; got {value!r}.")
        if ptype == "number":
            if not number.is_integer():
                raise ToolError(f"Preference '{name}' is a whole number; got {value!r}.")
            return int(number)
        return number
    if ptype == "enum":
        options = pref.get("options")
        keys: list[str] = []
        if isinstance(options, dict):
            keys = [str(k) for k in options]
        elif isinstance(options, list):
            for opt in options:
                keys.extend(str(k) for k in opt) if isinstance(opt, dict) else keys.append(str(opt))
        text = str(value)
        if keys and text not in keys:
            raise ToolError(f"Preference '{name}' must be one of {keys}; got {value!r}.")
        return text
    if isinstance(value, dict | list):
        raise ToolError(f"Preference '{name}' is {ptype}; give text, not an object.")
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(slots=True)
class DeviceUpdate:
    """Requested edits of one device (None = leave as is)."""

    label: str | None = None
    name: str | None = None
    room: str | None = None
    enabled: bool | None = None
    preferences: dict[str, Any] | None = None
    dni: str | None = None
    tags: list[str] | None = None
    show_on_home: bool | None = None
    default_current_state: str | None = None  # '' = none
    hub_mesh: bool | None = None
    homekit: bool | None = None

    @property
    def switches(self) -> dict[str, bool]:
        """The device page's sharing switches asked to change (Hub Mesh, HomeKit)."""
        asked = {"hub_mesh": self.hub_mesh, "homekit": self.homekit}
        return {k: v for k, v in asked.items() if v is not None}

    @property
    def form_fields(self) -> bool:
        """True when the wholesale edit form is needed."""
        return bool(self.switches) or any(
            v is not None for v in (self.label, self.name, self.room, self.dni, self.tags)
        )

    @property
    def page_save(self) -> bool:
        """True when the device page's preferences save is needed."""
        return any(
            v is not None for v in (self.preferences, self.show_on_home, self.default_current_state)
        )

    @property
    def is_empty(self) -> bool:
        """True when nothing is asked to change."""
        return not self.form_fields and not self.page_save and self.enabled is None


class NameWarning(TypedDict):
    """Another item already called what a device is (re)named: allowed, but confusing."""

    kind: str  # device, room or rule
    id: str
    name: str
    message: str


MAX_NAME_WARNINGS = 5


def name_key(text: str | None) -> str:
    """A name as names are compared: trimmed, inner spaces collapsed, case-insensitive."""
    return " ".join((text or "").split()).casefold()


class UpdateResult(TypedDict):
    """The steps that landed and the device as it is now (its room as read back)."""

    applied: list[str]
    room_name: str | None
    device: DeviceDetailEntry
    warnings: NotRequired[list[NameWarning]]


class CreateResult(TypedDict):
    device: DeviceEntry
    driver: str
    virtual: bool
    note: NotRequired[str]  # a radio driver's shell: how to pair real hardware instead
    warnings: NotRequired[list[NameWarning]]


class DeleteResult(TypedDict):
    device_id: str
    label: str
    child_ids_removed: list[str]
    apps_that_used_it: list[AppUse]
    note: NotRequired[str]  # the hub's "partial" removal


class DeviceRef(TypedDict):
    device_id: str
    label: str


class KeptDevice(DeviceRef):
    apps_using: list[AppUse]


class HardwareSource(DeviceRef):
    driver: str | None


class ReplaceResult(TypedDict):
    device: DeviceEntry
    kept: KeptDevice
    new_hardware_from: HardwareSource


class ReplacementCandidate(DeviceRef):
    drivers: list[str]


class ReplacementCandidates(TypedDict):
    device: DeviceRef
    candidates: list[ReplacementCandidate]
    hidden: NotRequired[int]  # offered by the hub, outside the device allowlist


class ListDevices(Protocol):
    """The devices passing a filter and an allowlist (``DeviceManager.list_devices``)."""

    def __call__(
        self, flt: DeviceFilter, *, allowed: Callable[[str], bool] | None = None
    ) -> Awaitable[list[DeviceSummary]]:
        """The devices, sorted by label."""
        ...


class DeviceAdmin:
    """Device edits, creation, deletion and hardware replacement.

    It reads and forgets devices through the device reads (``DeviceManager``):
    ``list_devices``, ``get_device`` (one device's detail), ``forget_device`` (a device is
    gone) and ``devices_changed`` (a device was created or edited: the next list re-reads).
    """

    def __init__(
        self,
        devices: DevicesController,
        rooms: RoomsController,
        apps: AppsController,
        *,
        list_devices: ListDevices,
        get_device: Callable[[str], Awaitable[DeviceDetail]],
        forget_device: Callable[[str], None],
        devices_changed: Callable[[], None],
    ) -> None:
        self._devices = devices
        self._rooms = rooms
        self._apps = apps
        self._list_devices = list_devices
        self._get_device = get_device
        self._forget_device = forget_device
        self._devices_changed = devices_changed

    async def _raw(self, device_id: str) -> dict[str, Any]:
        """``/device/fullJson`` as the hub answers it (the model of the edit form)."""
        return cast(dict[str, Any], await self._devices.raw(device_id))

    async def name_warnings(
        self,
        names: Iterable[str | None],
        *,
        device_id: str | None = None,
        allowed: Callable[[str], bool] | None = None,
    ) -> list[NameWarning]:
        """The other devices (label or name), rooms and rules already called one of
        ``names`` (compared by :func:`name_key`; ``device_id`` itself and devices outside
        ``allowed`` left out). A name may be shared on the hub: this only warns, and a read
        that fails leaves its kind out."""
        wanted = {name_key(n): n.strip() for n in names if n is not None and name_key(n)}
        if not wanted:
            return []
        devices, rooms, apps = await asyncio.gather(
            _or_none(self._list_devices(DeviceFilter(), allowed=allowed)),
            _or_none(self._rooms.list()),
            _or_none(self._apps.list()),
        )
        out: list[NameWarning] = []

        def add(kind: str, item_id: str, name: str, what: str) -> None:
            out.append(
                {
                    "kind": kind,
                    "id": item_id,
                    "name": name,
                    "message": f"{what} {item_id} is also named '{name}'; two items with "
                    "one name are easy to confuse.",
                }
            )

        for dev in devices or []:
            if dev.id == device_id:
                continue
            hit = next((t for t in (dev.label, dev.name) if name_key(t) in wanted), None)
            if hit is not None:
                add("device", dev.id, hit, "Device")
        for room in rooms or []:
            if name_key(room.name) in wanted:
                add("room", room.id, room.name, "Room")
        for app in apps or []:
            if (app.is_rm_rule or app.is_visual_rule) and name_key(app.name) in wanted:
                add("rule", app.id, app.name, "Rule (app)")
        return out[:MAX_NAME_WARNINGS]

    async def _room_name(self, room_id: str | None, read: str | None) -> str | None:
        """A device's room name as read back (from the room list when the read has none)."""
        if read or room_id is None:
            return read
        rooms = await _or_none(self._rooms.list())
        return next((r.name for r in rooms or [] if r.id == room_id), None)

    async def update_device(
        self,
        device_id: str,
        upd: DeviceUpdate,
        *,
        confirm: bool = False,
        allowed: Callable[[str], bool] | None = None,
    ) -> UpdateResult:
        """Edit a device in a safe order; validate everything before sending anything.

        Order: the wholesale edit form (label, name, DNI, tags, room; re-posted complete
        from a fresh read), then driver preferences, then enable/disable last. Each step is
        reported; a failure says which steps landed. A new label or name another device,
        room or rule has is done, with ``warnings`` naming them.
        """
        raw = await self._raw(device_id)
        detail = parse_device_full(raw)
        label = detail.summary.display_name
        if upd.enabled is False and is_sensitive_device(detail.summary.capabilities):
            require_confirm(
                confirm,
                f"Disabling {label} (device {device_id}) switches off a security-sensitive "
                "device (lock, garage door, valve, keypad, siren or smoke/CO detector).",
            )
        room_id: str | None = None
        if upd.room is not None:
            room_id = (await self._resolve_room(upd.room))[0]
        prefs: list[dict[str, Any]] = []
        if upd.preferences:
            declared = {str(p.get("name")): p for p in detail.preferences if p.get("name")}
            for pname, pvalue in upd.preferences.items():
                pref = declared.get(pname)
                if pref is None:
                    known = ", ".join(f"{k} ({v.get('type')})" for k, v in declared.items())
                    raise ToolError(
                        f"Device {device_id} ({label}) has no preference '{pname}'. Its "
                        f"preferences: {known or 'none'}."
                    )
                prefs.append(
                    {
                        "name": pname,
                        "type": str(pref.get("type") or "text"),
                        "value": coerce_preference(pref, pvalue),
                    }
                )
        state = self._check_page_fields(device_id, detail, upd, confirm)
        if upd.label is not None and not upd.label.strip():
            raise ToolError("label cannot be empty.")
        if upd.name is not None and not upd.name.strip():
            raise ToolError("name cannot be empty.")
        warnings = await self.name_warnings(
            (upd.label, upd.name), device_id=device_id, allowed=allowed
        )
        steps: list[Step] = []
        if upd.enabled is True and detail.summary.disabled:
            steps.append(("enabled", lambda: self._devices.set_disabled(device_id, False)))
        if upd.form_fields:
            changed: list[str] = []

            async def form_step() -> None:
                fresh = await self._raw(device_id)
                form = edit_form(fresh)
                if upd.label is not None:
                    form["label"] = upd.label.strip()
                if upd.name is not None:
                    form["name"] = upd.name.strip()
                if upd.dni is not None:
                    form["deviceNetworkId"] = upd.dni.strip()
                if upd.tags is not None:
                    form["tags"] = ",".join(t.strip() for t in upd.tags if t.strip())
                if room_id is not None:
                    form["roomId"] = room_id
                for key, on in upd.switches.items():
                    form[FORM_SWITCHES[key]] = _flag(on)
                await self._devices.save_form(device_id, form, upd.switches)

            for key in ("label", "name", "room", "dni", "tags", "hub_mesh", "homekit"):
                if getattr(upd, key) is not None:
                    changed.append(key)
            steps.append(("+".join(changed), form_step))
        if upd.page_save:
            saved = [
                k
                for k in ("preferences", "show_on_home", "default_current_state")
                if getattr(upd, k) is not None
            ]
            steps.append(
                (
                    "+".join(saved),
                    lambda: self._devices.save_preferences(
                        device_id,
                        cast(list[DevicePreference], prefs),
                        show_on_home=upd.show_on_home,
                        default_current_state=state,
                    ),
                )
            )
        if upd.enabled is False and not detail.summary.disabled:
            steps.append(("disabled", lambda: self._devices.set_disabled(device_id, True)))
        # label, name, room, enabled show in the device list: the next list re-reads the hub
        done = await run_steps(steps, after_each=self._devices_changed)
        after = await self._get_device(device_id)
        device = after.summary.detail_entry()
        device["preferences"] = after.preferences
        device["dni"] = after.summary.dni
        add_page(device, after.page)
        out: UpdateResult = {
            "applied": done,
            "room_name": await self._room_name(after.summary.room_id, after.summary.room),
            "device": device,
        }
        if warnings:
            out["warnings"] = warnings
        return out

    @staticmethod
    def _check_page_fields(
        device_id: str, detail: DeviceDetail, upd: DeviceUpdate, confirm: bool
    ) -> str | None:
        """Validate the device page's fields; the default current state to send ('' = none).

        As the hub's device page: Show on Home is not offered for a child device, the Hub
        Mesh and HomeKit switches only where the page offers them, the default current state
        is one of the device's attributes. Sharing a lock, garage door, valve, keypad, siren
        or smoke/CO detector with another hub or with HomeKit needs confirm=true.
        """
        label = detail.summary.display_name
        page = detail.page
        if upd.show_on_home is not None and detail.summary.parent_id:
            raise ToolError(
                f"{label} (device {device_id}) is a child device: the hub's device page offers "
                "Show on Home only for its parent."
            )
        for key, what, why in (
            ("hub_mesh", "Hub Mesh sharing", "Hub Mesh is off on this hub"),
            ("homekit", "HomeKit", "the hub's HomeKit integration is not set up"),
        ):
            if getattr(upd, key) and page.get(f"{key}_offered") is False:
                raise ToolError(
                    f"The hub does not offer {what} for {label} (device {device_id}): {why}, "
                    "or the device is linked from another hub.",
                    subject=f"{key}_not_offered",
                )
        sharing = [
            what
            for key, what in (("hub_mesh", "Hub Mesh"), ("homekit", "HomeKit"))
            if getattr(upd, key) and not page.get(key)
        ]
        if sharing and is_sensitive_device(detail.summary.capabilities):
            require_confirm(
                confirm,
                f"Sharing {label} (device {device_id}) over {' and '.join(sharing)} lets another "
                "controller operate a security-sensitive device (lock, garage door, valve, "
                "keypad, siren or smoke/CO detector).",
            )
        wanted = upd.default_current_state
        if wanted is None:
            return None
        wanted = wanted.strip()
        if wanted.lower() in ("", "none"):
            return ""
        names = sorted(a.name for a in detail.attributes)
        if wanted not in names:
            raise ToolError(
                f"Device {device_id} ({label}) has no attribute '{wanted}' to show as its "
                f"default current state. Its attributes: {', '.join(names) or 'none'}; '' for "
                "none."
            )
        return wanted

    async def _find_room(self, room: str) -> Room | None:
        """Room name or id -> the room; '' / 'unassigned' -> None (no room)."""
        wanted = room.strip()
        if wanted.lower() in ("", "unassigned", "none"):
            return None
        rooms = await self._rooms.list()
        for r in rooms:
            if r.id == wanted or r.name.lower() == wanted.lower():
                return r
        raise ToolError(
            f"No room '{room}' on the hub (rooms are never created implicitly). Rooms: "
            f"{', '.join(r.name for r in rooms) or 'none'}.",
            subject="room_missing",
        )

    async def _resolve_room(self, room: str) -> tuple[str, str | None]:
        """Room name or id -> (room id, canonical name); '' / 'unassigned' -> ('0', None):
        the hub UI's "No room assigned" choice (id 0; the on-hub server, live: ``roomId=0`` clears
        it)."""
        found = await self._find_room(room)
        return (found.id, found.name) if found is not None else ("0", None)

    async def drivers(self) -> list[dict[str, Any]]:
        """Driver types a device can be created from (no dependency or hidden ones)."""
        return [
            d
            for d in cast(list[dict[str, Any]], await self._devices.drivers())
            if d.get("type") != "dep" and d.get("category") != "Hidden"
        ]

    async def _driver(self, driver: str) -> dict[str, Any]:
        """The one system or user driver ``driver`` names (name, id or namespace:name)."""
        drivers = await self.drivers()
        found = match_drivers(drivers, driver)
        if len(found) > 1:
            listed = "; ".join(
                f"{d.get('name')} (id {d.get('id')}, namespace {d.get('namespace')}, "
                f"{'user' if d.get('type') == 'usr' else 'system'})"
                for d in found
            )
            raise ToolError(
                f"Driver '{driver}' is ambiguous: {listed}.",
                hint="Pass the driver's id or namespace:name.",
            )
        if found:
            return found[0]
        names = [str(d.get("name")) for d in drivers]
        close = difflib.get_close_matches(driver, names, n=5, cutoff=0.4)
        virtual = [n for n in names if n.startswith("Virtual ")]
        raise ToolError(
            f"No driver '{driver}' on the hub."
            + (f" Did you mean: {', '.join(close)}?" if close else "")
            + f" Built-in virtual types: {', '.join(virtual) or 'none'}.",
            hint="A driver is named by name, id or namespace:name.",
            subject="driver",
        )

    async def create_device(
        self,
        driver: str,
        label: str | None,
        room: str | None = None,
        *,
        allowed: Callable[[str], bool] | None = None,
    ) -> CreateResult:
        """Create a device from a system or user driver, then set its label and room.

        Built-in virtual types and user drivers go through createVirtual (the hub UI's
        virtual device page offers both); other system drivers through sysDriverByIdJson.
        The room is joined through the rooms save (complete membership, verified by
        re-listing); a failure after the create says the device exists. A label another
        device, room or rule has is used, with ``warnings`` naming them.
        """
        match = await self._driver(driver)
        target = await self._find_room(room) if room is not None else None
        warnings = await self.name_warnings([label], allowed=allowed)
        type_id = str(match.get("id"))
        name = str(match.get("name"))
        user = match.get("type") == "usr"
        is_virtual = user or name.startswith("Virtual ") or match.get("category") == "Virtual"
        if is_virtual:
            new_id = await self._devices.create_virtual(type_id)
        else:
            new_id = await self._devices.create_from_driver(type_id)
        self._devices_changed()
        if label:
            # Neither create call takes a label: set it with the device edit, then check it.
            try:
                form = edit_form(await self._raw(new_id))
                form["label"] = label
                await self._devices.post_update(form)
            except HubError as err:
                raise ToolError(
                    f"The hub created device {new_id} but setting its label failed: {err}",
                    code=err.code,
                    outcome="failed",
                    extra={"label_device_id": new_id},
                ) from err
        if target is not None:
            try:
                await self._rooms.save(target.id, target.name, [*target.device_ids, new_id])
            except HubError as err:
                raise ToolError(
                    f"The hub created device {new_id} but putting it in room "
                    f"'{target.name}' failed: {err}",
                    code=err.code,
                    outcome="failed",
                    extra={"room_device_id": new_id},
                ) from err
        self._devices_changed()  # again: a list may have re-read before the label
        detail = await self._get_device(new_id)
        if label and detail.summary.label != label:
            raise ToolError(
                f"The hub created device {new_id} but did not take the label '{label}' (it "
                f"reads '{detail.summary.label}').",
                code="hub_bad_response",
                outcome="failed",
                extra={"label_device_id": new_id},
            )
        if target is not None and detail.summary.room_id != target.id:
            raise ToolError(
                f"The hub created device {new_id} but it reads as not in room '{target.name}'.",
                code="hub_bad_response",
                outcome="failed",
                extra={"room_device_id": new_id},
            )
        out: CreateResult = {
            "device": detail.summary.as_dict(),
            "driver": name,
            "virtual": is_virtual,
        }
        if not is_virtual:
            out["note"] = (
                "A radio driver creates an unpaired shell; pair real hardware by inclusion "
                "instead (a radio inclusion, or the hub's Add Device page)."
            )
        if warnings:
            out["warnings"] = warnings
        return out

    async def delete_device(self, device_id: str) -> DeleteResult:
        """Delete a device; report the apps that referenced it."""
        detail = await self._get_device(device_id)
        status = await self._devices.force_delete(device_id)
        self._forget_device(device_id)
        out: DeleteResult = {
            "device_id": device_id,
            "label": detail.summary.display_name,
            "child_ids_removed": detail.summary.child_ids,
            "apps_that_used_it": detail.apps_using,
        }
        if status == "partial":
            out["note"] = (
                "The device is gone, but the hub reported a partial removal: something it "
                "held (e.g. a radio node or child records) may remain."
            )
        return out

    async def replacement_candidates(
        self, device_id: str, *, allowed: Callable[[str], bool] | None = None
    ) -> ReplacementCandidates:
        """The devices the hub offers as new hardware for ``device_id`` (its Replace
        dialog's list), those outside the allowlist left out and counted."""
        detail, options = await asyncio.gather(
            self._get_device(device_id), self._devices.replacement_options(device_id)
        )
        shown: list[ReplacementCandidate] = []
        hidden = 0
        for option in options:
            cid = norm_id(option.get("id"))
            if cid is None or cid == device_id:
                continue
            if allowed is not None and not allowed(cid):
                hidden += 1
                continue
            types = option.get("deviceTypes")
            shown.append(
                {
                    "device_id": cid,
                    "label": str(option.get("name") or ""),
                    "drivers": [str(t) for t in types] if isinstance(types, list) else [],
                }
            )
        out: ReplacementCandidates = {
            "device": {"device_id": device_id, "label": detail.summary.display_name},
            "candidates": shown,
        }
        if hidden:
            out["hidden"] = hidden
        return out

    async def replace_device(
        self, old_id: str, new_id: str, *, allowed: Callable[[str], bool] | None = None
    ) -> ReplaceResult:
        """Move ``new_id``'s hardware onto ``old_id`` (old id, label, room, apps are kept)."""
        if old_id == new_id:
            raise ToolError("old_device_id and new_device_id must differ.")
        old, new = await asyncio.gather(self._get_device(old_id), self._get_device(new_id))
        options = await self._devices.replacement_options(old_id)
        valid = {norm_id(o.get("id")): o for o in options}
        if new_id not in valid:
            # only what the allowlist shows (the read tool lists them the same way)
            offered = [o for o in options if allowed is None or allowed(str(norm_id(o.get("id"))))]
            shown = ", ".join(f"{o.get('name')} ({norm_id(o.get('id'))})" for o in offered[:15])
            raise ToolError(
                f"Device {new_id} ({new.summary.display_name}) is not a valid replacement for "
                f"{old.summary.display_name}. The hub offers: {shown or 'none'}.",
                hint="Replacements must share the device's main capabilities.",
            )
        await self._devices.replace(old_id, new_id)
        self._forget_device(new_id)
        self._devices_changed()
        after = await self._get_device(old_id)
        return {
            "device": after.summary.as_dict(),
            "kept": {
                "device_id": old_id,
                "label": old.summary.display_name,
                "apps_using": old.apps_using,
            },
            "new_hardware_from": {
                "device_id": new_id,
                "label": new.summary.display_name,
                "driver": new.driver,
            },
        }


async def _or_none[T](read: Awaitable[T]) -> T | None:
    """A read whose failure only leaves out what it would add (None)."""
    try:
        return await read
    except HubError:
        return None
