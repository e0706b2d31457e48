"""The redaction rules: value-aware, at any depth."""

from __future__ import annotations

import json

from custom_components.hubitat_dev_tools.redact import (
    REDACTED,
    is_secret_key,
    redact,
    redact_input,
    redact_lock_codes,
    redact_text,
    redact_url,
    strip_redacted,
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


def test_urls_keep_where_they_go_and_lose_their_credentials() -> None:
    cases = {
        "http://10.0.0.5/apps/api/7/devices/3/on?access_token=1234-abcd": (
            "http://10.0.0.5/apps/api/7/devices/3/on?access_token=" + REDACTED
        ),
        "https://maker.ifttt.com/trigger/door/with/key/dXyZ12345abcdefGHIJKLmn": (
            "https://maker.ifttt.com/trigger/door/with/key/" + REDACTED
        ),
        "https://me:pa55@h.example/x": f"https://me:{REDACTED}@h.example/x",
        "https://tok3n@h.example/x": f"https://{REDACTED}@h.example/x",
        "http://h/ping?t=%value%&key=abc&x=1": f"http://h/ping?t=%value%&key={REDACTED}&x=1",
        "http://h/a#sig=zz": f"http://h/a#sig={REDACTED}",
        "http://192.168.1.9:8080/status": "http://192.168.1.9:8080/status",
    }
    for url, shown in cases.items():
        assert redact_url(url) == shown, url
    assert redact_text("GET http://h/x?token=abc then done") == (
        f"GET http://h/x?token={REDACTED} then done"
    )
    # quotes escaped inside JSON text (a plan line quoting a POST body)
    assert "hunter2" not in redact_text('b = "{\\"password\\": \\"hunter2\\"}"')


def test_rule_http_fields_are_redacted_under_their_names() -> None:
    doc = {
        "actions": [
            {"http_get": "http://h/a?token=t1"},
            {"http_post": "http://h/b", "body": "password=pw9"},
        ],
        "settings": {"httper.1": "http://h/?apikey=q", "httpPostBody.2": "token=zz"},
        "inputs": [{"name": "httper.2", "value": "http://u:p@h/"}],
    }
    text = json.dumps(redact(doc))
    for secret in ("t1", "pw9", "=q", "zz", ":p@"):
        assert secret not in text, secret
    # a value redacted in part cannot be sent back: it is left out and named to enter again
    back, names = strip_redacted(redact({"inputs": doc["inputs"]}))
    assert names == ["httper.2"] and "value" not in back["inputs"][0]
