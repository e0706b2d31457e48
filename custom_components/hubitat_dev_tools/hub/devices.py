"""Device endpoints: lists, full detail, commands, history."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from .client import MAX_DOWNLOAD_BYTES, HubClient
from .effects import confirm_effect
from .errors import HubBadResponseError, HubError, HubNotFoundError, HubRefusedError
from .models import (
    DeviceDetail,
    DeviceSummary,
    dict_list,
    norm_id,
    parse_device_full,
    parse_device_page,
    parse_device_tree,
)


async def fetch_devices(client: HubClient) -> list[DeviceSummary]:
    """Every device with room and current states, plus capabilities (two requests)."""
    tree, caps = await asyncio.gather(
        client.get_json("/hub2/devicesList"),
        client.get_json("/device/listWithCapabilities/json"),
    )
    devices = parse_device_tree(tree)
    by_id: dict[str, list[str]] = {}
    if isinstance(caps, list):
        for item in caps:
            if isinstance(item, dict) and (did := norm_id(item.get("id"))):
                by_id[did] = [c for c in item.get("capabilities") or [] if isinstance(c, str)]
    for dev in devices:
        dev.capabilities = by_id.get(dev.id, [])
    return devices


async def fetch_device_states(client: HubClient) -> list[DeviceSummary]:
    """Every device with room and current states, without capabilities (one request)."""
    return parse_device_tree(await client.get_json("/hub2/devicesList"))


def _no_device(device_id: str) -> HubNotFoundError:
    return HubNotFoundError(f"No device with id {device_id} on the hub", subject="device")


async def fetch_device(client: HubClient, device_id: str) -> DeviceDetail:
    """Full detail of one device."""
    try:
        payload = await client.get_json(f"/device/fullJson/{quote(device_id, safe='')}")
    except HubNotFoundError as err:
        raise _no_device(device_id) from err
    if not isinstance(payload, dict) or not payload.get("device"):
        raise _no_device(device_id)
    try:
        return parse_device_full(payload)
    except ValueError as err:
        raise HubBadResponseError(f"Unexpected device payload for {device_id}") from err


async def run_command(
    client: HubClient, device_id: str, command: str, args: Sequence[Mapping[str, Any]]
) -> None:
    """Run a command through the admin runmethod endpoint (typed args)."""
    try:
        await client.post_json(
            "/device/runmethod",
            {"id": int(device_id), "method": command, "args": list(args)},
            what=f"run {command} on device {device_id}",
        )
    except HubRefusedError as err:
        err.subject = "device_command"
        raise


async def fetch_device_events(client: HubClient, device_id: str) -> list[dict[str, Any]]:
    """A device's event history, newest first."""
    data = await client.get_json(f"/device/eventsJson/{quote(device_id, safe='')}")
    return dict_list(data)


async def fetch_device_raw(client: HubClient, device_id: str) -> dict[str, Any]:
    """The raw /device/fullJson payload (for read-merge-write of the wholesale edit form)."""
    try:
        payload = await client.get_json(f"/device/fullJson/{quote(device_id, safe='')}")
    except HubNotFoundError as err:
        raise _no_device(device_id) from err
    if not isinstance(payload, dict) or not isinstance(payload.get("device"), dict):
        raise _no_device(device_id)
    return payload


async def fetch_maker_device(client: HubClient, device_id: str) -> dict[str, Any] | None:
    """Maker API /devices/<id> (attribute allowed values); None when unavailable."""
    if not client.connection.has_maker:
        return None
    try:
        data = await client.maker_get(f"devices/{quote(device_id, safe='')}")
    except HubError:
        return None
    return data if isinstance(data, dict) else None


async def post_device_update(client: HubClient, form: dict[str, str]) -> None:
    """POST the wholesale /device/update form (every omitted field is blanked by the hub)."""
    try:
        await client.post_form("/device/update", form, what="save the device edit")
    except HubRefusedError as err:
        err.hint = "The device may have been changed meanwhile; read it again and retry once."
        raise


def _same_setting(sent: Any, read: Any) -> bool:
    """Whether a preference read back equals what was sent (the hub may type it as text)."""

    def norm(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float) and float(value).is_integer():
            return str(int(value))
        return "" if value is None else str(value).strip()

    return norm(sent) == norm(read)


def _settings(raw: dict[str, Any]) -> dict[str, Any]:
    listed = raw.get("settings") or raw["device"].get("settings")
    return {str(p["name"]): p.get("value") for p in dict_list(listed) if p.get("name")}


# The device page's wholesale-form switches: (fullJson page field, /device/update form field).
FORM_SWITCHES = {"hub_mesh": "meshEnabled", "homekit": "homeKitEnabled"}


async def save_edit_form(
    client: HubClient, device_id: str, form: dict[str, str], switches: Mapping[str, bool]
) -> None:
    """POST the complete /device/update form; the page switches in ``switches`` (Hub Mesh
    sharing, HomeKit) are decided by reading them back."""
    if not switches:
        await post_device_update(client, form)
        return

    async def landed() -> bool:
        page = parse_device_page(await fetch_device_raw(client, device_id))
        return all(page.get(key) is value for key, value in switches.items())

    await confirm_effect(
        lambda: post_device_update(client, form),
        landed,
        failed=f"The hub did not save {', '.join(switches)} of device {device_id}: it reads "
        "back unchanged",
    )


async def save_preferences(
    client: HubClient,
    device_id: str,
    preferences: list[dict[str, Any]],
    *,
    show_on_home: bool | None = None,
    default_current_state: str | None = None,
) -> None:
    """POST /device/preference/save as the hub UI's device page does; verified by reading back.

    The page's body carries ``defaultCurrentState``, ``commandRetry`` (the device's
    ``retryEnabled``) and ``showOnHome`` with the preferences: they are read fresh and sent
    as they are unless ``show_on_home`` / ``default_current_state`` ('' = none) change them.
    """
    device = (await fetch_device_raw(client, device_id))["device"]
    retry = device.get("retryEnabled")
    state = device.get("defaultCurrentState")
    body = {
        "deviceId": int(device_id),
        "defaultCurrentState": default_current_state
        if default_current_state is not None
        else ("" if state in (None, "None", "null") else str(state)),
        "commandRetry": retry is True or str(retry).lower() == "true",
        "showOnHome": show_on_home
        if show_on_home is not None
        else str(device.get("showOnHome")).lower() != "false",
        "preferences": preferences,
    }
    checked = [p for p in preferences if str(p.get("type")).lower() != "password"]

    async def landed() -> bool:
        raw = await fetch_device_raw(client, device_id)
        values = _settings(raw)
        page = parse_device_page(raw)
        if show_on_home is not None and page.get("show_on_home") is not show_on_home:
            return False
        if (
            default_current_state is not None
            and (page.get("default_current_state") or "") != default_current_state
        ):
            return False
        return all(_same_setting(p["value"], values.get(str(p["name"]))) for p in checked)

    await confirm_effect(
        lambda: client.post_json(
            "/device/preference/save", body, what=f"save the preferences of device {device_id}"
        ),
        landed,
        failed=f"The hub did not save the preferences of device {device_id}: they read back "
        "unchanged",
    )


async def set_disabled(client: HubClient, device_id: str, disabled: bool) -> None:
    """POST /device/disable as the hub UI does (JSON ``{id, disable}``); verified by effect."""
    what = "disable" if disabled else "enable"

    async def landed() -> bool:
        raw = await fetch_device_raw(client, device_id)
        flag = raw["device"].get("disabled")
        return (flag is True or str(flag).lower() == "true") == disabled

    await confirm_effect(
        lambda: client.post_json(
            "/device/disable",
            {"id": int(device_id), "disable": disabled},
            what=f"{what} device {device_id}",
        ),
        landed,
        failed=f"The hub did not {what} device {device_id}: it still reads as "
        + ("enabled" if disabled else "disabled"),
    )


async def fetch_drivers(client: HubClient) -> list[dict[str, Any]]:
    """GET /device/drivers: [{id, name, namespace, type (sys|usr|dep), category, ...}]."""
    data = await client.get_json("/device/drivers")
    items = data.get("drivers") if isinstance(data, dict) else data
    return dict_list(items)


def match_drivers(drivers: Sequence[Mapping[str, Any]], wanted: str) -> list[dict[str, Any]]:
    """The drivers ``wanted`` names: an id, an exact name (any case), or ``namespace:name``.

    More than one answer means the name is ambiguous (system and user drivers, or two
    namespaces, may share a name).
    """
    text = wanted.strip()
    low = text.lower()

    def name(d: Mapping[str, Any]) -> str:
        return str(d.get("name") or "").strip().lower()

    for found in (
        [d for d in drivers if str(d.get("id")) == text],
        [d for d in drivers if name(d) == low],
    ):
        if found:
            return [dict(d) for d in found]
    space, sep, rest = low.partition(":")
    if not sep:
        return []
    return [
        dict(d)
        for d in drivers
        if name(d) == rest.strip() and str(d.get("namespace") or "").lower() == space.strip()
    ]


async def create_from_driver(client: HubClient, type_id: str) -> str:
    """GET /device/sysDriverByIdJson/<typeId> -> the new device id."""
    data = await client.get_json(
        f"/device/sysDriverByIdJson/{quote(type_id, safe='')}", what="create the device"
    )
    new_id = norm_id(data.get("deviceId")) if isinstance(data, dict) else None
    if new_id is None:
        msg = data.get("errorMessage") if isinstance(data, dict) else data
        raise HubBadResponseError(f"The hub did not create the device: {msg}")
    return new_id


async def create_virtual(client: HubClient, type_id: str) -> str:
    """GET /device/createVirtual?deviceTypeId= (all the hub UI sends) -> the new device id.

    The device is named after its driver; set a label afterwards with the device edit.
    """
    data = await client.request(
        "GET", "/device/createVirtual", params={"deviceTypeId": type_id}, retry=False
    )
    new_id = norm_id(data.get("deviceId")) if isinstance(data, dict) else None
    if new_id is None:
        msg = data.get("error") if isinstance(data, dict) else data
        raise HubBadResponseError(f"The hub did not create the virtual device: {msg}")
    return new_id


async def device_gone(client: HubClient, device_id: str) -> bool:
    """True when /device/fullJson no longer knows the device.

    What a real hub answers for a deleted id is not in evidence (404 here; the on-hub server also
    treats an error page as gone): an answer that is not a device's JSON is settled by the device
    list.
    """
    try:
        await fetch_device_raw(client, device_id)
    except HubNotFoundError:
        return True
    except HubBadResponseError:
        return all(dev.id != device_id for dev in await fetch_device_states(client))
    return False


async def force_delete(client: HubClient, device_id: str) -> str | None:
    """Force-remove a device as the hub UI does; decided by re-reading (device gone).

    GET /device/forceDelete/<id>/json answers ``{status: "success" | "partial" | ...}``
    (firmware 2.5 UI); where that path is missing (404), the older
    /device/forceDelete/<id>/yes (unknown answer) is used. Returns the hub's status, if any
    ("partial": the device is gone but the hub reported leftovers).
    """
    sid = quote(device_id, safe="")

    async def send() -> Any:
        try:
            answer = await client.request(
                "GET", f"/device/forceDelete/{sid}/json", expect="any", retry=False
            )
        except HubNotFoundError:
            return await client.request(
                "GET", f"/device/forceDelete/{sid}/yes", expect="any", retry=False
            )
        status = answer.get("status") if isinstance(answer, dict) else None
        if status not in ("success", "partial"):
            raise HubRefusedError(
                f"The hub did not delete device {device_id} (status {status!r})",
                reason=str(status),
            )
        return answer

    answer = await confirm_effect(
        send,
        lambda: device_gone(client, device_id),
        failed=f"The hub did not delete device {device_id}: it is still there",
    )
    status = answer.get("status") if isinstance(answer, dict) else None
    return str(status) if status is not None else None


async def fetch_replacement_options(client: HubClient, device_id: str) -> list[dict[str, Any]]:
    """GET /device/getReplacementOptions/<id>: [{id, name, deviceTypes}]."""
    data = await client.get_json(f"/device/getReplacementOptions/{quote(device_id, safe='')}")
    return dict_list(data)


async def replace_device(client: HubClient, old_id: str, new_id: str) -> None:
    """GET /device/replace?oldId=&newId= (the old device takes the new one's hardware)."""
    await client.request(
        "GET",
        "/device/replace",
        params={"oldId": old_id, "newId": new_id},
        retry=False,
        what=f"replace device {old_id}",
    )


async def fetch_compatible_devices(client: HubClient) -> list[dict[str, Any]]:
    """``/hub/compatibleDevices``: Hubitat's static compatible-device catalog (~1 MB)."""
    # ~1 MB today and growing: it gets the download cap, not the default one.
    data = await client.get_json("/hub/compatibleDevices", max_bytes=MAX_DOWNLOAD_BYTES)
    return dict_list(data)
