"""Assist: a conversation agent uses our API through Home Assistant's own ChatLog.

The agent is scripted (no model, no network): it asks the chat log for our LLM API, as
any conversation agent that offers "control Home Assistant" does, then makes the tool
calls a model would make. Everything after that is Home Assistant's: the chat log runs the
calls through the API instance and hands the results (or errors) back as tool results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, intent, llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import API_ID
from hubitat_emulator import HubEmulator

from ..conftest import a_switch


@dataclass
class ScriptedAgent(AbstractConversationAgent):
    """Makes the given tool calls, one assistant turn each, through the chat log."""

    turns: list[list[llm.ToolInput]]
    results: list[conversation.ToolResultContent] = field(default_factory=list)
    system_prompt: str = ""
    failure: str | None = None

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return "*"

    async def async_process(
        self, user_input: conversation.ConversationInput
    ) -> conversation.ConversationResult:
        with (
            chat_session.async_get_chat_session(self.hass, user_input.conversation_id) as session,
            conversation.async_get_chat_log(self.hass, session, user_input) as chat_log,
        ):
            try:
                await chat_log.async_provide_llm_data(
                    user_input.as_llm_context("test_agent"), API_ID, None, None
                )
            except conversation.ConverseError as err:
                self.failure = str(err)
                return err.as_conversation_result()
            first = chat_log.content[0]
            assert isinstance(first, conversation.SystemContent)
            self.system_prompt = first.content
            for calls in self.turns:
                content = conversation.AssistantContent(agent_id="test_agent", tool_calls=calls)
                self.results.extend(
                    [result async for result in chat_log.async_add_assistant_content(content)]
                )
            response = intent.IntentResponse(language=user_input.language)
            response.async_set_speech("done")
            return conversation.ConversationResult(
                response=response, conversation_id=session.conversation_id
            )

    hass: Any = None


def _data(result: conversation.ToolResultContent) -> dict[str, Any]:
    data = result.result.data
    assert isinstance(data, dict)
    return data


async def _converse(hass: HomeAssistant, agent: ScriptedAgent, user: User) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    agent.hass = hass
    agent_entry = MockConfigEntry(domain="test_agent")
    agent_entry.add_to_hass(hass)
    conversation.async_set_agent(hass, agent_entry, agent)
    await conversation.async_converse(
        hass,
        "turn on the switch",
        None,
        Context(user_id=user.id),
        language="en",
        agent_id=agent_entry.entry_id,
    )


async def test_assist_reads_and_writes_through_the_chat_log(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, hass_admin_user: User
) -> None:
    switch = a_switch(hub)
    hub.set_device_attribute(switch, "switch", "off")
    agent = ScriptedAgent(
        turns=[
            [llm.ToolInput(tool_name="hub_list_devices", tool_args={"capability": "Switch"})],
            [
                llm.ToolInput(
                    tool_name="hub_call_device_command",
                    tool_args={"device_id": str(switch), "command": "on"},
                )
            ],
        ]
    )
    await _converse(hass, agent, hass_admin_user)

    # Our API's prompt reached the agent's system prompt.
    assert "Hubitat Elevation hub" in agent.system_prompt
    listed, commanded = agent.results
    assert listed.tool_name == "hub_list_devices" and not listed.result.error
    devices = _data(listed)["devices"]
    assert isinstance(devices, list)
    ids = {str(device["device_id"]) for device in devices if isinstance(device, dict)}
    assert str(switch) in ids
    assert commanded.tool_name == "hub_call_device_command"
    assert not commanded.result.error, commanded.result.data
    assert hub.device(switch)["attributes"]["switch"] == "on"


async def test_assist_gets_our_errors_as_tool_results(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, hass_admin_user: User
) -> None:
    before = len(hub.requests)
    agent = ScriptedAgent(
        turns=[
            [
                llm.ToolInput(
                    tool_name="hub_call_device_command",
                    tool_args={"device_id": "not-a-number", "command": "on"},
                ),
                llm.ToolInput(tool_name="hub_no_such_tool", tool_args={}),
            ]
        ]
    )
    await _converse(hass, agent, hass_admin_user)

    refused, unknown = agent.results
    # Our error protocol reaches the agent as data it can act on: a code, a message, a hint.
    assert refused.result.error is True
    assert refused.result.data["error"] == "invalid_arguments"
    assert refused.result.data.get("hint")
    assert not [r for r in hub.requests[before:] if r[1].startswith("/device/runmethod")]
    # A tool that does not exist: the same protocol, pointing at the way out.
    assert unknown.result.error is True
    assert unknown.result.data["error"] == "tool_not_available"
    assert "hub_search_tools" in str(_data(unknown)["hint"])


@pytest.mark.usefixtures("entry")
async def test_assist_refuses_a_non_admin(
    hass: HomeAssistant, hub: HubEmulator, hass_read_only_user: User
) -> None:
    switch = a_switch(hub)
    hub.set_device_attribute(switch, "switch", "off")
    agent = ScriptedAgent(
        turns=[
            [
                llm.ToolInput(
                    tool_name="hub_call_device_command",
                    tool_args={"device_id": str(switch), "command": "on"},
                )
            ]
        ]
    )
    await _converse(hass, agent, hass_read_only_user)

    if agent.failure is None:
        # Home Assistant 2026.10: our chokepoint refuses the call.
        (result,) = agent.results
        assert result.result.error is True and result.result.data["error"] == "not_admin"
    else:
        # 2026.11+: core refuses to hand a non-admin our API at all.
        assert not agent.results
    assert hub.device(switch)["attributes"]["switch"] == "off"
