"""What the hub answers: its failure envelope, its login form, and secrets its text may echo.

Pure functions over answers already read, shared by the client and the endpoint modules.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import HubRefusedError, failure_reason


def header(headers: dict[str, str], name: str) -> str:
    """A response header by case-insensitive name ("" if absent)."""
    wanted = name.lower()
    return next((v for k, v in headers.items() if k.lower() == wanted), "")


def looks_like_html(text: str) -> bool:
    head = text.lstrip()[:200].lower()
    return head.startswith("<!doctype") or head.startswith("<html") or "<form" in head


_LOGIN_FORM = re.compile(r"<form\b[^>]*\baction\s*=\s*[\"']?[^\"'>]*/login\b", re.IGNORECASE)
_PASSWORD_INPUT = re.compile(r"<input\b[^>]*\bname\s*=\s*[\"']?password\b", re.IGNORECASE)


def is_login_form(text: str) -> bool:
    """True for the hub's Hub Security login page: HTML with a form posting to ``/login``
    that has a password field. Any other HTML (an error page, a user's ``.html`` file) is not.
    """
    head = text[:16384]
    return (
        looks_like_html(head)
        and bool(_LOGIN_FORM.search(head))
        and bool(_PASSWORD_INPUT.search(head))
    )


# What the hub's login page says after a failed login (evidence: the hub's own page).
LOGIN_REJECTED_TEXT = "The login information you supplied was incorrect"


def is_login_rejected(text: str) -> bool:
    """True for the hub's answer to a rejected ``POST /login``: its page saying the login
    information was incorrect (whatever the status and cookies that came with it)."""
    return LOGIN_REJECTED_TEXT.lower() in text[:16384].lower()


# token/password pairs a hub error body may echo (query strings, posted forms, JSON)
_SECRET_PARAMS = re.compile(
    r"((?:access_token|token|password|passwd|secret|apikey|api_key|hubsession|jsessionid)"
    r"\\?[\"']?\s*[=:]\s*\\?[\"']?)"  # quotes may come escaped (JSON inside JSON)
    r"(?:[^\s\"'&,;\\]|\\(?![\"']))+",  # to the next separator (an escaped quote ends it)
    re.IGNORECASE,
)


def redact_snippet(text: str) -> str:
    """``text`` with ``token=...``/``"password": "..."``-style values replaced."""
    return _SECRET_PARAMS.sub(lambda m: f"{m.group(1)}**REDACTED**", text)


def check_success(answer: Any, what: str) -> None:
    """Raise :class:`HubRefusedError` if ``answer`` is the hub's failure envelope.

    The envelope is ``{"success": false}`` (some endpoints send the string ``"false"``),
    usually with the reason in ``message``/``errorMessage``/``error``.
    """
    if isinstance(answer, dict) and answer.get("success") in (False, "false"):
        reason = failure_reason(answer)
        reason = redact_snippet(reason) if reason else reason
        raise HubRefusedError(
            f"The hub refused to {what}: {reason or 'no reason given'}", reason=reason
        )


def require_success(answer: Any, what: str) -> dict[str, Any]:
    """The hub's answer to ``what``, which must say ``"success": true``.

    The failure envelope raises as in :func:`check_success`; any other answer that does not
    say success (no envelope at all) raises :class:`HubRefusedError` too.
    """
    check_success(answer, what)
    if isinstance(answer, dict) and answer.get("success") in (True, "true"):
        return answer
    detail = failure_reason(answer) or (None if isinstance(answer, dict) else str(answer)[:200])
    detail = redact_snippet(detail) if detail else detail
    raise HubRefusedError(f"The hub did not {what}: {detail or 'no reason given'}", reason=detail)


# What the hub's pages read back for a value that was never set: never sent back as data.
PLACEHOLDERS = frozenset({"", "null", "none", "undefined"})


def is_placeholder(value: Any) -> bool:
    """True for ``None`` or a placeholder string (``"null"``, ``"None"``, ``""``, ...)."""
    return value is None or (isinstance(value, str) and value.strip().lower() in PLACEHOLDERS)


def real_value(value: Any) -> str:
    """``value`` as text, or ``""`` for a placeholder the hub reads back for "not set"."""
    if isinstance(value, bool) or is_placeholder(value):
        return ""
    return str(value).strip()
