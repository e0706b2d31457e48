"""Compatibility self-check: does this hub answer the reads we depend on the way we expect?

Each :class:`Probe` is one GET of an endpoint the integration reads, with the answer shape
our parsers rely on (written from the evidence page, not from the emulator): the keys an
object must have and their JSON types, what a list holds, "a map of" objects keyed by ids,
and :class:`AnyOf` where sources disagree. :func:`check_compatibility` sends each probe
once (two at a time, each with its own timeout), never raises, and reports per endpoint:

* ``ok``: the answer has the expected shape;
* ``unexpected_shape``: it parsed, but keys or types differ (``seen`` is the shape of the
  answer: keys and JSON types only, never a value; ``expected`` lists what differs);
* ``missing``: HTTP 404, another error status, or an HTML page instead of JSON;
* ``error``: the request itself failed (timeout, unreachable, login refused, busy);
* ``skipped``: not sent (no device to read, or the check ran out of time).

Nothing here writes or triggers: no scans, repairs, backups or cloud checks (the update
check ``/hub/cloud/checkForUpdate`` asks Hubitat's cloud, so it is left out).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .answers import looks_like_html
from .client import Expect, HubClient
from .dashboards import fetch_pin_token
from .errors import HubBadResponseError, HubError, HubNotFoundError, HubResponseTooLargeError
from .firmware import UNKNOWN_PLATFORM, platform_from
from .models import parse_device_tree

_LOGGER = logging.getLogger(__name__)

PROBE_TIMEOUT = 10.0
# Probes in flight at once (the client's own bound still applies on top).
PARALLEL = 2
_MAX_PROBLEMS = 8
_SEEN_DEPTH = 3
_SEEN_KEYS = 40

# ---------------------------------------------------------------------- shape specs


@dataclass(frozen=True, slots=True)
class Of:
    """A value of one of these JSON types (``"any"`` accepts everything)."""

    types: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Obj:
    """An object with ``required`` keys; ``optional`` keys are checked only when present."""

    required: Mapping[str, Spec] = field(default_factory=dict)
    optional: Mapping[str, Spec] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Arr:
    """An array whose every element matches ``item``."""

    item: Spec


@dataclass(frozen=True, slots=True)
class MapOf:
    """An object used as a map (keys are ids or names); every value matches ``value``."""

    value: Spec


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Any of these shapes (sources disagree: accept both)."""

    options: tuple[Spec, ...]


@dataclass(frozen=True, slots=True)
class Text:
    """A plain-text answer matching ``pattern`` (described as ``what``)."""

    pattern: str
    what: str


Spec = Of | Obj | Arr | MapOf | AnyOf | Text

ANY = Of(("any",))
STR = Of(("string",))
NUM = Of(("number",))
BOOL = Of(("boolean",))
ID = Of(("number", "string"))
OPT_STR = Of(("string", "null"))
SCALAR = Of(("string", "number", "boolean", "null"))


# bool before number: a bool is an int to Python
_JSON_TYPES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "boolean"),
    ((int, float), "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)


def json_type(value: Any) -> str:
    """The JSON type name of a decoded value."""
    if value is None:
        return "null"
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), "unknown")


def describe(spec: Spec) -> str:
    """A short name of what ``spec`` accepts."""
    if isinstance(spec, Of):
        return "|".join(spec.types)
    if isinstance(spec, Obj):
        return "object" + (f" with {', '.join(spec.required)}" if spec.required else "")
    if isinstance(spec, Arr):
        return f"array of {describe(spec.item)}"
    if isinstance(spec, MapOf):
        return f"map of {describe(spec.value)}"
    if isinstance(spec, AnyOf):
        return " or ".join(f"({describe(option)})" for option in spec.options)
    return f"text: {spec.what}"


def problems(spec: Spec, value: Any, at: str = "$") -> list[str]:
    """What differs between ``value`` and ``spec`` (paths and type names; never a value)."""
    seen = json_type(value)
    if isinstance(spec, Of):
        if "any" in spec.types or seen in spec.types:
            return []
        return [f"{at}: expected {describe(spec)}, seen {seen}"]
    if isinstance(spec, AnyOf):
        found = [problems(option, value, at) for option in spec.options]
        if any(not p for p in found):
            return []
        return [f"{at}: matches none of: {describe(spec)}; seen {seen}"]
    if isinstance(spec, Text):  # text specs apply to the whole answer, not inside JSON
        return [f"{at}: expected {describe(spec)}, seen {seen}"]
    if isinstance(spec, Arr):
        if not isinstance(value, list):
            return [f"{at}: expected {describe(spec)}, seen {seen}"]
        return _first_distinct(problems(spec.item, item, f"{at}[]") for item in value)
    if not isinstance(value, dict):
        return [f"{at}: expected {describe(spec)}, seen {seen}"]
    if isinstance(spec, MapOf):
        return _first_distinct(problems(spec.value, item, f"{at}{{*}}") for item in value.values())
    out: list[str] = []
    for key, sub in spec.required.items():
        if key not in value:
            out.append(f"{at}.{key}: missing (expected {describe(sub)})")
        else:
            out.extend(problems(sub, value[key], f"{at}.{key}"))
    for key, sub in spec.optional.items():
        if key in value:
            out.extend(problems(sub, value[key], f"{at}.{key}"))
    return _first_distinct([out])


def _first_distinct(groups: Any) -> list[str]:
    """The distinct problems of many elements, in order, at most ``_MAX_PROBLEMS``."""
    out: list[str] = []
    for group in groups:
        for problem in group:
            if problem not in out:
                out.append(problem)
                if len(out) >= _MAX_PROBLEMS:
                    return out
    return out


# Field names of the hub's JSON are lowerCamel; anything else may be data used as a key.
_FIELD_NAME = re.compile(r"[a-z_][A-Za-z0-9_]{0,40}")


def _strings(value: Any, out: set[str]) -> set[str]:
    """Every string value inside ``value`` (keys that equal one are data, not field names)."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    return out


def shape(value: Any, depth: int = _SEEN_DEPTH) -> Any:
    """The shape of ``value``: keys and JSON types, never a value.

    A key is shown only when it looks like one of the hub's field names and is not also a
    value somewhere in the answer; other keys (ids, labels, tokens used as keys) are counted
    instead. An array shows its first element; ``depth`` counts nested objects.
    """
    return _shape(value, depth, _strings(value, set()))


def _shape(value: Any, depth: int, values: set[str]) -> Any:
    if isinstance(value, list):
        return [_shape(value[0], depth, values)] if value else []
    if not isinstance(value, dict):
        return json_type(value)
    if depth <= 0:
        return "object"
    out: dict[str, Any] = {}
    hidden = 0
    first_hidden: Any = None
    for key, item in value.items():
        shown = isinstance(key, str) and _FIELD_NAME.fullmatch(key) and key not in values
        if shown and len(out) < _SEEN_KEYS:
            out[key] = _shape(item, depth - 1, values)
        else:
            if hidden == 0:
                first_hidden = item
            hidden += 1
    if hidden:
        out[f"<{hidden} other keys>"] = _shape(first_hidden, depth - 1, values)
    return out


# ---------------------------------------------------------------------- the probes

Params = Callable[[HubClient], Awaitable[dict[str, str]]]


@dataclass(frozen=True, slots=True)
class Probe:
    """One GET of an endpoint we depend on, and the shape we expect back."""

    endpoint: str  # as reported (``<id>`` for a filled-in segment)
    expect: Spec
    path: str | None = None  # when it differs from ``endpoint`` (filled in at run time)
    params: Params | None = None  # query parameters read first (secret values: never shown)
    maker: bool = False  # a Maker API path (relative to /apps/api/<id>/)
    note: str | None = None  # told with a missing answer (e.g. "404 on a C-4")


async def _dashboard_params(client: HubClient) -> dict[str, str]:
    return {"pinToken": await fetch_pin_token(client)}


_NODE = Obj(
    {"data": Obj({"id": ID}, {"name": OPT_STR, "label": OPT_STR, "currentStates": ANY})},
    {"children": Arr(Obj({"data": Obj({"id": ID})}))},
)
_CODE_ITEM = Obj({"id": ID, "name": STR}, {"namespace": OPT_STR})
_STATE_ENTRY = Obj({}, {"value": ANY, "dataType": OPT_STR})
_CURRENT_STATES = AnyOf((MapOf(_STATE_ENTRY), Arr(Obj({"key": STR}, {"value": ANY}))))
_DETAILS = Obj(
    {
        "hubUID": STR,
        "hubName": STR,
        "platformVersion": STR,
        "hardwareVersion": STR,
        # read back and re-sent whole by the location save
        "timeZone": OPT_STR,
        "latitude": SCALAR,
        "longitude": SCALAR,
        "zipCode": SCALAR,
        "tempScale": OPT_STR,
        "timeFormat": SCALAR,
        "dateFormat": OPT_STR,
        "ttsCurrent": OPT_STR,
        "mdnsName": OPT_STR,
    },
    {"ipAddress": OPT_STR, "macAddress": OPT_STR, "ttsVoices": Arr(STR)},
)

IDENTITY = Probe("/hub/details/json", _DETAILS)
DEVICES_LIST = Probe(
    "/hub2/devicesList",
    Obj({"devices": Arr(_NODE)}),
)
DEVICE_FULL = Probe(
    "/device/fullJson/<id>",
    Obj(
        {"device": Obj({"id": ID}, {"currentStates": _CURRENT_STATES, "label": OPT_STR})},
        {
            "commands": Arr(Obj({"name": STR})),
            "appsUsing": Arr(Obj({"id": ID})),
            # a string on the hub UI's reads, a number in the on-hub server fixtures
            "appsUsingCount": ID,
        },
    ),
)
# The Maker API read the config flow checks the token with (and mode changes go through).
MAKER_MODES = Probe(
    "/apps/api/<id>/modes",
    Arr(Obj({"id": ID, "name": STR, "active": BOOL})),
    path="modes",
    maker=True,
)

_FILE = Obj({"name": STR}, {"size": ID, "type": STR, "date": STR})

PROBES: tuple[Probe, ...] = (
    Probe(
        "/hub2/hubData",
        Obj(
            {"version": STR, "model": STR, "alerts": Obj()},
            {"safeMode": BOOL, "name": OPT_STR},
        ),
    ),
    Probe(
        "/device/listWithCapabilities/json",
        Arr(Obj({"id": ID, "capabilities": Arr(STR)}, {"label": OPT_STR})),
    ),
    Probe(
        "/hub2/roomsList",
        Obj({"roomNodes": Arr(Obj({"data": Obj({"id": ID, "name": STR})}, {"children": ANY}))}),
    ),
    Probe(
        "/modes/json",
        Obj({"modes": Arr(Obj({"id": ID, "name": STR})), "currentModeId": ID}),
    ),
    Probe(
        "/hub/messages",
        Obj(
            {"mode": AnyOf((Obj({"name": STR}), STR, Of(("null",)))), "hsm": OPT_STR},
            {"hsmAlert": ANY, "messages": Arr(ANY)},
        ),
    ),
    Probe("/hub2/appsList", Obj({"apps": Arr(Obj({"data": Obj({"id": ID, "name": STR})}))})),
    Probe("/hub2/userAppTypes", Arr(_CODE_ITEM)),
    Probe("/hub2/userDeviceTypes", Arr(_CODE_ITEM)),
    Probe(
        "/hub2/userLibraries",
        Arr(
            Obj(
                {"id": ID, "name": STR},
                {
                    # strings on the hub (on-hub server), lists in older samples: both are read
                    "usedByAppTypes": AnyOf((OPT_STR, Arr(ANY))),
                    "usedByDeviceTypes": AnyOf((OPT_STR, Arr(ANY))),
                },
            )
        ),
    ),
    Probe("/hub2/userBundles", Arr(Obj({"id": ID, "name": STR}))),
    Probe(
        "/device/drivers",
        Obj({"drivers": Arr(Obj({"id": ID, "name": STR}, {"type": STR}))}),
    ),
    Probe(
        "/hub/fileManager/json",
        # An object with the files (hub UI) or a bare array of them (on-hub server): both are read.
        AnyOf(
            (
                Obj({"files": Arr(_FILE)}, {"freeSpace": NUM}),
                Arr(_FILE),
            )
        ),
    ),
    Probe(
        "/hub2/localBackups",
        Arr(Obj({"name": STR}, {"createTime": OPT_STR, "size": ID})),
    ),
    Probe("/hub/backup/statusJson", Obj({"backupInProgress": BOOL})),
    Probe("/logs/past/json", Arr(STR)),
    Probe(
        "/logs/json",
        Obj({"deviceStats": Arr(Obj({"id": ID})), "appStats": Arr(Obj({"id": ID}))}),
    ),
    Probe(
        "/hub/zwaveDetails/json",
        Obj(
            {"enabled": BOOL},
            {
                # re-sent whole by the Z-Wave settings save
                "region": OPT_STR,
                "secureJoin": Of(("number", "boolean")),  # 0/1 on the hub UI's reads
                "firmwareVersion": OPT_STR,
                "nodes": Arr(Obj({"nodeId": ID})),
                "zwDevices": MapOf(ANY),
            },
        ),
    ),
    Probe(
        "/hub/zigbeeDetails/json",
        Obj(
            {"enabled": BOOL, "channel": ID},
            {"panId": OPT_STR, "devices": Arr(Obj({"id": ID}))},
        ),
    ),
    Probe(
        "/hub/matterDetails/json",
        Obj({"enabled": BOOL}, {"devices": Arr(Obj())}),
        note="hubs without Matter (C-5, C-7) answer 404",
    ),
    Probe(
        "/dashboard/all",
        Arr(AnyOf((Obj({"installedAppId": ID}), Obj({"id": ID})))),
        params=_dashboard_params,
        note="read with the pin token of /dashboard/select (also one GET)",
    ),
    Probe("/hub/advanced/freeOSMemory", Text(r"\s*\d+(?:\.\d+)?\s*", "a number (KB)")),
    Probe(
        "/hub/advanced/freeOSMemoryHistory",
        Text(r"(?s).*^\d[^\n]*,[^\n]*,[^\n]*$.*", "CSV rows: time, free OS, CPU, ..."),
    ),
    Probe(
        "/hub/cpuInfo",
        Text(r"(?s).*Processors\s+\d+.*Load Average\s+-?\d.*", "Processors N Load Average X"),
        note="a C-4 answers 404",
    ),
)

# ---------------------------------------------------------------------- running them


@dataclass(slots=True)
class _Result:
    """One probe's outcome (``answer`` stays in memory; it is never reported)."""

    entry: dict[str, Any]
    answer: Any = None


def _entry(probe: Probe, status: str, started: float, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"endpoint": probe.endpoint, "status": status}
    out.update({k: v for k, v in extra.items() if v is not None})
    if status == "missing" and probe.note:
        out["note"] = probe.note
    out["ms"] = round((time.monotonic() - started) * 1000)
    return out


_HTTP_STATUS = re.compile(r"\bHTTP (\d{3})\b")
_ERROR_TEXT = {
    "hub_timeout": "no answer within the probe's timeout",
    "hub_unreachable": "could not connect to the hub",
    "hub_auth": "the hub refused the login or token",
    "hub_busy": "the hub was busy: the request was not sent",
    "response_too_large": "the answer was larger than the client reads",
    "maker_api_required": "Maker API is not configured",
}


def _failure(err: HubError) -> tuple[str, str, str | None]:
    """(status, what was seen, error code) for a failed request (no hub text kept)."""
    if isinstance(err, HubNotFoundError):
        return "missing", "HTTP 404", None
    if isinstance(err, HubBadResponseError) and not isinstance(err, HubResponseTooLargeError):
        match = _HTTP_STATUS.search(str(err))
        if match and err.__cause__ is None:
            return "missing", f"HTTP {match.group(1)}", None
    return "error", _ERROR_TEXT.get(err.code, "the request failed"), err.code


async def _fetch(client: HubClient, probe: Probe, path: str, timeout: float) -> Any:
    if probe.maker:
        return await client.maker_get(path, timeout=timeout, retry=False)
    params = await probe.params(client) if probe.params is not None else None
    expect: Expect = "text" if isinstance(probe.expect, Text) else "any"
    return await client.request(
        "GET", path, params=params, expect=expect, timeout=timeout, retry=False
    )


def _judge(probe: Probe, answer: Any, started: float) -> dict[str, Any]:
    spec = probe.expect
    if isinstance(answer, str) and looks_like_html(answer):
        return _entry(probe, "missing", started, seen="an HTML page instead of an answer")
    if isinstance(spec, Text):
        text = answer if isinstance(answer, str) else json.dumps(answer)
        if re.fullmatch(spec.pattern, text, re.MULTILINE):
            return _entry(probe, "ok", started)
        lines = len(text.splitlines())
        return _entry(
            probe,
            "unexpected_shape",
            started,
            seen={"type": "text", "chars": len(text), "lines": lines},
            expected=[describe(spec)],
        )
    if isinstance(answer, str):
        seen = {"type": "text, not JSON", "chars": len(answer)}
        return _entry(probe, "unexpected_shape", started, seen=seen, expected=[describe(spec)])
    found = problems(spec, answer)
    if not found:
        return _entry(probe, "ok", started)
    return _entry(probe, "unexpected_shape", started, seen=shape(answer), expected=found)


async def run_probe(
    client: HubClient, probe: Probe, *, path: str | None = None, timeout: float = PROBE_TIMEOUT
) -> _Result:
    """Send one probe and judge its answer; never raises."""
    started = time.monotonic()
    try:
        async with asyncio.timeout(timeout + 1.0):
            answer = await _fetch(client, probe, path or probe.path or probe.endpoint, timeout)
    except TimeoutError:
        return _Result(_entry(probe, "error", started, seen=_ERROR_TEXT["hub_timeout"]))
    except HubError as err:
        status, seen, code = _failure(err)
        return _Result(_entry(probe, status, started, seen=seen, code=code))
    except Exception:  # the check reports every failure as its probe's status
        _LOGGER.exception("Compatibility probe %s failed", probe.endpoint)
        return _Result(_entry(probe, "error", started, seen="unexpected failure (see log)"))
    try:
        return _Result(_judge(probe, answer, started), answer)
    except Exception:  # a judging bug must not hide the other probes
        _LOGGER.exception("Compatibility probe %s could not be judged", probe.endpoint)
        return _Result(_entry(probe, "error", started, seen="could not judge the answer"))


def _skipped(probe: Probe, why: str) -> dict[str, Any]:
    return {"endpoint": probe.endpoint, "status": "skipped", "seen": why, "ms": 0}


def _first_device_id(answer: Any) -> str | None:
    try:
        devices = parse_device_tree(answer)
    except Exception:  # a reshaped tree: the device read is skipped, not the check
        return None
    return devices[0].id if devices else None


# Failures of the first request that every other one would repeat (and a refused login
# retried per request could lock the account): the rest is not sent.
_STOP_CODES = frozenset({"hub_auth", "hub_unreachable"})

STATUSES = ("ok", "unexpected_shape", "missing", "error", "skipped")


async def check_compatibility(
    client: HubClient,
    *,
    deadline: float | None = None,
    probe_timeout: float = PROBE_TIMEOUT,
) -> dict[str, Any]:
    """Send every probe once and report per endpoint; never raises.

    ``deadline`` (``time.monotonic()``) stops starting new probes once passed (they are
    reported ``skipped``); each probe has ``probe_timeout`` seconds.
    """
    sent_before = client.requests_sent
    gate = asyncio.Semaphore(PARALLEL)

    def timeout_left() -> float | None:
        if deadline is None:
            return probe_timeout
        left = deadline - time.monotonic()
        return min(probe_timeout, left) if left > 0.5 else None

    stop: list[str] = []  # why the rest is not sent (set when the first request shows it)

    async def one(probe: Probe, path: str | None = None) -> _Result:
        async with gate:
            if stop:
                return _Result(_skipped(probe, stop[0]))
            timeout = timeout_left()
            if timeout is None:
                return _Result(_skipped(probe, "not sent: the check ran out of time"))
            return await run_probe(client, probe, path=path, timeout=timeout)

    # identity first (it logs in and tells the firmware), then the device tree (its first
    # device is the one whose full detail is read), then everything else two at a time
    identity = await one(IDENTITY)
    if identity.entry.get("code") in _STOP_CODES:  # every other request would fail the same
        stop.append(f"not sent: {identity.entry['seen']} on the first request")
    if client.platform == UNKNOWN_PLATFORM and isinstance(identity.answer, dict):
        client.platform = platform_from(identity.answer)
    tree = await one(DEVICES_LIST)
    device_id = _first_device_id(tree.answer)

    async def device_full() -> _Result:
        if device_id is None:
            return _Result(_skipped(DEVICE_FULL, "not sent: no device id from /hub2/devicesList"))
        return await one(DEVICE_FULL, f"/device/fullJson/{device_id}")

    tasks: list[Awaitable[_Result]] = [device_full(), *(one(p) for p in PROBES)]
    if client.connection.has_maker:
        tasks.append(one(MAKER_MODES))
    rest = await asyncio.gather(*tasks)
    entries = [identity.entry, tree.entry, *(r.entry for r in rest)]
    summary = {status: sum(1 for e in entries if e["status"] == status) for status in STATUSES}
    summary["requests"] = client.requests_sent - sent_before
    report: dict[str, Any] = {
        "hub": client.platform.as_dict(),
        "hub_security": client.connection.has_security,
        "maker_api": client.connection.has_maker,
        "summary": summary,
        "endpoints": entries,
    }
    # keys are shown only when they look like field names; this catches the rest
    redacted: dict[str, Any] = json.loads(client.redact(json.dumps(report)))
    return redacted
