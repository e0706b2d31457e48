"""Groups and Scenes: the parent app, its scene (and group) child apps, their activator devices.

What rests on evidence (README "Evidence"): the parent app is the built-in "Groups and Scenes"
(the hub UI's Add Built-In App list links ``/installedapp/sysApp/Groups%20and%20Scenes``), its
children are ``Scene-2.1`` and ``Group-2.1`` apps (the on-hub server's app-type registry, verified
live), and each scene has an activator device with the Switch capability that activates the scene
when turned on (the on-hub server's rule guide) and names the scene app as its ``parentApp`` (device
fullJson). The page's button names and input names here are the emulator's own: the client finds the
members through the page's device inputs and the capture button by its title.

A Room Lighting instance (``Room Lights``) has an activator device too (the same rule guide: "Each
Scene / Room Lighting instance spawns an activator device"); the Office's instance gets one here,
with its lights in ``roomDevsL`` (jbaruch/hubitat-dev's UI notes). Its page has no capture button.

Activating applies the captured states to the member devices (through the ordinary device
commands, so delays and faults apply); the capture button stores the members' current
states and moves the app's version on (the generic ``dropped_buttons`` knob of the app routes
makes the click answer success and change nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .catalog import DRIVERS_BY_NAME
from .device_factory import new_device
from .devstate import AppInternals
from .model import App, Device, HomeState
from .seed_specs import RL_OFFICE


class RunCommand(Protocol):
    """How a scene runs a device command (``Home.run_command``: delays and faults apply)."""

    def __call__(
        self,
        device_id: int,
        command: str,
        args: list[object],
        *,
        producer: tuple[int, str] | None = None,
    ) -> None: ...


PARENT_TYPE = "Groups and Scenes"
SCENE_TYPE = "Scene-2.1"
GROUP_TYPE = "Group-2.1"
CAPTURE_BUTTON = "reCapture"
CAPTURED_KEY = "capturedStates"  # appState: {device id: {attribute: value}}
APP_GROUPS_SCENES = 45
SCENE_MOVIE = 180
SCENE_LOCKUP = 181
GROUP_DOWNSTAIRS = 182
SCENE_ATTRS = ("switch", "level", "colorTemperature", "lock")
ROOM_LIGHTS_TYPE = "Room Lights"  # a Room Lighting instance (app_types.CHILD_APP_TYPES)
# The Office's Room Lighting instance: its lights and what activating it sets them to (the
# story's "Activating scene (level 100, CT 4000K)"; kept as the scenes' captured states: the
# emulator's own, no evidence of where Room Lighting keeps them).
ROOM_LIGHTS_OFFICE = {
    "Office Light": {"switch": "on", "level": 100},
    "Office Desk Lamp": {"switch": "on", "level": 100, "colorTemperature": 4000},
}
ROOM_LIGHTS_ACTIVATOR = "Office Scene Activator"


@dataclass(frozen=True)
class SceneSpec:
    app_id: int
    label: str
    members: dict[str, dict[str, object]]  # device label -> captured states
    activator_label: str


SCENES = (
    SceneSpec(
        SCENE_MOVIE,
        "Movie Time",
        {
            "Living Room Lamp": {"switch": "on", "level": 20},
            "Living Room Dimmer": {"switch": "off"},
            "TV Outlet": {"switch": "on"},
        },
        "Movie Time",
    ),
    SceneSpec(
        SCENE_LOCKUP,
        "Lock Up",
        {"Back Door Lock": {"lock": "locked"}, "Kitchen Light": {"switch": "off"}},
        "Lock Up Activator",
    ),
)


def _device_input(ids: list[int]) -> dict[str, Any]:
    return {
        "name": "sceneDevices",
        "type": "capability.*",
        "title": "Select devices for this scene",
        "multiple": True,
        "value": ",".join(str(i) for i in ids),
        "deviceIdsForDeviceList": ids,
    }


def seed_scenes(state: HomeState) -> None:
    """Add the Groups and Scenes app with two scenes (activator devices included) and a group,
    and an activator to the Office's Room Lighting instance."""
    by_label = {d.label: d for d in state.devices.values()}
    state.apps[APP_GROUPS_SCENES] = App(
        APP_GROUPS_SCENES, PARENT_TYPE, None, PARENT_TYPE, app_type_id=16
    )
    state.apps[GROUP_DOWNSTAIRS] = App(
        GROUP_DOWNSTAIRS,
        GROUP_TYPE,
        "Downstairs Lights",
        GROUP_TYPE,
        parent_id=APP_GROUPS_SCENES,
        app_type_id=17,
    )
    for spec in SCENES:
        members = {by_label[k].id: v for k, v in spec.members.items() if k in by_label}
        if not members:
            continue
        state.apps[spec.app_id] = App(
            spec.app_id,
            SCENE_TYPE,
            spec.label,
            SCENE_TYPE,
            parent_id=APP_GROUPS_SCENES,
            app_type_id=18,
        )
        state.dev.internals[spec.app_id] = AppInternals(
            page_title=spec.label,
            inputs=[_device_input(sorted(members))],
            buttons=[{"name": CAPTURE_BUTTON, "title": "Re-Capture Devices"}],
            state={CAPTURED_KEY: {str(k): dict(v) for k, v in members.items()}},
        )
        _add_activator(state, spec.app_id, spec.activator_label)
    _seed_room_lights(state, by_label)


def _add_activator(state: HomeState, app_id: int, label: str) -> None:
    """The app's activator: a Virtual Switch whose parent app is the scene (or instance)."""
    dev_id = state.next_device_id
    state.next_device_id += 1
    state.devices[dev_id] = new_device(
        state,
        DRIVERS_BY_NAME["Virtual Switch"],
        device_id=dev_id,
        label=label,
        dni=str(1_700_000_000_000 + dev_id),
        now=state.boot_time,
    )
    state.devices[dev_id].parent_app_id = app_id
    state.devices[dev_id].last_activity = state.boot_time  # activated before


def _seed_room_lights(state: HomeState, by_label: dict[str | None, Device]) -> None:
    """The Office's Room Lighting instance gets its lights input (``roomDevsL``, as a new
    instance's page has it: app_types.ROOM_LIGHTS_INPUTS) and its activator device."""
    app = state.apps.get(RL_OFFICE)
    lights = {by_label[k].id: v for k, v in ROOM_LIGHTS_OFFICE.items() if k in by_label}
    if app is None or app.type != ROOM_LIGHTS_TYPE or not lights:
        return
    ids = sorted(lights)
    state.dev.internals[RL_OFFICE] = AppInternals(
        page_title=app.label or app.name,
        inputs=[
            {
                "name": "roomDevsL",
                "type": "capability.switch",
                "title": "Select Lights for this room",
                "multiple": True,
                "value": ",".join(str(i) for i in ids),
                "deviceIdsForDeviceList": ids,
            }
        ],
        state={CAPTURED_KEY: {str(k): dict(v) for k, v in lights.items()}},
    )
    _add_activator(state, RL_OFFICE, ROOM_LIGHTS_ACTIVATOR)


def scene_of(state: HomeState, dev: Device) -> int | None:
    """The scene app (a scene or a Room Lighting instance) this device activates, if it is
    its activator."""
    app = state.apps.get(dev.parent_app_id) if dev.parent_app_id else None
    return app.id if app is not None and app.type in (SCENE_TYPE, ROOM_LIGHTS_TYPE) else None


def _commands(states: dict[str, object]) -> list[tuple[str, list[object]]]:
    switch = states.get("switch")
    out: list[tuple[str, list[object]]] = []
    if switch == "off":
        out.append(("off", []))
    elif "level" in states:
        out.append(("setLevel", [states["level"]]))
    elif switch == "on":
        out.append(("on", []))
    if "colorTemperature" in states and switch != "off":
        out.append(("setColorTemperature", [states["colorTemperature"]]))
    if states.get("lock") in ("locked", "unlocked"):
        out.append(("lock" if states["lock"] == "locked" else "unlock", []))
    return out


def activate(state: HomeState, scene_id: int, run_command: RunCommand) -> None:
    """Set every member device to its captured states."""
    internals = state.dev.internals.get(scene_id)
    captured = internals.state.get(CAPTURED_KEY, {}) if internals else {}
    for dev_id, states in captured.items():
        if int(dev_id) not in state.devices:
            continue
        app = state.apps.get(scene_id)
        producer = (scene_id, (app.label or app.name) if app is not None else f"Scene {scene_id}")
        for command, args in _commands(states):
            run_command(int(dev_id), command, args, producer=producer)


def capture(state: HomeState, internals: AppInternals) -> None:
    """The capture button: the members' current states become the scene's."""
    ids: list[int] = []
    for inp in internals.inputs:
        ids += [int(i) for i in inp.get("deviceIdsForDeviceList") or []]
    captured: dict[str, dict[str, object]] = {}
    for dev_id in ids:
        dev = state.devices.get(dev_id)
        if dev is None:
            continue
        captured[str(dev_id)] = {a: dev.attrs[a].value for a in SCENE_ATTRS if a in dev.attrs}
    internals.state[CAPTURED_KEY] = captured
    internals.version += 1
