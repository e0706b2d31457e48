"""The one LLM API (id ``hubitat_dev_tools``) that mcp_server and Assist serve."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from .const import API_ID, API_NAME
from .tools import HubTool, all_tools

API_PROMPT = (
    "These tools administer a Hubitat Elevation hub. Find devices with hub_list_devices "
    "(one call returns ids, rooms and current states); read one device's commands with "
    "hub_get_device before calling an unfamiliar command. Errors carry a 'hint' saying how "
    "to recover. Writes are audited; destructive tools need confirm=true from the user and a "
    "hub backup from the last 24 hours. With several hubs, pass 'hub'."
)


@dataclass(slots=True, kw_only=True)
class HubitatDevToolsAPI(llm.API):
    """Serves every hub of this Home Assistant instance through one tool set."""

    # Declared as a field so it works before 2026.11 (no such field in llm.API) and on
    # 2026.11+, where core enforces it for every caller. Our chokepoint checks it too.
    requires_admin: bool = True
    tools: list[HubTool] = field(default_factory=all_tools)

    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        """Return the tools (built once; mcp_server asks on every request)."""
        return llm.APIInstance(
            api=self,
            api_prompt=API_PROMPT,
            llm_context=llm_context,
            tools=list(self.tools),
        )


def async_register(hass: HomeAssistant) -> Callable[[], None]:
    """Register the API; return the function that unregisters it."""
    return llm.async_register_api(hass, HubitatDevToolsAPI(hass=hass, id=API_ID, name=API_NAME))
