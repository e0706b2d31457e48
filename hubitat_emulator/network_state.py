"""The hub's network settings and links as data (``emu.network``, ``HubServer.network``): what
Settings > Network saved and what the next boot applies, the Wi-Fi join, the knobs tests set.
The endpoints that read and change it are in ``network.py`` (its docstring lists the knobs);
the server applies a pending address change when it boots (``boot_address``). No HTTP here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ETHERNET_MODES = ("AUTONEG", "FIXED_100", "FIXED_10")  # the UI's lanAutonegOptions


@dataclass
class NetworkState:
    using_static_ip: bool = False
    dhcp_name_servers: list[str] = field(default_factory=list)
    use_dns_fallover: bool = False
    router_dns: list[str] = field(default_factory=lambda: ["192.168.1.1"])
    static_ip: str = ""
    static_gateway: str = ""
    static_subnet_mask: str = ""
    static_name_servers: list[str] = field(default_factory=list)
    wlan_address: str = ""
    wifi_network: str = ""
    has_ethernet: bool = True
    has_wifi: bool = True
    lan_autoneg: str = "AUTONEG"
    # what the next boot applies: "static" or "dhcp" (None: nothing pending)
    pending_mode: str | None = None
    dhcp_address: str | None = None
    answer_at_new_address: bool = True
    ping_loss: dict[str, float] = field(default_factory=dict)
    speed_mbps: float = 94.3
    blinks: int = 0
    gc_runs: int = 0
    garbage_kb: int = 52000
    freed_kb: int = 0
    cloud_disabled: bool = False
    dark_mode: bool | None = None
    wifi_available: dict[str, str] = field(
        default_factory=lambda: {"HomeNet": "correct horse", "Garden": "tomatoes42"}
    )
    wifi_scans: int = 0
    wifi_join_polls: int = 2
    wifi_join_address: str = "192.168.1.88"
    wifi_psk_seen: str | None = None
    # a wrong password's sentence; "{psk}" is replaced by the password received (a hub that
    # repeats it: the client must scrub it)
    wifi_fail_text: str = "Fail: could not authenticate with {ssid}"
    wifi_drivers_installed: bool = True
    hub_version: int = 8
    # the async join in progress: (ssid, polls left, final status)
    wifi_pending: tuple[str, int, str] | None = None

    def boot_address(self, current: str) -> str:
        """The address the hub takes at boot (a pending change applies)."""
        mode, self.pending_mode = self.pending_mode, None
        if mode == "static" and self.static_ip:
            self.using_static_ip = True
            return self.static_ip
        if mode == "dhcp":
            self.using_static_ip = False
            return self.dhcp_address or current
        return current

    def dns_servers(self) -> list[str]:
        if self.using_static_ip:
            return self.static_name_servers or list(self.router_dns)
        return self.dhcp_name_servers or list(self.router_dns)
