"""The base class every tool derives from: the shared discipline lives here.

A tool declares name, title, description, kind (read/write/destructive), its argument
fields, and implements ``run``. The base class:
- builds the schema (adds ``hub``, and ``confirm`` for the destructive tier) and the four
  annotation hints from the same ``kind`` the gates use, so they cannot disagree;
- validates the arguments with the schema before anything else happens;
- passes the call through the safety chokepoint (admin, hub, disable list, masters,
  destructive tier) and audits writes and refused writes;
- maps every failure to an ``llm.ToolResult(error=True)`` with a hint, never an exception;
- returns JSON-safe data.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import probatio as vol
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm

from ..const import DOMAIN
from ..domain_data import get_domain_data
from ..hub.errors import HubAuthError, HubError
from ..managers.errors import ValidationError
from ..runtime import HubRuntime
from ..safety import (
    Caller,
    Refusal,
    ToolKind,
    check_destructive,
    check_gates,
    resolve_admin,
    resolve_hub,
)

_LOGGER = logging.getLogger(__name__)

HUB_FIELD_DESC = "Hub name or hub_uid. Only needed when several hubs are configured."
CONFIRM_DESC = "Must be true to run this destructive operation, after the user agreed."


def _allow_all(_device_id: str) -> bool:
    return True


@dataclass(slots=True)
class ToolCall:
    """What a tool's ``run`` receives besides its arguments."""

    hass: HomeAssistant
    runtime: HubRuntime
    caller: Caller
    tool_name: str
    # The device allowlist of this hub's options (set by the chokepoint). List tools filter
    # with it; single-device tools are refused by the chokepoint before ``run``.
    device_allowed: Callable[[str], bool] = _allow_all


def json_safe(data: Any) -> Any:
    """Return data that plain ``json.dumps`` accepts (datetimes etc. become strings)."""
    return json.loads(json.dumps(data, default=str))


def _format_invalid(err: vol.Invalid) -> str:
    errors = err.errors if isinstance(err, vol.MultipleInvalid) else [err]
    parts = []
    for e in errors:
        path = ".".join(str(p) for p in e.path) or "arguments"
        parts.append(f"{path}: {e.msg}")
    return "; ".join(parts)


class HubTool(llm.Tool):
    """Base class for every hubitat_dev_tools tool."""

    name: str
    title: str
    description: str
    kind: ClassVar[ToolKind] = ToolKind.READ
    # Domain (devices, rooms, modes, ...): groups tools into gateways and the README table.
    domain: ClassVar[str] = "hub"
    idempotent: ClassVar[bool] = True
    open_world: ClassVar[bool] = False
    # Argument fields: {vol.Required/Optional marker: validator}
    fields: ClassVar[dict[Any, Any]] = {}

    def __init__(self) -> None:
        self.integration = DOMAIN
        schema: dict[Any, Any] = dict(self.fields)
        if self.kind is ToolKind.DESTRUCTIVE:
            schema[vol.Optional("confirm", description=CONFIRM_DESC)] = bool
        schema[vol.Optional("hub", description=HUB_FIELD_DESC)] = str
        self.parameters = vol.Schema(schema)
        self.annotations = llm.ToolAnnotations(
            read_only=self.kind is ToolKind.READ,
            destructive=self.kind is ToolKind.DESTRUCTIVE,
            idempotent=self.idempotent,
            open_world=self.open_world,
        )

    @property
    def is_write(self) -> bool:
        """Return True for tools that change the hub."""
        return self.kind is not ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Do the work; return JSON-able data. Raise ValidationError/HubError/Refusal."""
        raise NotImplementedError

    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> llm.ToolResult:
        """Validate, gate, run, audit and map errors."""
        raw_args = tool_input.tool_args if isinstance(tool_input.tool_args, dict) else {}
        caller: Caller | None = None
        runtime: HubRuntime | None = None
        try:
            try:
                args = self.parameters(raw_args)
            except vol.Invalid as err:
                raise Refusal(
                    "invalid_arguments",
                    f"Invalid arguments for {self.name}: {_format_invalid(err)}. "
                    "Nothing was sent to the hub.",
                    "Fix the arguments to match the tool's input schema and call again.",
                ) from None
            caller = await resolve_admin(hass, llm_context)
            runtime = resolve_hub(hass, args.get("hub"))
            check_gates(runtime, self.name, self.kind)
            if self.kind is ToolKind.DESTRUCTIVE:
                await check_destructive(runtime, args)
            data = await self.run(ToolCall(hass, runtime, caller, self.name), args)
        except Refusal as err:
            return self._fail(
                hass, caller, runtime, raw_args, err.code, str(err), err.hint, "refused"
            )
        except ValidationError as err:
            return self._fail(
                hass, caller, runtime, raw_args, err.code, str(err), err.hint, "refused"
            )
        except HubAuthError as err:
            if runtime is not None:
                runtime.entry.async_start_reauth(hass)
            return self._fail(
                hass, caller, runtime, raw_args, err.code, str(err), err.hint, "failed"
            )
        except HubError as err:
            return self._fail(
                hass, caller, runtime, raw_args, err.code, str(err), err.hint, "failed"
            )
        except HomeAssistantError as err:
            return self._fail(hass, caller, runtime, raw_args, "error", str(err), None, "failed")
        except Exception:
            _LOGGER.exception("Unexpected error in tool %s", self.name)
            return self._fail(
                hass,
                caller,
                runtime,
                raw_args,
                "internal_error",
                f"{self.name} failed with an internal error (logged in Home Assistant).",
                "Do not retry the same call; report it with the Home Assistant log.",
                "failed",
            )
        if self.is_write:
            self._audit(hass, caller, runtime, raw_args, "ok", data.get("summary"))
        return llm.ToolResult(data=json_safe(data))

    def _fail(
        self,
        hass: HomeAssistant,
        caller: Caller | None,
        runtime: HubRuntime | None,
        raw_args: dict[str, Any],
        code: str,
        message: str,
        hint: str | None,
        outcome: str,
    ) -> llm.ToolResult:
        if self.is_write:
            self._audit(hass, caller, runtime, raw_args, outcome, f"{code}: {message}")
        data: dict[str, Any] = {"error": code, "message": message}
        if hint:
            data["hint"] = hint
        return llm.ToolResult(data=data, error=True)

    def _audit(
        self,
        hass: HomeAssistant,
        caller: Caller | None,
        runtime: HubRuntime | None,
        raw_args: dict[str, Any],
        outcome: str,
        detail: Any,
    ) -> None:
        shared = get_domain_data(hass)
        if shared is None:
            return
        shared.audit.record(
            user=caller.name if caller else None,
            user_id=caller.user.id if caller else None,
            tool=self.name,
            hub=runtime.title if runtime else None,
            args=raw_args,
            outcome=outcome,
            detail=str(detail) if detail is not None else None,
        )
