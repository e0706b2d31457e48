"""The hub's network settings (Settings > Network), its links and its cloud connection.

Each change can cut the integration off the hub: the answers say what the hub will do, at
which address it should answer next (``follow``: the HA glue watches that address and moves
the config entry there once it answers as the same hub), and what to do if it does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from typing import Any, cast

from ..errors import ToolError
from ..hub.controllers import InfoController, LifecycleController, NetworkController
from ..hub.effects import poll_until
from ..hub.errors import HubBadResponseError, HubError, HubTimeoutError, HubUnreachableError
from ..hub.network import WPA_MAX, WPA_MIN, NetworkConfig, cloud_disabled
from ..hub.results import EthernetSpeed, NetworkLink

RESET_ADVICE = (
    "If the hub cannot be reached at all: press and hold its reset button for 7 seconds or "
    "more (back to DHCP, then it reboots), find its address in the router's DHCP list or at "
    "find.hubitat.com, and change the address in Home Assistant (Settings > Devices & "
    "services > Hubitat Dev Tools > Reconfigure)."
)


WIFI_JOIN_WAIT_S = 60.0  # how long a join may take after the hub took it (then: unknown)
WIFI_POLL_S = 1.0  # the UI polls the join status every second


def check_wifi_password(password: str) -> str | None:
    """Why the hub could not use this WPA password (None: usable)."""
    if len(password) == 64 and all(c in "0123456789abcdefABCDEF" for c in password):
        return None  # a raw 256-bit key in hex
    if not WPA_MIN <= len(password) <= WPA_MAX:
        return f"A Wi-Fi password has {WPA_MIN} to {WPA_MAX} characters."
    if not password.isprintable() or not password.isascii():
        return "A Wi-Fi password is made of printable ASCII characters."
    return None


def _ip(text: str | None) -> ipaddress.IPv4Address | None:
    try:
        return ipaddress.IPv4Address(text or "")
    except ValueError:
        return None


def check_static(address: str, netmask: str, gateway: str) -> None:
    """Refuse a static configuration the hub could not work with (before anything is sent)."""
    try:
        net = ipaddress.IPv4Network(f"{address}/{netmask}", strict=False)
    except ValueError as err:
        raise ToolError(f"Not a usable address and netmask: {err}. Nothing was sent.") from err
    addr, gw = ipaddress.IPv4Address(address), ipaddress.IPv4Address(gateway)
    if net.prefixlen < 31 and addr in (net.network_address, net.broadcast_address):
        raise ToolError(f"{address} is the network's own or broadcast address. Nothing was sent.")
    if gw not in net or gw == addr:
        raise ToolError(
            f"The gateway {gateway} must be another address in {net}. Nothing was sent.",
            hint="Use the router's address on the hub's network as the gateway.",
        )


class NetworkManager:
    """Settings > Network of one hub."""

    def __init__(
        self,
        network: NetworkController,
        info: InfoController,
        lifecycle: LifecycleController,
        host: str,
    ) -> None:
        self._network = network
        self._info = info
        self._lifecycle = lifecycle
        self._host = host  # the address Home Assistant reaches the hub at

    async def config(self) -> NetworkConfig:
        """The current network configuration."""
        return await self._network.config()

    def _reached_at(self, cfg: NetworkConfig) -> str | None:
        """Which of the hub's links we reach it by ("ethernet", "wifi"), None when by name."""
        host = self._host
        if _ip(host) is None:
            return None
        if host == cfg.lan_address:
            return "ethernet"
        return "wifi" if host == cfg.wlan_address else None

    async def configure(
        self,
        mode: str,
        *,
        address: str | None,
        netmask: str | None,
        gateway: str | None,
        dns_servers: list[str] | None,
    ) -> dict[str, Any]:
        """Switch to a static IP or to DHCP (with the DNS override), then reboot: the hub
        applies network settings at boot (its UI asks for the reboot)."""
        bad = [a for a in (address, netmask, gateway, *(dns_servers or [])) if a and not _ip(a)]
        if bad:
            raise ToolError(f"Not an IPv4 address: {', '.join(bad)}. Nothing was sent.")
        before = await self.config()
        if not before.has_ethernet:
            raise ToolError(
                "This hub has no Ethernet port; its Wi-Fi always uses DHCP. Nothing was sent."
            )
        servers = dns_servers or []
        if mode == "static":
            if not (address and netmask and gateway):
                raise ToolError(
                    "A static IP needs address, netmask and gateway. Nothing was sent.",
                    hint="Read the current values with action='get'.",
                )
            check_static(address, netmask, gateway)
            await self._network.switch_to_static(address, netmask, gateway, servers)
        else:
            if address or netmask or gateway:
                raise ToolError("address, netmask and gateway are for mode='static' only.")
            await self._network.switch_to_dhcp(servers, before.use_dns_fallover)
        after = await self.config()
        if mode == "static":
            saved = (after.static_ip, after.static_netmask, after.static_gateway) == (
                address,
                netmask,
                gateway,
            )
        else:
            saved = after.dhcp_name_servers == servers
        if not saved:
            shown = after.as_dict()["static" if mode == "static" else "dhcp_dns_override"]
            raise HubBadResponseError(
                "The hub accepted the network change, but Settings > Network does not show it "
                f"(it shows {shown}): nothing was changed."
            )
        via = self._reached_at(before)
        new_host = address if mode == "static" else None
        moves = via == "ethernet" and (
            new_host != before.lan_address if new_host else before.using_static_ip
        )
        await self._lifecycle.reboot()
        out: dict[str, Any] = {
            "summary": f"Network settings saved ({mode}); they apply now: the hub is rebooting",
            "mode": mode,
            "saved": after.as_dict(),
            "rebooting": True,
        }
        out["warning"] = (
            "The hub may become unreachable if these settings are wrong for this network. "
            + RESET_ADVICE
        )
        if via is None:
            out["note"] = (
                f"Home Assistant reaches the hub as {self._host} (a name, or "
                "not one of the hub's own addresses), so it does not follow the change; if the "
                "hub stops answering there, reconfigure the entry's address."
            )
        elif moves and new_host:
            out["follow"] = new_host
            out["note"] = f"After the reboot the hub answers at {new_host}."
        elif moves:
            out["note"] = (
                "Under DHCP the router picks the address: Home Assistant keeps trying "
                f"{before.lan_address}; if the hub does not come back there, "
                "find its address in the router's DHCP list or at find.hubitat.com and "
                "reconfigure the entry."
            )
        return out

    async def disconnect(self, link: str) -> dict[str, Any]:
        """Drop the hub's Wi-Fi or Ethernet link (never the only one it has)."""
        before = await self.config()
        other = before.lan_address if link == "wifi" else before.wlan_address
        mine = before.wlan_address if link == "wifi" else before.lan_address
        name = "Wi-Fi" if link == "wifi" else "Ethernet"
        if not mine:
            return {"summary": f"The hub has no {name} connection; nothing sent", "unchanged": True}
        if not other:
            raise ToolError(
                f"{name} is the hub's only connection: it would be unreachable until someone "
                "reconnects it by hand. Nothing was sent."
            )
        via = self._reached_at(before)
        try:
            await self._network.disconnect(cast(NetworkLink, link))
        except HubError:
            if via != link:  # we reach the hub by the link it dropped: the request may die
                raise
        out: dict[str, Any] = {"summary": f"The hub's {name} link is disconnected"}
        if via == link:
            out["follow"] = other
            out["note"] = (
                f"Home Assistant reached the hub over {name}; it moves this hub's entry to "
                f"{other} (the remaining link) once the hub answers there."
            )
            return out

        def dropped(cfg: NetworkConfig) -> bool:
            return not (cfg.wlan_address if link == "wifi" else cfg.lan_address)

        after = await poll_until(self.config, dropped, seconds=3.0)
        gone = dropped(after)
        out["network"] = after.as_dict()
        if not gone:
            out["summary"] = f"The hub accepted the {name} disconnect but still shows the link"
        return out

    async def ethernet_speed(self, speed: str) -> dict[str, Any]:
        """Set the Ethernet link speed (auto-negotiated or fixed); read back."""
        before = await self.config()
        if not before.has_ethernet:
            raise ToolError("This hub has no Ethernet port. Nothing was sent.")
        if before.ethernet_speed == speed:
            return {"summary": f"The Ethernet speed is already {speed}", "unchanged": True}
        try:
            await self._network.set_ethernet_speed(cast(EthernetSpeed, speed))
        except HubError:
            if self._reached_at(before) != "ethernet":  # the link renegotiates under us
                raise
        after = await poll_until(self.config, lambda c: c.ethernet_speed == speed, seconds=5.0)
        if after.ethernet_speed != speed:
            raise HubBadResponseError(
                f"The hub did not set the Ethernet speed to {speed} "
                f"(it reads {after.ethernet_speed})."
            )
        return {
            "summary": f"The Ethernet speed is now {speed}",
            "previous": before.ethernet_speed,
            "network": after.as_dict(),
        }

    async def cloud(self, enabled: bool) -> dict[str, Any]:
        """Enable or disable the hub's cloud connection; read back from ``/hub2/hubData``."""
        current = cloud_disabled(cast(dict[str, Any], await self._info.hub_data()))
        if current is (not enabled):
            return {
                "summary": f"The hub's cloud connection is already {'on' if enabled else 'off'}",
                "unchanged": True,
            }
        await self._network.set_cloud_controller(enabled)

        async def read() -> bool | None:
            return cloud_disabled(cast(dict[str, Any], await self._info.hub_data()))

        now = await poll_until(read, lambda v: v is (not enabled), seconds=3.0)
        if now is not (not enabled):
            raise HubBadResponseError(
                "The hub accepted the cloud change but /hub2/hubData does not show it."
            )
        out: dict[str, Any] = {"cloud_enabled": enabled}
        if enabled:
            out["summary"] = "The hub's cloud connection is on again (services reconnect shortly)"
        else:
            out["summary"] = "The hub's cloud connection is off"
            out["warning"] = (
                "Alexa, Google Home, other cloud integrations, cloud dashboards, firmware "
                "updates, Hub Protect and remote support stop until it is enabled again."
            )
        return out

    async def wifi_join_check(self, ssid: str) -> dict[str, Any]:
        """Everything a join of ``ssid`` needs before the password (nothing is changed): the
        hub has Wi-Fi and its drivers; whether its scan lists ``ssid``."""
        name = ssid.strip()
        if not name or len(name.encode()) > 32:
            raise ToolError("A Wi-Fi network name (SSID) has 1 to 32 bytes. Nothing was sent.")
        cfg = await self.config()
        if not cfg.wifi_drivers:
            raise ToolError(
                "This hub's Wi-Fi drivers are not installed: install them on the hub's "
                "Settings > Network page first. Nothing was sent."
            )
        if cfg.wifi_network == name and cfg.wlan_address:
            return {"ssid": name, "already": True, "network": cfg.as_dict()}
        seen = await self._network.wifi_networks(rescan=False)
        if not seen:
            seen = await self._network.wifi_networks(rescan=True)  # as the UI does when empty
        out: dict[str, Any] = {"ssid": name, "listed": name in seen}
        if name not in seen:
            out["visible_networks"] = seen[:30]
        return out

    async def join_wifi(self, ssid: str, password: str) -> dict[str, Any]:
        """Join ``ssid`` as the hub UI does, then read Settings > Network back. Raises
        ToolError with the hub's own sentence when it refused or failed. Over the Wi-Fi link
        Home Assistant reaches the hub by, the join drops that link: the answer then says
        it is unverified (``verified`` False) instead of reading back."""
        if (why := check_wifi_password(password)) is not None:
            raise ToolError(f"{why} Nothing was sent.")
        before = await self.config()
        via = self._reached_at(before)
        wait = before.has_ethernet and not before.has_wifi
        try:
            answer = await self._network.start_wifi_join(ssid, password, wait=wait)
        except (HubUnreachableError, HubTimeoutError):
            if via != "wifi":
                raise
            answer = ""  # the hub dropped the link this request used: see below
        if answer:
            raise ToolError(f"The hub did not join {ssid}: {answer[:300]}", outcome="failed")
        if via == "wifi":
            return {
                "summary": f"The hub was asked to join {ssid} (not verified: Home Assistant "
                "reaches it over the Wi-Fi link the join replaces)",
                "ssid": ssid,
                "verified": False,
                "note": (
                    "The hub may now answer at another address; if it stops answering, find "
                    "it in the router's DHCP list or at find.hubitat.com and reconfigure the "
                    "entry's address."
                ),
            }
        status = "" if wait else await self._wait_for_join(password)
        if status.startswith("Fail"):
            raise ToolError(f"The hub did not join {ssid}: {status[:300]}", outcome="failed")
        after = await poll_until(
            self.config, lambda c: c.wifi_network == ssid and bool(c.wlan_address), seconds=5.0
        )
        if not (after.wifi_network == ssid and after.wlan_address):
            raise HubBadResponseError(
                f"The hub answered {status[:200] or 'the join'!r}, but Settings > Network does "
                f"not show it on {ssid} (it shows {after.wifi_network or 'no Wi-Fi network'})."
            )
        return {
            "summary": f"The hub joined {ssid} at {after.wlan_address}",
            "ssid": ssid,
            "verified": True,
            "wifi_address": after.wlan_address,
            "hub_status": status or None,
            "network": after.as_dict(),
        }

    async def _wait_for_join(self, password: str) -> str:
        """Poll the join's status every second until "Success…" or "Fail…" or the wait ends
        (its last text; a status read that fails is tried again: the radio may be busy)."""
        last = ""

        async def read() -> str:
            nonlocal last
            with contextlib.suppress(HubError):
                last = await self._network.wifi_join_status(password)
            return last

        await asyncio.sleep(WIFI_POLL_S)  # the hub takes the join before it reports on it
        return await poll_until(
            read,
            lambda status: status.startswith(("Success", "Fail")),
            seconds=WIFI_JOIN_WAIT_S,
            interval=WIFI_POLL_S,
        )
