"""Hub Mesh state of the emulated hub (``HomeState.mesh``; endpoints in ``mesh.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field

REFRESH_INTERVALS = (0, 120, 300, 3600)  # the Hub Mesh page's full-sync choices
# the emulator's wording (no real sentence published): the hub UI shows any ``warning`` as a
# tooltip on the icon that opens its token dialog
TOKEN_WARNING = "Hub mesh token needed: this hub has Hub Security enabled"


@dataclass
class MeshPeer:
    hub_id: str
    name: str
    ip: str
    device_ids: list[int] = field(default_factory=list)
    var_names: list[str] = field(default_factory=list)
    active: bool = True
    offline: bool = False
    warning: str | None = None
    last_active_ms: int = 1_784_212_155_639
    ui_security: bool = False
    # a peer with Hub Security (``ui_security``) presents this token (its own page,
    # ``/device/showHubMeshToken``, shows it): until this hub stores the same one with
    # ``/device/setHubMeshToken``, the peer row carries ``TOKEN_WARNING``
    token: str | None = field(default=None, repr=False)
    stored_token: str | None = field(default=None, repr=False)

    def shown_warning(self) -> str | None:
        """The peer row's ``warning``: its own, else a missing or wrong token's."""
        if self.warning:
            return self.warning
        if self.ui_security and self.token and self.stored_token != self.token:
            return TOKEN_WARNING
        return None


@dataclass
class RemoteDevice:
    """A device a peer hub shares (what this hub may link)."""

    hub_id: str
    device_id: int
    name: str
    child_count: int = 0


@dataclass
class LinkedDevice:
    """A local device that is a link to a peer hub's device."""

    id: int
    name: str
    hub_id: str
    child_count: int = 0


@dataclass
class LinkedVariable:
    """A local hub variable linked to a peer hub's variable."""

    name: str
    hub_id: str
    source_name: str


@dataclass
class MeshState:
    enabled: bool = True
    token: str = "emulated-mesh-token-0f3c9a"
    full_refresh_interval: int = 3600
    mode_hub_id: str | None = None
    homekit_available: bool = True
    peers: list[MeshPeer] = field(
        default_factory=lambda: [
            MeshPeer(
                "4b1e2c3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                "Garage Hub",
                "192.168.1.41",
                device_ids=[201, 202],
                var_names=["garageOpenCount"],
            )
        ]
    )
    available: list[RemoteDevice] = field(
        default_factory=lambda: [
            RemoteDevice("4b1e2c3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", 201, "Garage Door Opener"),
            RemoteDevice("4b1e2c3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", 202, "Workshop Lights", 1),
        ]
    )
    linked: list[LinkedDevice] = field(default_factory=list)
    shared_variables: list[str] = field(default_factory=list)
    linked_variables: list[LinkedVariable] = field(default_factory=list)
    # enableHubMesh / disableHubMesh: stored, applied at the next reboot
    pending_enabled: bool | None = None
    full_syncs: int = 0
    reconnects: int = 0
    tokens_issued: int = 0
    peer_token_posts: int = 0  # /device/setHubMeshToken requests (the tokens are not kept)

    def secure_peer(self) -> MeshPeer:
        """Knob: add a second peer with Hub Security, whose token this hub lacks."""
        peer = MeshPeer(
            "9c8b7a65-4321-4fed-8cba-0987654321fe",
            "Barn Hub",
            "192.168.1.52",
            active=False,
            ui_security=True,
            token="barn-hub-mesh-token-5d1e77aa",
        )
        self.peers.append(peer)
        return peer

    def apply_at_reboot(self) -> None:
        if self.pending_enabled is not None:
            self.enabled, self.pending_enabled = self.pending_enabled, None

    def new_token(self) -> None:
        self.tokens_issued += 1
        self.token = f"emulated-mesh-token-{self.tokens_issued:04d}-7e21"

    def linked_ids(self) -> set[int]:
        return {link.id for link in self.linked}

    def offers_sharing(self, device_id: int) -> bool:
        """The device page's ``meshSelectionEnabled`` for this device."""
        return self.enabled and device_id not in self.linked_ids()
