"""Config, reauth, reconfigure and options flows."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

import probatio as vol
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigFlow,
    ConfigFlowResult,
    OptionsFlow,
)
from homeassistant.const import CONF_HOST, CONF_PASSWORD, CONF_PORT, CONF_USERNAME
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.selector import (
    SelectOptionDict,
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)
from homeassistant.helpers.service_info.dhcp import DhcpServiceInfo

from .const import (
    CONF_MAKER_APP_ID,
    CONF_MAKER_TOKEN,
    CONF_USE_SSL,
    DEFAULT_ALLOW_LOCAL_CODE_URLS,
    DEFAULT_ALLOW_READ,
    DEFAULT_ALLOW_WRITE,
    DEFAULT_APPROVAL_TIERS,
    DEFAULT_APPROVE_IN_HA,
    DEFAULT_SNAPSHOT_DAILY,
    DEFAULT_SNAPSHOT_RETENTION,
    DEFAULT_SURFACE,
    DOMAIN,
    OPT_ALLOW_LOCAL_CODE_URLS,
    OPT_ALLOW_READ,
    OPT_ALLOW_WRITE,
    OPT_ALLOWED_DEVICES,
    OPT_APPROVAL_NOTIFY,
    OPT_APPROVAL_TIERS,
    OPT_APPROVE_IN_HA,
    OPT_DISABLED_GATEWAYS,
    OPT_DISABLED_TOOLS,
    OPT_SNAPSHOT_DAILY,
    OPT_SNAPSHOT_RETENTION,
    OPT_SURFACE,
    SURFACE_COMPACT,
    SURFACE_FLAT,
)
from .errors import TIERS
from .hub.client import HubClient, HubConnection
from .hub.errors import HubAuthError, HubError, HubNotFoundError
from .hub.info import HubIdentity, fetch_identity
from .managers.devices import DeviceFilter
from .runtime import HubRuntime
from .tools import TOOL_CLASSES
from .tools.surface import gateway_groups, registry

_LOGGER = logging.getLogger(__name__)

_PASSWORD = TextSelector(TextSelectorConfig(type=TextSelectorType.PASSWORD))


def connection_from_data(data: Mapping[str, Any]) -> HubConnection:
    """Build the hub connection from config entry data."""
    port = data.get(CONF_PORT)
    return HubConnection(
        host=str(data[CONF_HOST]),
        port=int(port) if port else None,
        use_ssl=bool(data.get(CONF_USE_SSL, False)),
        username=data.get(CONF_USERNAME) or None,
        password=data.get(CONF_PASSWORD) or None,
        maker_app_id=str(data[CONF_MAKER_APP_ID]) if data.get(CONF_MAKER_APP_ID) else None,
        maker_token=data.get(CONF_MAKER_TOKEN) or None,
    )


class InvalidMaker(Exception):
    """The Maker API app id or token was rejected."""


async def validate_hub(hass: HomeAssistant, data: Mapping[str, Any]) -> HubIdentity:
    """Log in (if configured), read the hub's identity, and check the Maker API token."""
    client = HubClient(async_get_clientsession(hass, verify_ssl=False), connection_from_data(data))
    identity = await fetch_identity(client)
    if client.connection.has_maker:
        try:
            await client.maker_get("modes")
        except (HubAuthError, HubNotFoundError) as err:
            raise InvalidMaker from err
    return identity


def _errors_for(err: Exception) -> str:
    if isinstance(err, InvalidMaker):
        return "invalid_maker"
    if isinstance(err, HubAuthError):
        return "invalid_auth"
    if isinstance(err, HubError):
        return "cannot_connect"
    _LOGGER.exception("Unexpected error validating the hub")
    return "unknown"


# The user and reconfigure steps show the whole hub form; these steps show part of it.
# A discovered hub's host (and port) is known: ask only for the optional login and Maker API.
_DISCOVERY_FIELDS = (CONF_USERNAME, CONF_PASSWORD, CONF_MAKER_APP_ID, CONF_MAKER_TOKEN)
# Re-authentication: new login and/or Maker API token (the app id stays).
_REAUTH_FIELDS = (CONF_USERNAME, CONF_PASSWORD, CONF_MAKER_TOKEN)


def _hub_schema(defaults: Mapping[str, Any], fields: tuple[str, ...] | None = None) -> vol.Schema:
    """The hub form: every field, or only ``fields`` (in the form's order).

    A non-empty value in ``defaults`` is that field's default; secrets (password, Maker API
    token) never get one: they are not shown back.
    """

    def d(key: str) -> dict[str, Any]:
        value = defaults.get(key)
        return {"default": value} if value not in (None, "") else {}

    every: dict[vol.Marker, Any] = {
        vol.Required(CONF_HOST, **d(CONF_HOST)): str,
        vol.Optional(CONF_PORT, **d(CONF_PORT)): vol.All(
            vol.Coerce(int), vol.Range(min=1, max=65535)
        ),
        vol.Optional(CONF_USE_SSL, default=bool(defaults.get(CONF_USE_SSL, False))): bool,
        vol.Optional(CONF_USERNAME, **d(CONF_USERNAME)): str,
        vol.Optional(CONF_PASSWORD): _PASSWORD,
        vol.Optional(CONF_MAKER_APP_ID, **d(CONF_MAKER_APP_ID)): str,
        vol.Optional(CONF_MAKER_TOKEN): _PASSWORD,
    }
    return vol.Schema(
        {key: value for key, value in every.items() if fields is None or key.schema in fields}
    )


def _filled(user_input: Mapping[str, Any]) -> dict[str, Any]:
    """The fields the user filled in (empty ones are left out)."""
    return {k: v for k, v in user_input.items() if v not in (None, "")}


def _clean(user_input: Mapping[str, Any]) -> dict[str, Any]:
    data = _filled(user_input)
    data[CONF_HOST] = str(data[CONF_HOST]).strip()
    return data


def _same_target(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """True when ``new`` reaches the same address as ``old`` (host, port, HTTPS)."""
    return connection_from_data(old).base_url == connection_from_data(new).base_url


class HubitatDevToolsConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up a hub: host, optional Hub Security login, optional Maker API."""

    VERSION = 1
    MINOR_VERSION = 2  # migrations.py
    # Port tried for a DHCP-discovered hub (None: the default HTTP port, as real hubs use).
    DISCOVERY_PORT: int | None = None

    def __init__(self) -> None:
        """Start with nothing discovered."""
        self._discovered: dict[str, Any] = {}

    async def _async_validate_and_save(
        self, data: dict[str, Any], entry: ConfigEntry[Any] | None = None
    ) -> tuple[ConfigFlowResult | None, dict[str, str]]:
        """Validate the hub, then save ``data``: a new entry, or ``entry`` updated and reloaded.

        A new entry for a hub already configured aborts instead (its host updated); an
        update that reaches a different hub aborts with ``wrong_hub``.
        """
        try:
            identity = await validate_hub(self.hass, data)
        except Exception as err:
            return None, {"base": _errors_for(err)}
        await self.async_set_unique_id(identity.hub_uid)
        if entry is None:
            self._abort_if_unique_id_configured(updates={CONF_HOST: data[CONF_HOST]})
            return self.async_create_entry(title=identity.name, data=data), {}
        self._abort_if_unique_id_mismatch(reason="wrong_hub")
        return self.async_update_reload_and_abort(entry, data=data), {}

    async def async_step_dhcp(self, discovery_info: DhcpServiceInfo) -> ConfigFlowResult:
        """A device with a Hubitat MAC prefix joined the network: confirm it is a hub."""
        host = discovery_info.ip
        data: dict[str, Any] = {CONF_HOST: host}
        if self.DISCOVERY_PORT:
            data[CONF_PORT] = self.DISCOVERY_PORT
        for entry in self._async_current_entries(include_ignore=False):
            if entry.data.get(CONF_HOST) == host:
                return self.async_abort(reason="already_configured")
        try:
            identity = await validate_hub(self.hass, data)
        except HubAuthError:
            # Hub Security is on: the identity needs a login. Ask with the host filled in.
            self._discovered = data
            self.context["title_placeholders"] = {"name": host}
            return await self.async_step_discovery_confirm()
        except HubError:
            return self.async_abort(reason="not_hubitat")
        await self.async_set_unique_id(identity.hub_uid)
        # A known hub whose address changed: update it and stop here.
        self._abort_if_unique_id_configured(updates={CONF_HOST: host})
        self._discovered = data
        self.context["title_placeholders"] = {"name": identity.name}
        return await self.async_step_discovery_confirm()

    async def async_step_discovery_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Confirm a discovered hub; credentials and Maker API are optional as in the user step."""
        errors: dict[str, str] = {}
        if user_input is not None:
            result, errors = await self._async_validate_and_save(
                _clean({**self._discovered, **user_input})
            )
            if result is not None:
                return result
        return self.async_show_form(
            step_id="discovery_confirm",
            data_schema=_hub_schema({}, _DISCOVERY_FIELDS),
            errors=errors,
            description_placeholders={"host": str(self._discovered.get(CONF_HOST))},
        )

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the hub address and credentials, validate, create the entry."""
        errors: dict[str, str] = {}
        if user_input is not None:
            result, errors = await self._async_validate_and_save(_clean(user_input))
            if result is not None:
                return result
        return self.async_show_form(
            step_id="user", data_schema=_hub_schema(user_input or {}), errors=errors
        )

    async def async_step_reauth(self, entry_data: Mapping[str, Any]) -> ConfigFlowResult:
        """Start re-authentication after the hub refused our credentials."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for new Hub Security credentials and/or Maker API token."""
        entry = self._get_reauth_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            data = {**entry.data, **_filled(user_input)}
            result, errors = await self._async_validate_and_save(data, entry)
            if result is not None:
                return result
        return self.async_show_form(
            step_id="reauth_confirm",
            data_schema=_hub_schema(entry.data, _REAUTH_FIELDS),
            errors=errors,
            description_placeholders={"name": entry.title},
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Change the address, credentials or Maker API of an existing hub."""
        entry = self._get_reconfigure_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            data = _clean(user_input)
            # Secrets left blank keep their stored values.
            stored: set[str] = set()
            for key in (CONF_PASSWORD, CONF_MAKER_TOKEN):
                if key not in data and entry.data.get(key):
                    data[key] = entry.data[key]
                    stored.add(key)
            # Stored secrets go to a new address only once it is known to be this hub.
            refusal = await self._async_check_reconfigure_target(entry, data, stored)
            if refusal == "wrong_hub":
                return self.async_abort(reason="wrong_hub")
            if refusal is not None:
                errors = {"base": refusal}
            else:
                result, errors = await self._async_validate_and_save(data, entry)
                if result is not None:
                    return result
        return self.async_show_form(
            step_id="reconfigure",
            data_schema=_hub_schema(user_input or entry.data),
            errors=errors,
        )

    async def _async_check_reconfigure_target(
        self, entry: ConfigEntry[Any], data: Mapping[str, Any], stored: set[str]
    ) -> str | None:
        """Before stored secrets (``stored``: keys filled from the entry) are sent to a new
        address, read that hub's identity without them and compare its UID with the entry's.

        None: go on. ``"wrong_hub"``: a different hub (nothing secret was sent). An error
        key: the hub could not be identified without the stored secrets (Hub Security is on
        and the password was left blank: it must be typed again), or not reached at all.
        """
        if not stored or _same_target(entry.data, data):
            return None  # no stored secret, or the address they already go to
        probe = {k: v for k, v in data.items() if k not in stored and k != CONF_MAKER_TOKEN}
        client = HubClient(
            async_get_clientsession(self.hass, verify_ssl=False), connection_from_data(probe)
        )
        try:
            identity = await fetch_identity(client)
        except HubAuthError:
            if client.connection.has_security:  # the password typed here was rejected
                return "invalid_auth"
            return "reenter_password"  # Hub Security on: identify it with a typed password
        except HubError:
            return "cannot_connect"
        if entry.unique_id is not None and identity.hub_uid != entry.unique_id:
            return "wrong_hub"
        return None

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry[Any]) -> OptionsFlow:
        """Return the options flow."""
        return HubitatDevToolsOptionsFlow()


def _multi_select(options: list[Any], *, custom_value: bool = False) -> SelectSelector:
    """A dropdown of several choices; ``custom_value``: values not listed may be entered."""
    config = SelectSelectorConfig(options=options, multiple=True)
    if custom_value:
        config["custom_value"] = True
    config["mode"] = SelectSelectorMode.DROPDOWN
    return SelectSelector(config)


def _notify_error(hass: HomeAssistant, user_input: dict[str, Any]) -> str | None:
    """Normalise the approval notify service (``notify.`` may be given; empty: none) in
    ``user_input``; the form's error key when no such service exists."""
    name = str(user_input.get(OPT_APPROVAL_NOTIFY) or "").strip().removeprefix("notify.")
    user_input[OPT_APPROVAL_NOTIFY] = name
    if not name:
        return None
    if not re.fullmatch(r"[a-z0-9_]+", name) or not hass.services.has_service("notify", name):
        return "notify_not_found"
    return None


def _options_schema(opts: Mapping[str, Any], devices: list[SelectOptionDict]) -> vol.Schema:
    """The options form, the stored options (or their defaults) filled in.

    ``devices``: the hub's devices as choices; allowlisted ids it did not list are added.
    """
    chosen = [str(d) for d in opts.get(OPT_ALLOWED_DEVICES, [])]
    known = {o["value"] for o in devices}
    devices = [*devices, *(SelectOptionDict(value=d, label=d) for d in chosen if d not in known)]
    return vol.Schema(
        {
            vol.Required(
                OPT_ALLOW_READ, default=opts.get(OPT_ALLOW_READ, DEFAULT_ALLOW_READ)
            ): bool,
            vol.Required(
                OPT_ALLOW_WRITE, default=opts.get(OPT_ALLOW_WRITE, DEFAULT_ALLOW_WRITE)
            ): bool,
            vol.Required(
                OPT_SURFACE, default=opts.get(OPT_SURFACE, DEFAULT_SURFACE)
            ): SelectSelector(
                SelectSelectorConfig(
                    options=[SURFACE_COMPACT, SURFACE_FLAT],
                    translation_key=OPT_SURFACE,
                    mode=SelectSelectorMode.LIST,
                )
            ),
            vol.Optional(
                OPT_DISABLED_TOOLS, default=list(opts.get(OPT_DISABLED_TOOLS, []))
            ): _multi_select(sorted(cls.name for cls in TOOL_CLASSES)),
            vol.Optional(
                OPT_DISABLED_GATEWAYS, default=list(opts.get(OPT_DISABLED_GATEWAYS, []))
            ): _multi_select(sorted(gateway_groups(registry().values()))),
            vol.Optional(OPT_ALLOWED_DEVICES, default=chosen): _multi_select(
                devices, custom_value=True
            ),
            vol.Required(
                OPT_APPROVE_IN_HA, default=opts.get(OPT_APPROVE_IN_HA, DEFAULT_APPROVE_IN_HA)
            ): bool,
            vol.Optional(
                OPT_APPROVAL_TIERS,
                default=list(opts.get(OPT_APPROVAL_TIERS, DEFAULT_APPROVAL_TIERS)),
            ): SelectSelector(
                SelectSelectorConfig(
                    options=list(TIERS),
                    multiple=True,
                    translation_key=OPT_APPROVAL_TIERS,
                    mode=SelectSelectorMode.LIST,
                )
            ),
            # suggested, not a default: clearing the field removes the service
            vol.Optional(
                OPT_APPROVAL_NOTIFY,
                default="",
                description={"suggested_value": opts.get(OPT_APPROVAL_NOTIFY) or ""},
            ): str,
            vol.Required(
                OPT_ALLOW_LOCAL_CODE_URLS,
                default=opts.get(OPT_ALLOW_LOCAL_CODE_URLS, DEFAULT_ALLOW_LOCAL_CODE_URLS),
            ): bool,
            vol.Required(
                OPT_SNAPSHOT_DAILY, default=opts.get(OPT_SNAPSHOT_DAILY, DEFAULT_SNAPSHOT_DAILY)
            ): bool,
            vol.Required(
                OPT_SNAPSHOT_RETENTION,
                default=opts.get(OPT_SNAPSHOT_RETENTION, DEFAULT_SNAPSHOT_RETENTION),
            ): vol.All(vol.Coerce(int), vol.Range(min=1, max=200)),
        }
    )


class HubitatDevToolsOptionsFlow(OptionsFlow):
    """Masters, surface, disable lists and device allowlist (read at every call: no reload)."""

    async def _device_options(self) -> list[SelectOptionDict]:
        """The hub's devices as "label (id)" choices; empty if the hub is not reachable."""
        runtime = getattr(self.config_entry, "runtime_data", None)
        if not isinstance(runtime, HubRuntime):
            return []
        try:
            devices = await runtime.hub.devices.list_devices(DeviceFilter())
        except HubError:
            return []
        return [SelectOptionDict(value=d.id, label=f"{d.label} ({d.id})") for d in devices]

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Show and save the options."""
        errors: dict[str, str] = {}
        if user_input is not None:
            if (error := _notify_error(self.hass, user_input)) is None:
                return self.async_create_entry(data=user_input)
            errors[OPT_APPROVAL_NOTIFY] = error
        devices = await self._device_options()
        shown = {**self.config_entry.options, **(user_input or {})}
        return self.async_show_form(
            step_id="init", data_schema=_options_schema(shown, devices), errors=errors
        )
