"""Network diagnostics, identify LED, memory cleanup, dark mode, network settings, cloud.

Every path and parameter here is what the hub's own web UI (``vue-hub2.min.js``: the Network
Test page, Settings > Hub Details and Settings > Network) or the on-hub MCP server sends.
The network-test and network-setting GETs answer plain text: the test's output, and for the
settings an empty text on success, else the hub's error sentence.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, quote_plus

import yarl

from .client import HubClient
from .errors import HubBadResponseError, HubError, HubRefusedError
from .info import strip_html
from .models import parse_csv

# A host the hub may be asked to ping or trace: a dotted-quad IPv4 or a DNS name (letters,
# digits, hyphens; labels of at most 63). Nothing else reaches the URL path.
_LABEL = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
HOST_RE = re.compile(rf"^{_LABEL}(?:\.{_LABEL})*\.?$")
# Words the hub's test endpoints read as something other than a host.
RESERVED_HOSTS = frozenset({"default", "gateway"})
MAX_OUTPUT = 4000


def valid_host(text: str) -> str | None:
    """The host as it goes into the path (lower-cased), or None when it is no host."""
    host = text.strip().lower()
    if not host or len(host) > 253 or host in RESERVED_HOSTS:
        return None
    try:
        return str(ipaddress.IPv4Address(host))
    except ValueError:
        pass
    if re.fullmatch(r"[\d.]+", host):  # looks like an address but is not one (300.1.1.1)
        return None
    return host if HOST_RE.match(host) else None


async def network_test(client: HubClient, test: str, host: str | None, timeout: float) -> str:
    """Run one of the hub's network tests; its plain-text output.

    ``test``: ``ping`` (to ``host``), ``ping_gateway``, ``traceroute`` (to ``host``) or
    ``speed_test`` (the hub downloads a test file from the internet).
    """
    path = {
        "ping": f"/hub/networkTest/ping/{host}",
        "ping_gateway": "/hub/networkTest/ping/gateway",
        "traceroute": f"/hub/networkTest/traceroute/{host}",
        "speed_test": "/hub/networkTest/speedtest",
    }[test]
    text = await client.request("GET", path, expect="text", timeout=timeout, retry=False)
    return str(text or "")


_LOSS_RE = re.compile(r"(\d+(?:\.\d+)?)% packet loss")
_RTT_RE = re.compile(r"=\s*[\d.]+/([\d.]+)/[\d.]+")
_SPEED_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(Mbps|Mbit/s|Mb/s|MB/s|Kbps|kbit/s)", re.IGNORECASE)


def summarize_test(test: str, output: str) -> dict[str, Any]:
    """The figures a test's text shows (ping loss and average round trip, a speed), where
    the text has them; the text itself, capped."""
    out: dict[str, Any] = {}
    if test in ("ping", "ping_gateway"):
        if m := _LOSS_RE.search(output):
            out["packet_loss_percent"] = float(m.group(1))
        if m := _RTT_RE.search(output):
            out["average_ms"] = float(m.group(1))
    elif test == "speed_test" and (m := _SPEED_RE.search(output)):
        out["speed"] = f"{m.group(1)} {m.group(2)}"
    text = output.strip()
    out["output"] = text[:MAX_OUTPUT]
    if len(text) > MAX_OUTPUT:
        out["output_truncated"] = True
    return out


async def blink_led(client: HubClient) -> None:
    """``GET /hub/advanced/blinkLED``: the hub's "Identify (blink LED)" button."""
    await client.request("GET", "/hub/advanced/blinkLED", expect="discard", retry=False)


async def force_gc(client: HubClient) -> None:
    """``GET /hub/forceGC``: the hub frees unused memory (a Java garbage collection)."""
    await client.request("GET", "/hub/forceGC", expect="discard", retry=False, timeout=20)


async def apply_dark_mode(client: HubClient, on: bool) -> None:
    """``GET /hub/applyDarkMode/<true|false>``: the admin UI's theme (no read-back exists)."""
    await client.request(
        "GET", f"/hub/applyDarkMode/{'true' if on else 'false'}", expect="discard", retry=False
    )


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


@dataclass(slots=True)
class NetworkConfig:
    """``/hub2/networkConfiguration``: what Settings > Network shows."""

    using_static_ip: bool
    lan_address: str
    wlan_address: str
    wifi_network: str
    dns_servers: list[str]
    dhcp_name_servers: list[str]
    use_dns_fallover: bool
    static_ip: str
    static_gateway: str
    static_netmask: str
    static_name_servers: list[str]
    has_ethernet: bool
    has_wifi: bool
    messages: list[str] = field(default_factory=list)
    ethernet_speed: str | None = None  # lanAutoneg: AUTONEG, FIXED_100, FIXED_10
    wifi_drivers: bool = True  # wifiDriversInstalled (hubs of version 7 and older need them)

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe, in the tool's words."""
        return {
            "mode": "static" if self.using_static_ip else "dhcp",
            "ethernet_address": self.lan_address or None,
            "wifi_address": self.wlan_address or None,
            "wifi_network": self.wifi_network or None,
            "dns_servers": self.dns_servers,
            "dhcp_dns_override": self.dhcp_name_servers,
            "dns_fallover": self.use_dns_fallover,
            "static": {
                "address": self.static_ip or None,
                "netmask": self.static_netmask or None,
                "gateway": self.static_gateway or None,
                "dns_servers": self.static_name_servers,
            },
            "has_ethernet": self.has_ethernet,
            "ethernet_speed": self.ethernet_speed,
            "has_wifi": self.has_wifi,
            "messages": self.messages,
        }


def network_config_from(data: Any) -> NetworkConfig:
    """Parse ``/hub2/networkConfiguration`` (name servers as a list or a comma text)."""
    if not isinstance(data, dict) or "usingStaticIP" not in data:
        raise HubBadResponseError("The hub's /hub2/networkConfiguration is not the expected object")
    messages = [strip_html(m) for m in (data.get("ipMessage"), data.get("wifiMessage"))]
    return NetworkConfig(
        using_static_ip=data.get("usingStaticIP") is True,
        lan_address=_text(data.get("lanAddr")),
        wlan_address=_text(data.get("wlanAddr")),
        wifi_network=_text(data.get("wifiNetwork")),
        dns_servers=parse_csv(data.get("dnsServers")),
        dhcp_name_servers=parse_csv(data.get("dhcpNameServers")),
        use_dns_fallover=data.get("useDNSFallover") is True,
        static_ip=_text(data.get("staticIP")),
        static_gateway=_text(data.get("staticGateway")),
        static_netmask=_text(data.get("staticSubnetMask")),
        static_name_servers=parse_csv(data.get("staticNameServers")),
        has_ethernet=data.get("hasEthernet") is not False,
        has_wifi=data.get("hasWiFi") is True,
        messages=[m for m in messages if m is not None],
        ethernet_speed=_text(data.get("lanAutoneg")).upper() or None,
        wifi_drivers=data.get("wifiDriversInstalled") is not False
        or not isinstance(data.get("hubVersion"), int)
        or data["hubVersion"] > 7,
    )


async def fetch_network_config(client: HubClient) -> NetworkConfig:
    """Read Settings > Network."""
    return network_config_from(await client.get_json("/hub2/networkConfiguration"))


def _refusal(text: Any, what: str) -> None:
    """The settings GETs answer an empty text on success, else the hub's error sentence."""
    message = strip_html(text)
    if message:
        raise HubRefusedError(f"The hub refused to {what}: {message[:300]}")


async def switch_to_static(
    client: HubClient, address: str, netmask: str, gateway: str, name_servers: list[str]
) -> None:
    """``GET /hub/advanced/switchToStaticIp`` with the four fields the UI sends."""
    params = {
        "address": address,
        "netmask": netmask,
        "gateway": gateway,
        "nameserver": ", ".join(name_servers),
    }
    text = await client.request(
        "GET", "/hub/advanced/switchToStaticIp", params=params, expect="text", retry=False
    )
    _refusal(text, "switch to a static IP")


async def switch_to_dhcp(client: HubClient, name_servers: list[str], fallover: bool) -> None:
    """``GET /hub/advanced/switchToDhcp`` (also how the UI overrides DNS under DHCP)."""
    params = {"nameserver": ", ".join(name_servers), "useDNSFallover": str(fallover).lower()}
    text = await client.request(
        "GET", "/hub/advanced/switchToDhcp", params=params, expect="text", retry=False
    )
    _refusal(text, "switch to DHCP")


# Settings > Network's Ethernet speed choices (the UI's ``lanAutonegOptions``).
ETHERNET_SPEEDS = ("AUTONEG", "FIXED_100", "FIXED_10")


async def set_ethernet_speed(client: HubClient, speed: str) -> None:
    """``GET /hub/advanced/network/ethernetMode/<speed>`` (the UI decides by the status)."""
    path = f"/hub/advanced/network/ethernetMode/{speed}"
    await client.request("GET", path, expect="discard", retry=False, timeout=15)


async def disconnect(client: HubClient, link: str) -> None:
    """``GET /hub/advanced/disconnectWiFi`` or ``disconnectEthernet``."""
    path = "/hub/advanced/disconnectWiFi" if link == "wifi" else "/hub/advanced/disconnectEthernet"
    text = await client.request("GET", path, expect="text", retry=False, timeout=15)
    _refusal(text, f"disconnect {'Wi-Fi' if link == 'wifi' else 'Ethernet'}")


async def set_cloud_controller(client: HubClient, enabled: bool) -> None:
    """``GET /hub/advanced/enableCloudController`` / ``disableCloudController``."""
    verb = "enable" if enabled else "disable"
    await client.request(
        "GET", f"/hub/advanced/{verb}CloudController", expect="discard", retry=False
    )


def cloud_disabled(hub_data: dict[str, Any]) -> bool | None:
    """``disableCloudController`` of ``/hub2/hubData`` (None when the hub does not say)."""
    value = hub_data.get("disableCloudController")
    return value if isinstance(value, bool) else None


# ------------------------------------------------------------------ Wi-Fi join
# Settings > Network's "Join WiFi network" (``joinWiFiNetwork`` of the hub UI): the SSID and
# the password go as the query of a GET, ``setWiFiNetworkInfo`` (answers when done) on a hub
# with Ethernet and no Wi-Fi, else ``setWiFiNetworkInfoAsync`` (answers at once) followed by
# ``getWiFiNetworkInfoAsyncStatus`` until its text starts with "Success" or "Fail". Each
# answers an empty text when it took the request, else the hub's error sentence.
WIFI_START_TIMEOUT_S = 45.0  # the UI gives the start request 45 s
WPA_MIN, WPA_MAX = 8, 63  # the UI's join button needs 8 characters; WPA2 passphrases end at 63


def scrub(text: str, secret: str) -> str:
    """``text`` without ``secret``: as typed, and in every encoding a URL query may carry
    it (``quote``, ``quote_plus``, and yarl's own, which aiohttp uses)."""
    if not secret:
        return text
    forms = {secret, quote(secret, safe=""), quote_plus(secret)}
    forms.add(yarl.URL.build(query={"p": secret}).raw_query_string.partition("=")[2])
    for form in sorted(forms, key=len, reverse=True):
        if form:
            text = text.replace(form, "**REDACTED**")
    return text


def _failed(err: HubError, what: str) -> HubError:
    """The same kind of error with a fixed message: an aiohttp error can quote the URL, and
    this one's query holds the password, so none of its text is kept."""
    return type(err)(f"{what} failed ({err.code}).", hint=err.hint, subject=err.subject)


async def wifi_networks(client: HubClient, *, rescan: bool) -> list[str]:
    """``GET /hub2/availableWiFiNetworks?reload=<rescan>``: the SSIDs the hub sees (the UI
    reads a list of names; objects with an ``ssid`` are taken too)."""
    data = await client.get_json(
        "/hub2/availableWiFiNetworks", params={"reload": "true" if rescan else "false"}
    )
    if not isinstance(data, list):
        raise HubBadResponseError("The hub's /hub2/availableWiFiNetworks is not a list")
    names = [item.get("ssid") if isinstance(item, dict) else item for item in data]
    return list(dict.fromkeys(n.strip() for n in names if isinstance(n, str) and n.strip()))


async def start_wifi_join(client: HubClient, ssid: str, password: str, *, wait: bool) -> str:
    """Ask the hub to join ``ssid``; its answer text ("" = taken). ``wait``: the blocking
    ``setWiFiNetworkInfo`` (the UI uses it on a hub with Ethernet and no Wi-Fi)."""
    path = "/hub/advanced/setWiFiNetworkInfo" if wait else "/hub/advanced/setWiFiNetworkInfoAsync"
    try:
        text = await client.request(
            "GET",
            path,
            params={"ssid": ssid, "psk": password},
            expect="text",
            retry=False,
            timeout=WIFI_START_TIMEOUT_S,
        )
    except HubError as err:
        raise _failed(err, "The hub's Wi-Fi join request") from None
    return scrub(strip_html(text) or "", password)


async def wifi_join_status(client: HubClient, password: str) -> str:
    """``GET /hub/advanced/getWiFiNetworkInfoAsyncStatus``: "Success…", "Fail…" or progress
    (scrubbed of ``password``, in case the hub's sentence repeats it)."""
    try:
        text = await client.request(
            "GET", "/hub/advanced/getWiFiNetworkInfoAsyncStatus", expect="text", timeout=10
        )
    except HubError as err:
        raise _failed(err, "Reading the hub's Wi-Fi join status") from None
    return scrub(strip_html(text) or "", password)
