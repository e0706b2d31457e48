"""One redaction module: secrets never leave the integration (results, logs, errors,
diagnostics, audit records, item backups).

Rules are value-aware, not only by key name:
- lock codes (the ``lockCodes`` attribute, a JSON string or an object of slots): slot
  numbers and names are kept, every code is replaced;
- keys that name a secret (tokens, passwords, secrets, cookies, API keys, PINs) at any depth;
- (callers add more specific rules through :func:`redact_input` for typed inputs such as
  password-type app settings and driver preferences).

No Home Assistant import here: managers, the audit trail and the glue all use it.
"""

from __future__ import annotations

import json
import re
from typing import Any

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


def is_secret_key(key: str) -> bool:
    """True when a key's name says its value is a secret."""
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
            parsed = json.loads(value) if value.strip() else {}
        except ValueError:
            return REDACTED if value.strip() else value
    if not isinstance(parsed, dict):
        return REDACTED
    out: dict[str, Any] = {}
    for slot, entry in parsed.items():
        if isinstance(entry, dict):
            out[str(slot)] = {
                k: (REDACTED if k.lower() in ("code", "pin", "passcode") else v)
                for k, v in entry.items()
            }
        else:
            out[str(slot)] = REDACTED
    return json.dumps(out) if isinstance(value, str) else out


def redact_input(input_type: str | None, value: Any) -> Any:
    """A typed input's value (app setting, driver preference): secret types replaced."""
    if input_type and input_type.lower() in SECRET_INPUT_TYPES and value not in (None, ""):
        return REDACTED
    return value


def redact(value: Any, key: str = "") -> Any:
    """A copy of ``value`` with every secret replaced, at any depth.

    ``key`` is the name the value is found under (attribute names count: ``lockCodes``).
    """
    if key:
        if key.lower() in LOCK_CODE_ATTRIBUTES:
            return redact_lock_codes(value)
        if is_secret_key(key) and value not in (None, "", [], {}):
            return REDACTED
    if isinstance(value, dict):
        return {k: redact(v, str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact(v, key if key.lower() in LOCK_CODE_ATTRIBUTES else "") for v in value]
    return value
