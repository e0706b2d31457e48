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

import hashlib
import logging
from typing import Any

import probatio as vol
from homeassistant.components.repairs import RepairsFlow, RepairsFlowResult
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.selector import (
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)

from .const import DOMAIN
from .domain_data import get_domain_data
from .errors import ToolError
from .hub.errors import HubError
from .hub.network import scrub
from .managers.mesh import check_peer_token
from .runtime import HubitatConfigEntry, HubRuntime
from .safety import ToolKind, option_refusal

_LOGGER = logging.getLogger(__name__)

ISSUE_MESH_TOKEN = "mesh_token"
TOOL_NAME = "hub_update_hub_mesh"
FIELD_TOKEN = "token"


def mesh_token_issue_id(entry_id: str, hub_id: str) -> str:
    """The Repairs issue of one peer's pending token (one per hub and peer)."""
    digest = hashlib.sha256(hub_id.encode()).hexdigest()[:10]
    return f"{ISSUE_MESH_TOKEN}_{entry_id}_{digest}"


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
    ir.async_create_issue(
        hass,
        DOMAIN,
        mesh_token_issue_id(entry.entry_id, hub_id),
        is_fixable=True,
        is_persistent=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key=ISSUE_MESH_TOKEN,
        translation_placeholders={"hub": entry.title, "peer": name},
        data={
            "entry_id": entry.entry_id,
            "hub_id": hub_id,
            "peer": name,
            "user": user,
            "user_id": user_id,
            "gateway": gateway,
        },
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
    prefix = f"{ISSUE_MESH_TOKEN}_{entry_id}_"
    for domain, issue_id in list(ir.async_get(hass).issues):
        if domain == DOMAIN and issue_id.startswith(prefix):
            ir.async_delete_issue(hass, DOMAIN, issue_id)


class PeerTokenFlow(RepairsFlow):
    """Ask for the token, send it, read the peer back; the issue ends when the peer's
    warning is gone, a failure shows the form again with the reason."""

    def __init__(self, issue_id: str, data: dict[str, Any]) -> None:
        self._issue_id = issue_id
        self._entry_id = str(data.get("entry_id") or "")
        self._hub_id = str(data.get("hub_id") or "")
        self._peer = str(data.get("peer") or self._hub_id)
        self._user = data.get("user")
        self._user_id = data.get("user_id")
        gateway = data.get("gateway")
        self._gateway = str(gateway) if gateway else None
        self._failure = ""
        self._bad_token = False

    def _runtime(self) -> HubRuntime | None:
        entry = self.hass.config_entries.async_get_entry(self._entry_id)
        runtime = getattr(entry, "runtime_data", None) if entry else None
        return runtime if isinstance(runtime, HubRuntime) else None

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Go to the token step."""
        return await self.async_step_token()

    async def async_step_token(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Show the form (with the last failure, if any); a submit sends the token."""
        runtime = self._runtime()
        if runtime is None or not self._hub_id:
            return self.async_abort(reason="hub_not_loaded")
        refusal = option_refusal(runtime, TOOL_NAME, ToolKind.WRITE, gateway=self._gateway)
        if refusal is not None:
            return self.async_abort(
                reason="not_allowed", description_placeholders={"why": str(refusal)}
            )
        if user_input is not None:
            token = str(user_input.get(FIELD_TOKEN) or "").strip()
            self._failure = check_peer_token(token) or ""
            self._bad_token = bool(self._failure)
            # checked here: a token that cannot be one is not sent
            if not self._failure and await self._send(runtime, token):
                return self.async_create_entry(data={})
        schema = vol.Schema(
            {
                vol.Required(FIELD_TOKEN): TextSelector(
                    TextSelectorConfig(type=TextSelectorType.PASSWORD, autocomplete="off")
                )
            }
        )
        return self.async_show_form(
            step_id="token",
            data_schema=schema,
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
        shared = get_domain_data(self.hass)
        record = None
        outcome, message = "failed", ""
        try:
            if shared is not None:
                record = shared.audit.begin(
                    user=self._user,
                    user_id=self._user_id,
                    tool=TOOL_NAME,
                    hub=runtime.title,
                    args={
                        "peer_token_for": self._peer,
                        "via": "Repairs form (token typed by an admin)",
                    },
                    gateway=self._gateway,
                )
            result = await runtime.hub.devices.mesh.set_peer_token(self._hub_id, token)
            outcome, message = "ok", str(result.get("summary") or "")
        except ToolError as err:
            outcome, message = err.outcome, scrub(str(err), token)
        except HubError as err:
            message = scrub(str(err), token)
        except Exception:  # never a traceback in the form; the token is in no message
            _LOGGER.exception(
                "Hub Mesh token of peer %s on hub %s failed", self._peer, runtime.title
            )
            message = "an internal error (logged in Home Assistant)"
        finally:
            if shared is not None and record is not None:
                shared.audit.finish(record, outcome, message)
        self._failure = "" if outcome == "ok" else message
        self._bad_token = False
        return outcome == "ok"


def create_flow(issue_id: str, data: dict[str, Any] | None) -> RepairsFlow:
    """The fix flow of a ``mesh_token_<entry_id>_<hash>`` issue."""
    return PeerTokenFlow(issue_id, dict(data or {}))
