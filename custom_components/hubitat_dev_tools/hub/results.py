"""Typed shapes of the hub's answers, for the controllers of :class:`~.hubitat.Hubitat`.

Many endpoint functions hand back the hub's JSON as it came (``dict[str, Any]``); the
controllers ``cast`` it to one of the ``TypedDict`` s here. Each one describes the keys the
hub answers (``docs/hub-endpoints.md`` and the contract fixtures under
``tests/fixtures/hub/``), or the keys our parser builds; nothing is converted or checked at
run time. Raw hub answers are ``total=False``: firmware versions differ, so read a key with
``.get``. Values whose shape the hub does not pin down are :data:`JsonValue`.

The keys keep the hub's own spelling (``descriptionText``, ``currentModeId``): they are the
hub's words, not ours, except where a parser of this library chose them (``snake_case``).
"""

from __future__ import annotations

from typing import Literal, Required, TypedDict

from .code import CodeKind

type JsonScalar = str | int | float | bool | None
type JsonValue = JsonScalar | list[JsonValue] | dict[str, JsonValue]
type JsonObject = dict[str, JsonValue]
# An id as the hub writes it: a number in most answers, a string in some.
type HubId = int | str


# ---------------------------------------------------------------------------- envelopes


class SuccessAnswer(TypedDict, total=False):
    """The hub's ``{success, message}`` envelope (``success`` may come as ``"true"``)."""

    success: bool | str
    message: str | None
    errorMessage: str | None
    error: str | None


# The answer to a write whose body the hub UI does not read: usually the envelope above, a
# text body, or nothing (callers decide by reading the effect back).
type HubAnswer = SuccessAnswer | str | None


# ---------------------------------------------------------------------------- devices


class CommandArgument(TypedDict):
    """One typed argument of a device command (``/device/runmethod`` ``args[]``)."""

    type: str  # NUMBER, STRING, DECIMAL, ENUM, JSON_OBJECT, ...
    value: JsonValue


class DevicePreference(TypedDict):
    """One preference as ``/device/preference/save`` takes it."""

    name: str
    type: str  # bool, number, decimal, text, enum, password, ...
    value: JsonValue


class DeviceEventRecord(TypedDict, total=False):
    """One row of ``/device/eventsJson/<id>`` (newest first)."""

    id: int
    name: str
    value: str | None
    unit: str | None
    descriptionText: str | None
    source: str
    type: str | None
    date: str
    isStateChange: bool
    deviceId: int


class DeviceState(TypedDict, total=False):
    """One attribute of ``device.currentStates`` in ``/device/fullJson``."""

    value: JsonValue
    dataType: str | None
    unit: str | None
    numberValue: float | None
    stringValue: str | None
    jsonValue: JsonValue
    date: str | None


class DeviceSetting(TypedDict, total=False):
    """One preference of a device (``/device/fullJson`` ``settings[]``)."""

    name: str
    type: str
    title: str | None
    description: str | None
    defaultValue: JsonValue
    required: bool
    value: JsonValue
    options: JsonValue


class DeviceCommandRecord(TypedDict, total=False):
    """One declared command (``/device/fullJson`` ``commands[]``)."""

    capability: str | None
    name: str
    arguments: list[JsonValue] | None
    parameters: list[JsonObject] | None
    relatedAttribute: str | None


class AppRef(TypedDict, total=False):
    """An app as other answers name it (``appsUsing[]``, ``parentApp``)."""

    id: int
    name: str
    label: str | None
    trueLabel: str | None
    disabled: bool


class DashboardRef(TypedDict, total=False):
    """A dashboard a device page lists (``dashboards[]``)."""

    id: int
    name: str
    selected: bool


class DeviceRecord(TypedDict, total=False):
    """The ``device`` object of ``/device/fullJson`` (the wholesale edit form's model)."""

    id: int
    name: str
    label: str | None
    displayName: str
    deviceNetworkId: str | None
    zigbeeId: str | None
    typeName: str
    deviceTypeId: int
    deviceTypeName: str
    deviceTypeReadableType: str
    roomId: HubId | None
    roomName: str | None
    disabled: bool | str
    tags: str | None
    notes: str | None
    version: int
    capabilities: list[str]
    currentStates: dict[str, DeviceState]
    settings: list[DeviceSetting]
    data: JsonObject
    maxEvents: int | None
    maxStates: int | None
    spammyThreshold: int | None
    meshEnabled: bool
    retryEnabled: bool | str
    meshFullSync: bool
    locationId: int
    hubId: int
    groupId: int | None
    defaultIcon: str | None
    icon: str | None
    controllerType: str
    showOnHome: bool | str
    defaultCurrentState: str | None
    virtual: bool
    parentDeviceId: int | None
    lastActivity: str | None
    meshSelectionEnabled: bool


class DeviceFullJson(TypedDict, total=False):
    """``/device/fullJson/<id>`` as the hub answers it (``device`` is always there)."""

    device: Required[DeviceRecord]
    settings: list[DeviceSetting]
    commands: list[DeviceCommandRecord]
    scheduledJobs: list[JsonObject]
    inputValues: JsonObject
    childDevices: dict[str, list[JsonObject]]
    deviceState: JsonObject
    appsUsing: list[AppRef]
    appsUsingCount: HubId
    appsUsingForDialog: list[AppRef]
    parentApp: AppRef | None
    dashboards: list[DashboardRef]
    homeKitEnabled: bool
    homeKitSelectionEnabled: bool
    extraBreadcrumb: str
    name: str
    label: str | None


class MakerAttribute(TypedDict, total=False):
    """One attribute of a Maker API device."""

    name: str
    currentValue: JsonValue
    dataType: str | None
    values: list[str]


class MakerDevice(TypedDict, total=False):
    """Maker API ``/devices/<id>``."""

    id: str
    name: str
    label: str | None
    type: str
    room: str | None
    model: str | None
    manufacturer: str | None
    attributes: list[MakerAttribute]
    capabilities: list[str | JsonObject]
    commands: list[str | JsonObject]


class DriverRecord(TypedDict, total=False):
    """One driver of ``/device/drivers`` (``type``: ``sys``, ``usr`` or ``dep``)."""

    id: int
    version: int | None
    name: str
    namespace: str
    author: str | None
    type: str
    category: str | None


class ReplacementOption(TypedDict, total=False):
    """One device ``/device/getReplacementOptions/<id>`` offers."""

    id: int
    name: str
    deviceTypes: list[str]


class CompatibleDevice(TypedDict, total=False):
    """One entry of Hubitat's compatible-device catalog (``/hub/compatibleDevices``)."""

    id: str
    brand: str
    name: str
    deviceType: str
    productNumber: str | None
    protocol: str
    driverName: str | None
    deviceTypeId: str | None
    appTypeId: str | None
    integrationAppName: str | None
    supportedHubs: str | None
    joinInstructions: str | None
    excludeInstructions: str | None
    factoryResetInstructions: str | None
    notes: str | None
    additionalHardware: str | None
    affiliateLink: str | None
    zwaveAllianceId: str | None
    zwaveAllianceXml: str | None


# ---------------------------------------------------------------------------- apps and rules


class AppTypeRef(TypedDict, total=False):
    """An app's code as configure/json names it."""

    name: str
    namespace: str


class AppInfo(TypedDict, total=False):
    """The ``app`` object of configure/json (names decoded)."""

    id: int
    name: str
    label: str | None
    trueLabel: str | None
    installed: bool
    version: int
    parentAppId: int | None
    appType: AppTypeRef
    disabled: bool


class ConfigSection(TypedDict, total=False):
    """One section of an app page: its inputs and its body elements (paragraphs, links)."""

    title: str | None
    hideable: bool
    hidden: bool
    input: list[JsonObject]
    body: list[JsonObject]


class ConfigPage(TypedDict, total=False):
    """The ``configPage`` object of configure/json."""

    name: str
    title: str | None
    previousPage: str | None
    nextPage: str | None
    refreshInterval: int | None
    install: bool
    uninstall: bool
    error: str | None
    sections: list[ConfigSection]


class ChildAppRef(TypedDict, total=False):
    """A child app configure/json lists."""

    id: int
    label: str | None


class AppConfigPage(TypedDict, total=False):
    """``/installedapp/configure/json/<id>[/<page>]`` (``app`` is always there)."""

    app: Required[AppInfo]
    configPage: ConfigPage
    settings: JsonObject
    childApps: list[ChildAppRef]


class AppRecord(TypedDict, total=False):
    """``/installedapp/json/<id>``: the app's record (names decoded; ``{}`` when odd)."""

    id: int
    name: str
    label: str | None
    trueLabel: str | None
    disabled: bool
    appTypeId: int
    parentAppId: int | None


class InstalledAppRecord(TypedDict, total=False):
    """The ``installedApp`` object of statusJson."""

    id: int
    name: str
    label: str | None
    trueLabel: str | None
    systemAppType: bool
    disabled: bool


class AppSetting(TypedDict, total=False):
    """One setting of statusJson ``appSettings[]``."""

    name: str
    value: JsonValue
    type: str
    multiple: bool
    deviceIdsForDeviceList: list[HubId]


class AppStatus(TypedDict, total=False):
    """``/installedapp/statusJson/<id>`` with ``appState`` as a map (JSON texts parsed)."""

    id: int
    installedApp: InstalledAppRecord
    appSettings: list[AppSetting]
    appState: Required[dict[str, JsonValue]]
    eventSubscriptions: list[JsonObject]
    scheduledJobs: list[JsonObject]
    childAppCount: int
    childDeviceCount: int
    childDevices: list[JsonObject]
    tempSettings: JsonValue
    tempState: JsonValue
    showTempValues: bool


class AppEventRecord(TypedDict, total=False):
    """One row of ``/installedapp/eventsJson/<id>`` (newest first)."""

    name: str
    value: str | None
    descriptionText: str | None  # HTML
    date: str


class RuleBuilderAnswer(TypedDict, total=False):
    """``/app/ruleBuilderJson/<id>``: a classic Visual Rule (``whenNodes``, ``thenNodes``,
    ``name``), a Rule Machine rule's compiled state, or ``{}`` for an unknown id."""

    # a classic Visual Rule
    name: str
    rulePaused: bool
    whenNodes: list[JsonObject]
    thenNodes: list[JsonObject]
    elseNodes: list[JsonObject]
    promptHistory: list[JsonValue]
    # a Rule Machine rule's compiled state
    broken: bool
    paused: bool
    hasPredicate: bool
    predCapabs: JsonValue
    eval: JsonValue
    parens: JsonValue
    actionList: JsonValue


class VisualRuleDefinition(TypedDict):
    """A classic Visual Rule as ``POST /app/ruleBuilderJson/<id>`` takes it; a node is the
    builder's object (``triggerType``/``actionType``, its device list, ``id``, ...)."""

    name: str
    rulePaused: bool
    whenNodes: list[JsonObject]
    thenNodes: list[JsonObject]
    elseNodes: list[JsonObject]


class GraphRule(TypedDict, total=False):
    """``/app/ruleBuilder20Json/<id>``: a graph Visual Rule (``ruleJson`` is JSON text)."""

    name: str
    rulePaused: bool
    ruleJson: str
    validationErrors: list[str]


# ``from`` is a Python keyword: the functional form.
GraphEdge = TypedDict("GraphEdge", {"from": str, "to": str, "port": str}, total=False)


class VisualGraph(TypedDict):
    """A graph rule ``{version, nodes, edges}`` (sent as the JSON text ``ruleJson``)."""

    version: int | str
    nodes: list[JsonObject]
    edges: list[GraphEdge]


class GraphSaveAnswer(TypedDict, total=False):
    """The answer to a graph save (``{}`` when it is not JSON); validation errors are kept."""

    success: bool
    name: str
    rulePaused: bool
    ruleJson: str
    validationErrors: list[str]
    errorMessage: str


# ---------------------------------------------------------------------------- backups


class BackupStatus(TypedDict, total=False):
    """``/hub/backup/statusJson``."""

    backupInProgress: bool
    cloudBackupInProgress: bool


class BackupSchedule(TypedDict, total=False):
    """``/hub2/backup/json`` without its password: the automatic backup schedule
    (frequencies in days; the time is the nightly maintenance's)."""

    localBackupFrequency: int
    cloudBackupFrequency: int
    databaseCleanupTimeHour: int
    databaseCleanupJobMinute: int
    hasCloudBackupEntitlements: bool
    hasCloudRestoreEntitlements: bool


class BackupSettings(BackupSchedule, total=False):
    """``/hub2/backup/json`` as the hub answers it (the password only to echo it back)."""

    backupPassword: str | None


class CloudBackupTrigger(TypedDict, total=False):
    """``/hub/cloud/triggerBackupWithStatus``: which parts were backed up and uploaded."""

    status: bool
    database: bool
    zigbee: bool
    zwave: bool
    fileManager: bool
    upload: bool


class CloudRestoreAnswer(TypedDict, total=False):
    """``/hub2/restoreCloudBackup`` (a Z-Wave firmware mismatch answers its flags)."""

    success: bool | str
    message: str | None
    zwaveFirmwareMismatchBackupNewer: bool
    zwaveFirmwareMismatchHubNewer: bool


# ---------------------------------------------------------------------------- code


class CodeListing(TypedDict, total=False):
    """One user code item as :func:`~.code.parse_code_list` lists it (our keys)."""

    type: Required[CodeKind]
    id: Required[str]
    name: Required[str | None]
    namespace: Required[str | None]
    version: int | None
    last_modified: str | None  # ISO 8601
    used_by: list[str]  # apps and drivers
    used_by_apps: list[str]  # libraries
    used_by_drivers: list[str]  # libraries
    author: str
    capabilities: list[str]  # drivers
    oauth: bool  # apps, only when on


class BundleContents(TypedDict):
    """The code a bundle holds, by kind (names as the hub lists them)."""

    apps: list[str]
    drivers: list[str]
    libraries: list[str]


class BundleRecord(TypedDict):
    """One installed bundle as :func:`~.code.parse_bundles` lists it."""

    id: str
    name: str | None
    namespace: str | None
    private: bool
    contains: BundleContents


# ---------------------------------------------------------------------------- compatibility

ProbeStatus = Literal["ok", "unexpected_shape", "missing", "error", "skipped"]


class PlatformSummary(TypedDict):
    """:meth:`~.firmware.Platform.as_dict`."""

    firmware: str | None
    model: str | None
    generation: int | None


class ProbeEntry(TypedDict, total=False):
    """One endpoint's outcome in the compatibility check (``seen``: a shape, never values)."""

    endpoint: Required[str]
    status: Required[ProbeStatus]
    ms: Required[int]
    seen: str | JsonObject
    expected: list[str]
    code: str
    note: str


class CompatibilitySummary(TypedDict):
    """How many endpoints ended in each status, and the requests the check sent."""

    ok: int
    unexpected_shape: int
    missing: int
    error: int
    skipped: int
    requests: int


class CompatibilityReport(TypedDict):
    """:func:`~.compat.check_compatibility`'s report (secrets redacted)."""

    hub: PlatformSummary
    hub_security: bool
    maker_api: bool
    summary: CompatibilitySummary
    endpoints: list[ProbeEntry]


# ---------------------------------------------------------------------------- dashboards


class DashboardOptions(TypedDict, total=False):
    """An Easy Dashboard's display options as ``/dashboard/create``/``update`` take them
    (and :class:`~.dashboards.Dashboard` ``options`` reads them back): flags, the
    navigation (dashboard ids, ``0`` = the dashboards menu; a list or a comma text), the
    PINs (``""`` = none) and the theme."""

    showModeTile: bool
    showClockTile: bool
    showCalendarTile: bool
    showHSMTile: bool
    showEdit: bool
    showNavigation: bool
    showTutorial: bool
    navigationSelection: str | list[HubId]
    dashboardPin: str
    hsmPin: str
    theme: str


class LegacyTile(TypedDict, total=False):
    """One tile of a legacy dashboard's layout."""

    id: HubId
    template: str
    device: HubId
    col: int
    row: int
    colSpan: int
    rowSpan: int


class LegacyLayout(TypedDict, total=False):
    """A legacy dashboard's layout (``/apps/api/<id>/dashboard/<id>/layout``)."""

    name: str
    cols: int
    rows: int
    bgColor: str
    tiles: list[LegacyTile]


# ---------------------------------------------------------------------------- files


class FileDeleteAnswer(TypedDict, total=False):
    """``/hub/fileManager/delete``: ``{status}`` (not trusted: re-list to know)."""

    status: bool


# ---------------------------------------------------------------------------- health and info


class CpuInfo(TypedDict, total=False):
    """``/hub/cpuInfo`` parsed: what its text shows."""

    processors: int
    load_average: float


class HubAlerts(TypedDict, total=False):
    """``/hub2/hubData`` ``alerts``: the banners the hub UI shows."""

    hubLoadElevated: bool
    hubLoadSevere: bool
    hubHighLoad: bool
    hubLowMemory: bool
    hubZwaveCrashed: bool
    hubLargeishDatabase: bool
    hubLargeDatabase: bool
    zwaveOffline: bool
    zigbeeOffline: bool
    cloudDisconnected: bool
    localBackupFailed: bool
    cloudBackupFailed: bool
    platformUpdateAvailable: bool
    spammyDevicesMessage: str | None
    runAlertsCounter: int
    databaseSize: int
    headerMessages: list[JsonValue]


class HubData(TypedDict, total=False):
    """``/hub2/hubData`` (``{}`` when odd): model, version, safe mode, alerts."""

    hubId: str
    ipAddress: str
    version: str
    model: str
    baseModel: str
    name: str
    alerts: HubAlerts
    freshDatabase: bool
    disableCloudController: bool
    safeMode: bool
    zwaveJSInstalled: bool


class TimeZoneEntry(TypedDict, total=False):
    """One entry of ``/hub/details/json`` ``timeZones[]``."""

    id: str
    label: str
    offset: str


class HubDetails(TypedDict, total=False):
    """``/hub/details/json`` (about 49 KB with the time-zone list)."""

    hubName: str
    platformVersion: str
    hardwareVersion: str
    hubUID: str
    macAddress: str
    ipAddress: str  # may carry HTML
    zipCode: str | None
    latitude: float | str
    longitude: float | str
    currentTime: str
    timeZones: list[TimeZoneEntry]
    timeZone: str | None
    timeFormat: str
    dateFormat: str
    ttsVoices: list[str]
    ttsCurrent: str
    tempScale: str
    mdnsName: str
    users: list[JsonObject]
    sunrise: str
    sunset: str


class LocationSettings(TypedDict, total=False):
    """``POST /location/update``: WHOLESALE (an omitted key is blanked on the hub); read
    the current values from :class:`HubDetails` and change what you mean to."""

    name: str
    timeZone: str
    latitude: float | str
    longitude: float | str
    clock: str
    dateFormat: str
    zipCode: str
    temperatureScale: str
    voice: str
    mdnsName: str


class UpdateCheck(TypedDict, total=False):
    """``/hub/cloud/checkForUpdate`` without the account e-mails."""

    version: str
    upgrade: bool
    status: str  # UPDATE_AVAILABLE, NO_UPDATE_AVAILABLE, ...
    releaseNotesUrl: str
    beta: bool


class UpdateStatus(TypedDict, total=False):
    """``/hub/cloud/checkUpdateStatus``."""

    status: str  # IDLE, DOWNLOAD_STARTED, ..., UPDATE_STARTED, DOWNLOAD_FAILED
    percent: int


# ---------------------------------------------------------------------------- logs and events


class RuntimeStat(TypedDict, total=False):
    """One device or app of ``/logs/json``."""

    id: int
    name: str
    pct: float
    count: int
    total: int
    stateSize: int
    formattedPct: str
    formattedPctTotal: str


class RuntimeStats(TypedDict, total=False):
    """``/logs/json``: uptime, runtime per device and app, jobs."""

    uptime: str
    totalDevicesRuntime: int
    devicePct: float
    totalAppsRuntime: int
    appPct: float
    maxEvents: int
    maxStates: int
    deviceStats: list[RuntimeStat]
    appStats: list[RuntimeStat]
    jobs: list[JsonObject]
    runningJobs: list[JsonObject]
    hubCommands: list[JsonObject]


class HubEventRecord(TypedDict, total=False):
    """One row of ``/hub/eventsJson`` (newest first)."""

    id: int
    source: str
    name: str
    value: str | None
    descriptionText: str | None
    date: str


class LocationEventRecord(TypedDict, total=False):
    """One row of ``/logs/eventsJson``: mode, HSM and hub variable changes (newest first)."""

    name: str
    value: str | None
    unit: str | None
    descriptionText: str | None
    isStateChange: bool
    type: str | None
    date: str


# ---------------------------------------------------------------------------- modes and HSM


class ModeRecord(TypedDict, total=False):
    """One mode of ``/modes/json``."""

    id: int
    name: str
    icon: str | None
    conditions: list[JsonObject]


class ModesPayload(TypedDict, total=False):
    """``/modes/json`` (``{}`` when odd); an app id of 0: not installed."""

    modes: list[ModeRecord]
    currentModeId: int
    selectedModeManager: str
    modeManagerAppId: int
    legacyModeManagerAppId: int
    easyModeManagerAppId: int


class MakerMode(TypedDict, total=False):
    """One mode as the Maker API lists it."""

    active: bool
    id: int
    name: str


class ModeTrigger(TypedDict, total=False):
    """One trigger of the Integrated Mode Manager (``/modes/easyModeManager/json``); a
    ``daysOfWeek`` entry (0 = Sunday) closes a list."""

    triggerType: str
    triggerCondition: str | None
    description: str
    deviceIds: list[HubId]
    index: int
    type: str
    daysOfWeek: list[int]
    timeOfDay: str  # HH:MM
    minutesBeforeSunrise: int
    minutesAfterSunrise: int
    minutesBeforeSunset: int
    minutesAfterSunset: int
    presenceSensors: list[HubId]
    presenceSensorEvent: str
    switches: list[HubId]
    switchEvent: str
    buttons: list[HubId]
    buttonEvent: str
    buttonIndex: int
    illuminanceSensors: list[HubId]
    illuminanceSensorEvent: str
    illuminance: int | float


# The trigger lists by key: a mode id, ``alt-<mode id>`` or ``exitAway``.
type ModeConditions = dict[str, list[ModeTrigger]]
ModeManagerId = Literal["builtIn", "app", "legacy", "none"]


# ---------------------------------------------------------------------------- radios

RadioName = Literal["zwave", "zigbee", "matter"]
# The keys of :data:`~.radios.RADIO_ACTIONS`.
RadioAction = Literal[
    "inclusion_start",
    "inclusion_stop",
    "exclusion_start",
    "exclusion_stop",
    "repair_cancel",
    "node_repair",
    "stats_refresh",
    "node_replace_stop",
    "antenna_test_start",
    "antenna_test_continue",
    "node_refresh",
    "node_rediscover",
    "node_reinitialize",
    "radio_reboot",
    "rebuild_network",
    "channel_scan",
    "pair",
    "open_pairing_window",
]


class RadioAnswer(TypedDict, total=False):
    """A radio operation's ``{success, message}``."""

    success: bool | str
    message: str | None


class RadioActionAnswer(RadioAnswer, total=False):
    """A radio operation's answer; a bare answer (Matter pairing: the new node's id as a
    JSON string) is kept as ``bare``; a Matter pairing window answers its ``setupCode``."""

    bare: str | None
    setupCode: str


class ZwaveNode(TypedDict, total=False):
    """One node of ``/hub/zwaveDetails/json`` ``nodes[]``."""

    nodeId: int
    nodeState: str
    deviceId: int | None
    deviceName: str | None
    deviceType: str | None
    zwaveType: str | None
    security: str | None
    route: str | None
    listening: bool
    msgCount: int
    per: int
    averageRtt: int
    lwrRssi: str | None
    neighbors: int
    routeChanges: int
    lastSent: str | None
    lastReceived: str | None
    batteryPercent: int | None


class ZwaveDetails(TypedDict, total=False):
    """``/hub/zwaveDetails/json`` (``{}`` when odd; ``secureJoin`` 0/1)."""

    enabled: bool
    showRegion: bool
    region: str | None
    longRangeChannel: int | None
    showSecureJoin: bool
    secureJoin: int | bool | None
    zwaveIP: bool
    zwaveJS: bool
    firmwareVersion: str | None
    healthy: bool
    updateInProgress: bool
    isRadioUpdateNeeded: bool
    zwDevices: dict[str, JsonObject]
    nodes: list[ZwaveNode]


class ZigbeeDevice(TypedDict, total=False):
    """One device of ``/hub/zigbeeDetails/json`` ``devices[]``."""

    id: int
    name: str
    active: bool
    shortZigbeeId: str
    zigbeeId: str
    lastMessage: str | None
    messageCount: int
    ping: bool


class ZigbeeDetails(TypedDict, total=False):
    """``/hub/zigbeeDetails/json`` (``{}`` when odd)."""

    enabled: bool
    healthy: bool
    inJoinMode: bool
    networkState: str
    panId: str | None
    extendedPanId: str | None
    channel: int
    weakChannel: bool
    channels: list[int]
    powerLevel: int
    powerLevels: list[int]
    firmwareUpdateInProgress: bool
    firmwareUpdateAvailable: bool
    showPowerSelection: bool
    showRebuildNetworkOnReboot: bool
    showInactiveDevicePing: bool
    showReboot: bool
    showRebuild: bool
    rebuildNetworkOnReboot: bool
    inactiveDevicePingEnabled: bool
    devices: list[ZigbeeDevice]


class MatterAddress(TypedDict, total=False):
    """One address of the Matter stack."""

    interface: str
    address: str


class MatterDevice(TypedDict, total=False):
    """One device of ``/hub/matterDetails/json`` ``devices[]``."""

    nodeId: int
    id: int | None
    name: str
    online: bool
    uniqueId: str
    manufacturer: str | None
    model: str | None
    ipAddress: str | None


class MatterDetails(TypedDict, total=False):
    """``/hub/matterDetails/json`` (``{}`` when odd; 404 without Matter)."""

    enabled: bool
    installed: bool
    installInProgress: bool
    installFailed: bool
    rebootRequired: bool
    networkState: str
    fabricId: str | None
    ipAddresses: list[MatterAddress]
    devices: list[MatterDevice]


class ZwaveRepairStatus(TypedDict):
    """A Z-Wave repair's status as :func:`~.radios.fetch_zwave_repair_status` reads it
    (``running`` None: unknown; ``stage``/``html`` only on C-7 and later)."""

    running: bool | None
    stage: str | None
    html: str | None


class ChannelScanRow(TypedDict, total=False):
    """One row of the Zigbee channel scan (our keys; those the hub sent)."""

    channel: int
    rssi: int
    lqi: int
    pan_id: str
    extended_pan_id: str


class InclusionRequest(TypedDict, total=False):
    """What the hub waits for during an inclusion: S2 keys (``grantKeys``, flags as
    ``"true"``/``"false"`` text) or a PIN (``securityCode``)."""

    type: str
    S2AccessControl: str
    S2Authenticated: str
    S2Unauthenticated: str
    S0Unauthenticated: str
    securityCode: str
    length: int


class InclusionStatus(TypedDict, total=False):
    """``/hub/searchZwaveDevices`` (``{}`` when odd)."""

    deviceMap: JsonObject
    initMap: dict[str, JsonObject]
    userRequest: InclusionRequest | None


class SmartStartEntry(TypedDict, total=False):
    """One SmartStart entry (``dsk`` identifies it)."""

    nodeName: str
    dsk: str
    status: str
    canDelete: bool
    pending: bool
    deviceId: int | None
    suggestRegularInclusion: bool


class NodeReplaceProgress(TypedDict, total=False):
    """``replacedNode`` of ``/hub/zwave/nodeReplace/status``."""

    running: bool
    status: str


class NodeReplaceStatus(TypedDict, total=False):
    """``/hub/zwave/nodeReplace/status`` (``{}`` when odd)."""

    userRequest: JsonValue
    replacedNode: NodeReplaceProgress


class AntennaTestProgress(TypedDict, total=False):
    """``/hub/zwave2/antennaTestProgress`` (``WAITING_FOR_USER``: the user acts, then the
    test continues)."""

    stage: str
    message: str | None
    testNumber: int
    antennaRSSI: int | str | None
    noAntennaRSSI: int | str | None


class ZwaveNodeState(TypedDict, total=False):
    """``/hub/zwave2/getNodeState``: the node as the Z-Wave JS stack keeps it, or
    ``{error}``."""

    label: str
    status: int  # 0-4
    ready: bool
    interviewStage: str
    lastSeen: int
    firmwareVersion: str
    protocol: int
    protocolVersion: int
    isSecure: bool
    highestSecurityClass: int
    supportsSecurity: bool
    isListening: bool
    isRouting: bool
    supportsBeaming: bool
    manufacturerId: int
    productType: int
    productId: int
    maxDataRate: int
    supportedDataRates: list[int]
    deviceConfig: JsonObject
    deviceDatabaseUrl: str
    statistics: JsonObject
    values: list[JsonObject]
    endpoints: list[JsonObject]
    error: str


class ExclusionStatus(TypedDict):
    """``/hub/zwaveExclude/status`` read: ``message`` (``""`` while waiting, the result
    once a device left), ``excluding`` (the older answer); None when not said."""

    message: str | None
    excluding: bool | None


class ZigbeeNetworkState(TypedDict, total=False):
    """``/hub/zigbeeInfo/status`` (``ONLINE`` when the network is up)."""

    networkState: str
    panId: str
    extendedPanId: str


class MatterPairProgress(TypedDict, total=False):
    """``initMap`` of ``/hub/matterPairDeviceStatus``."""

    stage: str
    isRunning: bool
    isDeviceFound: bool
    isPairingFailed: bool
    failedStage: str | None
    errorCode: HubId | None
    errorMessage: str | None
    hasDeviceId: bool


class MatterPairStatus(TypedDict, total=False):
    """``/hub/matterPairDeviceStatus`` (``{}`` when odd)."""

    initMap: MatterPairProgress
    deviceMap: JsonObject


class FirmwareDevice(TypedDict, total=False):
    """A Z-Wave node the device firmware updater can flash."""

    nodeId: int
    label: str


class FirmwareTarget(TypedDict, total=False):
    """A firmware target of a Z-Wave node."""

    target: int
    label: str


class FirmwareTargets(TypedDict, total=False):
    """``/hub/zwave/deviceFirmware/details``."""

    success: bool
    message: str | None
    targets: list[FirmwareTarget]


class FirmwareProgress(TypedDict, total=False):
    """A device firmware update's progress (over at DONE, FAILED, ABORTED, NOTFOUND, IDLE)."""

    stage: str
    percent: int
    status: str


class FirmwareAnswer(TypedDict, total=False):
    """The answer to a device firmware start or abort (``{}`` when odd)."""

    success: bool
    message: str | None
    progress: FirmwareProgress


class RadioFirmwareStatus(TypedDict, total=False):
    """``/hub/zwave/updateHubFirmwareStatus`` (``REBOOT``: the hub must reboot; ``IDLE``:
    over; ``ERROR`` in ``status``: failed)."""

    stage: str
    status: str
    message: str | None


# ---------------------------------------------------------------------------- network

NetworkTest = Literal["ping", "ping_gateway", "traceroute", "speed_test"]
EthernetSpeed = Literal["AUTONEG", "FIXED_100", "FIXED_10"]
NetworkLink = Literal["wifi", "ethernet"]


# ---------------------------------------------------------------------------- variables


class HubVariable(TypedDict, total=False):
    """A hub variable as the Maker API answers it (``type``: ``integer``, ``bigdecimal``,
    ``boolean``, ``string``, ``datetime``)."""

    name: str
    value: JsonScalar
    type: str


# What the Hub Variables wizard's ``varType`` offers.
VariableType = Literal["Number", "Decimal", "String", "Boolean", "DateTime"]
# The connector device types a Number/Decimal variable offers (``CONNECTOR_TYPES``).
ConnectorType = Literal["Variable", "Dimmer", "Volume", "ColorTemp", "Humidity", "Illuminance"]
