"""Radio settings: full-replacement writes, read-merged, checked by reading them back.

The hub replaces a radio's whole settings set on each save (Z-Wave: ``enabled``, ``region``,
``secureJoin``; Zigbee: channel and power, or the two flags): every value we do not change
is read first and sent back as it is, never a placeholder, and the effect is read back.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any, cast

from ..errors import ToolError
from ..hub.answers import is_placeholder
from ..hub.controllers import RadiosController
from ..hub.errors import HubBadResponseError, HubNotFoundError, HubRefusedError, HubTimeoutError
from ..hub.radios import ZWAVE_UPDATE_SECONDS, is_long_range_region
from ..hub.results import RadioName


def _time_left(deadline: float | None, wanted: float) -> float:
    """Seconds a slow request may wait: ``wanted``, cut so the call answers by ``deadline``."""
    if deadline is None:
        return wanted
    return max(1.0, min(wanted, deadline - time.monotonic() - 2.0))


RADIO_SETTING_KEYS = {
    "zwave": {"enabled", "long_range_channel", "region"},
    "zigbee": {"enabled", "channel", "power_level", "rebuild_network_on_reboot",
               "inactive_device_ping"},
    "matter": {"enabled"},
}  # fmt: skip
# our setting -> the key the radio's details read shows it under
_SHOWN = {
    "enabled": "enabled",
    "long_range_channel": "longRangeChannel",
    "region": "region",
    "channel": "channel",
    "power_level": "powerLevel",
    "rebuild_network_on_reboot": "rebuildNetworkOnReboot",
    "inactive_device_ping": "inactiveDevicePingEnabled",
}
_Send = Callable[[], Awaitable[None]]


def _fetch(radios: RadiosController, radio: str) -> Callable[[], Awaitable[Mapping[str, Any]]]:
    """The radio's details read (its settings are in it)."""
    reads: dict[str, Callable[[], Awaitable[Mapping[str, Any]]]] = {
        "zwave": radios.zwave_details,
        "zigbee": radios.zigbee_details,
        "matter": radios.matter_details,
    }
    return reads[radio]


def _is_set(value: Any) -> bool:
    """A real value (what a settings page shows for "not set" is never sent back as data)."""
    return not isinstance(value, dict | list) and not is_placeholder(value)


def _not_read(radio: str, what: str) -> ToolError:
    return ToolError(
        f"The hub did not say its current {radio} {what}; nothing was sent (the hub replaces "
        "the whole set, so a guessed value would change a setting you did not ask to change)."
    )


async def update_radio_settings(
    radios: RadiosController, radio: str, changes: dict[str, Any], deadline: float | None = None
) -> dict[str, Any]:
    """Change radio settings, each checked against what the hub offers; read back.

    The Z-Wave and Zigbee settings calls replace a whole set, so each is sent with the
    current values read first, the change laid over them. Success is decided by reading
    the settings back (briefly polled), not by the hub's answer.
    """
    wrong = sorted(set(changes) - RADIO_SETTING_KEYS[radio])
    if wrong:
        raise ToolError(
            f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not a {radio} setting; "
            f"{radio} settings: {', '.join(sorted(RADIO_SETTING_KEYS[radio]))}. Nothing was sent."
        )
    if not changes:
        raise ToolError("Give at least one setting to change. Nothing was sent.")
    fetch = _fetch(radios, radio)
    try:
        current = await fetch()
    except HubNotFoundError as err:
        raise ToolError(f"This hub has no {radio} radio. Nothing was sent.") from err
    calls: list[_Send]
    if radio == "zigbee":
        calls = _zigbee_calls(radios, current, changes)
    elif radio == "zwave":
        calls = _zwave_calls(radios, current, changes, deadline)
    else:
        calls = []
    if "enabled" in changes:
        enable = partial(radios.enable, cast(RadioName, radio), bool(changes["enabled"]))
        # on first, off last: the other settings are saved while the radio is on
        calls = [enable, *calls] if changes["enabled"] else [*calls, enable]
    failure: HubRefusedError | HubTimeoutError | None = None
    for send in calls:
        try:
            await send()
        except (HubRefusedError, HubTimeoutError) as err:
            failure = err  # the effect decides: read it back before believing the answer
            break
    after = await _read_back(radios, radio, current, changes, deadline)
    now = {key: after.get(_SHOWN[key]) for key in changes}
    out: dict[str, Any] = {"radio": radio, "settings": now}
    not_kept = [k for k, v in changes.items() if now.get(k) != v]
    if failure is not None and (not_kept or radio == "matter"):
        raise failure
    if radio != "matter":
        collateral = _collateral(radio, current, after, changes)
        if not_kept or collateral:
            raise HubBadResponseError(
                f"The hub took the {radio} settings call but reads back "
                + ", ".join(
                    [f"{k}={now.get(k)!r} (asked {changes[k]!r})" for k in not_kept] + collateral
                ),
                hint="Read the radio again in a minute; if it is still so, set it in the hub UI.",
            )
    elif not_kept:
        out["not_applied"] = not_kept
    if radio == "matter" and "enabled" in changes:
        out["note"] = "Matter changes take effect after a hub reboot."
    if radio == "zigbee" and "channel" in changes:
        out["note"] = (
            "Zigbee devices follow the new channel over the next minutes; some older ones "
            "may need to be paired again."
        )
    return out


def _zigbee_calls(
    radios: RadiosController, current: Mapping[str, Any], changes: dict[str, Any]
) -> list[_Send]:
    """The Zigbee settings calls (not yet sent), each with its full set."""
    calls: list[_Send] = []
    for key, offered in (("channel", "channels"), ("power_level", "powerLevels")):
        value, options = changes.get(key), current.get(offered)
        if value is not None and isinstance(options, list) and value not in options:
            raise ToolError(
                f"{key} {value} is not offered by this hub ({', '.join(map(str, options))})."
                " Nothing was sent."
            )
    if "power_level" in changes and current.get("showPowerSelection") is False:
        raise ToolError("This hub does not offer a Zigbee power level setting. Nothing was sent.")
    if "channel" in changes or "power_level" in changes:
        channel = changes.get("channel", current.get("channel"))
        power = changes.get("power_level", current.get("powerLevel"))
        if not (isinstance(channel, int) and isinstance(power, int)):
            raise _not_read("Zigbee", "channel/power")
        calls.append(partial(radios.update_zigbee_channel_and_power, channel, power))
    if "rebuild_network_on_reboot" in changes or "inactive_device_ping" in changes:
        rebuild = changes.get("rebuild_network_on_reboot", current.get("rebuildNetworkOnReboot"))
        ping = changes.get("inactive_device_ping", current.get("inactiveDevicePingEnabled"))
        if not (isinstance(rebuild, bool) and isinstance(ping, bool)):
            raise _not_read("Zigbee", "settings")
        calls.append(partial(radios.update_zigbee_settings, rebuild=rebuild, ping=ping))
    return calls


def _zwave_calls(
    radios: RadiosController,
    current: Mapping[str, Any],
    changes: dict[str, Any],
    deadline: float | None,
) -> list[_Send]:
    """The Z-Wave settings call: the full set the hub UI sends, current values merged."""
    if "long_range_channel" not in changes and "region" not in changes:
        return []
    if "region" in changes and current.get("showRegion") is False:
        raise ToolError("This hub does not offer a Z-Wave region setting. Nothing was sent.")
    region = changes.get("region", current.get("region"))
    if not _is_set(region):
        raise _not_read("Z-Wave", "region")
    channel = changes.get("long_range_channel")
    if channel is not None and not is_long_range_region(region):
        raise ToolError(f"The Z-Wave region {region} has no Long Range channel. Nothing was sent.")
    if channel is None and is_long_range_region(region):
        now = current.get("longRangeChannel")
        channel = now if isinstance(now, int) else 255  # the UI shows "Auto" for none
    if current.get("enabled") is not True and changes.get("enabled") is not True:
        raise ToolError(
            "Z-Wave is off: its settings can only be changed while it is on (enabled=true "
            "turns it on first). Nothing was sent."
        )
    secure_join = current.get("secureJoin")
    if not _is_set(secure_join) and current.get("showSecureJoin") is not False:
        raise _not_read("Z-Wave", "Secure Join setting")
    return [
        partial(
            radios.update_zwave_settings,
            enabled=True,
            region=str(region),
            secure_join=secure_join if _is_set(secure_join) else None,
            long_range_channel=None if channel is None else int(channel),
            timeout=_time_left(deadline, ZWAVE_UPDATE_SECONDS),
        )
    ]


async def _read_back(
    radios: RadiosController,
    radio: str,
    before: Mapping[str, Any],
    changes: dict[str, Any],
    deadline: float | None,
) -> Mapping[str, Any]:
    """The radio's settings after the change, polled briefly (~2 s) until they show it."""
    after: Mapping[str, Any] = {}
    for delay in (0.0, 0.5, 0.5, 1.0):
        if deadline is not None and time.monotonic() + delay > deadline - 2.0 and after:
            break
        await asyncio.sleep(delay)
        after = await _fetch(radios, radio)()
        if all(after.get(_SHOWN[k]) == v for k, v in changes.items()) and not _collateral(
            radio, before, after, changes
        ):
            break
    return after


def _collateral(
    radio: str, before: Mapping[str, Any], after: Mapping[str, Any], changes: dict[str, Any]
) -> list[str]:
    """Settings that changed though nobody asked (a full replacement that reset them).

    Not judged when the radio itself is switched: a radio turning on or off may show its
    other settings differently.
    """
    if "enabled" in changes:
        return []
    watched = {
        "zwave": ("enabled", "region", "secureJoin"),
        "zigbee": ("enabled", "channel", "powerLevel", "rebuildNetworkOnReboot",
                   "inactiveDevicePingEnabled"),
    }.get(radio, ())  # fmt: skip
    asked = {_SHOWN[k] for k in changes}
    return [
        f"{key}={after.get(key)!r} (was {before.get(key)!r}, not asked)"
        for key in watched
        if key not in asked and before.get(key) != after.get(key)
    ]
