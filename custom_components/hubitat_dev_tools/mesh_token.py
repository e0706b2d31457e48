"""A peer hub's Hub Mesh token: typed into Home Assistant by an administrator, never given
to the assistant (HA glue).

``hub_update_hub_mesh peer_token_for=<peer>`` checks the peer (it must show the warning the
hub UI's token dialog opens from) and raises a fixable Repairs issue
``mesh_token_<entry_id>_<hash>``. Its fix flow asks an administrator for the token (copied
from the peer hub's own Hub Mesh page), sends it as the hub's Hub Mesh page does, reads the
peer back (its warning must be gone) and audits it under the user who asked. The token lives
only in the flow's form submission: it is not stored, logged, audited or put into any answer,
and error sentences are scrubbed of it.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import RepairsFlow, RepairsFlowResult
from homeassistant.core import HomeAssistant, callback

from .managers.mesh import check_peer_token
from .runtime import HubitatConfigEntry, HubRuntime
from .safety import ToolKind
from .secret_forms import SecretFormFlow, clear_issues, issue_id_for, raise_issue, secret_schema

ISSUE_MESH_TOKEN = "mesh_token"
TOOL_NAME = "hub_update_hub_mesh"
FIELD_TOKEN = "token"


def mesh_token_issue_id(entry_id: str, hub_id: str) -> str:
    """The Repairs issue of one peer's pending token (one per hub and peer)."""
    return issue_id_for(ISSUE_MESH_TOKEN, entry_id, hub_id)


@callback
def request_peer_token(
    hass: HomeAssistant,
    entry: HubitatConfigEntry,
    peer: dict[str, Any],
    *,
    user: str | None,
    user_id: str | None,
    gateway: str | None,
) -> str:
    """Raise the peer's issue; the sentence for the tool's answer."""
    name, hub_id = str(peer["name"]), str(peer["hub_id"])
    raise_issue(
        hass,
        ISSUE_MESH_TOKEN,
        mesh_token_issue_id(entry.entry_id, hub_id),
        entry_id=entry.entry_id,
        placeholders={"hub": entry.title, "peer": name},
        data={"hub_id": hub_id, "peer": name},
        user=user,
        user_id=user_id,
        gateway=gateway,
    )
    return (
        f"Waiting for the owner: an administrator copies the Hub Mesh token of {name} from "
        f"that hub's own Hub Mesh page and types it in Home Assistant under Settings > "
        f"Repairs > 'Hub Mesh token of {name} for hub {entry.title}'. Assistants never see "
        "it. Check the result afterwards with hub_get_hub_mesh (the peer's warning)."
    )


@callback
def clear_mesh_token_issues(hass: HomeAssistant, entry_id: str) -> None:
    """Drop the hub's pending token requests (its entry unloads)."""
    clear_issues(hass, ISSUE_MESH_TOKEN, entry_id)


class PeerTokenFlow(SecretFormFlow):
    """Ask for the token, send it, read the peer back; the issue ends when the peer's
    warning is gone, a failure shows the form again with the reason."""

    tool_name = TOOL_NAME
    tool_kind = ToolKind.WRITE

    def __init__(self, issue_id: str, data: dict[str, Any]) -> None:
        super().__init__(issue_id, data)
        self._hub_id = str(data.get("hub_id") or "")
        self._peer = str(data.get("peer") or self._hub_id)
        self._bad_token = False

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Go to the token step."""
        return await self.async_step_token()

    async def async_step_token(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Show the form (with the last failure, if any); a submit sends the token."""
        runtime = self._runtime()
        if runtime is None or not self._hub_id:
            return self.async_abort(reason="hub_not_loaded")
        if (refused := self._refused(runtime)) is not None:
            return refused
        if user_input is not None:
            token = str(user_input.get(FIELD_TOKEN) or "").strip()
            self._failure = check_peer_token(token) or ""
            self._bad_token = bool(self._failure)
            # checked here: a token that cannot be one is not sent
            if not self._failure and await self._send(runtime, token):
                return self.async_create_entry(data={})
        return self.async_show_form(
            step_id="token",
            data_schema=secret_schema(FIELD_TOKEN),
            errors={"base": "bad_token" if self._bad_token else "not_taken"}
            if self._failure
            else {},
            description_placeholders={
                "peer": self._peer,
                "hub": runtime.title,
                "message": self._failure,
            },
        )

    async def _send(self, runtime: HubRuntime, token: str) -> bool:
        """Send under an audit record of the user who asked; True when the peer reads back
        without its warning (else ``_failure`` says why)."""

        async def send() -> tuple[str, str]:
            result = await runtime.hub.devices.mesh.set_peer_token(self._hub_id, token)
            return "ok", str(result.get("summary") or "")

        outcome, message = await self._audited(
            runtime,
            {"peer_token_for": self._peer, "via": "Repairs form (token typed by an admin)"},
            send,
            secret=token,
            what=f"Hub Mesh token of peer {self._peer}",
        )
        self._failure = "" if outcome == "ok" else message
        self._bad_token = False
        return outcome == "ok"


def create_flow(issue_id: str, data: dict[str, Any] | None) -> RepairsFlow:
    """The fix flow of a ``mesh_token_<entry_id>_<hash>`` issue."""
    return PeerTokenFlow(issue_id, dict(data or {}))
