"""One redaction module: secrets never leave the integration (results, logs, errors,
diagnostics, audit records, item backups).

Rules are value-aware, not only by key name:
- lock codes (the ``lockCodes`` attribute, a JSON string or an object of slots): slot
  numbers and names are kept, every other value of a slot is replaced;
- keys that name a secret (tokens, passwords, secrets, cookies, API keys, PINs) at any depth;
- typed inputs and preferences (``{"name", "type", "value"}`` shapes: app page inputs,
  driver preferences, hub snapshots): the value of a password-type one, or of one whose
  NAME is a secret (``clientSecret``), is replaced (:func:`redact_input` for callers that
  hold the type apart from the value);
- events and attribute records (``{"name": "lockCodes", "value": ...}``): the value by the
  attribute's rule, and the same value inside their description text;
- lock commands (``{"command": "setCode", "arguments": [slot, pin, name]}``): the PIN (all
  of the arguments when they come as one text or a mapping);
- free text that is known to carry values (log messages, event descriptions, error
  snippets): lock-code JSON, ``token=...``-style pairs and the secret parts of URLs
  (:func:`redact_text`);
- URLs a rule's HTTP actions call (``http_get``/``http_post`` in a rule spec, the rule page's
  ``httper`` input) and their POST bodies: a URL keeps its scheme, host and the words of its
  path; a password in it, the value of a query parameter named like a secret (``key``,
  ``token``, ``sig``...) and any opaque path segment or value (20+ characters mixing letters
  and digits: webhook keys, bot tokens) are replaced (:func:`redact_url`). A list under such
  a key (several URLs, bodies or lines) has each of its strings scrubbed the same way.

No Home Assistant import here: managers, the audit trail and the glue all use it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from datetime import tzinfo
from functools import lru_cache
from typing import Any

import orjson

from .hub.answers import redact_snippet
from .hub.client import loads
from .timestamps import iso_time, iso_times

REDACTED = "**REDACTED**"

# Key names whose value is a secret, whatever the value looks like.
# Matched against the key in snake case ("accessToken" -> "access_token").
SECRET_KEY = re.compile(
    r"(^|_)(token|password|passwd|pwd|secret|cookie|session_id|api_key|pin|passcode|"
    r"lock_code|hubsession|jsessionid)s?$"
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# Attributes that hold lock codes (slot -> {name, code}).
LOCK_CODE_ATTRIBUTES = frozenset({"lockcodes"})
# Input and preference types whose value is a secret.
SECRET_INPUT_TYPES = frozenset({"password"})


@lru_cache(maxsize=8192)
def is_secret_key(key: str) -> bool:
    """True when a key's name says its value is a secret (remembered per name: a result
    repeats the same few hundred keys)."""
    snake = _CAMEL.sub("_", key).replace("-", "_").replace(" ", "_").lower()
    return bool(key) and SECRET_KEY.search(snake) is not None


def redact_lock_codes(value: Any) -> Any:
    """Lock codes with every code replaced (slot numbers and names kept).

    Accepts the hub's JSON string form and the parsed object; anything that is not
    recognisably a slot map is replaced whole.
    """
    parsed = value
    if isinstance(value, str):
        try:
            parsed = loads(value) if value.strip() else {}
        except ValueError:
            return REDACTED if value.strip() else value
    if not isinstance(parsed, dict):
        return REDACTED
    out: dict[str, Any] = {}
    for slot, entry in parsed.items():
        if isinstance(entry, dict):
            # only the slot's name is kept: a driver may hold the code under any key
            # (``code``, ``lockCode``, ``codeValue``) or deeper (``{"data": {"code": ...}}``)
            out[str(slot)] = {
                k: (
                    v
                    if k.strip().lower() == "name" and not isinstance(v, dict | list)
                    else REDACTED
                )
                for k, v in entry.items()
            }
        else:
            out[str(slot)] = REDACTED
    if not isinstance(value, str):
        return out
    try:  # compact, as the hub writes it (its JSON encoder leaves out the spaces)
        return orjson.dumps(out).decode()
    except TypeError:  # what orjson cannot encode (an integer beyond 64 bits)
        return json.dumps(out, separators=(",", ":"))


def redact_input(input_type: str | None, value: Any) -> Any:
    """A typed input's value (app setting, driver preference): secret types replaced."""
    if input_type and input_type.lower() in SECRET_INPUT_TYPES and value not in (None, ""):
        return REDACTED
    return value


# Commands whose arguments carry a secret: command name -> argument positions.
SECRET_COMMAND_ARGS = {"setcode": (1,)}
# Keys whose string value is free text that may quote a value (log lines, descriptions,
# a rule's HTTP POST body: its spec key and its page input ``httpPostBody.<N>``).
TEXT_KEYS = frozenset(
    {"message", "msg", "description", "descriptiontext", "snippet", "data"}
    | {"ruletext", "rule_text"}  # a rule's page lines (an App Cloner export keeps them)
)
# Keys (before any ``.<N>``) whose string value is a rule's POST body (spec, page input).
BODY_KEYS = frozenset({"body", "httppostbody"})
# Keys (before any ``.<N>``) whose string value is a URL a rule calls (spec, page input),
# or one a tool downloads from (code, a backup to restore).
URL_KEYS = frozenset({"http_get", "http_post", "httper", "source_url"})
# Value keys of an input/preference/event record.
_VALUE_KEYS = ("value", "defaultValue", "currentValue")
# Keys of a secret input's record that carry its value (``sent``/``now``: an edit's report).
_SECRET_RECORD_KEYS = (*_VALUE_KEYS, "default", "sent", "now")
_CODE_IN_TEXT = re.compile(r'((?:\\?")(?:code|pin|passcode)(?:\\?")\s*:\s*(?:\\?"))([^"\\]*)')
_CODE_NUM_IN_TEXT = re.compile(r'((?:\\?")(?:code|pin|passcode)(?:\\?")\s*:\s*)(\d+)')
# A lock command written out in text ("Command called: setCode(3, 90817, Guest)", a
# command event's description): every argument after the slot is the code or its name.
# Everything after the slot, to the closing parenthesis (a name may hold one pair of its own:
# "Cleaner (Tue)") or, unclosed, to the end of the line. Possessive throughout: linear time
# on any text (these run on the event loop over log lines and hub answers).
_SET_CODE_IN_TEXT = re.compile(
    r"(\bsetCode\s*+\(\s*+[^,()\n]*+,)((?:[^()\n]|\([^()\n]*+\))*+)(\)?)", re.I
)
# ... and without parentheses ("setCode 3 9081 Guest", "setCode: 3,9081", the code on the
# next line): after a numeric slot, the rest of the code's line
_SET_CODE_LOOSE = re.compile(r"(\bsetCode\b[ \t:=]*+\d++[\s,]++)(?!\*\*REDACTED)[^\n]++", re.I)
# Invisible format characters (zero-width space, joiners, soft hyphen, byte order mark): taken
# out of text before the patterns above, so "set<zero-width space>Code(" is found too.
_FORMAT_CHARS = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")
# Keys a command record may hold its arguments under.
_ARGUMENT_KEYS = ("arguments", "args", "parameters")


# Query parameter names whose value is a credential, besides the secret key names.
_SECRET_QUERY = frozenset(
    {"key", "apikey", "auth", "authorization", "sig", "signature", "code", "access_token"}
    | {"user", "pass", "pwd", "userkey", "user_key", "appkey", "app_key"}
)
_JSON_PAIR = re.compile(r'("([^"\\]+)"\s*:\s*")((?:[^"\\]|\\.)*)(")')
# An opaque token: 20+ characters of a token's alphabet, mixing letters and digits.
_OPAQUE = re.compile(r"^(?=[^/]*\d)(?=[^/]*[A-Za-z])[A-Za-z0-9_\-:=+]{20,}$")
_URL_IN_TEXT = re.compile(r"https?://[^\s\"'<>]+", re.I)


def _opaque(part: str) -> bool:
    return bool(_OPAQUE.match(part)) and "%" not in part  # %value%: a Rule Machine word


def _redact_query(query: str) -> str:
    out: list[str] = []
    for pair in query.split("&"):
        name, eq, value = pair.partition("=")
        if (
            eq
            and value
            and (is_secret_key(name) or name.lower() in _SECRET_QUERY or _opaque(value))
        ):
            value = REDACTED
        elif not eq and _opaque(name):
            name = REDACTED
        out.append(f"{name}{eq}{value}")
    return "&".join(out)


def redact_url(url: str) -> str:
    """``url`` with its credentials replaced: a password (or a lone user token) before the
    host, query values named like secrets, and opaque path segments or values (see the
    module text). Scheme, host, port and the path's words are kept, so the owner still sees
    where it goes."""
    if not isinstance(url, str) or "://" not in url:
        return url
    scheme, _, rest = url.partition("://")
    cut = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0), default=-1)
    authority, tail = (rest, "") if cut < 0 else (rest[:cut], rest[cut:])
    if "@" in authority:
        user, _, host = authority.rpartition("@")
        name, colon, _pw = user.partition(":")
        authority = f"{name}:{REDACTED}@{host}" if colon else f"{REDACTED}@{host}"
    tail, hash_, fragment = tail.partition("#")
    path, q, query = tail.partition("?")
    segments = path.split("/")
    # a lock command in a path (a Maker API URL: ``.../devices/5/setCode/3,9081,Guest``): what
    # follows it is the code
    code_at = next(
        (i for i, seg in enumerate(segments) if _command_key(seg) in SECRET_COMMAND_ARGS), None
    )
    path = "/".join(
        REDACTED if _opaque(seg) or (code_at is not None and i > code_at) else seg
        for i, seg in enumerate(segments)
    )
    out = f"{scheme}://{authority}{path}"
    if q:
        out += "?" + _redact_query(query)
    if hash_:
        out += "#" + (_redact_query(fragment) if "=" in fragment else fragment)
    return out


def redact_body(text: str) -> str:
    """A POST body a rule sends: form fields (``a=b&c=d``) and JSON string members named
    like a credential, or holding an opaque token, replaced; then :func:`redact_text`."""
    if not isinstance(text, str) or not text:
        return text
    stripped = text.strip()
    if "=" in stripped and not stripped.startswith(("{", "[")) and " " not in stripped:
        text = _redact_query(stripped)
    else:

        def pair(m: re.Match[str]) -> str:
            name, value = m.group(2), m.group(3)
            secret = is_secret_key(name) or name.lower() in _SECRET_QUERY or _opaque(value)
            return m.group(1) + (REDACTED if secret and value else value) + m.group(4)

        text = _JSON_PAIR.sub(pair, text)
    return redact_text(text)


def redact_text(text: str) -> str:
    """Free text with quoted lock codes, ``token=...`` / ``password: ...`` pairs and the
    secret parts of URLs replaced (log messages, event descriptions, hub error snippets,
    rule text)."""
    if not text:
        return text
    text = _CODE_IN_TEXT.sub(lambda m: m.group(1) + REDACTED, text)
    text = _CODE_NUM_IN_TEXT.sub(lambda m: m.group(1) + f'"{REDACTED}"', text)
    if _FORMAT_CHARS.search(text):
        text = _FORMAT_CHARS.sub("", text)
    text = _SET_CODE_IN_TEXT.sub(lambda m: f"{m.group(1)} {REDACTED}{m.group(3)}", text)
    text = _SET_CODE_LOOSE.sub(lambda m: m.group(1) + REDACTED, text)
    if "://" in text:
        text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)
    return redact_snippet(text)  # the library's rule for token=/password: pairs


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str | list | dict) and not value)


@lru_cache(maxsize=4096)
def _record_scrub(name: str) -> Callable[[str], str] | None:
    """How a record named ``name`` has its text values scrubbed: as a URL, a POST body or
    free text (by the name before any ``.<N>``), or not at all."""
    base = name.lower().split(".", 1)[0]
    if base in URL_KEYS:
        return redact_url
    if base in BODY_KEYS:
        return redact_body
    return redact_text if base in TEXT_KEYS else None


def _record(value: dict[Any, Any], names: frozenset[str], zone: Any) -> dict[str, Any]:
    """An input, preference, event or command record with its secret values replaced."""
    out = _walk_items(value, names, zone)
    name = value.get("name")
    name = name if isinstance(name, str) else ""
    kind = value.get("type")
    if name.lower() in LOCK_CODE_ATTRIBUTES:
        for vk in _VALUE_KEYS:
            if vk in value:
                out[vk] = redact_lock_codes(_times(value[vk], zone))
    elif (
        (isinstance(kind, str) and kind.lower() in SECRET_INPUT_TYPES)
        or is_secret_key(name)
        or name in names
    ):
        for vk in _SECRET_RECORD_KEYS:
            if not _empty(value.get(vk)):
                out[vk] = REDACTED
    elif (scrub := _record_scrub(name)) is not None:
        for vk in _SECRET_RECORD_KEYS:
            if isinstance(value.get(vk), str | list | tuple):
                out[vk] = _scrubbed(value[vk], scrub, names, zone)
    command = value.get("command", name if not kind or str(kind).lower() == "command" else None)
    positions = SECRET_COMMAND_ARGS.get(_command_key(command), ())
    for key in _ARGUMENT_KEYS if positions else ():
        args = value.get(key)
        if isinstance(args, list | tuple):
            out[key] = [REDACTED if i in positions else a for i, a in enumerate(out[key])]
        elif not _empty(args):
            # arguments given as one text ("3,1234,Guest") or a mapping: where the secret
            # sits in it is not known, so none of it is kept
            out[key] = REDACTED
    return out


def _command_key(command: Any) -> str:
    """A command's name as looked up in ``SECRET_COMMAND_ARGS``: without spaces or
    invisible format characters, lower-cased, without a signature or an event's prefix
    ("setCode(NUMBER,STRING)", "command-setCode" and "setCode " with a zero-width space are
    setCode); a multiple-choice input's list gives its first item."""
    if isinstance(command, list | tuple) and command:
        command = command[0]
    if not isinstance(command, str):
        return ""
    key = "".join(c for c in command if not c.isspace() and unicodedata.category(c) != "Cf")
    return key.split("(", 1)[0].lower().removeprefix("command-")


def _scrubbed(value: Any, scrub: Callable[[str], str], names: frozenset[str], zone: Any) -> Any:
    """A string scrubbed (as a URL, a POST body or free text), and so every string in a list
    (a rule's several URLs, a list of log lines) or an object under such a key, at any depth
    (an object is walked first, so its own secret-named keys are replaced too)."""
    if isinstance(value, str):
        return scrub(_time(value, zone))
    if isinstance(value, list | tuple):
        return [_scrubbed(v, scrub, names, zone) for v in value]
    if isinstance(value, dict):
        return _scrub_leaves(_walk(value, "", names, zone), scrub)
    return value


def _scrub_leaves(value: Any, scrub: Callable[[str], str]) -> Any:
    """Every string in ``value`` (an object already walked) scrubbed."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {k: _scrub_leaves(v, scrub) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub_leaves(v, scrub) for v in value]
    return value


def secret_input_names(value: Any) -> frozenset[str]:
    """Names of the password-type inputs/preferences declared anywhere in ``value``."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            kind, name = node.get("type"), node.get("name")
            if isinstance(kind, str) and kind.lower() in SECRET_INPUT_TYPES and name:
                names.add(str(name))
            for v in node.values():
                walk(v)
        elif isinstance(node, list | tuple):
            for v in node:
                walk(v)

    walk(value)
    return frozenset(names)


# A Rule Machine custom action's command (``cCmd.<action>``) and its parameter values
# (``cpVal<n>.<action>``), as docs/rule-machine-pages.md names them (the hub UI page fields).
_CUSTOM_COMMAND = re.compile(r"^cCmd\.(\d+)$")
_CUSTOM_PARAMETER = re.compile(r"^cpVal\d*\.(\d+)$")


def lock_command_parameter_names(value: Any) -> frozenset[str]:
    """The names of the parameter inputs of a rule's custom actions that call ``setCode``
    (their values are the code), wherever ``value`` holds its inputs: as records
    (``{"name": "cCmd.3", "value": "setCode"}``) or as a settings map."""
    pairs: list[tuple[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("name"), str):
                pairs.append((node["name"], node.get("value")))
            for k, v in node.items():
                if isinstance(k, str) and not isinstance(v, dict):
                    pairs.append((k, v))
                walk(v)
        elif isinstance(node, list | tuple):
            for v in node:
                walk(v)

    walk(value)
    actions = {
        m.group(1)
        for name, v in pairs
        if (m := _CUSTOM_COMMAND.match(name)) and _command_key(v) in SECRET_COMMAND_ARGS
    }
    if not actions:
        return frozenset()
    return frozenset(
        name for name, _v in pairs if (m := _CUSTOM_PARAMETER.match(name)) and m.group(1) in actions
    )


def redact_document(value: Any, *, types_from: Any = None) -> Any:
    """:func:`redact` for a whole app page, snapshot or export: a setting is also replaced
    wherever it appears by name (``settings: {name: value}`` maps, ``{name, sent, now}``
    records) when the document (or ``types_from``, the raw page it was built from)
    declares it password-type."""
    names = (
        secret_input_names(value)
        | secret_input_names(types_from)
        | lock_command_parameter_names(value)
        | lock_command_parameter_names(types_from)
    )
    out = _walk(value, "", names)
    # the same secret quoted elsewhere (a Maker API page shows URLs with its token)
    found = _secret_values(value, names) | _secret_values(types_from, names)
    return _scrub(out, sorted(found, key=len, reverse=True)) if found else out


# Secrets shorter than this are not searched for in other strings (too many false hits).
_MIN_SCRUB_CHARS = 6


def _secret_values(value: Any, names: frozenset[str]) -> set[str]:
    """The string values :func:`_walk` replaces in ``value`` (to find them quoted elsewhere)."""
    found: set[str] = set()

    def walk(node: Any, key: str = "") -> None:
        if isinstance(node, dict):
            name = node.get("name")
            kind = node.get("type")
            secret_record = isinstance(name, str) and (
                is_secret_key(name)
                or name in names
                or (isinstance(kind, str) and kind.lower() in SECRET_INPUT_TYPES)
            )
            for k, v in node.items():
                if secret_record and k in _SECRET_RECORD_KEYS and isinstance(v, str):
                    found.add(v)
                walk(v, str(k))
        elif isinstance(node, list | tuple):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key and (is_secret_key(key) or key in names):
            found.add(node)

    walk(value)
    return {v for v in found if len(v) >= _MIN_SCRUB_CHARS and v != REDACTED}


def _scrub(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, REDACTED)
        return value
    if isinstance(value, dict):
        return {k: _scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, secrets) for v in value]
    return value


def redact(value: Any, key: str = "") -> Any:
    """A copy of ``value`` with every secret replaced, at any depth.

    ``key`` is the name the value is found under (attribute names count: ``lockCodes``).
    """
    return _walk(value, key, frozenset())


def redact_with_times(value: Any, zone: tzinfo | None) -> Any:
    """``redact(iso_times(value, zone))`` in one walk: every secret replaced and every hub
    timestamp in ISO 8601 with the hub's offset (``timestamps.iso_times``), for a JSON value
    as a tool answers it. One walk less over every answer, with the same result (a test
    compares the two)."""
    return _walk(value, "", frozenset(), zone)


# ``zone`` in the walk below: leave timestamps as they are (``redact``), or a time zone (or
# None, when the hub's is unknown) to write them in the one format on the way.
_KEEP_TIMES: Any = object()


def _time(value: str, zone: Any) -> str:
    """One string as ``iso_times`` leaves it (as it is, when timestamps are kept). The
    first test is ``iso_time``'s own quick one, made here to spare the call: most text is
    not a timestamp."""
    if zone is _KEEP_TIMES or not 16 <= len(value) <= 40 or value[4] != "-":
        return value
    return iso_time(value, zone)


def _times(value: Any, zone: Any) -> Any:
    return value if zone is _KEEP_TIMES else iso_times(value, zone)


def redact_by_key(mapping: dict[str, Any]) -> dict[str, Any]:
    """``{k: redact(v, k)}`` for a mapping of named values (a device's states), answered
    as the same mapping when nothing in it is secret (the common case: no copy)."""
    out: dict[str, Any] | None = None
    for key, value in mapping.items():
        if type(value) in _LEAVES and (key in _PLAIN_KEYS or _plain(key)):
            continue  # what ``redact`` answers for it: the value itself
        shown = _walk(value, key, frozenset())
        if shown is not value:
            if out is None:
                out = dict(mapping)
            out[key] = shown
    return mapping if out is None else out


# What a key's name says of its value, worked out once per name (see ``_walk``).
_PLAIN, _LOCK_CODES, _SECRET = 0, 1, 2


@lru_cache(maxsize=8192)
def _key_rule(key: str) -> tuple[int, Callable[[str], str] | None]:
    """(kind, scrubber for its text) for a key: lock codes, a secret name, or plain; free
    text, a URL or a POST body (a string, or each string of a list)."""
    lowered = key.lower()
    if lowered in LOCK_CODE_ATTRIBUTES:
        return _LOCK_CODES, None
    kind = _SECRET if is_secret_key(key) else _PLAIN
    base = lowered.split(".", 1)[0]
    scrub: Callable[[str], str] | None = (
        redact_text
        if lowered in TEXT_KEYS or base in TEXT_KEYS
        else redact_url
        if base in URL_KEYS
        else redact_body
        if base in BODY_KEYS
        else None
    )
    return kind, scrub


_PLAIN_RULE = (_PLAIN, None)
# Keys found plain so far (a set lookup is a quarter of the cached rule's call and compare).
_PLAIN_KEYS: set[str] = set()


def _plain(key: str) -> bool:
    """Whether a key is plain (no secret, lock codes or text to scrub), remembered."""
    if _key_rule(key) != _PLAIN_RULE:
        return False
    if len(_PLAIN_KEYS) < 8192:
        _PLAIN_KEYS.add(key)
    return True


_LEAVES = frozenset({str, int, float, bool, type(None)})


def _walk_items(value: dict[Any, Any], names: frozenset[str], zone: Any) -> dict[str, Any]:
    """A dict's items through ``_walk``; a plain key's number, text or null is kept as it
    is without the call (what ``_walk`` would answer: most of a result's values)."""
    out: dict[str, Any] = {}
    for k, v in value.items():
        key = k if type(k) is str else str(k)
        if type(v) in _LEAVES and (key in _PLAIN_KEYS or _plain(key)) and key not in names:
            # ``_time`` inlined (most values: short text or a number)
            if type(v) is str and zone is not _KEEP_TIMES and 16 <= len(v) <= 40 and v[4] == "-":
                v = iso_time(v, zone)
            out[key] = v
        else:
            out[key] = _walk(v, key, names, zone)
    return out


def _walk(value: Any, key: str, names: frozenset[str], zone: Any = _KEEP_TIMES) -> Any:
    if key:
        kind, scrub = _key_rule(key)
        if kind == _LOCK_CODES:
            return redact_lock_codes(_times(value, zone))
        if (kind == _SECRET or key in names) and not _empty(value):
            return REDACTED
        if scrub is not None and isinstance(value, str | list | tuple | dict):
            return _scrubbed(value, scrub, names, zone)
    if isinstance(value, dict):
        if "name" in value or "command" in value:
            return _record(value, names, zone)
        return _walk_items(value, names, zone)
    if isinstance(value, list | tuple):
        # an item under no key: text is only rewritten if a timestamp, a number or null
        # comes back as it is (a lock-code key answered above, with its whole value)
        return [
            v
            if type(v) in _LEAVES and (type(v) is not str or len(v) < 16)
            else _time(v, zone)
            if type(v) is str
            else _walk(v, "", names, zone)
            for v in value
        ]
    return _time(value, zone) if type(value) is str else value


def strip_redacted(value: Any) -> tuple[Any, list[str]]:
    """A copy of a document to send back to the hub with every redacted value of an input
    record left out (the hub keeps the input unset instead of storing the placeholder);
    and the names of those inputs, to be entered again."""
    names: list[str] = []

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: walk(v) for k, v in node.items()}
            # a value redacted in part (a rule URL's token) is no more usable than a whole one
            dropped = [
                k for k in _SECRET_RECORD_KEYS if isinstance(out.get(k), str) and REDACTED in out[k]
            ]
            if dropped and "name" in out:
                names.append(str(out["name"]))
                for k in dropped:
                    del out[k]
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(value), names


# Tool arguments whose values are typed by the hub, not by the call (driver preferences,
# app settings): the call does not say which is a password, so none of their values is kept.
TYPED_VALUE_ARGS = ("preferences", "settings")


def _last_key(path: Any) -> str:
    """A JSON Pointer's last key (``/actions/0/http_get`` → ``http_get``; an index: "")."""
    last = str(path or "").rsplit("/", 1)[-1]
    return "" if last.isdigit() or last == "-" else last


def redact_arguments(args: dict[str, Any]) -> dict[str, Any]:
    """A tool call's arguments as they may be recorded (audit trail, diagnostics): redacted,
    and the values of typed-value arguments replaced (their names kept)."""
    out: dict[str, Any] = redact(args)
    patch = args.get("patch")
    if isinstance(patch, list):  # a JSON Patch value is redacted as what its path names
        out["patch"] = [
            {**op, "value": _walk(op["value"], _last_key(op.get("path")), frozenset())}
            if isinstance(op, dict) and "value" in op
            else op
            for op in out["patch"]
        ]
    for key in TYPED_VALUE_ARGS:
        value = out.get(key)
        if isinstance(value, dict):
            out[key] = dict.fromkeys(value, REDACTED)
        elif isinstance(value, list):
            out[key] = [
                {**v, "value": REDACTED} if isinstance(v, dict) and "value" in v else v
                for v in value
            ]
    return out
