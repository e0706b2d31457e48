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
  ``/device/createVirtual`` creates a device from it. Its type is read from the source as the
  hub's compiler reads the metadata (:func:`driver_source`): the ``definition`` block's
  ``capability`` lines (the emulator's known capabilities, with their standard commands and
  attributes), ``attribute "name", "type"[, [values]]`` and ``command "name"[, [types or
  [name:, type:, constraints:] maps]]`` declarations, and the ``preferences { input ... }``
  the driver declares INSTEAD of the built-in drivers' log preferences (a driver without
  inputs has none). The method bodies are what ``commands.py`` evaluates when a command runs.
  A device follows its driver's code: the admin routes re-read the type when the code changed.
* **Bundles**: ``uploadZipFromUrl`` only "downloads" URLs registered in ``DevState.bundle_urls``
  (the emulator has no internet) and answers ``{"success": bool, "message"}``;
  ``/bundle/deleteJson/<id>`` answers ``{"success", "message"}`` (``full=true`` also deletes
  the bundle's code).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from .capabilities import CAPABILITIES, AttrDef, CmdDef, Param
from .drivers import DriverSpec, Pref

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
    # lifecycle: how often Done ran updated(), and the code version installed()/updated() last
    # ran with (a user app's Apps Code version; None for built-in apps)
    updated_runs: int = 0
    ran_code_version: int | None = None


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
    # legacy dashboard request tokens minted by the dashboard page: token -> (dashboard id,
    # minted at, emulated clock); a token works once and only while younger than the TTL
    legacy_request_tokens: dict[str, tuple[int, datetime]] = field(default_factory=dict)
    legacy_token_ttl_s: float = 60.0
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
    label_ignored: bool = False  # knob: a settings submit's ``label`` (the app's name) is dropped

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
    """An installed driver as the device type ``/device/drivers`` lists (id = code id), its
    commands, attributes and preferences read from its source (:func:`driver_source`)."""
    parsed = driver_source(item.source)
    caps = parsed.capabilities or tuple(c for c in item.capabilities if c in CAPABILITIES)
    return DriverSpec(
        item.id,
        item.name,
        caps,
        namespace=item.namespace,
        type="usr",
        category="User",
        author=item.author,
        prefs=parsed.prefs,
        custom_commands=parsed.commands,
        custom_attributes=parsed.attributes,
        source=item.source,
    )


def user_driver(dev: DevState, type_id: int | str) -> DriverSpec | None:
    """The installed driver with this id as a device type, or None."""
    text = str(type_id)
    item = dev.code.get(("driver", int(text))) if text.isdigit() else None
    return user_driver_spec(item) if item is not None else None


class OnDriver(Protocol):
    """What runs on a driver (``model.Device``): its device type, which may be replaced."""

    driver: DriverSpec


def sync_user_driver(dev: DevState, device: OnDriver) -> None:
    """A device on an installed driver follows the driver's current code (the hub runs the
    saved code): re-read its type when the source, name or namespace changed. A deleted
    driver leaves the device on its last type."""
    spec = device.driver
    if spec.source is None:
        return  # a built-in driver
    item = dev.code.get(("driver", spec.id))
    if item is None:
        return
    if (item.source, item.name, item.namespace) != (spec.source, spec.name, spec.namespace):
        device.driver = user_driver_spec(item)


# ---------------------------------------------------------------------------- Groovy source
#
# A small reader of Groovy driver source: enough to read the metadata the hub's compiler
# reads (definition, capability/attribute/command declarations, preferences inputs) and to
# hand method bodies to the command evaluator (commands.py). It never raises on odd source:
# whatever it cannot read is left out.


@dataclass(frozen=True)
class Tok:
    kind: str  # str | gstr (a double-quoted string with ${...}) | num | id | op | nl
    text: str
    value: object = None


_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\f]+|\\\n)
  | (?P<nl>\n)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?(?:\*/|\Z))
  | (?P<tstr>\"\"\"(?:\\.|[^\\])*?(?:\"\"\"|\Z)|\'\'\'(?:\\.|[^\\])*?(?:\'\'\'|\Z))
  | (?P<dstr>"(?:\\.|[^"\\\n])*"?)
  | (?P<sstr>'(?:\\.|[^'\\\n])*'?)
  | (?P<num>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[GgLlDdFfIi]?)
  | (?P<id>[A-Za-z_$][\w$]*)
  | (?P<op>\?\.|\?:|==~|<=>|==|!=|<=|>=|&&|\|\||\+\+|--|\+=|-=|\*=|/=|->|\.\.|\*\*|.)
    """,
    re.S | re.X,
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "0": "\0"}


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body, flags=re.S)


def groovy_tokens(source: str) -> list[Tok]:
    """The tokens of a Groovy source (comments dropped, runs of newlines as one ``nl``)."""
    out: list[Tok] = []
    for m in _TOKEN_RE.finditer(source):
        kind = m.lastgroup or "op"
        text = m.group()
        if kind == "ws" or kind == "lcomment":
            continue
        if kind == "bcomment" or kind == "nl":
            if "\n" in text and out and out[-1].kind != "nl":
                out.append(Tok("nl", "\n"))
            continue
        if kind in ("tstr", "dstr", "sstr"):
            quote = 3 if kind == "tstr" else 1
            body = text[quote:-quote] if len(text) >= 2 * quote else text[quote:]
            dollar = text[0] == '"' and re.search(r"(?<!\\)\$", body) is not None
            out.append(Tok("gstr" if dollar else "str", text, body if dollar else _unescape(body)))
        elif kind == "num":
            digits = text.rstrip("GgLlDdFfIi")
            whole = "." not in digits and "e" not in digits.lower()
            out.append(Tok("num", text, int(digits) if whole else float(digits)))
        else:
            out.append(Tok(kind, text))
    return out


_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}


def closing(toks: list[Tok] | tuple[Tok, ...], i: int) -> int:
    """The index of the bracket closing ``toks[i]`` (or ``len(toks)`` when never closed)."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.kind != "op":
            continue
        if t.text in _OPEN:
            depth += 1
        elif t.text in _CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return len(toks)


def _skip_nl(toks: list[Tok] | tuple[Tok, ...], i: int) -> int:
    while i < len(toks) and toks[i].kind == "nl":
        i += 1
    return i


@dataclass(frozen=True)
class Raw:
    """A value the metadata reader cannot take literally (an expression), as source text."""

    text: str


def _split_commas(toks: list[Tok] | tuple[Tok, ...]) -> list[list[Tok]]:
    """Top-level comma-separated parts (newlines inside are dropped)."""
    parts: list[list[Tok]] = [[]]
    depth = 0
    for t in toks:
        if t.kind == "nl":
            continue
        if t.kind == "op" and t.text in _OPEN:
            depth += 1
        elif t.kind == "op" and t.text in _CLOSE:
            depth -= 1
        if depth == 0 and t.kind == "op" and t.text == ",":
            parts.append([])
            continue
        parts[-1].append(t)
    return [p for p in parts if p]


def _is_key(part: list[Tok]) -> bool:
    return (
        len(part) >= 2
        and part[0].kind in ("id", "str", "num")
        and part[1].kind == "op"
        and part[1].text == ":"
    )


def _key(tok: Tok) -> str:
    """A map key or argument name: ``name:``, ``"name":`` or ``1:``."""
    return tok.text if tok.kind == "id" else str(_text(tok.value) or tok.text)


def literal(toks: list[Tok] | tuple[Tok, ...]) -> object:
    """A Groovy literal (string, number, boolean, null, list, map) as a Python value; anything
    else is a :class:`Raw`."""
    toks = [t for t in toks if t.kind != "nl"]
    if not toks:
        return Raw("")
    first = toks[0]
    if len(toks) == 1:
        if first.kind in ("str", "num"):
            return first.value
        if first.kind == "gstr":
            return str(first.value)
        if first.kind == "id" and first.text in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[first.text]
    if len(toks) == 2 and first.text == "-" and toks[1].kind == "num":
        value = toks[1].value
        return -value if isinstance(value, (int, float)) else Raw("-" + toks[1].text)
    if first.text in ("(", "[") and closing(toks, 0) == len(toks) - 1:
        inner = toks[1:-1]
        if first.text == "(":
            return literal(inner)
        if len(inner) == 1 and inner[0].text == ":":
            return {}
        parts = _split_commas(inner)
        if parts and all(_is_key(p) for p in parts):
            return {_key(p[0]): literal(p[2:]) for p in parts}
        return [literal(p) for p in parts]
    return Raw(" ".join(t.text for t in toks))


def call_args(toks: list[Tok] | tuple[Tok, ...]) -> tuple[list[list[Tok]], dict[str, list[Tok]]]:
    """A call's arguments: positional parts and ``name: value`` parts (as tokens)."""
    positional: list[list[Tok]] = []
    named: dict[str, list[Tok]] = {}
    for part in _split_commas(toks):
        if _is_key(part):
            named[_key(part[0])] = part[2:]
        else:
            positional.append(part)
    return positional, named


def statement_args(toks: list[Tok], i: int) -> tuple[list[Tok], int]:
    """The argument tokens of a call at ``toks[i]`` (just after the called name): inside
    parentheses, or Groovy's parenthesis-free form up to the end of the line (a trailing comma
    continues it). Returns (tokens, index after them)."""
    if i < len(toks) and toks[i].kind == "op" and toks[i].text == "(":
        end = closing(toks, i)
        return toks[i + 1 : end], end + 1
    out: list[Tok] = []
    j = i
    while j < len(toks):
        t = toks[j]
        if t.kind == "op" and t.text in _OPEN:
            end = closing(toks, j)
            out.extend(toks[j : end + 1])
            j = end + 1
            continue
        if t.kind == "op" and (t.text in _CLOSE or t.text == ";"):
            break
        if t.kind == "nl":
            if out and out[-1].kind == "op" and out[-1].text == ",":
                j += 1
                continue
            break
        out.append(t)
        j += 1
    return out, j


def _block_after(toks: list[Tok], i: int) -> tuple[int, int] | None:
    """The ``{ ... }`` block starting at or after ``toks[i]`` (skipping a ``(...)`` argument
    list and newlines): (index of ``{``, index of ``}``), or None."""
    j = _skip_nl(toks, i)
    if j < len(toks) and toks[j].text == "(":
        j = _skip_nl(toks, closing(toks, j) + 1)
    if j < len(toks) and toks[j].kind == "op" and toks[j].text == "{":
        return j, closing(toks, j)
    return None


def _starts_statement(toks: list[Tok], i: int) -> bool:
    return i == 0 or toks[i - 1].kind == "nl" or toks[i - 1].text in ("{", "}", ";", ")")


# Hubitat's attribute types (``attribute "x", "number"``) as the dataType the hub reports
_ATTR_TYPES = {
    "number": "NUMBER",
    "string": "STRING",
    "enum": "ENUM",
    "json_object": "JSON_OBJECT",
    "date": "DATE",
    "vector3": "VECTOR3",
    "bool": "BOOL",
    "boolean": "BOOL",
}


def _text(value: object) -> str | None:
    if value is None or isinstance(value, (Raw, list, dict)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _strings(value: object) -> tuple[str, ...] | None:
    """Enum values / option keys: a list of strings, a list of one-entry maps or a map."""
    if isinstance(value, dict):
        return tuple(t for t in (_text(k) for k in value) if t is not None)
    if isinstance(value, list):
        out: list[str] = []
        for item in value:
            if isinstance(item, dict):
                out.extend(t for t in (_text(k) for k in item) if t is not None)
            elif (t := _text(item)) is not None:
                out.append(t)
        return tuple(out)
    return None


def _attribute(args: list[Tok]) -> AttrDef | None:
    positional, named = call_args(args)
    values = [literal(p) for p in positional]
    name = _text(values[0]) if values else _text(literal(named.get("name", [])))
    if not name:
        return None
    kind = _text(values[1]) if len(values) > 1 else None
    data_type = _ATTR_TYPES.get((kind or "string").lower(), (kind or "STRING").upper())
    enum = _strings(values[2]) if len(values) > 2 else None
    return AttrDef(name, data_type, enum if data_type == "ENUM" else None)


def _command(args: list[Tok]) -> CmdDef | None:
    positional, _named = call_args(args)
    values = [literal(p) for p in positional]
    name = _text(values[0]) if values else None
    if not name or not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
        return None
    params: list[Param] = []
    declared = values[1] if len(values) > 1 else []
    for item in declared if isinstance(declared, list) else []:
        if isinstance(item, dict):
            # [name: "level*", type: "NUMBER", description: ..., constraints: [...]]; the hub
            # keeps the name as written (its UI strips the trailing * that marks it required)
            ptype = (_text(item.get("type")) or "STRING").upper()
            constraints = _strings(item.get("constraints"))
            params.append(Param(_text(item.get("name")) or "", ptype, constraints or None))
        elif (ptype_text := _text(item)) is not None:
            # a bare type: a parameter without a name (the hub UI renders it by its type)
            params.append(Param("", ptype_text.upper()))
    return CmdDef(name, tuple(params))


_PREF_TYPES_DEFAULT = "text"


def _pref(args: list[Tok]) -> Pref | None:
    positional, named = call_args(args)
    values = [literal(p) for p in positional]
    fields = {k: literal(v) for k, v in named.items()}
    name = _text(fields.get("name")) or (_text(values[0]) if values else None)
    ptype = _text(fields.get("type")) or (_text(values[1]) if len(values) > 1 else None)
    if not name:
        return None
    default = fields.get("defaultValue")
    return Pref(
        name,
        ptype or _PREF_TYPES_DEFAULT,
        _text(fields.get("title")) or "",
        None if isinstance(default, (Raw, list, dict)) else default,
        _strings(fields.get("options")) if "options" in fields else None,
    )


# What ``/device/fullJson/<id>`` shows of a user driver's device type (rendered from the
# DriverSpec built here, like any other device). Evidence for the shape:
# * the hub's own device page (hub UI bundle ``vue-hub2.min.js``, firmware 2.5.0.143, in the
#   public repo kingpanther13/Hubitat-local-MCP-server, ``resources/hub2-source/``):
#   ``populateDeviceValues`` takes ``commands``, ``settings`` and ``inputValues`` from
#   fullJson; the Commands tab reads ``commands[].name``, ``.parameters[]`` ``{name, type,
#   description, constraints, defaultValue}`` and ``.relatedAttribute``; a parameter with no
#   ``name`` is rendered as a text box "Enter a <type>" (a type-only declaration such as
#   ``["NUMBER"]``), and a name ending in ``*`` marks the argument required (the UI strips
#   it: ``getCleanParamName``/``isRequired``); the Preferences tab renders one field per
#   ``settings[]`` entry ``{name, type, title, description, defaultValue, required, options,
#   multiple, range}`` by its type (bool, enum, number/decimal, password, text...), so a
#   device shows exactly its driver's inputs.
# * kingpanther13's ``libraries/mcp-devices-lib.groovy`` (an app on real hubs):
#   ``_fullJsonCommandArgs`` reads command arguments from ``parameters`` (typed maps) and/or
#   ``arguments`` (type tokens); ``_fullJsonCommandNames`` validates commands against
#   ``commands[].name``; its fixture ``fullJsonModel()`` has ``{capability, name, arguments,
#   parameters, relatedAttribute}`` (``docs/hub-endpoints.md``, ``/device/fullJson``).


@dataclass(frozen=True)
class DriverSource:
    """What the hub reads from a driver's source for its device type."""

    capabilities: tuple[str, ...] = ()
    attributes: tuple[AttrDef, ...] = ()
    commands: tuple[CmdDef, ...] = ()
    prefs: tuple[Pref, ...] = ()


def _declarations(toks: list[Tok]) -> tuple[int, int]:
    """Token range holding the declarations: the ``metadata { }`` block (real drivers declare
    attributes next to the ``definition`` block too), else the ``definition(...) { }`` block,
    else the whole source."""
    for name in ("metadata", "definition"):
        for i, t in enumerate(toks):
            if t.kind == "id" and t.text == name and (block := _block_after(toks, i + 1)):
                return block[0] + 1, block[1]
    return 0, len(toks)


@functools.lru_cache(maxsize=128)
def driver_source(source: str) -> DriverSource:
    """Read a driver's declarations as the hub does (never raises: odd source reads as less)."""
    try:
        return _driver_source(source)
    except (ValueError, IndexError, TypeError, RecursionError):
        return DriverSource()


def _driver_source(source: str) -> DriverSource:
    toks = groovy_tokens(source)
    start, end = _declarations(toks)
    caps: list[str] = []
    attrs: dict[str, AttrDef] = {}
    cmds: dict[str, CmdDef] = {}
    i = start
    while i < end:
        t = toks[i]
        if (
            t.kind == "id"
            and t.text in ("capability", "attribute", "command")
            and (_starts_statement(toks, i))
        ):
            args, nxt = statement_args(toks, i + 1)
            if t.text == "capability":
                cap = _text(literal(args[:1]) if args else None)
                name = (cap or "").replace(" ", "")
                if name in CAPABILITIES and name not in caps:
                    caps.append(name)
            elif t.text == "attribute":
                if (adef := _attribute(args)) is not None:
                    attrs.setdefault(adef.name, adef)
            elif (cdef := _command(args)) is not None:
                cmds.setdefault(cdef.name, cdef)
            i = max(nxt, i + 1)
            continue
        i += 1
    prefs: dict[str, Pref] = {}
    for i, t in enumerate(toks):
        if t.kind != "id" or t.text != "preferences" or not _starts_statement(toks, i):
            continue
        block = _block_after(toks, i + 1)
        if block is None:
            continue
        j = block[0] + 1
        while j < block[1]:
            u = toks[j]
            if u.kind == "id" and u.text == "input" and _starts_statement(toks, j):
                args, nxt = statement_args(toks, j + 1)
                if (pref := _pref(args)) is not None:
                    prefs.setdefault(pref.name, pref)
                j = max(nxt, j + 1)
                continue
            j += 1
    return DriverSource(
        tuple(caps), tuple(attrs.values()), tuple(cmds.values()), tuple(prefs.values())
    )


@dataclass(frozen=True)
class Method:
    """A method of a driver: its parameters (name, default-value tokens) and body tokens."""

    name: str
    params: tuple[tuple[str, tuple[Tok, ...]], ...]
    body: tuple[Tok, ...]


@functools.lru_cache(maxsize=128)
def driver_methods(source: str) -> dict[str, tuple[Method, ...]]:
    """The top-level ``def``/``void``/typed methods of a driver, by name (overloads kept)."""
    try:
        toks = groovy_tokens(source)
    except (ValueError, RecursionError):
        return {}
    out: dict[str, list[Method]] = {}
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "op" and t.text in _OPEN:
            i = closing(toks, i) + 1  # only top-level methods
            continue
        if (
            t.kind == "id"
            and i > 0
            and toks[i - 1].kind == "id"
            and i + 1 < len(toks)
            and toks[i + 1].text == "("
        ):
            end = closing(toks, i + 1)
            block = _block_after(toks, end + 1)
            if block is not None and block[0] == _skip_nl(toks, end + 1):
                params: list[tuple[str, tuple[Tok, ...]]] = []
                for part in _split_commas(toks[i + 2 : end]):
                    eq = next((k for k, p in enumerate(part) if p.text == "="), len(part))
                    names = [p for p in part[:eq] if p.kind == "id"]
                    if names:
                        params.append((names[-1].text, tuple(part[eq + 1 :])))
                body = tuple(toks[block[0] + 1 : block[1]])
                out.setdefault(t.text, []).append(Method(t.text, tuple(params), body))
                i = block[1] + 1
                continue
        i += 1
    return {k: tuple(v) for k, v in out.items()}


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
