"""The one safety chokepoint every tool call passes through (directly or via a gateway).

Order: arguments validated -> caller is an HA admin -> the hub is resolved -> per-tool and
per-gateway disable lists -> Read/Write masters -> device allowlist -> destructive tier
(confirm=true plus a hub backup within 24 h). Refusals of writes and every write's outcome
are written to the audit trail (tools/base.py).

The code tier (``check_code_tier``, called by the code tools' ``run`` before anything is
sent) needs confirm=true for putting code on the hub, and ``check_code_url`` keeps the URLs
the hub is asked to fetch to https on public addresses unless an option allows local ones.
The confirm rules that depend on what is on the hub (safety-system apps, sensitive devices,
rules that command them) are applied by the managers (``managers/confirm.py``). Every confirm
gate names its tier and decides with ``errors.confirmed``, so the hub's option "Approve in Home
Assistant" (``approvals.py``) can hold a covered tier for the owner's approval.

The option checks are also what hides tools: ``option_refusal`` is the single source for
"refused" and "hidden from tools/list and search", so the two cannot disagree.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from .const import (
    DEFAULT_ALLOW_LOCAL_CODE_URLS,
    DEFAULT_ALLOW_READ,
    DEFAULT_ALLOW_WRITE,
    DOMAIN,
    OPT_ALLOW_LOCAL_CODE_URLS,
    OPT_ALLOW_READ,
    OPT_ALLOW_WRITE,
    OPT_ALLOWED_DEVICES,
    OPT_DISABLED_GATEWAYS,
    OPT_DISABLED_TOOLS,
)
from .device_refs import device_refs
from .errors import TIER_CODE, TIER_DESTRUCTIVE, ToolError, awaiting_approval, confirmed
from .runtime import HubRuntime


class ToolKind(StrEnum):
    """How much a tool can change: drives gates and annotations together."""

    READ = "read"
    WRITE = "write"
    DESTRUCTIVE = "destructive"


@dataclass(slots=True)
class Caller:
    """The authenticated HA user behind a tool call."""

    user: User

    @property
    def name(self) -> str:
        """Return the user's display name."""
        return self.user.name or self.user.id


async def resolve_admin(hass: HomeAssistant, llm_context: llm.LLMContext) -> Caller:
    """Return the calling user, refusing anyone who is not a Home Assistant admin."""
    user_id = llm_context.context.user_id if llm_context.context else None
    user = await hass.auth.async_get_user(user_id) if user_id else None
    if user is None or not user.is_active:
        raise ToolError(
            "These Hubitat tools need an authenticated Home Assistant user; this call has none.",
            code="not_admin",
            hint="Connect with a long-lived access token of a Home Assistant administrator.",
        )
    if not user.is_admin:
        raise ToolError(
            f"Home Assistant user '{user.name}' is not an administrator; Hubitat admin tools "
            "are for administrators only.",
            code="not_admin",
            hint="Use a token of a Home Assistant administrator.",
        )
    return Caller(user)


def loaded_runtimes(hass: HomeAssistant) -> list[HubRuntime]:
    """Return the runtime of every loaded hub entry."""
    return [
        entry.runtime_data
        for entry in hass.config_entries.async_loaded_entries(DOMAIN)
        if isinstance(getattr(entry, "runtime_data", None), HubRuntime)
    ]


def resolve_hub(hass: HomeAssistant, hub: str | None) -> HubRuntime:
    """Pick the hub a call addresses: the only one, or the one named by ``hub``."""
    runtimes = loaded_runtimes(hass)
    if not runtimes:
        raise ToolError(
            "No Hubitat hub is loaded in Home Assistant (the hub may be offline or still "
            "starting).",
            code="no_hub",
            hint="Check Settings > Devices & services > Hubitat Dev Tools; retry in a minute.",
        )
    names = ", ".join(f"'{r.title}' ({r.identity.hub_uid})" for r in runtimes)
    if hub is None or not str(hub).strip():
        if len(runtimes) == 1:
            return runtimes[0]
        raise ToolError(
            f"Several hubs are configured: {names}. Say which one with the 'hub' argument.",
            code="hub_required",
            hint="Pass hub=<name or hub_uid>.",
        )
    wanted = str(hub).strip().lower()
    for rt in runtimes:
        keys = {
            rt.title.lower(),
            rt.identity.name.lower(),
            rt.identity.hub_uid.lower(),
            rt.entry.entry_id.lower(),
        }
        if wanted in keys:
            return rt
    raise ToolError(f"No hub called '{hub}'. Configured hubs: {names}.", code="unknown_hub")


def refusal_key(rt: HubRuntime) -> tuple[str, tuple[str, ...], tuple[str, ...], bool, bool]:
    """Everything :func:`option_refusal` reads of a hub's options, as a hashable value:
    equal keys give equal refusals (the tool set is cached by it, ``tools/surface.py``)."""
    opts = rt.entry.options

    def names(value: Any) -> tuple[str, ...]:
        return tuple(sorted(str(v) for v in value or ()))

    return (
        rt.entry.entry_id,
        names(opts.get(OPT_DISABLED_TOOLS)),
        names(opts.get(OPT_DISABLED_GATEWAYS)),
        bool(opts.get(OPT_ALLOW_READ, DEFAULT_ALLOW_READ)),
        bool(opts.get(OPT_ALLOW_WRITE, DEFAULT_ALLOW_WRITE)),
    )


def option_refusal(
    rt: HubRuntime,
    tool_name: str,
    kind: ToolKind,
    *,
    gateway: str | None = None,
    hub_access: bool = True,
) -> ToolError | None:
    """Return the refusal this hub's options give a tool, or None if they allow it.

    Per-tool and per-gateway disable lists (deny-only), then the Read/Write masters (only
    for tools that reach the hub). ``gateway`` is the gateway the tool belongs to in the
    compact surface (None for core tools), whichever surface is served.
    """
    opts = rt.entry.options
    if tool_name in (opts.get(OPT_DISABLED_TOOLS) or []):
        return ToolError(
            f"The tool {tool_name} is disabled for hub '{rt.title}' by a Home Assistant admin.",
            code="tool_disabled",
            hint="Do not retry; tell the user it is disabled in the integration's options "
            "(Disabled tools).",
        )
    if gateway and gateway in (opts.get(OPT_DISABLED_GATEWAYS) or []):
        return ToolError(
            f"The tool {tool_name} belongs to {gateway}, which is disabled for hub "
            f"'{rt.title}' by a Home Assistant admin.",
            code="gateway_disabled",
            hint="Do not retry; tell the user it is disabled in the integration's options "
            "(Disabled gateways).",
        )
    if not hub_access:
        return None
    if kind is ToolKind.READ and not opts.get(OPT_ALLOW_READ, DEFAULT_ALLOW_READ):
        return ToolError(
            f"Reading from hub '{rt.title}' is switched off (Read master).",
            code="reads_disabled",
            hint="An admin can enable 'Allow reads' in the integration's options.",
        )
    if kind is not ToolKind.READ and not opts.get(OPT_ALLOW_WRITE, DEFAULT_ALLOW_WRITE):
        return ToolError(
            f"Changing hub '{rt.title}' is switched off (Write master); nothing was changed.",
            code="writes_disabled",
            hint="An admin can enable 'Allow changes' in the integration's options.",
        )
    return None


def check_gates(
    rt: HubRuntime,
    tool_name: str,
    kind: ToolKind,
    *,
    gateway: str | None = None,
    hub_access: bool = True,
) -> None:
    """Per-tool and per-gateway disable lists and the Read/Write masters."""
    refusal = option_refusal(rt, tool_name, kind, gateway=gateway, hub_access=hub_access)
    if refusal is not None:
        raise refusal


def allowed_device_ids(rt: HubRuntime) -> frozenset[str] | None:
    """Return the device allowlist of this hub, or None when every device is allowed."""
    ids = rt.entry.options.get(OPT_ALLOWED_DEVICES) or []
    return frozenset(str(i).strip() for i in ids if str(i).strip()) or None


def device_predicate(rt: HubRuntime) -> Callable[[str], bool]:
    """Return ``device_allowed(device_id)`` for this hub's allowlist (ToolCall.device_allowed)."""
    allowed = allowed_device_ids(rt)
    if allowed is None:
        return lambda _device_id: True
    return lambda device_id: str(device_id).strip() in allowed


def check_devices(rt: HubRuntime, args: dict[str, Any]) -> None:
    """Refuse a call that names a device outside this hub's allowlist (before ``run``).

    Every reference counts, at any depth and in any spelling (``device_refs``): batch
    entries, Visual Rule nodes' ``deviceIds``, app-settings device inputs.
    """
    allowed = allowed_device_ids(rt)
    if allowed is None:
        return
    refused = sorted(d for d in device_refs(args) if d not in allowed)
    if refused:
        raise ToolError(
            f"Device(s) {', '.join(refused)} are outside the assistant's device allowlist for "
            f"hub '{rt.title}'. Nothing was sent to the hub.",
            code="device_not_allowed",
            hint="Do not retry with the same device; hub_list_devices shows the allowed devices. "
            "An admin can change the allowlist in the integration's options.",
        )


async def check_destructive(rt: HubRuntime, args: dict[str, Any]) -> None:
    """Destructive tier: confirm=true and a hub backup no older than 24 hours.

    The backup is checked against the hub's own backup list at call time (reused for a few
    seconds at most, cleared by our own backup create/delete/restore): a deleted backup or
    one dated in the future does not count. A call that needs the owner's approval (option
    "Approve in Home Assistant") has its backup checked first: the owner is not asked to
    approve a call that would then be refused for want of one.
    """
    if not confirmed(args.get("confirm"), TIER_DESTRUCTIVE):
        if awaiting_approval(TIER_DESTRUCTIVE):
            await _require_backup(rt)
        raise ToolError(
            "This operation is destructive and needs confirm=true. Nothing was changed.",
            code="confirmation_required",
            hint="Tell the user exactly what will be lost, get their agreement, then call again "
            "with confirm=true.",
            tier=TIER_DESTRUCTIVE,
        )
    await _require_backup(rt)


async def _require_backup(rt: HubRuntime) -> None:
    """Refuse unless the hub lists a backup from the last 24 hours (not in the future)."""
    evidence = await rt.hub.backups.destructive_evidence()
    if evidence.backup is not None:
        return
    newest = evidence.newest.created if evidence.newest else None
    if newest is None:
        age = "the hub lists none"
    elif newest > datetime.now(UTC):
        age = f"the newest is dated in the future, {newest.isoformat(timespec='minutes')}"
    else:
        age = f"the newest is from {newest.isoformat(timespec='minutes')}"
    raise ToolError(
        f"Destructive operations need a hub backup from the last 24 hours ({age}). "
        "Nothing was changed.",
        code="backup_required",
        hint="Create a backup first (hub_create_backup, or the hub's Settings > Backup and "
        "Restore), check that hub_list_backups shows it, then retry. See "
        "hub_get_tool_guide(section='safety').",
    )


# Appended to the description of every code-tier tool.
CODE_TIER_NOTE = "Code tier: needs confirm=true."
CODE_CONFIRM_DESC = "true, once the user agreed to put this code on the hub"
_RESOLVE_TIMEOUT = 5.0


def check_code_tier(confirm: bool | None, what: str) -> None:
    """Code tier: installing, updating, deleting or restoring code needs confirm=true.

    Code on the hub runs with access to every device (rewriting a lock's driver defeats
    every device gate), so the model must ask first.
    """
    if confirmed(confirm, TIER_CODE):
        return
    raise ToolError(
        f"{what} puts code on the hub, where it runs with access to every device; it needs "
        "confirm=true. Nothing was changed.",
        code="confirmation_required",
        hint="Tell the user what the code does and where it comes from, get their agreement, "
        "then call again with confirm=true.",
        tier=TIER_CODE,
    )


async def resolve_host(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (tests replace this; no network there)."""
    loop = asyncio.get_running_loop()
    infos = await asyncio.wait_for(
        loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), _RESOLVE_TIMEOUT
    )
    return [str(info[4][0]) for info in infos]


def _url_refusal(url: str, why: str) -> ToolError:
    return ToolError(
        f"The hub is not asked to download {url}: {why}. Nothing was changed.",
        code="url_not_allowed",
        hint="Use an https URL on a public host (GitHub, the author's site). An admin can "
        "allow plain http and local addresses in the integration's options (Allow code "
        "downloads from the local network).",
    )


async def check_code_url(rt: HubRuntime, url: str) -> None:
    """Refuse a code/bundle URL the hub should not fetch (SSRF guard).

    Default: https only, and the host must resolve, every address public (no loopback,
    private, link-local, multicast, reserved or unspecified address). The option
    ``allow_local_code_urls`` allows http and local hosts. The hub resolves the name itself
    later, so a host whose DNS answer changes in between is not caught (documented).
    """
    if rt.entry.options.get(OPT_ALLOW_LOCAL_CODE_URLS, DEFAULT_ALLOW_LOCAL_CODE_URLS):
        return
    try:
        parts = urlsplit(url.strip())
        port = parts.port or 443
    except ValueError:
        raise _url_refusal(url, "it is not a valid URL") from None
    if parts.scheme.lower() != "https":
        raise _url_refusal(url, "only https URLs are allowed")
    host = (parts.hostname or "").strip().rstrip(".")
    if not host:
        raise _url_refusal(url, "it names no host")
    try:
        addresses = [str(ipaddress.ip_address(host))]
    except ValueError:
        try:
            addresses = await resolve_host(host, port)
        except (OSError, TimeoutError, UnicodeError):
            raise _url_refusal(url, f"the host '{host}' does not resolve") from None
    if not addresses:
        raise _url_refusal(url, f"the host '{host}' does not resolve")
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        mapped = getattr(ip, "ipv4_mapped", None)
        if mapped is not None:
            ip = mapped
        if not ip.is_global or ip.is_multicast:
            raise _url_refusal(url, f"'{host}' is a local, private or reserved address ({address})")
