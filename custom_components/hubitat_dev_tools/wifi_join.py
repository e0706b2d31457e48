"""Joining the hub to a Wi-Fi network: the password is typed into Home Assistant, never
given to the assistant (HA glue).

``hub_update_network_settings wifi_join=<ssid>`` checks what it can without the password and
raises a fixable Repairs issue ``wifi_join_<entry_id>``. Its fix flow asks an administrator
for the password, sends the join as the hub's own Settings > Network page does, reads the
result back and audits it under the user who asked for the join. The password lives only in
the flow's form submission: it is not stored, logged, audited or put into any answer, and the
hub's error sentences are scrubbed of it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from homeassistant.components.repairs import RepairsFlow, RepairsFlowResult
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN
from .managers.network import check_wifi_password
from .runtime import HubitatConfigEntry, HubRuntime
from .safety import ToolKind
from .secret_forms import (
    SecretFormFlow,
    clear_issues,
    issue_id_for,
    pending_issues,
    raise_issue,
    secret_schema,
)

ISSUE_WIFI_JOIN = "wifi_join"
TOOL_NAME = "hub_update_network_settings"
FIELD_PASSWORD = "password"


def wifi_issue_id(entry_id: str, ssid: str) -> str:
    """The Repairs issue of one pending join (one per hub and network)."""
    return issue_id_for(ISSUE_WIFI_JOIN, entry_id, ssid)


@callback
def request_password(
    hass: HomeAssistant,
    entry: HubitatConfigEntry,
    ssid: str,
    *,
    user: str | None,
    user_id: str | None,
    gateway: str | None,
) -> str:
    """Raise the join's issue (a hub has one pending join: an earlier one for another network
    is dropped); the sentence for the tool's answer."""
    issue_id = wifi_issue_id(entry.entry_id, ssid)
    for other in pending_issues(hass, ISSUE_WIFI_JOIN, entry.entry_id):
        if other != issue_id:
            ir.async_delete_issue(hass, DOMAIN, other)
    raise_issue(
        hass,
        ISSUE_WIFI_JOIN,
        issue_id,
        entry_id=entry.entry_id,
        placeholders={"hub": entry.title, "ssid": ssid},
        data={"ssid": ssid},
        user=user,
        user_id=user_id,
        gateway=gateway,
    )
    return (
        f"Waiting for the owner: an administrator types the password of {ssid} in Home "
        f"Assistant under Settings > Repairs > 'Join {ssid}: Wi-Fi password for hub "
        f"{entry.title}'. Assistants never see it. Check the result afterwards with "
        "hub_get_info (network)."
    )


@callback
def clear_wifi_issue(hass: HomeAssistant, entry_id: str) -> None:
    """Drop the hub's pending join (its entry unloads)."""
    clear_issues(hass, ISSUE_WIFI_JOIN, entry_id)


class JoinWifiFlow(SecretFormFlow):
    """Ask for the password, join (a progress step: the join can take a minute), read back;
    the issue ends when the hub joined, a failure shows the form again with the hub's word."""

    tool_name = TOOL_NAME
    tool_kind = ToolKind.DESTRUCTIVE

    def __init__(self, issue_id: str, data: dict[str, Any]) -> None:
        super().__init__(issue_id, data)
        self._ssid = str(data.get("ssid") or "")
        self._password = ""  # only between the submit and the join's end
        self._task: asyncio.Task[tuple[str, str]] | None = None
        self._bad_password = False

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Go to the password step."""
        return await self.async_step_password()

    async def async_step_password(
        self, user_input: dict[str, Any] | None = None
    ) -> RepairsFlowResult:
        """Show the form (with the last failure, if any); a submit starts the join."""
        runtime = self._runtime()
        if runtime is None or not self._ssid:
            return self.async_abort(reason="hub_not_loaded")
        if ir.async_get(self.hass).async_get_issue(DOMAIN, self._issue_id) is None:
            return self.async_abort(reason="replaced")  # another join was asked for since
        if (refused := self._refused(runtime)) is not None:
            return refused
        if user_input is not None:
            password = str(user_input.get(FIELD_PASSWORD) or "")
            self._failure = check_wifi_password(password) or ""
            self._bad_password = bool(self._failure)
            if not self._failure:  # checked here: a password the hub cannot use is not sent
                self._password = password
                return await self.async_step_join()
        return self.async_show_form(
            step_id="password",
            data_schema=secret_schema(FIELD_PASSWORD),
            errors={"base": "bad_password" if self._bad_password else "join_failed"}
            if self._failure
            else {},
            description_placeholders={
                "ssid": self._ssid,
                "hub": runtime.title,
                "message": self._failure,
            },
        )

    async def async_step_join(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """The join runs as the flow's progress task; its end decides the next step."""
        runtime = self._runtime()
        if runtime is None:
            return self.async_abort(reason="hub_not_loaded")
        if self._task is None:
            self._task = self.hass.async_create_task(
                self._join(runtime, self._password), f"{DOMAIN} Wi-Fi join"
            )
        if not self._task.done():
            return self.async_show_progress(
                step_id="join",
                progress_action="joining",
                progress_task=self._task,
                description_placeholders={"ssid": self._ssid},
            )
        outcome, message = self._task.result()
        self._task, self._password = None, ""
        if outcome in ("ok", "unverified"):
            return self.async_show_progress_done(next_step_id="joined")
        self._failure = message
        return self.async_show_progress_done(next_step_id="password")

    async def async_step_joined(
        self, user_input: dict[str, Any] | None = None
    ) -> RepairsFlowResult:
        """Done: the issue goes away."""
        return self.async_create_entry(data={})

    async def _join(self, runtime: HubRuntime, password: str) -> tuple[str, str]:
        """Join under an audit record of the user who asked; (outcome, message)."""

        async def send() -> tuple[str, str]:
            result = await runtime.hub.network.join_wifi(self._ssid, password)
            return (
                "ok" if result.get("verified") else "unverified",
                str(result.get("summary") or ""),
            )

        return await self._audited(
            runtime,
            {"wifi_join": self._ssid, "via": "Repairs form (password typed by an admin)"},
            send,
            secret=password,
            what=f"Wi-Fi join of {self._ssid}",
        )


def create_flow(issue_id: str, data: dict[str, Any] | None) -> RepairsFlow:
    """The fix flow of a ``wifi_join_<entry_id>_<hash>`` issue."""
    return JoinWifiFlow(issue_id, dict(data or {}))
