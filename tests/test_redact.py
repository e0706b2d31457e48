"""The redaction rules: value-aware, at any depth."""

from __future__ import annotations

import json

from custom_components.hubitat_dev_tools.redact import (
    REDACTED,
    is_secret_key,
    redact,
    redact_input,
    redact_lock_codes,
)


def test_secret_keys_in_any_spelling() -> None:
    for key in (
        "accessToken",
        "access_token",
        "requestToken",
        "password",
        "hubPassword",
        "clientSecret",
        "pin",
        "HUBSESSION",
        "maker_token",
        "cookie",
    ):
        assert is_secret_key(key), key
    for key in ("spin", "code", "version", "description", "tokenize_me_not_a_key x"):
        assert not is_secret_key(key), key


def test_lock_codes_keep_slots_and_names() -> None:
    raw = json.dumps({"1": {"name": "Alice", "code": "4821"}, "2": {"name": "Bob", "code": "1"}})
    out = json.loads(redact_lock_codes(raw))
    assert out == {"1": {"name": "Alice", "code": REDACTED}, "2": {"name": "Bob", "code": REDACTED}}
    assert redact_lock_codes({"3": {"name": "C", "code": "9"}})["3"]["code"] == REDACTED
    assert redact_lock_codes("not json") == REDACTED


def test_redact_walks_every_depth() -> None:
    data = {
        "states": {"lockCodes": json.dumps({"1": {"name": "A", "code": "4821"}}), "switch": "on"},
        "state": {"accessToken": "abc", "count": 3},
        "rows": [{"password": "x"}, {"name": "ok"}],
    }
    text = json.dumps(redact(data))
    assert "4821" not in text and "abc" not in text and '"x"' not in text
    assert '"switch": "on"' in text and '"count": 3' in text and '"ok"' in text
    assert redact_input("password", "hunter2") == REDACTED
    assert redact_input("text", "fine") == "fine"
