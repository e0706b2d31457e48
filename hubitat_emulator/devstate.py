"""Development-domain state of the emulated hub: code, app internals, rules, dashboards.

Kept apart from ``model.py`` so the shared model only gains one field (``HomeState.dev``).
``seed_dev`` builds the seeded code, apps, rules and dashboards.

Behaviour decisions where the reference is silent (tests pin them):

* **Compile**: a save is compiled by a tiny checker: a UTF-8 BOM or a non-JSON body gives
  ``Unknown error occurred``; unbalanced braces/parentheses give a Groovy-style
  ``startup failed`` message naming the line and column; apps/drivers need
  ``definition(name: ..., namespace: ...)``, libraries ``library(name: ..., namespace: ...)``;
  ``#include ns.Name`` must name an installed library. Messages ride verbatim in ``message``.
* **Version conflict**: an update whose ``version`` differs from the stored one answers
  ``{"success": false, "message": "Version mismatch: ..."}``; every successful save bumps the
  version by one and answers ``{"success": true, "id", "version", "message": null}``.
* **Saving by firmware**: ``saveOrUpdateJson`` answers on every version; the legacy forms
  ``/<kind>/save`` (create: a redirect to ``/<kind>/editor/<id>``, or the form page with the
  compiler's message in its alert box) and ``/<kind>/ajax/update`` (``{"status": "success"}``
  or ``{"status": "error", "errorMessage"}``) exist for apps and drivers; on 2.5 and newer
  ``/<kind>/save`` answers its page and creates nothing.
* **Deleting code**: apps (``deleteJson``, and the older ``deleteJsonSafe``) and drivers answer
  ``{"status": "true"}`` (a string) or ``{"status": "error", "errorMessage": ...}`` while
  instances or devices use the code; libraries answer ``{"success", "message"}`` and are
  deleted even when included (the editor checks that before it asks).
  ``delete_answers_failure`` / ``delete_ignored`` make the answer lie (bundles too).
* **RM**: the compiled ``broken`` flag of a rule with a deleted device stays ``false`` until its
  configure page is rendered (the lag the reference describes); ``Run Actions`` is the rule
  page's ``runRuleAct`` button, ``pausRule`` and ``stopRule`` are toggles.
* **User drivers as device types**: every installed driver is also a device type of the
  hub's ``/device/drivers`` list (``type: "usr"``, the same id as its code), and
  ``/device/createVirtual`` creates a device from it; its capabilities are the source's
  ``capability "..."`` lines.
* **Bundles**: ``uploadZipFromUrl`` only "downloads" URLs registered in ``DevState.bundle_urls``
  (the emulator has no internet) and answers ``{"success": bool, "message"}``;
  ``/bundle/deleteJson/<id>`` answers ``{"success", "message"}`` (``full=true`` also deletes
  the bundle's code).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .drivers import DriverSpec

if TYPE_CHECKING:
    pass

APP_VRB = 40
APP_HPM = 210
APP_ANNOUNCER = 200
VRB_PORCH = 170
CODE_APP_ANNOUNCER = 1
CODE_APP_REPORT = 2
CODE_APP_HPM = 3
CODE_DRIVER_PLUG = 1
CODE_DRIVER_SPARE = 2
CODE_LIB_UTILS = 1
BUNDLE_HPM = 1


@dataclass
class CodeItem:
    id: int
    kind: str  # app | driver | library
    name: str
    namespace: str
    source: str
    version: int = 1
    modified: datetime | None = None
    author: str = ""
    description: str = ""
    oauth: bool = False
    capabilities: list[str] = field(default_factory=list)
    # OAuth on app code (routes_code_oauth): the client id the listing's detail shows and
    # the secret the hub generates (only ever here, in the emulator)
    oauth_client_id: str = ""
    oauth_client_secret: str = ""


@dataclass
class Bundle:
    id: int
    name: str
    namespace: str
    private: bool = False
    apps: list[str] = field(default_factory=list)
    drivers: list[str] = field(default_factory=list)
    libraries: list[str] = field(default_factory=list)

    def content(self) -> str:
        return (
            f"apps [{', '.join(self.apps)}], drivers [{', '.join(self.drivers)}], "
            f"libraries [{', '.join(self.libraries)}]"
        )


@dataclass
class AppInternals:
    """What configure/json and statusJson show for one installed app."""

    page_title: str
    inputs: list[dict[str, Any]] = field(default_factory=list)
    paragraphs: list[str] = field(default_factory=list)
    buttons: list[dict[str, Any]] = field(default_factory=list)  # name, title[, submitOnChange]
    state: dict[str, Any] = field(default_factory=dict)
    subscriptions: list[str] = field(default_factory=list)
    version: int = 1
    runs: int = 0


@dataclass
class DevState:
    code: dict[tuple[str, int], CodeItem] = field(default_factory=dict)
    next_code_id: dict[str, int] = field(default_factory=dict)
    bundles: dict[int, Bundle] = field(default_factory=dict)
    bundle_urls: dict[str, Bundle] = field(default_factory=dict)
    internals: dict[int, AppInternals] = field(default_factory=dict)
    vrb: dict[int, dict[str, Any]] = field(default_factory=dict)
    # graph-format Visual Rules (the 2.0 editor): {name, rulePaused, ruleJson, validationErrors}
    vrb_graph: dict[int, dict[str, Any]] = field(default_factory=dict)
    broken_pending: set[int] = field(default_factory=set)
    easy_dashboards: dict[int, dict[str, Any]] = field(default_factory=dict)
    layouts: dict[int, dict[str, Any]] = field(default_factory=dict)
    pin_token: str = "pin-7f3a9c"
    # dashboard knobs (routes_dashboards): the create answer instead of {"success", "id"};
    # False: create/update/delete and layout saves answer as usual and change nothing
    dash_create_answer: dict[str, Any] | None = None
    dash_writes_apply: bool = True
    next_app_id: int = 300
    # Fault knobs for code and bundle deletes (tests set them): the hub answers failure
    # although it deleted / answers success although it kept the item.
    delete_answers_failure: bool = False
    delete_ignored: bool = False
    # OAuth knobs (routes_code_oauth): the hub refuses with this message / answers success
    # and changes nothing
    oauth_refusal: str | None = None
    oauth_ignored: bool = False
    # every /installedapp/btn form as posted (tests check what a click sends)
    clicks: list[dict[str, str]] = field(default_factory=list)
    # new app instances whose page's Done was not submitted yet (app_types.py); knob:
    # Done answers success and leaves the instance pending
    pending: set[int] = field(default_factory=set)
    done_ignored: bool = False

    def items(self, kind: str) -> list[CodeItem]:
        return sorted((c for (k, _i), c in self.code.items() if k == kind), key=lambda c: c.id)

    def add_code(self, item: CodeItem) -> CodeItem:
        self.code[(item.kind, item.id)] = item
        self.next_code_id[item.kind] = max(self.next_code_id.get(item.kind, 1), item.id + 1)
        return item

    def alloc_code_id(self, kind: str) -> int:
        n = self.next_code_id.get(kind, 1)
        self.next_code_id[kind] = n + 1
        return n

    def alloc_app_id(self) -> int:
        n = self.next_app_id
        self.next_app_id += 1
        return n


def user_driver_spec(item: CodeItem) -> DriverSpec:
    """An installed driver as the device type ``/device/drivers`` lists (id = code id)."""
    return DriverSpec(
        item.id,
        item.name,
        tuple(item.capabilities),
        namespace=item.namespace,
        type="usr",
        category="User",
        author=item.author,
    )


def user_driver(dev: DevState, type_id: int | str) -> DriverSpec | None:
    """The installed driver with this id as a device type, or None."""
    text = str(type_id)
    item = dev.code.get(("driver", int(text))) if text.isdigit() else None
    return user_driver_spec(item) if item is not None else None


# ---------------------------------------------------------------------------- compile

_CAPABILITY_RE = re.compile(r"""^\s*capability\s+["']([^"']+)["']""", re.M)


def source_capabilities(source: str) -> list[str]:
    """The ``capability "Temperature Measurement"`` lines of a driver, as type names."""
    return [m.group(1).replace(" ", "") for m in _CAPABILITY_RE.finditer(source)]


_DEF_RE = re.compile(r"\b(definition|library)\s*\(([^)]*)\)", re.S)
_KV_RE = re.compile(r"(\w+)\s*:\s*\"([^\"]*)\"")
_INCLUDE_RE = re.compile(r"^\s*#include\s+([\w.]+)\s*$", re.M)


def _balance_error(source: str) -> str | None:
    pairs = {"}": "{", ")": "("}
    stack: list[tuple[str, int, int]] = []
    for lineno, line in enumerate(source.split("\n"), start=1):
        quote: str | None = None
        col = 0
        while col < len(line):
            ch = line[col]
            if quote:
                if ch == "\\":
                    col += 2
                    continue
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif line.startswith("//", col):
                break
            elif ch in "{(":
                stack.append((ch, lineno, col + 1))
            elif ch in "})":
                if not stack or stack[-1][0] != pairs[ch]:
                    return (
                        f"startup failed:\nScript1.groovy: {lineno}: Unexpected input: '{ch}' "
                        f"@ line {lineno}, column {col + 1}.\n1 error\n"
                    )
                stack.pop()
            col += 1
    if stack:
        ch, lineno, col = stack[-1]
        last = source.count("\n") + 1
        return (
            f"startup failed:\nScript1.groovy: {last}: Unexpected input: '{ch}' opened at line "
            f"{lineno}, column {col} is never closed @ line {last}, column 1.\n1 error\n"
        )
    return None


def compile_source(dev: DevState, kind: str, source: str) -> tuple[str | None, dict[str, str]]:
    """Return (error message or None, metadata {name, namespace, author, description})."""
    if source.startswith("\ufeff") or not source.strip():
        return "Unknown error occurred", {}
    err = _balance_error(source)
    if err:
        return err, {}
    want = "library" if kind == "library" else "definition"
    meta: dict[str, str] = {}
    for m in _DEF_RE.finditer(source):
        if m.group(1) == want:
            meta = dict(_KV_RE.findall(m.group(2)))
            break
    if not meta.get("name") or not meta.get("namespace"):
        return (
            f'Metadata Error: no {want}(name: "...", namespace: "...") found. '
            f"Please add a {want}() with a name and namespace.",
            {},
        )
    libs = {f"{c.namespace}.{c.name}" for c in dev.items("library")}
    for m in _INCLUDE_RE.finditer(source):
        if m.group(1) not in libs:
            line = source[: m.start()].count("\n") + 1
            return f"Library {m.group(1)} not found (line {line})", {}
    return None, meta
