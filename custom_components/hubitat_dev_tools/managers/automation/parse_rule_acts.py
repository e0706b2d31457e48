"""The spec's actions on rules, on the hub and on devices as a whole: run, pause or resume
rules, set a private boolean, set HSM, exit the rule, a comment, capture and restore device
states, disable or enable devices, File Manager files, HTTP requests and ping (Rule Machine's
``rulesActs``, ``lockActs`` ``getSetHSM``, ``delayActs``, ``deviceActs``, ``modeActs`` and
``messageActs`` subtypes; the on-hub server's fields, see ``docs/rule-machine-pages.md``)."""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from ...hub.files import valid_file_name
from .parse_base import _bool, _device_id, _fail, _list, _text, _unknown
from .spec import DEFAULT_CONTENT_TYPE, HSM_COMMANDS, Action

_ID_RE = re.compile(r"^\d{1,12}$")
RULE_ACTION_KEYS = (
    "run_rule",
    "pause_rules",
    "resume_rules",
    "cancel_timers",
    "set_private_boolean",
    "set_hsm",
    "exit_rule",
    "comment",
    "capture",
    "restore",
    "disable_devices",
    "enable_devices",
    "write_file",
    "append_file",
    "delete_file",
    "http_get",
    "http_post",
    "ping",
)
URL_LIMIT, BODY_LIMIT = 1000, 4000
_MIME_RE = re.compile(r"^[a-z]+/[a-z0-9.+-]+(; *charset=[a-z0-9-]+)?$", re.I)
DEVICE_LIST_KINDS = ("capture", "disable_devices", "enable_devices")


def rule_ids(raw: Any, path: str, *, minimum: int = 1) -> tuple[str, ...]:
    """Rule app ids: one id, or a list of them."""
    items = (
        [raw]
        if isinstance(raw, str | int) and not isinstance(raw, bool)
        else _list(raw, path, minimum=minimum)
    )
    ids: list[str] = []
    for i, v in enumerate(items):
        text = str(v).strip()
        if not _ID_RE.match(text):
            raise _fail(f"{path}[{i}]", "must be a rule app id", "Give rule ids.", "rule_ids")
        if text not in ids:
            ids.append(text)
    return tuple(ids)


def _file_name(value: Any, path: str) -> str:
    name = _text(value, path, limit=100)
    if not valid_file_name(name):
        raise _fail(
            path,
            f"'{name}' is not a File Manager name",
            "Letters, digits, '.', '_' and '-', starting with a letter or digit; no folders.",
        )
    return name


def _url(value: Any, path: str) -> str:
    url = _text(value, path, limit=URL_LIMIT)  # a redacted one: refused before (patch.py)
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or re.search(r"\s", url)
    ):
        raise _fail(
            path,
            f"{url[:80]!r} is not an http:// or https:// URL with a host",
            "Write it in full, e.g. http://192.168.1.20/api/ping; no spaces "
            "(Rule Machine's %value% and %device% may appear in it).",
        )
    return url


def _ip(value: Any, path: str) -> str:
    text = _text(value, path, limit=45)
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise _fail(
            path, f"{text!r} is not an IP address", "Give the address, e.g. 192.168.1.20."
        ) from None


def _http_post(obj: dict[str, Any], path: str) -> Action:
    _unknown(obj, {"http_post", "body", "content_type"}, path)
    body = obj.get("body")
    if not isinstance(body, str) or not body.strip() or len(body) > BODY_LIMIT:
        raise _fail(
            f"{path}.body",
            f"must be the text the POST sends, 1 to {BODY_LIMIT} characters",
            'Give body, e.g. \'{"event":"%device% %value%"}\' with content_type application/json.',
        )
    kind = obj.get("content_type", DEFAULT_CONTENT_TYPE)
    if not isinstance(kind, str) or not _MIME_RE.match(kind.strip()):
        raise _fail(
            f"{path}.content_type",
            f"{kind!r} is not a content type",
            "e.g. application/json, text/plain or application/x-www-form-urlencoded.",
        )
    return Action(
        "http_post",
        text=_url(obj["http_post"], f"{path}.http_post"),
        value=body,
        content_type=kind.strip(),
    )


def parse_rule_action(kind: str, obj: dict[str, Any], path: str) -> Action:
    """One of :data:`RULE_ACTION_KEYS`."""
    if kind == "set_private_boolean":
        _unknown(obj, {kind, "rule_ids"}, path)
        value = _bool(obj[kind], f"{path}.{kind}")
        ids = rule_ids(obj["rule_ids"], f"{path}.rule_ids") if "rule_ids" in obj else ()
        return Action(kind, value=value, rule_ids=ids)
    if kind in ("write_file", "append_file"):
        _unknown(obj, {kind, "text"}, path)
        text = obj.get("text")
        if not isinstance(text, str) or len(text) > 2000:
            raise _fail(f"{path}.text", "must be text of at most 2000 characters", "Give text.")
        return Action(kind, text=_file_name(obj[kind], f"{path}.{kind}"), value=text)
    if kind == "http_post":
        return _http_post(obj, path)
    _unknown(obj, {kind}, path)
    if kind == "http_get":
        return Action(kind, text=_url(obj[kind], f"{path}.{kind}"))
    if kind == "ping":
        return Action(kind, text=_ip(obj[kind], f"{path}.{kind}"))
    if kind == "delete_file":
        return Action(kind, text=_file_name(obj[kind], f"{path}.{kind}"))
    if kind in ("run_rule", "pause_rules", "resume_rules", "cancel_timers"):
        return Action(kind, rule_ids=rule_ids(obj[kind], f"{path}.{kind}"))
    if kind == "set_hsm":
        command = obj[kind]
        if command not in HSM_COMMANDS:
            raise _fail(
                f"{path}.set_hsm",
                f"{command!r} is not an HSM command Rule Machine offers",
                "One of: " + ", ".join(HSM_COMMANDS) + " (armRules arms every HSM rule).",
            )
        return Action(kind, text=str(command))
    if kind in ("exit_rule", "restore"):
        if obj[kind] is not True:
            raise _fail(f"{path}.{kind}", "must be true", f"Write {kind}: true.")
        return Action(kind)
    if kind in DEVICE_LIST_KINDS:
        items = _list(obj[kind], f"{path}.{kind}", minimum=1)
        devices = [_device_id(v, f"{path}.{kind}[{i}]") for i, v in enumerate(items)]
        return Action(kind, device_ids=tuple(dict.fromkeys(devices)))
    return Action(kind, text=_text(obj[kind], f"{path}.{kind}", limit=200))
