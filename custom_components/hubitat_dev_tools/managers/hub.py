"""One hub: its client, its live state cache and every domain manager, built once.

Like a bridge object in a device library: the integration keeps one ``Hub`` per config
entry, tools reach the hub only through its managers (``hub.devices``, ``hub.apps`` ...),
and per-hub state (the backup list read for the destructive tier, caches, locks) lives on
the managers themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, tzinfo
from typing import Any

from ..errors import ToolError
from ..hub.client import HubClient
from ..hub.errors import HubError
from ..hub.hubitat import Hubitat
from ..hub.models import parse_hub_time
from ..hub.state_cache import StateCache
from .apps import AppCloner, AppCreator, AppManager, AppSettingsManager, RuleManager
from .apps.hpm import HpmManager
from .automation.authoring import RuleAuthoring
from .backup_cloud import CloudBackupManager
from .backups import BackupManager
from .changes import ChangeLog
from .code import CodeManager
from .code_instances import AppInstanceDone
from .dashboards import DashboardManager
from .devices import AttributeCondition, DeviceManager
from .devices.filters import DeviceFilter
from .event_cause import EventCauses
from .events import LiveEventsManager, SharedLogTail
from .files import FilesManager
from .health import HealthManager
from .home_summary import HomeSummary
from .hsm import HsmManager
from .hub_info import HubInfoManager
from .hub_ops import HubOpsManager
from .item_backups import ItemBackups
from .lifecycle import LifecycleManager
from .logs import LogQuery, LogsManager
from .mesh import HubMeshReader
from .modes import ModeManager
from .network import NetworkManager
from .radios import RadioManager
from .room_control import RoomControl
from .rooms import RoomManager
from .rule_checks import RuleChecks
from .rule_flags import RulePrivateBooleans
from .scenes import SceneManager
from .sensitivity import SensitivityModel
from .snapshots import SnapshotManager
from .swap import SwapManager
from .variables import VariableManager


class Hub:
    """Everything the integration does with one hub goes through this object."""

    def __init__(self, client: HubClient) -> None:
        self.client = client
        # the hub library's owning object: managers take the controllers they use from it
        self.library = Hubitat(client)
        self._cache: StateCache | None = None
        self.info = HubInfoManager(
            self.library.info,
            self.library.health,
            self.library.network,
            self.library.compat,
            client,
        )
        self.ops = HubOpsManager(self.library.network, self.library.health)
        self.network = NetworkManager(
            self.library.network,
            self.library.info,
            self.library.lifecycle,
            client.connection.host,
        )
        self.devices = DeviceManager(
            self.library.devices,
            self.library.rooms,
            self.library.apps,
            HubMeshReader(self.library.mesh),
        )
        self.swap = SwapManager(self.library.apps, self.devices)
        self.rooms = RoomManager(self.library.rooms, self.devices.devices_changed)
        self.room_control = RoomControl(self.devices, self.rooms)
        self.modes = ModeManager(self.library.modes, client.connection)
        self.hsm = HsmManager(self.library.hsm, client.connection, open_sensors=self._open_sensors)
        self.variables = VariableManager(
            self.library.variables,
            self.library.events,
            self.library.devices,
            self.library.apps,
            self.library.visual_rules,
            client,
        )
        self.item_backups = ItemBackups(self.library.files)
        self.files = FilesManager(self.library.files, client.base_url)
        self.cloner = AppCloner(
            self.library.apps,
            self.library.devices,
            self.library.files,
            self.item_backups,
            self.files,
        )
        self.apps = AppManager(
            client,
            self.library.apps,
            self.library.rules,
            self.library.devices,
            self.item_backups,
            self.cloner.backup_export,
        )
        # one model of what is sensitive, asked by every path that makes something act
        self.sensitivity = SensitivityModel(
            self.library.apps, self.library.visual_rules, self.apps, self.devices
        )
        self.devices.commands.sensitivity = self.sensitivity
        self.scenes = SceneManager(self.library.scenes, self.apps, self.devices)
        self.rules = RuleManager(
            client,
            self.library.rules,
            self.library.visual_rules,
            self.library.apps,
            self.library.devices,
            self.apps,
            self.item_backups,
            self.devices,
            self.sensitivity,
        )
        self.app_settings = AppSettingsManager(
            self.library.apps, self.library.devices, self.apps, self.item_backups, self.sensitivity
        )
        self.app_create = AppCreator(
            self.library.apps, self.library.code, self.library.devices, self.apps, self.sensitivity
        )
        self.code = CodeManager(
            self.library.code, self.library.devices, self.library.files, self.files
        )
        # Done on the apps that run a code item (updated()), gated as anything that acts
        self.code_instances = AppInstanceDone(
            self.library.apps, self.library.code, self.sensitivity
        )
        self.hpm = HpmManager(self.library.apps, self.apps, self.code)
        self.dashboards = DashboardManager(
            self.library.dashboards, self.library.apps, self.apps, self.item_backups
        )
        self.backups = BackupManager(self.library.backups)
        self.cloud_backups = CloudBackupManager(self.library.backups, self.backups, self.files)
        self.logs = LogsManager(self.library.logs, self.library.events, self.library.apps)
        self.live = LiveEventsManager(
            self.library.devices, self.library.events, SharedLogTail(client)
        )
        self.health = HealthManager(
            self.library.health,
            self.library.info,
            self.library.logs,
            self.library.backups,
            self.library.devices,
        )
        self.radios = RadioManager(
            self.library.radios,
            self.library.firmware,
            self.library.files,
            device_activity=self._device_activity,
        )
        self.lifecycle = LifecycleManager(
            self.library.lifecycle, self.library.firmware, self.library.info, self.library.logs
        )
        self.rule_authoring = RuleAuthoring(
            client,
            hub_rules=self.library.rules,
            hub_apps=self.library.apps,
            apps=self.apps,
            rules=self.rules,
            item_backups=self.item_backups,
            devices=self.devices,
            modes=self.modes,
            variables=self.variables,
            files=self.files,
            sensitivity=self.sensitivity,
            backups=self.backups,
        )
        self.rule_flags = RulePrivateBooleans(
            apps=self.apps,
            hub_apps=self.library.apps,
            hub_rules=self.library.rules,
            rules=self.rules,
            authoring=self.rule_authoring,
            sensitivity=self.sensitivity,
        )
        self.snapshots = SnapshotManager(
            self.library.files,
            info=self.info,
            devices=self.devices,
            rooms=self.rooms,
            modes=self.modes,
            variables=self.variables,
            apps=self.apps,
            rules=self.rules,
            rule_authoring=self.rule_authoring,
            dashboards=self.dashboards,
            code=self.code,
        )
        self.event_causes = EventCauses(
            self.library.devices,
            self.library.events,
            self.library.logs,
            labels=self._device_labels,
            apps_using=self._apps_using,
            read_rule=self.rule_authoring.read,
        )
        self.rule_checks = RuleChecks(
            tree=self.apps.tree,
            read_rule=self.rule_authoring.read,
            rule_health=self.rules.rule_health,
            devices=self._device_states,
            variables=self._variable_names,
            errors=self._app_errors,
            paused=self._rules_paused,
            modes=self._mode_names,
            app_lines=self._app_lines,
            fired=self._fired,
        )
        self.changes = ChangeLog(self.devices, self.logs)
        self.home = HomeSummary(
            self.library.info,
            self.devices,
            self.modes,
            self.hsm,
            rule_findings=self.rule_checks.summary,
        )

    async def _device_activity(self) -> dict[str, str | None]:
        """Each device's last activity, by id (the radio details compare their counters)."""
        return {d.id: d.last_activity for d in await self.devices.list_devices(DeviceFilter())}

    async def _device_labels(self) -> dict[str, str]:
        """Every device's label (its name without one), by id."""
        return {d.id: d.display_name for d in await self.devices.list_devices(DeviceFilter())}

    async def _apps_using(self, device_id: str) -> list[Mapping[str, Any]]:
        """The apps and rules the hub lists as using a device."""
        return list((await self.devices.get_device(device_id)).apps_using)

    async def _device_states(self) -> dict[str, bool]:
        """Every device id, and whether it is disabled (the rule checks)."""
        return {d.id: d.disabled for d in await self.devices.list_devices(DeviceFilter())}

    async def _variable_names(self) -> set[str] | None:
        """Every hub variable's name (the Maker API's and the hub's own list of them), or None
        when neither can be read."""
        names: set[str] = set()
        readable = False
        try:
            names |= {str(v["name"]) for v in await self.variables.list_variables()}
            readable = True
        except (HubError, ToolError):
            pass
        try:
            names |= {str(v["name"]) for v in await self.library.variables.own()}
            readable = True
        except HubError:
            pass
        return names if readable else None

    async def _app_errors(self, since: datetime) -> list[Mapping[str, Any]]:
        """Apps' error lines in the hub's log since ``since`` (newest first)."""
        query = LogQuery(since=since, level="error", source_type="app", limit=200)
        found = await self.logs.logs(query, device_allowed=lambda _d: True)
        return list(found.get("logs") or [])

    async def _app_lines(self, since: datetime) -> dict[str, list[datetime]]:
        """When each app wrote to the hub's log since ``since`` (one read of the past log)."""
        out: dict[str, list[datetime]] = {}
        for line in await self.library.logs.past():
            if line.source_type == "app" and line.time is not None and line.time >= since:
                out.setdefault(line.source_id, []).append(line.time)
        return out

    async def _fired(self, key: tuple[str, ...], since: datetime) -> list[datetime]:
        """When a rule trigger fired since ``since``: a device's attribute event with that
        value, or the mode becoming that mode (the hub's own event histories)."""
        raw: Sequence[Mapping[str, Any]]
        if key[0] == "mode":
            raw = await self.library.events.location()
            wanted = ("mode", key[1].lower())
        else:
            raw = await self.library.devices.events(key[1])
            wanted = (key[2], key[3].lower())
        out = []
        for ev in raw:
            when = parse_hub_time(ev.get("date"))
            name, value = str(ev.get("name")), str(ev.get("value")).lower()
            if when is not None and when >= since and (name, value) == wanted:
                out.append(when)
        return out

    async def _mode_names(self) -> list[str]:
        """The hub's modes, by name."""
        return [str(m["name"]) for m in (await self.modes.list_modes())["modes"]]

    async def _rules_paused(self) -> dict[str, bool]:
        """Each rule's paused flag (one status read per rule)."""
        listed = await self.rules.list_rules("all", with_status=True)
        return {str(r["app_id"]): bool(r.get("paused")) for r in listed}

    async def _open_sensors(self, allowed: Callable[[str], bool]) -> list[dict[str, Any]]:
        """Contact sensors open and motion sensors active now (what arming HSM meets)."""
        out: list[dict[str, Any]] = []
        for attr, value in (("contact", "open"), ("motion", "active")):
            flt = DeviceFilter(attribute=attr, condition=AttributeCondition("eq", [value]))
            for dev in await self.devices.list_devices(flt, allowed=allowed):
                out.append({"device_id": dev.id, "label": dev.display_name, attr: value})
        return out

    @property
    def time_zone(self) -> tzinfo | None:
        """The hub's time zone (read at setup), for answering its local times with an offset."""
        return self.client.time_zone

    def close(self) -> None:
        """Stop the managers' background work (the entry is unloading)."""
        self.radios.close()

    @property
    def cache(self) -> StateCache | None:
        """The live state cache while the event stream runs (None otherwise)."""
        return self._cache

    @cache.setter
    def cache(self, cache: StateCache | None) -> None:
        self._cache = cache
        self.devices.cache = cache
        self.modes.cache = cache
        self.hsm.cache = cache
        self.variables.cache = cache
        self.live.cache = cache
        self.sensitivity.cache = cache
