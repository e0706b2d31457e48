"""The per-domain controllers of :class:`~.hubitat.Hubitat`: ``hub.devices``, ``hub.apps``,
``hub.modes``, ... (one class per domain, in the order of the README).

Each method calls one of the library's endpoint functions (``devices.py``, ``apps.py``, ...)
with the same arguments, so its requests are exactly the ones that function sends; where the
function hands back the hub's JSON untyped, the method ``cast`` s it to its shape in
``results.py`` (nothing is converted at run time). A controller keeps no state of its own:
the client is the hub's.
"""

from __future__ import annotations

import builtins
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any, cast

from . import (
    app_cloner,
    apps,
    backups,
    code,
    code_oauth,
    compat,
    dashboards,
    devices,
    events,
    files,
    health,
    hsm,
    info,
    lifecycle,
    logs,
    mesh,
    mode_manager,
    modes,
    network,
    radio_firmware,
    radio_status,
    radios,
    rooms,
    scenes,
    variables,
    variables_wizard,
    visual_rules,
)
from .app_cloner import ClonerPage
from .app_page import AppPage, PageButton, TransientApp
from .apps import RM_PARENT_TYPES, AppType, InstalledApp
from .backups import Backup, CloudListing, CloudRestoreParts
from .client import MAX_DOWNLOAD_BYTES, HubClient
from .code import CodeKind, CodeSource, SaveResult
from .code_oauth import AppOAuth
from .compat import PROBE_TIMEOUT, Probe
from .dashboards import Dashboard
from .events import EVENT_PATH, LOG_PATH, HubEvent, HubSocket
from .events import LogLine as LiveLogLine
from .files import MAX_TEXT_READ_BYTES, HubFile
from .firmware import Platform, Version
from .health import MemorySample
from .hsm import HubMessages
from .info import HubIdentity
from .logs import LogLine
from .mesh import HubMesh, OwnVariable
from .models import DeviceDetail, DeviceSummary, Room
from .network import NetworkConfig
from .radios import ZWAVE_UPDATE_SECONDS
from .results import (
    AntennaTestProgress,
    AppConfigPage,
    AppEventRecord,
    AppRecord,
    AppSetting,
    AppStatus,
    BackupSchedule,
    BackupSettings,
    BackupStatus,
    BundleRecord,
    ChannelScanRow,
    CloudBackupTrigger,
    CloudRestoreAnswer,
    CodeListing,
    CommandArgument,
    CompatibilityReport,
    CompatibleDevice,
    ConnectorType,
    CpuInfo,
    DashboardOptions,
    DeviceEventRecord,
    DeviceFullJson,
    DevicePreference,
    DriverRecord,
    EthernetSpeed,
    ExclusionStatus,
    FileDeleteAnswer,
    FirmwareAnswer,
    FirmwareDevice,
    FirmwareProgress,
    FirmwareTargets,
    GraphRule,
    GraphSaveAnswer,
    HubAnswer,
    HubData,
    HubDetails,
    HubEventRecord,
    HubVariable,
    InclusionStatus,
    LegacyLayout,
    LocationEventRecord,
    LocationSettings,
    MakerDevice,
    MakerMode,
    MatterDetails,
    MatterPairStatus,
    ModeConditions,
    ModeManagerId,
    ModesPayload,
    NetworkLink,
    NetworkTest,
    NodeReplaceStatus,
    RadioAction,
    RadioActionAnswer,
    RadioAnswer,
    RadioFirmwareStatus,
    RadioName,
    ReplacementOption,
    RuleBuilderAnswer,
    RuntimeStats,
    SmartStartEntry,
    UpdateCheck,
    UpdateStatus,
    VariableType,
    VisualGraph,
    VisualRuleDefinition,
    ZigbeeDetails,
    ZigbeeNetworkState,
    ZwaveDetails,
    ZwaveNodeState,
    ZwaveRepairStatus,
)


class Controller:
    """One domain of the hub (devices, apps, modes, ...) over a shared :class:`HubClient`.

    A controller holds no state of its own: every method is one call of the library's
    endpoint functions with the same arguments, so it sends exactly what they send.
    """

    __slots__ = ("_client",)

    def __init__(self, client: HubClient) -> None:
        self._client = client

    @property
    def client(self) -> HubClient:
        """The client the requests go through."""
        return self._client


# ---------------------------------------------------------------------------- hub.devices


class DevicesController(Controller):
    """Devices: list, read, command, edit, create, delete, replace."""

    __slots__ = ()

    async def list(self) -> builtins.list[DeviceSummary]:
        """Every device with its room, current states and capabilities (two requests)."""
        return await devices.fetch_devices(self._client)

    async def states(self) -> builtins.list[DeviceSummary]:
        """Every device with its room and current states, no capabilities (one request)."""
        return await devices.fetch_device_states(self._client)

    async def get(self, device_id: str) -> DeviceDetail:
        """One device in full: attributes, commands, preferences, the apps using it."""
        return await devices.fetch_device(self._client, device_id)

    async def command(
        self, device_id: str, command: str, args: Sequence[CommandArgument] = ()
    ) -> None:
        """Run a device command with typed arguments (``{"type": "NUMBER", "value": 50}``).

        The hub's answer says nothing about the effect: read the device's attribute back.
        """
        await devices.run_command(self._client, device_id, command, args)

    async def events(self, device_id: str) -> builtins.list[DeviceEventRecord]:
        """The device's event history, newest first."""
        return cast(
            builtins.list[DeviceEventRecord],
            await devices.fetch_device_events(self._client, device_id),
        )

    async def raw(self, device_id: str) -> DeviceFullJson:
        """``/device/fullJson`` as the hub answers it (the model of the wholesale edit form)."""
        return cast(DeviceFullJson, await devices.fetch_device_raw(self._client, device_id))

    async def maker(self, device_id: str) -> MakerDevice | None:
        """The Maker API's view (attributes with their allowed values); None when the Maker
        API is not configured, does not offer the device, or fails."""
        return cast(MakerDevice | None, await devices.fetch_maker_device(self._client, device_id))

    async def post_update(self, form: dict[str, str]) -> None:
        """POST the COMPLETE ``/device/update`` form (every omitted field is blanked)."""
        await devices.post_device_update(self._client, form)

    async def save_form(
        self, device_id: str, form: dict[str, str], switches: Mapping[str, bool]
    ) -> None:
        """POST the complete edit form; the page switches in ``switches`` (``hub_mesh``,
        ``homekit``) must read back as sent."""
        await devices.save_edit_form(self._client, device_id, form, switches)

    async def save_preferences(
        self,
        device_id: str,
        preferences: builtins.list[DevicePreference],
        *,
        show_on_home: bool | None = None,
        default_current_state: str | None = None,
    ) -> None:
        """Save preferences as the device page does; every value (passwords aside) must
        read back."""
        await devices.save_preferences(
            self._client,
            device_id,
            cast(builtins.list[dict[str, Any]], preferences),
            show_on_home=show_on_home,
            default_current_state=default_current_state,
        )

    async def set_disabled(self, device_id: str, disabled: bool) -> None:
        """Disable or enable a device (read back)."""
        await devices.set_disabled(self._client, device_id, disabled)

    async def drivers(self) -> builtins.list[DriverRecord]:
        """Every driver the hub offers (system, user, deprecated)."""
        return cast(builtins.list[DriverRecord], await devices.fetch_drivers(self._client))

    async def create_from_driver(self, type_id: str) -> str:
        """Add a device of a system driver; the new device's id."""
        return await devices.create_from_driver(self._client, type_id)

    async def create_virtual(self, type_id: str) -> str:
        """Add a virtual device of a driver (named after it); the new device's id."""
        return await devices.create_virtual(self._client, type_id)

    async def is_gone(self, device_id: str) -> bool:
        """True when the hub no longer knows the device."""
        return await devices.device_gone(self._client, device_id)

    async def force_delete(self, device_id: str) -> str | None:
        """Force-remove a device (it must be gone afterwards); the hub's status, if any
        (``partial``: removed with leftovers)."""
        return await devices.force_delete(self._client, device_id)

    async def replacement_options(self, device_id: str) -> builtins.list[ReplacementOption]:
        """The devices that can take this device's place."""
        return cast(
            builtins.list[ReplacementOption],
            await devices.fetch_replacement_options(self._client, device_id),
        )

    async def replace(self, old_id: str, new_id: str) -> None:
        """The old device takes over the new one's hardware."""
        await devices.replace_device(self._client, old_id, new_id)

    async def compatible(self) -> builtins.list[CompatibleDevice]:
        """Hubitat's compatible-device catalog (about 1 MB)."""
        return cast(
            builtins.list[CompatibleDevice], await devices.fetch_compatible_devices(self._client)
        )


# ---------------------------------------------------------------------------- hub.apps


class AppsController(Controller):
    """Installed apps: the tree, an app's page, record and status, create, disable, delete."""

    __slots__ = ()

    async def list(self) -> builtins.list[InstalledApp]:
        """Every installed app, in tree order (parents before their children)."""
        return await apps.fetch_app_tree(self._client)

    async def list_with_types(
        self,
    ) -> tuple[builtins.list[InstalledApp], builtins.list[AppType]]:
        """The installed apps and the app types the hub can add, from one read."""
        return await apps.fetch_apps_and_types(self._client)

    async def config_page(self, app_id: str, page: str | None = None) -> AppConfigPage:
        """An app's page (``configure/json``; no page: its first), names decoded."""
        return cast(AppConfigPage, await apps.fetch_config_page(self._client, app_id, page))

    async def record(self, app_id: str) -> AppRecord:
        """An app's record (label, disabled, ...); ``{}`` when the hub answers oddly."""
        return cast(AppRecord, await apps.fetch_app_json(self._client, app_id))

    async def status(self, app_id: str) -> AppStatus:
        """An app's settings, state, subscriptions and jobs (``statusJson``)."""
        return cast(AppStatus, await apps.fetch_status(self._client, app_id))

    async def set_disabled(self, app_id: str, disabled: bool) -> None:
        """Disable or enable an app (read the tree back to know)."""
        await apps.set_app_disabled(self._client, app_id, disabled)

    async def delete(self, app_id: str, *, force: bool = False) -> None:
        """Remove an app (``force``: as the rule editors do, children and all); read the
        tree back to know."""
        await apps.delete_app(self._client, app_id, force=force)

    async def open_direct(self, alias: str) -> str:
        """Follow ``/installedapp/direct/<alias>`` to the app it opens; that app's id (a
        transient app such as ``swapDevice`` is new on every visit: remove it after)."""
        return await apps.open_direct_app(self._client, alias)

    async def create(self, type_id: str) -> tuple[str, str | None]:
        """Add an app of a type (``list_with_types``): its id and first page (a pending
        shell until that page's Done; a singleton answers its existing instance)."""
        return await apps.create_app_instance(self._client, type_id)

    async def create_child(self, namespace: str, app_name: str, parent_id: str) -> str:
        """Add a child app (``hubitat`` / ``Rule-5.1`` under Rule Machine, ...); its id."""
        return await apps.create_child_app(self._client, namespace, app_name, parent_id)

    async def open_cloner(self, source_id: str) -> ClonerPage:
        """Open the hub's App Cloner on an app (a transient app: prime it, remove it after)."""
        return await app_cloner.open_cloner(self._client, source_id)

    async def page(self, app_id: str, page: str | None = None) -> AppPage:
        """Read one page of a classic app, to set its inputs and press its buttons."""
        return await AppPage.load(self._client, app_id, page)

    def transient(self, app_id: str, *, verify: bool = True) -> TransientApp:
        """A helper app to remove on leaving: ``async with hub.apps.transient(id): ...``."""
        return TransientApp(self._client, app_id, verify=verify)


# ---------------------------------------------------------------------------- hub.rules

RULE_NAMESPACE = "hubitat"
RULE_APP_NAME = "Rule-5.1"


class RulesController(Controller):
    """Rule Machine: the rules and their parent, a new rule, a rule's state and pages.

    A rule is built and changed through its pages (``page``; the page sequence is in
    ``docs/rule-machine-pages.md``); its buttons (``runRuleAct``, ``stopRule``,
    ``pausRule``, ``updateRule``) are bare clicks on its page.
    """

    __slots__ = ()

    async def list(self) -> builtins.list[InstalledApp]:
        """Every Rule Machine rule (``Rule-5.x`` / ``Rule-4.x`` apps), in tree order."""
        return [a for a in await apps.fetch_app_tree(self._client) if a.is_rm_rule]

    async def parent(self) -> InstalledApp | None:
        """The installed Rule Machine app (new rules are its children), or None."""
        tree = await apps.fetch_app_tree(self._client)
        return next((a for a in tree if a.type in RM_PARENT_TYPES), None)

    async def create(self, parent_id: str) -> str:
        """A new, empty rule under the Rule Machine app ``parent_id``; its id."""
        return await apps.create_child_app(self._client, RULE_NAMESPACE, RULE_APP_NAME, parent_id)

    async def state(self, rule_id: str) -> AppStatus:
        """A rule's settings and state (``appState``: ``actions``, ``actionList``, ...)."""
        return cast(AppStatus, await apps.fetch_status(self._client, rule_id))

    async def compiled(self, rule_id: str) -> RuleBuilderAnswer:
        """A rule's compiled state (``broken``, ``paused``, ``hasPredicate``, ...)."""
        return cast(RuleBuilderAnswer, await apps.fetch_rule_builder(self._client, rule_id))

    async def page(self, rule_id: str, page: str | None = None) -> AppPage:
        """Read one page of a rule (no page: its first)."""
        return await AppPage.load(self._client, rule_id, page)


# ---------------------------------------------------------------------------- hub.visual_rules


class VisualRulesController(Controller):
    """Visual Rules: create one, read and save its definition, pause it.

    A classic rule is ``{name, rulePaused, whenNodes, thenNodes, elseNodes}``; a graph rule
    keeps ``{version, nodes, edges}`` as JSON text (``docs/visual-rules.md``). The hub does
    not check nodes: check them before saving.
    """

    __slots__ = ()

    async def create(self) -> tuple[str, bool]:
        """A new, empty rule: its id and whether it is a graph rule (the firmware decides)."""
        return await apps.create_visual_rule(self._client)

    async def definition(self, app_id: str) -> RuleBuilderAnswer:
        """A classic rule's definition (``{}`` for an unknown id; any other app's raw state
        for others: a classic rule has ``whenNodes``, ``thenNodes`` and ``name``)."""
        return cast(RuleBuilderAnswer, await apps.fetch_rule_builder(self._client, app_id))

    async def graph(self, app_id: str) -> GraphRule | None:
        """A graph rule (``ruleJson`` is JSON text), or None when the app is not one."""
        return cast(GraphRule | None, await apps.fetch_rule_builder20(self._client, app_id))

    async def save_definition(self, app_id: str, definition: VisualRuleDefinition) -> None:
        """Save a classic rule's whole definition (read it back to compare)."""
        await apps.save_visual_rule(self._client, app_id, cast(dict[str, Any], definition))

    async def save_graph(self, app_id: str, name: str, graph: VisualGraph) -> GraphSaveAnswer:
        """Save a graph rule; the hub's answer (its ``validationErrors`` are kept)."""
        return cast(
            GraphSaveAnswer,
            await visual_rules.save_visual_graph(
                self._client, app_id, name, cast(dict[str, Any], graph)
            ),
        )

    async def set_paused(self, app_id: str, paused: bool) -> None:
        """Pause or resume a rule (read ``rulePaused`` back)."""
        await apps.set_visual_rule_paused(self._client, app_id, paused)


# ---------------------------------------------------------------------------- hub.scenes


class ScenesController(Controller):
    """Scenes (Groups and Scenes scenes and Room Lighting instances): which apps are scenes,
    their member devices, their capture button, and whether a device is a scene's activator
    (turn the activator on to set the scene: ``hub.devices.command(activator_id, "on")``)."""

    __slots__ = ()

    async def list(self) -> builtins.list[InstalledApp]:
        """The scene apps (Groups and Scenes scenes, not groups; Room Lighting instances)."""
        return scenes.scene_apps(await apps.fetch_app_tree(self._client))

    async def members(self, scene_id: str) -> builtins.list[AppSetting]:
        """The scene's device inputs (the member devices' ids are in their values)."""
        status = await apps.fetch_status(self._client, scene_id)
        return cast(builtins.list[AppSetting], scenes.device_settings(status))

    async def page(self, scene_id: str) -> AppPage:
        """The scene's page (its first)."""
        return await AppPage.load(self._client, scene_id)

    async def capture_button(self, scene_id: str) -> PageButton | None:
        """The scene page's capture button (press it with ``page.press``), or None."""
        return scenes.capture_button((await self.page(scene_id)).buttons)

    async def is_activator(self, device_id: str, scene_id: str) -> bool:
        """Whether the device is the scene's activator (its parent app is the scene)."""
        return scenes.activates(await devices.fetch_device(self._client, device_id), scene_id)


# ---------------------------------------------------------------------------- hub.modes


class ModesController(Controller):
    """Modes: the list and the current one, activate, create, rename, delete; the Mode
    Manager's triggers and which manager runs."""

    __slots__ = ()

    async def get(self) -> ModesPayload:
        """Every mode, the current mode's id and the selected mode manager."""
        return cast(ModesPayload, await modes.fetch_modes(self._client))

    async def activate(self, mode_id: str) -> None:
        """Make a mode current, as the hub UI does (no Maker API needed)."""
        await modes.activate_mode_admin(self._client, mode_id)

    async def activate_maker(self, mode_id: str) -> builtins.list[MakerMode]:
        """Make a mode current through the Maker API; the modes list it answers."""
        return cast(
            builtins.list[MakerMode], await modes.activate_mode_maker(self._client, mode_id)
        )

    async def create(self, name: str, icon: str | None = None) -> None:
        """Add a mode (read the list back for its id)."""
        await modes.create_mode(self._client, name, icon)

    async def update(
        self, mode_id: str, name: str, icon: str, days_of_week: builtins.list[int]
    ) -> None:
        """Rename a mode or change its icon; ``icon`` and ``days_of_week`` as they are unless
        changed (``modes.mode_days`` reads the days from ``conditions()``)."""
        await modes.update_mode(self._client, mode_id, name, icon, days_of_week)

    async def delete(self, mode_id: str) -> None:
        """Remove a mode."""
        await modes.delete_mode(self._client, mode_id)

    async def conditions(self) -> ModeConditions:
        """The Integrated Mode Manager's triggers by key (a mode id, ``alt-<id>``,
        ``exitAway``); ``{}`` when none is set."""
        return cast(ModeConditions, await mode_manager.fetch_conditions(self._client))

    async def save_conditions(self, conditions: ModeConditions) -> HubAnswer:
        """Replace the WHOLE trigger object (read it fresh, change one list, send it all)."""
        return cast(
            HubAnswer,
            await mode_manager.save_conditions(
                self._client, cast(dict[str, builtins.list[dict[str, Any]]], conditions)
            ),
        )

    async def select_manager(self, manager: ModeManagerId) -> HubAnswer:
        """Choose the mode manager that runs (read ``get()`` back)."""
        return cast(HubAnswer, await mode_manager.select_manager(self._client, manager))


# ---------------------------------------------------------------------------- hub.hsm


class HsmController(Controller):
    """HSM: what ``/hub/messages`` says (mode, status, alert) and commands (Maker API)."""

    __slots__ = ()

    async def messages(self) -> HubMessages:
        """The current mode, HSM status and alert (unknown values read as None)."""
        return await hsm.fetch_messages(self._client)

    async def command(self, command: str) -> str | None:
        """Send an HSM command (``armAway``, ``armHome``, ``armNight``, ``disarm``,
        ``disarmAll``, ``armRules``, ``disarmRules``, ``cancelAlerts``) through the Maker
        API; the status right after it (arming takes a moment: read it again)."""
        return await hsm.hsm_command(self._client, command)


# ---------------------------------------------------------------------------- hub.rooms

NEW_ROOM_ID = "0"  # the id ``/room/save`` creates a room with


class RoomsController(Controller):
    """Rooms: list, create, rename or change the members, delete."""

    __slots__ = ()

    async def list(self) -> builtins.list[Room]:
        """Every room with its device ids."""
        return await rooms.fetch_rooms(self._client)

    async def device_ids(self) -> set[str]:
        """The id of every device on the hub (to check members before saving)."""
        return await rooms.fetch_device_ids(self._client)

    async def save(self, room_id: str, name: str, device_ids: builtins.list[str]) -> str:
        """Save a room with its COMPLETE membership (``room_id`` ``"0"`` creates one); the
        room's id, once the list shows it as sent."""
        return await rooms.save_room(self._client, room_id, name, device_ids)

    async def create(self, name: str, device_ids: builtins.list[str]) -> str:
        """Add a room; its id."""
        return await rooms.save_room(self._client, NEW_ROOM_ID, name, device_ids)

    async def delete(self, room_id: str) -> None:
        """Remove a room (it must be gone from the list afterwards)."""
        await rooms.delete_room(self._client, room_id)


# ---------------------------------------------------------------------------- hub.variables


class VariablesController(Controller):
    """Hub variables. The Maker API sees only the variables its instance selects
    (``list``, ``get``, ``set``); ``own()`` lists every variable of the hub, without values.
    Creating and deleting goes through the hub's Hub Variables app, page by page.
    """

    __slots__ = ()

    async def list(self) -> builtins.list[HubVariable]:
        """The variables the Maker API instance selects, with their values."""
        return cast(builtins.list[HubVariable], await variables.fetch_variables(self._client))

    async def get(self, name: str) -> HubVariable:
        """One variable (Maker API)."""
        return cast(HubVariable, await variables.fetch_variable(self._client, name))

    async def set(self, name: str, value: str) -> HubVariable:
        """Set a variable (Maker API; a DateTime in the hub's stored form:
        ``variables.hub_datetime``); the hub's answer (read it back to know)."""
        return cast(HubVariable, await variables.set_variable(self._client, name, value))

    async def own(self) -> builtins.list[OwnVariable]:
        """Every variable of this hub, selected in the Maker API or not: name and type."""
        return await variables.fetch_own_variables(self._client)

    async def create(
        self, name: str, wizard_type: VariableType, value: str | datetime | date
    ) -> None:
        """Create a variable through the wizard (a ``datetime``: date and time; a ``date``:
        date only); done once the hub lists it."""
        await variables_wizard.create_variable(self._client, name, wizard_type, value)

    async def delete(self, name: str, *, maker_visible: bool = True) -> int:
        """Delete a variable through the wizard; the attempts it took (``maker_visible``
        False: a variable the Maker API does not select)."""
        return await variables_wizard.delete_variable(
            self._client, name, maker_visible=maker_visible
        )

    async def create_connector(self, name: str, connector_type: ConnectorType | None) -> None:
        """Ask for a connector device of a variable (the type only for Number/Decimal);
        look for the new device to know."""
        await variables_wizard.create_connector(self._client, name, connector_type)

    async def listed(self, name: str) -> bool:
        """Whether the hub has the variable (the Maker API lists it, or the hub's own list)."""
        return await variables_wizard.variable_listed(self._client, name)

    async def maker_lists(self, name: str) -> bool:
        """Whether the Maker API lists the variable."""
        return await variables_wizard.maker_lists(self._client, name)

    async def hub_lists(self, name: str) -> bool | None:
        """Whether the hub's own list has it; None when that list cannot be read."""
        return await variables_wizard.hub_lists(self._client, name)

    async def wizard_app(self) -> str:
        """The Hub Variables app's id (installed on first use, as the hub UI does)."""
        return await variables_wizard.find_hub_variables_app(self._client)

    async def prime_wizard(self, app_id: str) -> None:
        """Read the wizard's page and status, as before each of its clicks."""
        await variables_wizard.prime_wizard(self._client, app_id)

    def wizard_page(self, app_id: str) -> AppPage:
        """The wizard's page (not read yet)."""
        return variables_wizard.wizard_page(self._client, app_id)


# ---------------------------------------------------------------------------- hub.backups


class BackupsController(Controller):
    """Backups: list, make, delete and restore local and cloud backups; the schedule.

    A restore reboots the hub.
    """

    __slots__ = ()

    async def list(self) -> builtins.list[Backup]:
        """The local backups, newest first."""
        return await backups.fetch_local_backups(self._client)

    async def status(self) -> BackupStatus:
        """Whether a local or cloud backup is running."""
        return cast(BackupStatus, await backups.fetch_backup_status(self._client))

    async def settings(self) -> BackupSettings:
        """The schedule as the hub answers it, its password included (only to send back)."""
        return cast(BackupSettings, await backups.fetch_backup_settings(self._client))

    async def schedule(self) -> BackupSchedule:
        """The automatic backup schedule, without the password."""
        return cast(BackupSchedule, await backups.fetch_backup_schedule(self._client))

    async def update_schedule(
        self, *, local_frequency: int, cloud_frequency: int, hour: int, minute: int, password: str
    ) -> None:
        """Replace the whole schedule (frequencies in days: 0, 1, 2, 3, 5, 7, 14, 21, 28;
        ``password`` as ``settings()`` read it); read it back to know."""
        await backups.update_backup_schedule(
            self._client,
            local_frequency=local_frequency,
            cloud_frequency=cloud_frequency,
            hour=hour,
            minute=minute,
            password=password,
        )

    async def create(self, *, timeout: float = 300) -> None:
        """Make a local backup now (a timeout leaves the hub making it: list to see it)."""
        await backups.create_backup(self._client, timeout=timeout)

    async def delete(self, name: str) -> bool:
        """Delete a local backup; True when the hub says it did (re-list to know)."""
        return await backups.delete_local_backup(self._client, name)

    async def restore(self, name: str, *, timeout: float = 120) -> None:
        """Restore a local backup (the hub reboots); sent once, never retried."""
        await backups.restore_local_backup(self._client, name, timeout=timeout)

    async def upload(self, name: str, data: bytes) -> None:
        """Upload a backup file (``.lzf``) to restore with ``restore_uploaded``."""
        await backups.upload_backup(self._client, name, data)

    async def restore_uploaded(self, *, timeout: float) -> None:
        """Restore the uploaded backup (the hub reboots)."""
        await backups.restore_uploaded_backup(self._client, timeout=timeout)

    async def cloud(self, *, reload: bool = False) -> CloudListing:
        """The cloud backups and what the hub's subscription allows."""
        return await backups.fetch_cloud_backups(self._client, reload=reload)

    async def create_cloud(self, *, timeout: float) -> CloudBackupTrigger:
        """Make a cloud backup now; which parts were backed up and uploaded."""
        return cast(
            CloudBackupTrigger, await backups.trigger_cloud_backup(self._client, timeout=timeout)
        )

    async def delete_cloud(self, path: str) -> None:
        """Delete a cloud backup by its ``path`` (re-list to know)."""
        await backups.delete_cloud_backup(self._client, path)

    async def restore_cloud(
        self, path: str, parts: CloudRestoreParts, password: str, *, timeout: float
    ) -> CloudRestoreAnswer:
        """Restore a cloud backup (the hub reboots on success); the hub's answer."""
        return cast(
            CloudRestoreAnswer,
            await backups.restore_cloud_backup(
                self._client, path, parts, password, timeout=timeout
            ),
        )


# ---------------------------------------------------------------------------- hub.files


class FilesController(Controller):
    """Files: list, read, write, delete (names: ``files.valid_file_name``)."""

    __slots__ = ()

    async def list(self) -> builtins.list[HubFile]:
        """Every file in the root folder."""
        return await files.list_files(self._client)

    async def list_with_space(self) -> tuple[builtins.list[HubFile], int | None]:
        """The root folder's files and the free space in bytes (None when not said)."""
        return await files.list_files_with_space(self._client)

    async def read_text(self, name: str, *, max_bytes: int = MAX_TEXT_READ_BYTES) -> str:
        """A file as text (undecodable bytes replaced)."""
        return await files.read_text_file(self._client, name, max_bytes=max_bytes)

    async def read_bytes(self, name: str, *, max_bytes: int = MAX_DOWNLOAD_BYTES) -> bytes:
        """A file's exact bytes."""
        return await files.read_file_bytes(self._client, name, max_bytes=max_bytes)

    async def write(self, name: str, data: bytes, *, folder: str = "") -> None:
        """Create or overwrite a file (re-list to know)."""
        await files.write_file(self._client, name, data, folder=folder)

    async def delete(self, name: str, *, folder: str = "") -> FileDeleteAnswer | str | None:
        """Delete a file; the hub's answer, not to be trusted: re-list to know."""
        return cast(
            FileDeleteAnswer | str | None,
            await files.delete_file(self._client, name, folder=folder),
        )


# ---------------------------------------------------------------------------- hub.logs


class LogsController(Controller):
    """Logs: what the hub kept (``past``), runtime statistics, and ``/logsocket`` live."""

    __slots__ = ()

    async def past(
        self, source_type: str | None = None, source_id: str | None = None
    ) -> list[LogLine]:
        """The hub's past logs, oldest first (times in UTC); one device's or app's when
        ``source_type`` (``dev``/``app``) and ``source_id`` are both given."""
        return await logs.fetch_past_logs(self._client, source_type, source_id)

    async def stats(self) -> RuntimeStats:
        """Uptime, runtime per device and app, scheduled and running jobs."""
        return cast(RuntimeStats, await logs.fetch_stats(self._client))

    def stream(
        self,
        on_line: Callable[[LiveLogLine], None],
        *,
        on_connect: Callable[[], Awaitable[None]] | None = None,
        on_state: Callable[[], None] | None = None,
    ) -> HubSocket:
        """The live log (``/logsocket``): ``on_line`` gets each line as it is logged.

        Nothing is opened yet: run ``socket.run()`` as a task (it reconnects with backoff)
        and ``await socket.stop()`` to end it. Times are read in the hub's time zone, known
        once ``hub.info.identity()`` has run.
        """

        def on_text(text: str) -> None:
            line = events.parse_log_frame(text, self._client.time_zone)
            if line is not None:
                on_line(line)

        return HubSocket(self._client, LOG_PATH, on_text, on_connect=on_connect, on_state=on_state)


# ---------------------------------------------------------------------------- hub.events


class EventsController(Controller):
    """Events: what the hub kept (newest first), and ``/eventsocket`` live.

    A device's own history is ``hub.devices.events(device_id)``.
    """

    __slots__ = ()

    async def hub(self) -> list[HubEventRecord]:
        """The hub's own events (system start, ...)."""
        return cast(list[HubEventRecord], await logs.fetch_hub_events(self._client))

    async def location(self) -> list[LocationEventRecord]:
        """Location events: mode, HSM and hub variable changes."""
        return cast(list[LocationEventRecord], await logs.fetch_location_events(self._client))

    async def app(self, app_id: str) -> list[AppEventRecord]:
        """One app's events."""
        return cast(list[AppEventRecord], await logs.fetch_app_events(self._client, app_id))

    def stream(
        self,
        on_event: Callable[[HubEvent], None],
        *,
        on_connect: Callable[[], Awaitable[None]] | None = None,
        on_state: Callable[[], None] | None = None,
    ) -> HubSocket:
        """Every event on the hub as it happens (``/eventsocket``): devices, modes, HSM,
        hub variables, apps.

        Nothing is opened yet: run ``socket.run()`` as a task (it reconnects with backoff)
        and ``await socket.stop()`` to end it; ``on_connect`` runs on every (re)connect,
        before its events (re-read what may have changed while it was down).
        """

        def on_text(text: str) -> None:
            event = events.parse_event_frame(text)
            if event is not None:
                on_event(event)

        return HubSocket(
            self._client, EVENT_PATH, on_text, on_connect=on_connect, on_state=on_state
        )


# ---------------------------------------------------------------------------- hub.code


class CodeController(Controller):
    """User code (``kind``: ``app``, ``driver`` or ``library``) and bundles.

    Every save is read back: the source must be the one sent. A refused save raises
    :class:`~.code.HubCompileError` (the compiler's words) or
    :class:`~.code.HubVersionConflictError`.
    """

    __slots__ = ()

    async def list(self, kind: CodeKind) -> builtins.list[CodeListing]:
        """User code of one kind: id, name, namespace, version, what uses it."""
        return cast(builtins.list[CodeListing], await code.fetch_code_list(self._client, kind))

    async def source(self, kind: CodeKind, item_id: str, *, named: bool = True) -> CodeSource:
        """One item's source and version (``named``: look its name up in the listing when
        the answer has none)."""
        return await code.fetch_source(self._client, kind, item_id, named=named)

    async def save(
        self, kind: CodeKind, item_id: str | None, source: str, version: int | None
    ) -> SaveResult:
        """Install (``item_id`` None) or update code (``version``: the one read, or None);
        the id and version read back."""
        return await code.save_source(self._client, kind, item_id, source, version)

    async def install(self, kind: CodeKind, source: str) -> SaveResult:
        """Install new code; its id and version."""
        return await code.save_source(self._client, kind, None, source, None)

    async def app_instances(self, app_code_id: str) -> builtins.list[tuple[str, str]]:
        """The installed apps (id, name) that run this app code."""
        return await code.fetch_app_instances(self._client, app_code_id)

    async def refuse_if_in_use(self, kind: CodeKind, item_id: str) -> None:
        """Raise, as the editor does before a delete, for code that is missing or in use."""
        await code.refuse_if_in_use(self._client, kind, item_id)

    async def delete(self, kind: CodeKind, item_id: str) -> None:
        """Delete code (call ``refuse_if_in_use`` first); done once it is no longer listed."""
        await code.delete_code(self._client, kind, item_id)

    async def bundles(self) -> builtins.list[BundleRecord]:
        """The installed bundles and the code each holds."""
        return cast(builtins.list[BundleRecord], await code.fetch_bundles(self._client))

    async def install_bundle(self, url: str, *, private: bool = False) -> None:
        """Have the hub download and install a bundle ``.zip`` (sent once)."""
        await code.install_bundle(self._client, url, private=private)

    async def delete_bundle(self, bundle_id: str) -> None:
        """Delete a bundle (not its code); done once it is no longer listed."""
        await code.delete_bundle(self._client, bundle_id)

    async def export_bundle(self, bundle_id: str) -> bytes:
        """A bundle's ``.zip``."""
        return await code.export_bundle(self._client, bundle_id)

    async def oauth(self, app_id: str) -> AppOAuth:
        """Whether OAuth is on for an app's code, and its client id (never the secret)."""
        return await code_oauth.fetch_app_oauth(self._client, app_id)

    async def set_oauth(self, app_id: str, enabled: bool) -> AppOAuth:
        """Turn OAuth on or off for an app's code (read back)."""
        return await code_oauth.set_app_oauth(self._client, app_id, enabled)


# ---------------------------------------------------------------------------- hub.dashboards


class DashboardsController(Controller):
    """Dashboards: list (with the PIN token of ``pin_token()``), create, update, delete
    Easy Dashboards; a legacy dashboard's layout (with its ``access_token``).

    Every write is decided by reading the list (or layout) back, never by the answer.
    """

    __slots__ = ()

    async def pin_token(self) -> str:
        """The token ``list`` and the Easy writes need (``""`` when the hub has none)."""
        return await dashboards.fetch_pin_token(self._client)

    async def list(self, pin: str) -> builtins.list[Dashboard]:
        """Every dashboard, Easy and legacy (``[]`` without the right token)."""
        return await dashboards.fetch_dashboards(self._client, pin)

    async def create(
        self, pin: str, name: str, device_ids: builtins.list[str], options: DashboardOptions
    ) -> Dashboard:
        """Add an Easy Dashboard; as the hub lists it afterwards."""
        return await dashboards.create_easy(
            self._client, pin, name, device_ids, cast(dict[str, Any], options)
        )

    async def update(
        self,
        pin: str,
        dashboard_id: str,
        name: str,
        device_ids: builtins.list[str],
        options: DashboardOptions,
    ) -> Dashboard:
        """Replace an Easy Dashboard's WHOLE configuration (merge the current one first);
        as read back."""
        return await dashboards.update_easy(
            self._client, pin, dashboard_id, name, device_ids, cast(dict[str, Any], options)
        )

    async def delete(self, pin: str, dashboard_id: str) -> None:
        """Remove an Easy Dashboard (gone from the list = done)."""
        await dashboards.delete_easy(self._client, pin, dashboard_id)

    async def legacy_request_token(self, dashboard_id: str, access_token: str) -> str:
        """A fresh token for ONE legacy layout request."""
        return await dashboards.legacy_request_token(self._client, dashboard_id, access_token)

    async def legacy_layout(self, dashboard_id: str, access_token: str) -> LegacyLayout:
        """A legacy dashboard's layout (grid and tiles)."""
        return cast(
            LegacyLayout,
            await dashboards.fetch_legacy_layout(self._client, dashboard_id, access_token),
        )

    async def save_legacy_layout(
        self, dashboard_id: str, access_token: str, layout: LegacyLayout
    ) -> None:
        """Replace a legacy dashboard's whole layout (read back: every key sent)."""
        await dashboards.save_legacy_layout(
            self._client, dashboard_id, access_token, cast(dict[str, Any], layout)
        )


# ---------------------------------------------------------------------------- hub.radios


class RadiosController(Controller):
    """The radios. Node ids are Z-Wave node numbers (decimal); ``modern`` is a C-7 or later
    Z-Wave stack (``zwaveIP``/``zwaveJS`` in ``zwave_details()``, as
    ``radios.zwave_repair_modern`` reads them)."""

    __slots__ = ()

    # ------------------------------------------------------------------ details

    async def zwave_details(self) -> ZwaveDetails:
        """Z-Wave: enabled, health, firmware, region, the nodes."""
        return cast(ZwaveDetails, await radios.fetch_zwave_details(self._client))

    async def zigbee_details(self) -> ZigbeeDetails:
        """Zigbee: channel, power, PAN id, network state, the devices."""
        return cast(ZigbeeDetails, await radios.fetch_zigbee_details(self._client))

    async def matter_details(self) -> MatterDetails:
        """Matter: state, fabric, addresses, the devices (404 on hubs without Matter)."""
        return cast(MatterDetails, await radios.fetch_matter_details(self._client))

    async def zwave_topology(self) -> str:
        """The Z-Wave route table as text (C-7 and later)."""
        return await radios.fetch_zwave_topology(self._client)

    async def zwave_node_state(self, node_id: int) -> ZwaveNodeState | str:
        """One node as the Z-Wave JS stack keeps it (a text answer is returned as text)."""
        return cast(
            ZwaveNodeState | str, await radio_status.fetch_zwave_node_state(self._client, node_id)
        )

    async def zigbee_network_state(self) -> ZigbeeNetworkState:
        """Zigbee's network state (``ONLINE`` when up)."""
        return cast(ZigbeeNetworkState, await radio_status.fetch_zigbee_network_state(self._client))

    async def matter_logs(self) -> str:
        """The Matter stack's log as text (``radio_status.parse_matter_logs`` splits it)."""
        return await radio_status.fetch_matter_logs(self._client)

    # ------------------------------------------------------------------ Z-Wave repair

    async def start_zwave_repair(self, *, modern: bool) -> RadioAnswer:
        """Start a Z-Wave network repair as the hub UI does."""
        return cast(RadioAnswer, await radios.start_zwave_repair(self._client, modern=modern))

    async def zwave_repair_status(self, *, modern: bool) -> ZwaveRepairStatus:
        """The repair's status (``running`` until the stage is ``IDLE``)."""
        return cast(
            ZwaveRepairStatus, await radios.fetch_zwave_repair_status(self._client, modern=modern)
        )

    # ------------------------------------------------------------------ operations

    async def action(
        self, action: RadioAction, *, node_id: int | None = None, setup_code: str | None = None
    ) -> RadioActionAnswer:
        """Run one radio operation (inclusion, exclusion, node calls, Zigbee reboot or
        rebuild, Matter pairing: ``radios.RADIO_ACTIONS``); the hub's answer."""
        return cast(
            RadioActionAnswer,
            await radios.call_radio_action(
                self._client, action, node_id=node_id, setup_code=setup_code
            ),
        )

    async def remove_zwave_node(self, node_id: int) -> None:
        """Remove a failed Z-Wave node (read the details back)."""
        await radios.remove_zwave_node(self._client, node_id)

    async def zigbee_channel_scan(self, timeout: float) -> builtins.list[ChannelScanRow]:
        """Scan the Zigbee channels: one request, never retried, that takes about a minute
        (``radios.CHANNEL_SCAN_SECONDS``); past ``timeout`` a :class:`HubTimeoutError`."""
        return cast(
            builtins.list[ChannelScanRow],
            await radios.run_zigbee_channel_scan(self._client, timeout),
        )

    async def exclusion_status(self) -> ExclusionStatus:
        """The Z-Wave exclusion's progress (a message once a device left)."""
        return cast(ExclusionStatus, await radio_status.fetch_exclusion_status(self._client))

    async def inclusion_status(self) -> InclusionStatus:
        """The Z-Wave inclusion's progress, and what the hub waits for (S2 keys, a PIN)."""
        return cast(InclusionStatus, await radios.fetch_inclusion_status(self._client))

    async def send_s2_grants(self, accept: bool, keys: dict[str, bool]) -> HubAnswer:
        """Grant (or refuse) the S2 keys a joining device asked for (``S2AccessControl``,
        ``S2Authenticated``, ``S2Unauthenticated``, ``S0Unauthenticated``)."""
        return cast(HubAnswer, await radios.send_s2_grants(self._client, accept, keys))

    async def send_replace_s2_grants(self, accept: bool, keys: dict[str, bool]) -> HubAnswer:
        """Grant (or refuse) the S2 keys of the device taking over a replaced node."""
        return cast(HubAnswer, await radios.send_replace_s2_grants(self._client, accept, keys))

    async def send_s2_code(self, accept: bool, code: str) -> HubAnswer:
        """Send a joining device's 5-digit PIN (or skip it: ``accept`` False, ``""``)."""
        return cast(HubAnswer, await radios.send_s2_code(self._client, accept, code))

    async def matter_pair_status(self, node_id: str) -> MatterPairStatus:
        """A Matter pairing's progress (``node_id``: what the ``pair`` action answered)."""
        return cast(
            MatterPairStatus, await radio_status.fetch_matter_pair_status(self._client, node_id)
        )

    async def smartstart(self) -> builtins.list[SmartStartEntry]:
        """The SmartStart list."""
        return cast(builtins.list[SmartStartEntry], await radios.fetch_smartstart(self._client))

    async def delete_smartstart(self, dsk: str) -> HubAnswer:
        """Remove a SmartStart entry by its DSK (re-list to know)."""
        return cast(HubAnswer, await radios.delete_smartstart(self._client, dsk))

    async def start_node_replace(self, node_id: int) -> HubAnswer:
        """Replace a FAILED Z-Wave node (then read ``node_replace_status``)."""
        return cast(HubAnswer, await radios.start_node_replace(self._client, node_id))

    async def node_replace_status(self) -> NodeReplaceStatus:
        """A node replacement's progress."""
        return cast(NodeReplaceStatus, await radios.fetch_node_replace_status(self._client))

    async def antenna_test(self) -> AntennaTestProgress:
        """The Z-Wave antenna test's progress."""
        return cast(AntennaTestProgress, await radios.fetch_antenna_test(self._client))

    # ------------------------------------------------------------------ settings

    async def enable(self, radio: RadioName, enabled: bool) -> None:
        """Turn a radio on or off (Matter: applies after a reboot)."""
        await radios.enable_radio(self._client, radio, enabled)

    async def update_zwave_settings(
        self,
        *,
        enabled: bool,
        region: str,
        secure_join: int | bool | str | None,
        long_range_channel: int | None,
        timeout: float = ZWAVE_UPDATE_SECONDS,
    ) -> None:
        """Replace the WHOLE Z-Wave settings: pass every current value (``zwave_details()``)
        with the change laid over; ``secure_join`` None where the hub does not offer it."""
        await radios.update_zwave_settings(
            self._client,
            enabled=enabled,
            region=region,
            secure_join=secure_join,
            long_range_channel=long_range_channel,
            timeout=timeout,
        )

    async def update_zigbee_channel_and_power(self, channel: int, power: int) -> None:
        """Set the Zigbee channel and power level (both, always)."""
        await radios.update_zigbee_channel_and_power(self._client, channel, power)

    async def update_zigbee_settings(self, *, rebuild: bool, ping: bool) -> None:
        """Set rebuild-on-reboot and inactive-device ping (both, always)."""
        await radios.update_zigbee_settings(self._client, rebuild=rebuild, ping=ping)

    async def set_zigbee_device_ping(self, device_id: str, on: bool) -> None:
        """Ping one inactive Zigbee device or not (``devices[].ping`` reads it back)."""
        await radios.set_zigbee_device_ping(self._client, device_id, on)

    async def reset(self, radio: RadioName) -> None:
        """Reset a radio: its network and settings are wiped (every device must rejoin)."""
        await radio_firmware.reset_radio(self._client, radio)

    # ------------------------------------------------------------------ firmware

    async def firmware_devices(self) -> builtins.list[FirmwareDevice]:
        """The Z-Wave nodes the device firmware updater can flash (C-7 and later)."""
        return cast(
            builtins.list[FirmwareDevice], await radio_firmware.fetch_firmware_devices(self._client)
        )

    async def firmware_files(self) -> builtins.list[str]:
        """The firmware files the updater can use (uploaded to the ``firmware`` folder)."""
        return await radio_firmware.fetch_firmware_files(self._client)

    async def firmware_targets(self, node_id: int) -> FirmwareTargets:
        """A node's firmware targets."""
        return cast(
            FirmwareTargets, await radio_firmware.fetch_firmware_targets(self._client, node_id)
        )

    async def firmware_progress(self, node_id: int) -> FirmwareProgress | None:
        """A node's firmware update progress, or None when it has none."""
        return cast(
            FirmwareProgress | None,
            await radio_firmware.fetch_firmware_progress(self._client, node_id),
        )

    async def start_device_firmware(
        self, node_id: int, target: int, file_name: str
    ) -> FirmwareAnswer:
        """Start flashing a node (a target and file as the updater lists them)."""
        return cast(
            FirmwareAnswer,
            await radio_firmware.start_device_firmware(self._client, node_id, target, file_name),
        )

    async def abort_device_firmware(self, node_id: int) -> FirmwareAnswer:
        """Abort a node's firmware update."""
        return cast(
            FirmwareAnswer, await radio_firmware.abort_device_firmware(self._client, node_id)
        )

    async def start_zwave_radio_firmware(self) -> None:
        """Update the Z-Wave radio's own firmware (only when the details say it is needed)."""
        await radio_firmware.start_zwave_radio_firmware(self._client)

    async def zwave_radio_firmware_status(self) -> RadioFirmwareStatus:
        """The Z-Wave radio firmware update's progress (``REBOOT``: reboot the hub)."""
        return cast(
            RadioFirmwareStatus,
            await radio_firmware.fetch_zwave_radio_firmware_status(self._client),
        )

    async def update_zigbee_firmware(self, timeout: float) -> None:
        """Flash the Zigbee radio (send it while the radio is off: ``enable("zigbee",
        False)`` first, on again after, as the hub UI does)."""
        await radio_firmware.update_zigbee_firmware(self._client, timeout)


# ---------------------------------------------------------------------------- hub.network


class NetworkController(Controller):
    """Network: the hub's tests, its network settings (static IP, DHCP, Ethernet speed,
    Wi-Fi), the cloud controller, and small operations (identify LED, memory, dark mode).

    Settings changes apply at the next reboot; read ``config()`` back to see them stored.
    """

    __slots__ = ()

    async def test(self, test: NetworkTest, host: str | None, timeout: float) -> str:
        """Run a network test (``ping``/``traceroute`` to ``host``: ``network.valid_host``;
        ``ping_gateway``; ``speed_test``); its plain-text output (``network.summarize_test``
        reads the figures)."""
        return await network.network_test(self._client, test, host, timeout)

    async def config(self) -> NetworkConfig:
        """Settings > Network: addresses, DNS, static settings, links."""
        return await network.fetch_network_config(self._client)

    async def switch_to_static(
        self, address: str, netmask: str, gateway: str, name_servers: list[str]
    ) -> None:
        """Store a static IP configuration (the hub's refusal raises)."""
        await network.switch_to_static(self._client, address, netmask, gateway, name_servers)

    async def switch_to_dhcp(self, name_servers: list[str], fallover: bool) -> None:
        """Store DHCP, with DNS servers overriding the router's (``[]``: the router's)."""
        await network.switch_to_dhcp(self._client, name_servers, fallover)

    async def set_ethernet_speed(self, speed: EthernetSpeed) -> None:
        """Set the Ethernet speed (``AUTONEG``, ``FIXED_100``, ``FIXED_10``)."""
        await network.set_ethernet_speed(self._client, speed)

    async def disconnect(self, link: NetworkLink) -> None:
        """Drop the Wi-Fi or Ethernet link (never the only one: check ``config()`` first)."""
        await network.disconnect(self._client, link)

    async def set_cloud_controller(self, enabled: bool) -> None:
        """Turn the cloud controller on or off (``hub.info.hub_data()`` reads it back)."""
        await network.set_cloud_controller(self._client, enabled)

    async def wifi_networks(self, *, rescan: bool = False) -> list[str]:
        """The Wi-Fi networks the hub sees (``rescan``: scan again first)."""
        return await network.wifi_networks(self._client, rescan=rescan)

    async def start_wifi_join(self, ssid: str, password: str, *, wait: bool = False) -> str:
        """Ask the hub to join a Wi-Fi network; its answer (``""``: taken). ``wait``: the
        blocking form (a hub with Ethernet and no Wi-Fi)."""
        return await network.start_wifi_join(self._client, ssid, password, wait=wait)

    async def wifi_join_status(self, password: str) -> str:
        """The join's progress: "Success...", "Fail..." or anything else (still joining);
        ``password`` is scrubbed from it."""
        return await network.wifi_join_status(self._client, password)

    async def blink_led(self) -> None:
        """Blink the hub's LED (to find it)."""
        await network.blink_led(self._client)

    async def force_gc(self) -> None:
        """Free unused memory (``hub.health.free_os_memory()`` before and after)."""
        await network.force_gc(self._client)

    async def set_dark_mode(self, on: bool) -> None:
        """The admin UI's theme (nothing reads it back)."""
        await network.apply_dark_mode(self._client, on)


# ---------------------------------------------------------------------------- hub.mesh


class MeshController(Controller):
    """Hub Mesh: the page's data (never its token), its settings and buttons. Every change
    is decided by reading the page again; turning Hub Mesh on or off applies at the next
    reboot. Sharing one device is its device page's switch (``hub.devices.save_form``)."""

    __slots__ = ()

    async def get(self) -> HubMesh:
        """The peers, shared, linked and available devices and variables, the settings."""
        return await mesh.fetch_hub_mesh(self._client)

    async def set_enabled(self, on: bool) -> HubMesh:
        """Turn Hub Mesh on or off (applies at the next reboot); the page as read after."""
        return await mesh.set_enabled(self._client, on)

    async def set_full_refresh_interval(self, seconds: int) -> None:
        """The full sync interval (``mesh.REFRESH_INTERVALS``: 0 = never, 120, 300, 3600)."""
        await mesh.set_full_refresh_interval(self._client, seconds)

    async def follow_modes(self, hub_id: str | None) -> None:
        """Follow a peer hub's modes (None: this hub's own)."""
        await mesh.follow_modes(self._client, hub_id)

    async def share_variable(self, name: str, share: bool) -> None:
        """Share one of this hub's variables with the mesh, or stop."""
        await mesh.share_variable(self._client, name, share)

    async def link_device(self, hub_id: str, device_id: str) -> str:
        """Link a peer's shared device here; the new local device's id."""
        return await mesh.link_device(self._client, hub_id, device_id)

    async def link_variable(self, hub_id: str, name: str) -> None:
        """Link a peer's shared variable here."""
        await mesh.link_variable(self._client, hub_id, name)

    async def relink_variable(self, local: str, hub_id: str, hub_name: str, source: str) -> None:
        """Point a linked variable at another peer variable."""
        await mesh.relink_variable(self._client, local, hub_id, hub_name, source)

    async def full_sync(self) -> None:
        """Start a full sync now (nothing shows when it ends)."""
        await mesh.full_sync_now(self._client)

    async def reconnect(self) -> None:
        """Drop and re-open the peer connections."""
        await mesh.reconnect(self._client)

    async def regenerate_token(self) -> None:
        """Make a new mesh token (peers must be linked again)."""
        await mesh.regenerate_token(self._client)

    async def set_peer_token(self, hub_id: str, token: str) -> mesh.MeshPeer | None:
        """Store a peer hub's mesh token; the peer's row once its warning cleared (None: the
        peer left the mesh meanwhile)."""
        return await mesh.set_peer_token(self._client, hub_id, token)


# ---------------------------------------------------------------------------- hub.health


class HealthController(Controller):
    """Health figures (None: the hub did not say, or not as a number)."""

    __slots__ = ()

    async def free_os_memory(self) -> float | None:
        """Free OS memory in KB."""
        return await health.fetch_free_os_memory(self._client)

    async def internal_temperature(self) -> float | None:
        """The hub's internal temperature in °C."""
        return await health.fetch_internal_temperature(self._client)

    async def database_size(self) -> float | None:
        """The database size (MB on current firmware)."""
        return await health.fetch_database_size(self._client)

    async def memory_history(self) -> list[MemorySample]:
        """Free memory and CPU load since boot, about one row per 5 minutes, oldest first."""
        return await health.fetch_memory_history(self._client)

    async def cpu_info(self) -> CpuInfo:
        """CPU count and load average (404 on a C-4)."""
        return cast(CpuInfo, await health.fetch_cpu_info(self._client))


# ---------------------------------------------------------------------------- hub.info


class InfoController(Controller):
    """The hub's identity and settings."""

    __slots__ = ()

    async def identity(self) -> HubIdentity:
        """Who the hub is (UID, name, firmware, model, addresses, time zone).

        Call it first: it also tells the client the hub's firmware (requests that differ by
        firmware choose by it) and time zone (live log times are hub-local).
        """
        return await info.fetch_identity(self._client)

    async def details(self) -> HubDetails:
        """``/hub/details/json`` as it is (location, formats, the time-zone list)."""
        return cast(HubDetails, await info.fetch_details(self._client))

    async def hub_data(self) -> HubData:
        """Model, version, safe mode and the alerts the hub UI shows."""
        return cast(HubData, await info.fetch_hub_data(self._client))

    async def plain_number(self, path: str) -> float | None:
        """A plain-text numeric endpoint (``/hub/advanced/...``); None when not a number."""
        return await info.fetch_plain_number(self._client, path)

    async def save_location(self, settings: LocationSettings) -> None:
        """Save the location settings WHOLESALE (an omitted key is blanked; a new time zone
        reboots the hub): read ``details()``, change what you mean to, send every key."""
        await info.save_location(self._client, cast(dict[str, Any], settings))


# ---------------------------------------------------------------------------- hub.lifecycle


class LifecycleController(Controller):
    """The hub's power: reboot and shutdown (the hub goes away), and whether it runs."""

    __slots__ = ()

    async def reboot(self) -> HubAnswer:
        """Reboot the hub (a plain reboot: database and logs kept); ``status()`` tells
        when it runs again."""
        return cast(HubAnswer, await lifecycle.reboot(self._client))

    async def shutdown(self) -> HubAnswer:
        """Power the hub off (it needs a power cycle to come back)."""
        return cast(HubAnswer, await lifecycle.shutdown(self._client))

    async def status(self) -> str:
        """``running``, ``starting``, ``brokenDatabase``, ... or ``unreachable`` (never
        raises)."""
        return await lifecycle.hub_status(self._client)


# ---------------------------------------------------------------------------- hub.firmware


class FirmwareController(Controller):
    """The platform firmware: its version and model (known after ``hub.info.identity()``),
    the update check, and installing an update (the hub reboots)."""

    __slots__ = ()

    @property
    def platform(self) -> Platform:
        """The firmware version and hardware model as far as the hub said (unknown before
        ``hub.info.identity()``: every check then assumes current firmware)."""
        return self._client.platform

    def require(self, minimum: Version, feature: str) -> None:
        """Raise :class:`~.errors.HubFirmwareError` unless the firmware is ``minimum`` or
        newer (``(2, 5)``)."""
        self._client.platform.require(minimum, feature)

    async def check_for_update(self) -> UpdateCheck:
        """Whether Hubitat's cloud offers a newer platform version."""
        return cast(UpdateCheck, await lifecycle.check_for_update(self._client))

    async def update_status(self) -> UpdateStatus:
        """The download and install's progress."""
        return cast(UpdateStatus, await lifecycle.update_status(self._client))

    async def install_update(self, *, timeout: float = 60) -> None:
        """Download and install the update, then reboot (a refusal raises)."""
        await lifecycle.install_update(self._client, timeout=timeout)


# ---------------------------------------------------------------------------- hub.compat

# One probe's outcome: its report entry and (never reported) the answer it judged.
ProbeOutcome = compat._Result


class CompatController(Controller):
    """The compatibility self-check: one GET per endpoint, each judged against the answer
    shape the parsers rely on. Nothing is written or triggered; it never raises."""

    __slots__ = ()

    async def check(
        self, *, deadline: float | None = None, probe_timeout: float = PROBE_TIMEOUT
    ) -> CompatibilityReport:
        """Every probe once (``deadline``: a ``time.monotonic()`` after which the rest is
        skipped); per endpoint ``ok``, ``unexpected_shape``, ``missing``, ``error`` or
        ``skipped``, and a summary."""
        return cast(
            CompatibilityReport,
            await compat.check_compatibility(
                self._client, deadline=deadline, probe_timeout=probe_timeout
            ),
        )

    async def probe(
        self, probe: Probe, *, path: str | None = None, timeout: float = PROBE_TIMEOUT
    ) -> ProbeOutcome:
        """Send one probe (``compat.PROBES``, ``compat.IDENTITY``, ...) and judge it."""
        return await compat.run_probe(self._client, probe, path=path, timeout=timeout)
