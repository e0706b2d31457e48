"""The library on its own: ``Hubitat`` and its controllers against the emulated hub, no hass.

- every controller answers a read with the emulated home's real values, and a few writes
  read back (a device command, a mode change, a room, a variable, a file);
- every public function of the library's domain modules that takes the client is reached
  by some controller method (read from the controllers' source), so none is forgotten;
- a sequence of controller calls sends exactly the requests of the same free functions.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import importlib
import inspect
import pkgutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools import hub as library
from custom_components.hubitat_dev_tools.hub import (
    HubClient,
    HubConnection,
    Hubitat,
    apps,
    backups,
    dashboards,
    devices,
    hsm,
    info,
    logs,
    modes,
    radios,
    rooms,
    variables,
)
from custom_components.hubitat_dev_tools.hub.controllers import Controller
from custom_components.hubitat_dev_tools.hub.logs import LEVELS
from hubitat_emulator import HubEmulator

LIBRARY = Path(library.__file__).parent
CONTROLLERS = LIBRARY / "controllers.py"


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """Replaces the suite's autouse fixture of that name, which sets up a Home Assistant
    (``hass``): the library runs here without one."""


@pytest.fixture
async def emu(socket_enabled: None) -> AsyncIterator[HubEmulator]:
    """An emulated hub on loopback (as ``scripts/ha_launcher.py`` ``running_hub`` starts it)."""
    hub = HubEmulator(command_delay=0.0)
    await hub.start()
    try:
        yield hub
    finally:
        await hub.stop()


def connection(emu: HubEmulator) -> HubConnection:
    """How to reach the emulated hub, with its Maker API (``ha_launcher.hub_settings``)."""
    url = URL(emu.url)
    return HubConnection(
        host=str(url.host),
        port=url.port,
        maker_app_id=str(emu.maker_app_id),
        maker_token=emu.maker_token,
    )


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as sess:
        yield sess


@pytest.fixture
async def hub(emu: HubEmulator, session: aiohttp.ClientSession) -> Hubitat:
    """A ``Hubitat`` that has read the hub's identity (firmware and time zone known)."""
    hub = Hubitat(session, connection(emu))
    await hub.info.identity()
    return hub


def controller_names(hub: Hubitat) -> set[str]:
    return {name for name, value in vars(hub).items() if isinstance(value, Controller)}


def a_switch(emu: HubEmulator) -> int:
    """An enabled switch of the emulated home."""
    for dev_id in emu.device_ids():
        dev = emu.device(dev_id)
        if "switch" in dev["attributes"] and not dev.get("disabled"):
            return dev_id
    raise AssertionError("no switch in the emulated home")


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 3.0) -> None:
    """Wait for ``check`` (read back from the hub) to pass."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await check():
        assert loop.time() < deadline, "the change did not read back"
        await asyncio.sleep(0.05)


# ---------------------------------------------------------------------------- construction


def test_no_home_assistant_here(request: pytest.FixtureRequest) -> None:
    assert "hass" not in request.fixturenames


async def test_built_from_a_session_or_a_client(
    emu: HubEmulator, session: aiohttp.ClientSession
) -> None:
    conn = connection(emu)
    own = Hubitat(session, conn, max_in_flight=2)
    assert own.client.connection is conn and own.connection is conn
    assert own.base_url == emu.url
    client = HubClient(session, conn)
    shared = Hubitat(client)
    assert shared.client is client and Hubitat.from_client(client).client is client
    # every controller sends through the hub's one client
    assert {getattr(shared, n).client for n in controller_names(shared)} == {client}
    with pytest.raises(TypeError):
        Hubitat(client, conn)  # type: ignore[call-overload]
    identity = await shared.info.identity()
    assert identity.hub_uid == emu.hub_uid
    assert shared.platform.version_text == emu.state.version == client.platform.version_text


# ---------------------------------------------------------------------------- reads


async def test_one_read_per_controller(hub: Hubitat, emu: HubEmulator) -> None:
    """Each controller reads the emulated home and gets its real values."""
    st = emu.state
    switch = a_switch(emu)

    async def read_info() -> None:
        identity = await hub.info.identity()
        assert (identity.hub_uid, identity.name) == (emu.hub_uid, emu.hub_name)
        assert (await hub.info.details()).get("hubName") == emu.hub_name
        assert (await hub.info.hub_data()).get("model") == st.model

    async def read_firmware() -> None:
        assert hub.firmware.platform.version_text == st.version
        hub.firmware.require((2, 4), "this check")  # 2.5 runs here: no error
        check = await hub.firmware.check_for_update()
        assert isinstance(check.get("status"), str)
        assert not any("email" in key.lower() for key in check)

    async def read_lifecycle() -> None:
        assert await hub.lifecycle.status() == "running"

    async def read_devices() -> None:
        listed = await hub.devices.list()
        assert {d.id for d in listed} == {str(i) for i in emu.device_ids()}
        detail = await hub.devices.get(str(switch))
        assert detail.summary.label == emu.device(switch)["label"]
        assert detail.command("on") is not None
        raw = await hub.devices.raw(str(switch))
        assert raw["device"].get("id") == switch
        drivers = await hub.devices.drivers()
        assert emu.device(switch)["type"] in {d.get("name") for d in drivers}

    async def read_apps() -> None:
        tree = await hub.apps.list()
        assert {a.id for a in tree} == {str(i) for i in st.apps}
        first = next(iter(st.apps.values()))
        record = await hub.apps.status(str(first.id))
        assert record.get("installedApp", {}).get("id") == first.id

    async def read_rules() -> None:
        rules = await hub.rules.list()
        expected = {str(a.id) for a in st.apps.values() if a.type.startswith("Rule-")}
        assert expected and {r.id for r in rules} == expected
        state = await hub.rules.state(next(iter(expected)))
        assert isinstance(state["appState"], dict)

    async def read_visual_rules() -> None:
        rule_id, stored = next(iter(st.dev.vrb.items()))
        definition = await hub.visual_rules.definition(str(rule_id))
        assert definition.get("name") == stored["name"]
        assert await hub.visual_rules.graph(str(rule_id)) is None  # a classic rule

    async def read_scenes() -> None:
        scenes = {a.name: a.id for a in await hub.scenes.list()}
        assert set(scenes) == {"Movie Time", "Lock Up", "Office Lights"}
        assert await hub.scenes.members(scenes["Movie Time"])

    async def read_modes() -> None:
        payload = await hub.modes.get()
        assert payload.get("currentModeId") == st.current_mode_id
        assert [m.get("name") for m in payload.get("modes", [])] == [m["name"] for m in emu.modes]
        assert isinstance(await hub.modes.conditions(), dict)

    async def read_hsm() -> None:
        messages = await hub.hsm.messages()
        assert (messages.mode, messages.hsm) == (emu.current_mode, emu.hsm_status)

    async def read_rooms() -> None:
        listed = {r.name: set(r.device_ids) for r in await hub.rooms.list()}
        assert listed == {r["name"]: {str(d) for d in r["deviceIds"]} for r in emu.rooms.values()}
        assert await hub.rooms.device_ids() == {str(i) for i in emu.device_ids()}

    async def read_variables() -> None:
        listed = {v.get("name"): v.get("value") for v in await hub.variables.list()}
        assert set(listed) == set(emu.variables)
        assert {v["name"] for v in await hub.variables.own()} == set(emu.variables)

    async def read_backups() -> None:
        assert {b.name for b in await hub.backups.list()} == {b.name for b in emu.backups}
        assert (await hub.backups.status()).get("backupInProgress") is False
        assert "backupPassword" not in await hub.backups.schedule()

    async def read_files() -> None:
        names = {f.name for f in await hub.files.list() if not f.is_dir}
        assert names == set(emu.files.names())

    async def read_logs() -> None:
        past = await hub.logs.past()
        assert past and all(line.level in LEVELS for line in past)
        stats = await hub.logs.stats()
        assert {str(s.get("id")) for s in stats.get("deviceStats", [])} <= {
            str(i) for i in emu.device_ids()
        }

    async def read_events() -> None:
        location = await hub.events.location()
        assert location
        assert {e.get("name") for e in location} <= {e.name for e in emu.location_events}
        assert {e.get("name") for e in await hub.events.hub()} <= {e.name for e in emu.hub_events}

    async def read_code() -> None:
        listed = {c["id"] for c in await hub.code.list("app")}
        assert listed == {str(i) for kind, i in st.dev.code if kind == "app"}

    async def read_dashboards() -> None:
        pin = await hub.dashboards.pin_token()
        assert pin == st.dev.pin_token
        listed = {d.dashboard_id for d in await hub.dashboards.list(pin)}
        assert {str(i) for i in st.dev.easy_dashboards} <= listed

    async def read_radios() -> None:
        assert (await hub.radios.zigbee_details()).get("channel") == emu.ops.zigbee_channel
        assert isinstance((await hub.radios.zwave_details()).get("nodes"), list)

    async def read_network() -> None:
        config = await hub.network.config()
        assert config.lan_address or config.wlan_address

    async def read_mesh() -> None:
        assert (await hub.mesh.get()).enabled is st.mesh.enabled

    async def read_health() -> None:
        memory = await hub.health.free_os_memory()
        assert memory is not None and memory > 0
        assert (await hub.health.cpu_info()).get("processors", 0) > 0

    async def read_compat() -> None:
        report = await hub.compat.check()
        assert report["summary"]["ok"] == len(report["endpoints"]) > 20, report

    reads: dict[str, Callable[[], Awaitable[None]]] = {
        "info": read_info,
        "firmware": read_firmware,
        "lifecycle": read_lifecycle,
        "devices": read_devices,
        "apps": read_apps,
        "rules": read_rules,
        "visual_rules": read_visual_rules,
        "scenes": read_scenes,
        "modes": read_modes,
        "hsm": read_hsm,
        "rooms": read_rooms,
        "variables": read_variables,
        "backups": read_backups,
        "files": read_files,
        "logs": read_logs,
        "events": read_events,
        "code": read_code,
        "dashboards": read_dashboards,
        "radios": read_radios,
        "network": read_network,
        "mesh": read_mesh,
        "health": read_health,
        "compat": read_compat,
    }
    assert set(reads) == controller_names(hub), "a controller without a read here"
    for read in reads.values():
        await read()


# ---------------------------------------------------------------------------- writes


async def test_device_command_reads_back(hub: Hubitat, emu: HubEmulator) -> None:
    switch = str(a_switch(emu))

    for value in ("off", "on"):
        await hub.devices.command(switch, value)
        await until(functools.partial(_switch_is, hub, switch, value))
        assert emu.device(int(switch))["attributes"]["switch"] == value
    events = await hub.devices.events(switch)
    assert events[0].get("name") == "switch" and events[0].get("value") == "on"


async def _switch_is(hub: Hubitat, device_id: str, value: str) -> bool:
    states = (await hub.devices.get(device_id)).summary.states
    return bool(states.get("switch") == value)


async def test_mode_change_reads_back(hub: Hubitat, emu: HubEmulator) -> None:
    back = emu.state.current_mode_id
    other = next(m for m in emu.state.modes if m.id != back)
    await hub.modes.activate(str(other.id))
    await until(lambda: _current_is(hub, other.id))
    assert emu.current_mode == other.name
    assert (await hub.hsm.messages()).mode == other.name
    # back through the Maker API: its answer is the modes list
    answered = await hub.modes.activate_maker(str(back))
    assert {m.get("id") for m in answered} == {m.id for m in emu.state.modes}
    await until(lambda: _current_is(hub, back))
    assert emu.state.current_mode_id == back


async def _current_is(hub: Hubitat, mode_id: int) -> bool:
    return (await hub.modes.get()).get("currentModeId") == mode_id


async def test_room_create_and_delete(hub: Hubitat, emu: HubEmulator) -> None:
    switch = str(a_switch(emu))
    room_id = await hub.rooms.create("Library Test Room", [switch])
    rooms_now = {r.id: r for r in await hub.rooms.list()}
    assert rooms_now[room_id].name == "Library Test Room"
    assert switch in rooms_now[room_id].device_ids
    assert emu.rooms[int(room_id)]["name"] == "Library Test Room"
    await hub.rooms.delete(room_id)
    assert room_id not in {r.id for r in await hub.rooms.list()}
    assert int(room_id) not in emu.rooms


async def test_variable_and_file_writes_read_back(hub: Hubitat, emu: HubEmulator) -> None:
    name = next(n for n, v in emu.variables.items() if v["type"] == "string")
    answered = await hub.variables.set(name, "written by the library")
    assert answered.get("name") == name
    assert (await hub.variables.get(name)).get("value") == "written by the library"
    assert emu.variables[name]["value"] == "written by the library"

    await hub.files.write("library-test.txt", b"hello from the library")
    assert await hub.files.read_text("library-test.txt") == "hello from the library"
    assert "library-test.txt" in emu.files.names()
    await hub.files.delete("library-test.txt")
    assert "library-test.txt" not in {f.name for f in await hub.files.list()}


# ---------------------------------------------------------------------------- coverage


def _client_functions() -> set[str]:
    """``module.function`` for every public function of the library's modules (not the
    controllers) whose first parameter is the client."""
    found: set[str] = set()
    for module_info in pkgutil.iter_modules([str(LIBRARY)]):
        if module_info.ispkg:
            continue
        module = importlib.import_module(f"{library.__name__}.{module_info.name}")
        for name, obj in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(obj):
                continue
            if obj.__module__ != module.__name__:
                continue  # imported from elsewhere
            params = list(inspect.signature(obj).parameters.values())
            if params and (params[0].name == "client" or "HubClient" in str(params[0].annotation)):
                found.add(f"{module_info.name}.{name}")
    return found


def _delegations() -> set[str]:
    """``module.function`` of every call ``<module>.<function>(self._client, ...)`` in the
    controllers' source (``from . import <module>``)."""
    tree = ast.parse(CONTROLLERS.read_text(), filename=str(CONTROLLERS))
    modules = {
        alias.asname or alias.name: alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None
        for alias in node.names
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value
        if not (isinstance(owner, ast.Name) and owner.id in modules and node.args):
            continue
        if ast.unparse(node.args[0]) == "self._client":
            found.add(f"{modules[owner.id]}.{node.func.attr}")
    return found


def test_every_client_function_is_reachable_from_a_controller() -> None:
    functions = _client_functions()
    delegated = _delegations()
    assert len(functions) > 150  # the scan sees the library
    assert sorted(functions - delegated) == [], "give these a controller method"
    assert sorted(delegated - functions) == [], "controllers call what is not a client function"


def test_controller_methods_return_typed_values() -> None:
    """The public API (every controller's public method) returns models, typed shapes or
    plain values: no bare ``dict[str, Any]``/``Any`` return, read from the annotations."""
    from custom_components.hubitat_dev_tools.hub import controllers

    methods = 0
    untyped: list[str] = []
    for name, cls in inspect.getmembers(controllers, inspect.isclass):
        if not name.endswith("Controller") or cls.__module__ != controllers.__name__:
            continue
        for attr, fn in vars(cls).items():
            if attr.startswith("_") or not inspect.isfunction(fn):
                continue
            methods += 1
            ret = str(fn.__annotations__.get("return"))
            if "dict[str, Any]" in ret or ret == "Any" or "[Any]" in ret:
                untyped.append(f"{name}.{attr} -> {ret}")
    assert methods > 150
    assert untyped == []


# ---------------------------------------------------------------------------- same requests


async def test_controllers_send_the_requests_of_the_free_functions(
    hub: Hubitat, emu: HubEmulator
) -> None:
    """The same calls, through the controllers and through the functions: the same requests
    (method, path and query), in the same order."""
    client = hub.client
    switch = str(a_switch(emu))
    mode_id = str(emu.state.current_mode_id)
    variable = next(iter(emu.variables))
    app_id = str(next(iter(emu.state.apps)))
    pin = emu.state.dev.pin_token
    steps: list[tuple[Callable[[], Awaitable[object]], Callable[[], Awaitable[object]]]] = [
        (hub.info.identity, lambda: info.fetch_identity(client)),
        (hub.devices.states, lambda: devices.fetch_device_states(client)),
        (lambda: hub.devices.get(switch), lambda: devices.fetch_device(client, switch)),
        (
            lambda: hub.devices.command(switch, "on"),
            lambda: devices.run_command(client, switch, "on", []),
        ),
        (lambda: hub.devices.maker(switch), lambda: devices.fetch_maker_device(client, switch)),
        (hub.modes.get, lambda: modes.fetch_modes(client)),
        (lambda: hub.modes.activate(mode_id), lambda: modes.activate_mode_admin(client, mode_id)),
        (hub.hsm.messages, lambda: hsm.fetch_messages(client)),
        (hub.rooms.list, lambda: rooms.fetch_rooms(client)),
        (lambda: hub.variables.get(variable), lambda: variables.fetch_variable(client, variable)),
        (hub.apps.list_with_types, lambda: apps.fetch_apps_and_types(client)),
        (lambda: hub.apps.status(app_id), lambda: apps.fetch_status(client, app_id)),
        (lambda: hub.logs.past("dev", switch), lambda: logs.fetch_past_logs(client, "dev", switch)),
        (hub.backups.cloud, lambda: backups.fetch_cloud_backups(client)),
        (lambda: hub.dashboards.list(pin), lambda: dashboards.fetch_dashboards(client, pin)),
        (
            lambda: hub.radios.zwave_repair_status(modern=True),
            lambda: radios.fetch_zwave_repair_status(client, modern=True),
        ),
    ]

    async def run(calls: list[Callable[[], Awaitable[object]]]) -> list[list[tuple[str, str]]]:
        sent: list[list[tuple[str, str]]] = []
        for call in calls:
            before = len(emu.requests)
            await call()
            sent.append(list(emu.requests[before:]))
        return sent

    through_controllers = await run([ours for ours, _ in steps])
    through_functions = await run([theirs for _, theirs in steps])
    assert all(through_controllers)
    assert through_controllers == through_functions

    # the two reads of fetch_devices run at once: the same requests, in either order
    before = len(emu.requests)
    await hub.devices.list()
    ours = sorted(emu.requests[before:])
    before = len(emu.requests)
    await devices.fetch_devices(client)
    assert ours == sorted(emu.requests[before:]) and len(ours) == 2
