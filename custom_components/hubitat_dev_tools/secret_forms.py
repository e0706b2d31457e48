"""What the Repairs forms that take a secret from an administrator share (HA glue).

A Wi-Fi password (``wifi_join.py``) and a Hub Mesh peer's token (``mesh_token.py``) are never
tool arguments: a tool raises a fixable Repairs issue, and its fix flow takes the secret from
an administrator's form and sends it once. Both flows keep the caller who asked, check the
options again at every step, show the secret's field as a password, and run the send under
an audit record of that caller with every sentence scrubbed of the secret. The secret is not
stored anywhere: not in the issue, the flow's data, the audit record, a log or an answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
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
from .runtime import HubRuntime
from .safety import ToolKind, option_refusal

_LOGGER = logging.getLogger(__name__)

INTERNAL_ERROR = "an internal error (logged in Home Assistant)"


def issue_id_for(kind: str, entry_id: str, key: str) -> str:
    """A pending request's Repairs issue: one per hub and ``key`` (a network, a peer)."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:10]
    return f"{kind}_{entry_id}_{digest}"


@callback
def raise_issue(
    hass: HomeAssistant,
    kind: str,
    issue_id: str,
    *,
    entry_id: str,
    placeholders: dict[str, str],
    data: dict[str, Any],
    user: str | None,
    user_id: str | None,
    gateway: str | None,
) -> None:
    """A fixable request of this kind: ``data`` for its flow, with the hub and the caller who
    asked (the flow audits under that caller)."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue_id,
        is_fixable=True,
        is_persistent=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key=kind,
        translation_placeholders=placeholders,
        data={"entry_id": entry_id, **data, "user": user, "user_id": user_id, "gateway": gateway},
    )


def pending_issues(hass: HomeAssistant, kind: str, entry_id: str) -> list[str]:
    """The hub's pending issues of this kind."""
    prefix = f"{kind}_{entry_id}_"
    return [i for d, i in ir.async_get(hass).issues if d == DOMAIN and i.startswith(prefix)]


@callback
def clear_issues(hass: HomeAssistant, kind: str, entry_id: str) -> None:
    """Drop the hub's pending issues of this kind (its entry unloads)."""
    for issue_id in pending_issues(hass, kind, entry_id):
        ir.async_delete_issue(hass, DOMAIN, issue_id)


def secret_schema(field: str) -> vol.Schema:
    """The form: one required field, shown as a password and never autocompleted."""
    return vol.Schema(
        {
            vol.Required(field): TextSelector(
                TextSelectorConfig(type=TextSelectorType.PASSWORD, autocomplete="off")
            )
        }
    )


class SecretFormFlow(RepairsFlow):
    """The parts of a secret-taking fix flow that do not depend on the secret's use."""

    tool_name: str  # the tool the request came through (audit, option checks)
    tool_kind: ToolKind

    def __init__(self, issue_id: str, data: dict[str, Any]) -> None:
        self._issue_id = issue_id
        self._entry_id = str(data.get("entry_id") or "")
        self._user = data.get("user")
        self._user_id = data.get("user_id")
        gateway = data.get("gateway")
        self._gateway = str(gateway) if gateway else None
        self._failure = ""

    def _runtime(self) -> HubRuntime | None:
        entry = self.hass.config_entries.async_get_entry(self._entry_id)
        runtime = getattr(entry, "runtime_data", None) if entry else None
        return runtime if isinstance(runtime, HubRuntime) else None

    def _refused(self, runtime: HubRuntime) -> RepairsFlowResult | None:
        """The abort when the options no longer allow the tool (Write master, disable lists)."""
        refusal = option_refusal(runtime, self.tool_name, self.tool_kind, gateway=self._gateway)
        if refusal is None:
            return None
        return self.async_abort(
            reason="not_allowed", description_placeholders={"why": str(refusal)}
        )

    async def _audited(
        self,
        runtime: HubRuntime,
        args: dict[str, Any],
        send: Callable[[], Awaitable[tuple[str, str]]],
        *,
        secret: str,
        what: str,
    ) -> tuple[str, str]:
        """Run ``send`` (it answers (outcome, message)) under an audit record of the caller
        who asked; every failure becomes (outcome, message) with the secret scrubbed."""
        shared = get_domain_data(self.hass)
        record = None
        outcome, message = "failed", ""
        try:
            if shared is not None:
                record = shared.audit.begin(
                    user=self._user,
                    user_id=self._user_id,
                    tool=self.tool_name,
                    hub=runtime.title,
                    args=args,
                    gateway=self._gateway,
                )
            outcome, message = await send()
        except ToolError as err:
            outcome, message = err.outcome, scrub(str(err), secret)
        except HubError as err:
            message = scrub(str(err), secret)
        except asyncio.CancelledError:
            outcome, message = "interrupted", "the form was closed before the hub answered"
            raise
        except Exception:  # never a traceback in the form; the secret is in no message
            _LOGGER.exception("%s on hub %s failed", what, runtime.title)
            message = INTERNAL_ERROR
        finally:
            if shared is not None and record is not None:
                shared.audit.finish(record, outcome, scrub(message, secret))
        return outcome, scrub(message, secret)
