"""Hub operations: network tests, identify LED and memory cleanup, network settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..address_follow import start_following
from ..errors import ToolError
from ..hub.network import valid_host
from ..safety import ToolKind
from .args import ToolArgs, arg, match
from .base import HubTool, ToolCall

TOOL_DOMAIN = "hub"

_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IPV4 = match(rf"^{_OCTET}(?:\.{_OCTET}){{3}}$", msg="not an IPv4 address")
HOST = vol.All(
    str,
    vol.Length(min=1, max=253),
    match(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?\.?$", msg="not a host name or IP"),
)
TESTS = ("ping", "ping_gateway", "traceroute", "speed_test")


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkTestArgs(ToolArgs):
    test: str = arg(vol.In(TESTS), None, required=True)
    host: str | None = arg(HOST, "Host name or IPv4 for ping/traceroute (default 1.1.1.1)")


class CallNetworkTestTool(HubTool[NetworkTestArgs]):
    name = "hub_call_network_test"
    title = "Run hub network test"
    description = (
        "Run a network test from the hub itself, as its Network Test page does: ping a host, "
        "ping_gateway (its router), traceroute, or speed_test (internet download speed; "
        "up to a minute). Changes nothing. Answers the hub's output and the figures in it."
    )
    kind = ToolKind.READ
    idempotent = False
    open_world = True

    async def run(self, call: ToolCall, args: NetworkTestArgs) -> dict[str, Any]:
        host = None
        if args.test in ("ping", "traceroute"):
            host = valid_host(args.host or "1.1.1.1")
            if host is None:
                raise ToolError(
                    f"'{args.host}' is not a host name or IPv4 address.",
                    hint="For the router use test='ping_gateway'.",
                )
        elif args.host is not None:
            raise ToolError(f"host is for ping and traceroute, not {args.test}.")
        return await call.hub.ops.network_test(args.test, host, call.deadline - 1.0)


@dataclass(frozen=True, slots=True, kw_only=True)
class HubActionArgs(ToolArgs):
    action: str = arg(vol.In(("blink_led", "free_memory")), None, required=True)


class CallHubActionTool(HubTool[HubActionArgs]):
    name = "hub_call_hub_action"
    title = "Blink hub LED or free memory"
    description = (
        "blink_led: blink the hub's LED to find it. free_memory: make the hub free unused "
        "memory now; answers free memory before and after. Neither changes settings."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: HubActionArgs) -> dict[str, Any]:
        if args.action == "blink_led":
            return await call.hub.ops.blink_led()
        return await call.hub.ops.free_memory(call.deadline)


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkSettingsArgs(ToolArgs):
    mode: str | None = arg(vol.In(("dhcp", "static")), "IP mode of the Ethernet port")
    address: str | None = arg(IPV4, "Static IP")
    netmask: str | None = arg(IPV4, "Static netmask")
    gateway: str | None = arg(IPV4, "Static gateway")
    dns_servers: list[str] | None = arg(
        vol.All([IPV4], vol.Length(max=3)), "DNS servers ([] = the router's)"
    )
    dns_fallover: bool | None = arg(bool, "DHCP: fall back to public DNS")
    reboot: bool = arg(bool, "Reboot to apply the IP mode", default=True)
    disconnect: str | None = arg(vol.In(("wifi", "ethernet")), "Drop this link")
    cloud_enabled: bool | None = arg(bool, "Hubitat cloud connection on/off")

    def change(self) -> str:
        """Which one change the call asks for."""
        asked = [
            name
            for name, value in (
                ("mode", self.mode),
                ("disconnect", self.disconnect),
                ("cloud_enabled", self.cloud_enabled),
            )
            if value is not None
        ]
        if len(asked) != 1:
            raise ToolError(
                "Give exactly one of mode, disconnect or cloud_enabled. Nothing was sent.",
                hint="hub_get_info shows the current network settings.",
            )
        return asked[0]


class UpdateNetworkSettingsTool(HubTool[NetworkSettingsArgs]):
    name = "hub_update_network_settings"
    title = "Update hub network settings"
    description = (
        "Settings > Network: mode static (address, netmask, gateway) or dhcp, dns_servers; "
        "applies on reboot (reboot=true). Or disconnect wifi/ethernet, or cloud_enabled. "
        "Wrong settings make the hub unreachable (reset button fixes it); Home Assistant "
        "follows a new address. Current values: hub_get_info."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: NetworkSettingsArgs) -> dict[str, Any]:
        change = args.change()
        net = call.hub.network
        if change == "cloud_enabled":
            assert args.cloud_enabled is not None
            return await net.cloud(args.cloud_enabled)
        if change == "disconnect":
            assert args.disconnect is not None
            out = await net.disconnect(args.disconnect)
        else:
            assert args.mode is not None
            out = await net.configure(
                args.mode,
                address=args.address,
                netmask=args.netmask,
                gateway=args.gateway,
                dns_servers=args.dns_servers,
                dns_fallover=args.dns_fallover,
                reboot=args.reboot,
            )
        if (host := out.pop("follow", None)) is not None:
            out["follow"] = await start_following(call.hass, call.runtime.entry, host)
        return out


ORDER = 11

TOOLS: tuple[type[HubTool[Any]], ...] = (
    CallNetworkTestTool,
    CallHubActionTool,
    UpdateNetworkSettingsTool,
)
