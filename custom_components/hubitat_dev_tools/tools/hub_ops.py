"""Hub operations: network tests, identify LED and memory cleanup, network settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..address_follow import start_following
from ..errors import ToolError
from ..hub.network import ETHERNET_SPEEDS, valid_host
from ..safety import ToolKind
from ..wifi_join import request_password
from .args import ToolArgs, arg
from .base import HubTool, ToolCall, on_hub
from .errors import add_advice

TOOL_DOMAIN = "hub"

# The schemas stay short (the surface is a prompt): hosts and addresses are checked strictly
# in code (valid_host, the network manager) before anything is sent.
IPV4 = str
HOST = str
TESTS = ("ping", "ping_gateway", "traceroute", "speed_test")


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkTestArgs(ToolArgs):
    test: str = arg(vol.In(TESTS), None, required=True)
    host: str | None = arg(HOST, "Name or IPv4 (default 1.1.1.1)")


class CallNetworkTestTool(HubTool[NetworkTestArgs]):
    name = "hub_call_network_test"
    covers = (on_hub("hub_get_device_health"),)
    title = "Hub network test"
    description = (
        "Network test run by the hub: ping host, ping_gateway, traceroute host, speed_test "
        "(internet, up to a minute)."
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
    covers = (
        on_hub("hub_get_info"),
        on_hub("hub_call_gc", "free_memory"),
        on_hub("hub_get_device_health"),
    )
    title = "Hub LED or memory"
    description = (
        "blink_led: blink the hub's LED to find it. free_memory: free unused memory (free KB "
        "before/after)."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: HubActionArgs) -> dict[str, Any]:
        if args.action == "blink_led":
            return await call.hub.ops.blink_led()
        out = await call.hub.ops.free_memory(call.deadline)
        if "note" in out:  # nothing was freed
            add_advice(out, "note", "See hub_get_health_report (memory history).")
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkSettingsArgs(ToolArgs):
    mode: str | None = arg(vol.In(("dhcp", "static")), None)
    address: str | None = arg(IPV4, None)
    netmask: str | None = arg(IPV4, None)
    gateway: str | None = arg(IPV4, None)
    dns_servers: list[str] | None = arg(vol.All([IPV4], vol.Length(max=3)), "[] = the router's")
    disconnect: str | None = arg(vol.In(("wifi", "ethernet")), None)
    cloud_enabled: bool | None = arg(bool, "Hubitat cloud")
    ethernet_speed: str | None = arg(vol.In(ETHERNET_SPEEDS), None)
    wifi_join: str | None = arg(str, "SSID; owner types password in HA")

    def change(self) -> str:
        """Which one change the call asks for."""
        asked = [
            name
            for name, value in (
                ("mode", self.mode),
                ("disconnect", self.disconnect),
                ("cloud_enabled", self.cloud_enabled),
                ("ethernet_speed", self.ethernet_speed),
                ("wifi_join", self.wifi_join),
            )
            if value is not None
        ]
        if len(asked) != 1:
            raise ToolError(
                "Give exactly one of mode, disconnect, cloud_enabled, ethernet_speed or "
                "wifi_join. Nothing was sent.",
                hint="hub_get_info shows the current network settings.",
            )
        return asked[0]


class UpdateNetworkSettingsTool(HubTool[NetworkSettingsArgs]):
    name = "hub_update_network_settings"
    covers = (
        on_hub("hub_set_system_settings"),
        on_hub("hub_call_destructive_ops"),
    )
    title = "Update hub network settings"
    description = (
        "One of: Ethernet mode static (address, netmask, gateway) or dhcp, with dns_servers "
        "(hub reboots); disconnect a link; cloud_enabled; ethernet_speed; wifi_join (the "
        "owner enters the password in HA Repairs, never you). Wrong values make "
        "the hub unreachable; Home Assistant follows a new address. Current: hub_get_info."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: NetworkSettingsArgs) -> dict[str, Any]:
        change = args.change()
        net = call.hub.network
        if change == "cloud_enabled":
            assert args.cloud_enabled is not None
            return await net.cloud(args.cloud_enabled)
        if change == "ethernet_speed":
            assert args.ethernet_speed is not None
            return await net.ethernet_speed(args.ethernet_speed)
        if change == "wifi_join":
            assert args.wifi_join is not None
            return await _ask_wifi_password(call, args.wifi_join)
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
            )
        if (host := out.pop("follow", None)) is not None:
            out["follow"] = await start_following(call.hass, call.runtime.entry, host)
        return out


async def _ask_wifi_password(call: ToolCall, ssid: str) -> dict[str, Any]:
    """Check the join, then hand the password step to Home Assistant's Repairs."""
    check = await call.hub.network.wifi_join_check(ssid)
    name = str(check["ssid"])
    if check.get("already"):
        return {
            "summary": f"The hub is already on {name}",
            "unchanged": True,
            "network": check["network"],
        }
    out: dict[str, Any] = {
        "summary": f"The join of {name} waits for the owner to type its password in Home Assistant",
        "pending": True,
        "ssid": name,
        "next": request_password(
            call.hass,
            call.runtime.entry,
            name,
            user=call.caller.name,
            user_id=call.caller.user.id,
            gateway=UpdateNetworkSettingsTool.gateway(),
        ),
    }
    if not check.get("listed"):
        out["warning"] = (
            f"The hub's Wi-Fi scan does not list {name} (hidden, out of range, or 5 GHz only); "
            "the join can still be tried."
        )
        out["visible_networks"] = check.get("visible_networks", [])
    return out


ORDER = 11

TOOLS: tuple[type[HubTool[Any]], ...] = (
    CallNetworkTestTool,
    CallHubActionTool,
    UpdateNetworkSettingsTool,
)
