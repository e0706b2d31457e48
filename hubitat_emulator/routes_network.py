"""The hub's network: Settings > Network, its links, the cloud, the Network Test page, the
identify LED and memory cleanup (``emu.network``: :class:`~.network_state.NetworkState`).

State and knobs (all deterministic; tests set them):

* Settings > Network as ``/hub2/networkConfiguration`` shows it. A static-IP or DHCP change is
  SAVED at once (the page shows the saved static fields and DNS override) and APPLIED at the
  next reboot: then the hub answers at the static address (or at ``dhcp_address`` under DHCP;
  None keeps the address) and no longer at the old one.
* ``answer_at_new_address``: False makes a hub whose address changed at boot answer nowhere
  (a static configuration wrong for the network).
* ``wlan_address``: the Wi-Fi link's address ("" = no Wi-Fi connection). Disconnecting
  Ethernet moves the hub to it at once (as the hub UI does: it reloads at ``wlanAddr``).
* ``ping_loss``: ``{host: percent}`` packet loss per host (default 0), ``speed_mbps``.
* ``blinks`` (how often the LED was asked to blink), ``gc_runs``; ``garbage_kb`` is what the
  next ``/hub/forceGC`` frees (the free-memory figure rises by it).
* ``lan_autoneg``: the Ethernet speed (``/hub/advanced/network/ethernetMode/<mode>`` sets it).
* ``cloud_disabled``: the cloud controller (``/hub2/hubData disableCloudController``).
* ``dark_mode``: what ``/hub/applyDarkMode`` set (the hub shows it nowhere).
* Wi-Fi join (the UI's ``joinWiFiNetwork``): ``wifi_available`` maps the SSIDs in range to
  their passwords (``/hub2/availableWiFiNetworks`` lists them; ``wifi_scans`` counts rescans).
  ``setWiFiNetworkInfo`` joins before it answers; ``setWiFiNetworkInfoAsync`` answers at once
  and ``getWiFiNetworkInfoAsyncStatus`` says "In progress" ``wifi_join_polls`` times, then
  "Success: ..." or "Fail: ...". A join moves the Wi-Fi link to ``wifi_join_address``.
  ``wifi_psk_seen`` keeps the last password received (tests check it reached the hub). The
  status and failure sentences are ours (no source quotes the hub's): only their first word,
  "Success" or "Fail", is from the hub UI, which tests nothing else.
  ``wifi_drivers_installed`` / ``hub_version``: a hub of version 7 or older without drivers.
  ``wifi_fail_text``: the wrong-password sentence (``{psk}`` in it repeats the password).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .network_state import ETHERNET_MODES, NetworkState
from .server import HubServer

__all__ = ["ETHERNET_MODES", "NetworkState", "setup"]


def setup(app: web.Application, server: HubServer) -> None:
    r = _NetworkRoutes(server)
    add = app.router.add_get
    add("/hub2/networkConfiguration", r.configuration)
    add("/hub/advanced/switchToStaticIp", r.switch_static)
    add("/hub/advanced/switchToDhcp", r.switch_dhcp)
    add("/hub/advanced/disconnectWiFi", r.disconnect_wifi)
    add("/hub2/availableWiFiNetworks", r.wifi_networks)
    add("/hub/advanced/setWiFiNetworkInfo", r.wifi_join)
    add("/hub/advanced/setWiFiNetworkInfoAsync", r.wifi_join_async)
    add("/hub/advanced/getWiFiNetworkInfoAsyncStatus", r.wifi_join_status)
    add("/hub/advanced/disconnectEthernet", r.disconnect_ethernet)
    add("/hub/advanced/{verb:enable|disable}CloudController", r.cloud)
    add("/hub/advanced/network/ethernetMode/{mode}", r.ethernet_mode)
    add("/hub/applyDarkMode/{value}", r.dark_mode)
    add("/hub/advanced/blinkLED", r.blink)
    add("/hub/forceGC", r.force_gc)
    add("/hub/networkTest/ping/{host}", r.ping)
    add("/hub/networkTest/traceroute/{host}", r.traceroute)
    add("/hub/networkTest/speedtest", r.speed_test)


def _text(body: str = "") -> web.Response:
    return web.Response(text=body, content_type="text/plain", charset="utf-8")


def _ipv4(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(p.isdigit() and int(p) < 256 for p in parts)


def _servers(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


class _NetworkRoutes:
    def __init__(self, server: HubServer) -> None:
        self.server = server

    @property
    def net(self) -> NetworkState:
        return self.server.network

    async def configuration(self, request: web.Request) -> web.StreamResponse:
        n = self.net
        lan = self.server.host if n.has_ethernet and self.server.host != n.wlan_address else ""
        data: dict[str, Any] = {
            "hubVersion": n.hub_version,
            "usingStaticIP": n.using_static_ip,
            "lanAddr": lan,
            "wlanAddr": n.wlan_address,
            "wifiNetwork": n.wifi_network,
            "wifiMessage": f"Connected to {n.wifi_network}" if n.wifi_network else "",
            "ipMessage": f"IP address: {lan or n.wlan_address}",
            "dnsServers": n.dns_servers(),
            "useDNSFallover": n.use_dns_fallover,
            "dhcpNameServers": list(n.dhcp_name_servers),
            "staticIP": n.static_ip,
            "staticGateway": n.static_gateway,
            "staticSubnetMask": n.static_subnet_mask,
            "staticNameServers": list(n.static_name_servers),
            "lanAutoneg": n.lan_autoneg,
            "wifiDriversInstalled": n.wifi_drivers_installed,
            "hasEthernet": n.has_ethernet,
            "hasWiFi": n.has_wifi,
            "restartBonjourOnSchedule": False,
        }
        return self.server.http.json(data)

    async def switch_static(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        address, mask, gateway = (q.get(k, "").strip() for k in ("address", "netmask", "gateway"))
        if not all(_ipv4(v) for v in (address, mask, gateway)):
            return _text("Invalid IP address, subnet mask or gateway.")
        n = self.net
        n.static_ip, n.static_subnet_mask, n.static_gateway = address, mask, gateway
        n.static_name_servers = _servers(q.get("nameserver", ""))
        n.pending_mode = "static"
        return _text()

    async def switch_dhcp(self, request: web.Request) -> web.StreamResponse:
        n = self.net
        servers = _servers(request.query.get("nameserver", ""))
        if not all(_ipv4(s) for s in servers):
            return _text("Invalid name server.")
        n.dhcp_name_servers = servers
        n.use_dns_fallover = request.query.get("useDNSFallover") == "true"
        if n.using_static_ip:
            n.pending_mode = "dhcp"
        return _text()

    async def disconnect_wifi(self, request: web.Request) -> web.StreamResponse:
        n = self.net
        if self.server.host == n.wlan_address:  # the hub drops the link this request uses
            self.server.drop_connections()
        n.wlan_address, n.wifi_network = "", ""
        return _text()

    async def wifi_networks(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("reload") == "true":
            self.net.wifi_scans += 1
        return self.server.http.json(sorted(self.net.wifi_available))

    def _try_join(self, ssid: str, psk: str) -> str:
        """Join now; "" or the hub's failure sentence."""
        n = self.net
        n.wifi_psk_seen = psk
        if n.wifi_available.get(ssid) is None:
            return f"Fail: network {ssid} not found"
        if n.wifi_available[ssid] != psk:
            return n.wifi_fail_text.replace("{ssid}", ssid).replace("{psk}", psk)
        n.wifi_network, n.wlan_address = ssid, n.wifi_join_address
        return ""

    async def wifi_join(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        if not self.net.wifi_drivers_installed and self.net.hub_version <= 7:
            return _text("Wi-Fi drivers are not installed")
        return _text(self._try_join(q.get("ssid", ""), q.get("psk", "")))

    async def wifi_join_async(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        ssid, psk = q.get("ssid", ""), q.get("psk", "")
        if not self.net.wifi_drivers_installed and self.net.hub_version <= 7:
            return _text("Wi-Fi drivers are not installed")
        if not ssid:
            return _text("No network name given")
        failure = self._try_join(ssid, psk)
        final = failure or f"Success: joined {ssid}"
        self.net.wifi_pending = (ssid, self.net.wifi_join_polls, final)
        if not failure:  # the link comes up when the polls run out
            self.net.wifi_network, self.net.wlan_address = "", ""
        return _text()

    async def wifi_join_status(self, request: web.Request) -> web.StreamResponse:
        n = self.net
        if n.wifi_pending is None:
            return _text("No Wi-Fi join in progress")
        ssid, left, final = n.wifi_pending
        if left > 0:
            n.wifi_pending = (ssid, left - 1, final)
            return _text("In progress")
        n.wifi_pending = None
        if final.startswith("Success"):
            n.wifi_network, n.wlan_address = ssid, n.wifi_join_address
        return _text(final)

    async def disconnect_ethernet(self, request: web.Request) -> web.StreamResponse:
        n = self.net
        if not n.wlan_address:
            return _text("Cannot disconnect Ethernet: no Wi-Fi connection.")
        n.has_ethernet = False
        self.server.move_soon(n.wlan_address)
        return _text()

    async def ethernet_mode(self, request: web.Request) -> web.StreamResponse:
        mode = request.match_info["mode"]
        if mode not in ETHERNET_MODES:  # the UI only offers these three
            return web.Response(status=400, text=f"Unknown Ethernet mode {mode}")
        self.net.lan_autoneg = mode
        return _text()

    async def cloud(self, request: web.Request) -> web.StreamResponse:
        self.net.cloud_disabled = request.match_info["verb"] == "disable"
        return _text()

    async def dark_mode(self, request: web.Request) -> web.StreamResponse:
        self.net.dark_mode = request.match_info["value"] == "true"
        return _text()

    async def blink(self, request: web.Request) -> web.StreamResponse:
        self.net.blinks += 1
        return _text()

    async def force_gc(self, request: web.Request) -> web.StreamResponse:
        n = self.net
        n.gc_runs += 1
        n.freed_kb += n.garbage_kb
        n.garbage_kb = 0
        return _text()

    async def ping(self, request: web.Request) -> web.StreamResponse:
        host = request.match_info["host"]
        gateway = self.net.static_gateway or "192.168.1.1"
        target = {"gateway": gateway, "default": "1.1.1.1"}.get(host, host)
        loss = self.net.ping_loss.get(target, 0.0)
        got = round(4 * (100 - loss) / 100)
        lines = [f"PING {target} ({target}): 56 data bytes"]
        lines += [f"64 bytes from {target}: seq={i} ttl=57 time=1{i}.2 ms" for i in range(got)]
        lines += [
            f"--- {target} ping statistics ---",
            f"4 packets transmitted, {got} packets received, {loss:g}% packet loss",
        ]
        if got:
            lines.append("round-trip min/avg/max = 10.2/11.7/13.2 ms")
        return _text("\n".join(lines) + "\n")

    async def traceroute(self, request: web.Request) -> web.StreamResponse:
        host = request.match_info["host"]
        hops = ["192.168.1.1", "10.20.0.1", host]
        lines = [f"traceroute to {host} ({host}), 30 hops max, 46 byte packets"]
        lines += [f" {i}  {h} ({h})  {i * 4}.1 ms" for i, h in enumerate(hops, 1)]
        return _text("\n".join(lines) + "\n")

    async def speed_test(self, request: web.Request) -> web.StreamResponse:
        return _text(f"Download speed: {self.net.speed_mbps:.1f} Mbps\n")
