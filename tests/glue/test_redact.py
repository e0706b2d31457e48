"""The redaction rules: value-aware, at any depth."""

from __future__ import annotations

import json
import random
from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo

from custom_components.hubitat_dev_tools.redact import (
    REDACTED,
    is_secret_key,
    redact,
    redact_arguments,
    redact_by_key,
    redact_document,
    redact_input,
    redact_lock_codes,
    redact_text,
    redact_url,
    redact_with_times,
    strip_redacted,
)
from custom_components.hubitat_dev_tools.timestamps import iso_times


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


def test_lists_under_url_body_and_text_keys_are_scrubbed_item_by_item() -> None:
    """A list of URLs, bodies or lines under such a key (or a record of that name) is
    scrubbed as each string would be, not passed through as plain values."""
    doc = {
        "http_get": ["http://h/a?token=t1", "http://u:p4ss@h/"],
        "httpPostBody.3": ["password=pw9", {"deeper": "http://h/?apikey=k7"}],
        "data.2": ['{"code": "4471"}'],
        "inputs": [{"name": "httper.1", "value": ["http://h/?sig=s5", 3]}],
    }
    shown = redact(doc)
    text = json.dumps(shown)
    for secret in ("t1", "p4ss", "pw9", "4471", "s5"):
        assert secret not in text, secret
    assert shown["inputs"][0]["value"][1] == 3  # not text: kept
    assert shown["http_get"][0].startswith("http://h/a")  # where it goes: kept
    assert json.dumps(redact_with_times(doc, UTC)) == text


def test_a_lock_code_command_with_arguments_not_in_a_list_keeps_none_of_them() -> None:
    for arguments in ("3,1234,Guest", {"slot": 3, "code": "1234"}):
        shown = redact({"command": "setCode", "arguments": arguments})
        assert shown["arguments"] == REDACTED and "1234" not in json.dumps(shown)
    listed = redact({"command": "setCode", "arguments": [3, "1234", "Guest"]})
    assert listed["arguments"] == [3, REDACTED, "Guest"]
    assert redact({"command": "setCode", "arguments": ""})["arguments"] == ""  # nothing to hide
    other = redact({"command": "setLevel", "arguments": "50,2"})  # not a lock code: kept
    assert other["arguments"] == "50,2"


def test_nested_shapes_under_url_body_and_text_keys_are_scrubbed_at_any_depth() -> None:
    doc = {
        "http_get": [["https://x.io/a?access_token=SECRETTOKEN123"]],
        "inputs": [{"name": "httpPostBody.3", "value": [["token=abc123def"]]}],
        "data": (("token=abcdef123",),),
        "message": [{"text": "password=hunter2"}],
        "http_post": {"url": "https://x.io/b?access_token=SECRETTOKEN456", "apiKey": "k9"},
    }
    text = json.dumps(redact(doc))
    for secret in ("SECRETTOKEN123", "abc123def", "abcdef123", "hunter2", "SECRETTOKEN456", "k9"):
        assert secret not in text, secret
    assert json.dumps(redact_with_times(doc, UTC)) == text


def test_lock_code_commands_in_other_spellings_and_places_keep_no_code() -> None:
    for record in (
        {"command": "setCode", "args": [3, "9081", "Guest"]},
        {"command": "setCode", "parameters": [3, "9081", "Guest"]},
        {"command": "setCode ", "arguments": [3, "9081", "Guest"]},
        {"command": "SETCODE\u200b", "arguments": [3, "9081", "Guest"]},
        {"name": "setCode", "arguments": [3, "9081", "Guest"]},
        {"commands": [{"device_id": "28", "command": "setCode\u200b", "arguments": [3, "9081"]}]},
    ):
        assert "9081" not in json.dumps(redact(record)), record
        assert "9081" not in json.dumps(redact_arguments(record)), record
    url = "http://10.0.0.2/apps/api/12/devices/5/setCode/3,9081,Guest?access_token=t"
    assert "9081" not in redact_url(url) and "/devices/5/setCode/" in redact_url(url)
    for line in ("setCode 3 9081 Guest", "Command called: setCode: 3,9081", "setCode(3, 9081)"):
        assert "9081" not in redact_text(line), line
    assert redact_text("setCode(3, 9081)") == f"setCode(3, {REDACTED})"
    # an input record named setCode (a setting, with a type) is not a command
    assert redact({"name": "setCode", "type": "bool", "value": True})["value"] is True


def test_set_code_text_with_a_name_in_parentheses_unclosed_or_hidden_keeps_no_code() -> None:
    """A code's name may hold parentheses; a cut line may not close; an invisible character
    may split the command's name; the code may be on the next line."""
    for line in (
        "Command called: setCode(4, 90817, Cleaner (Tue))",
        "setCode(3, 90817, Guest",
        "setCode\u200b(3, 90817, Guest)",
        "set\u200bCode(3, 90817, Guest)",
        "setCode 3\n90817 Guest",
    ):
        assert "90817" not in redact_text(line), line
    shown = redact_text("setCode(4, 90817, Cleaner (Tue)) then unlock")
    assert shown == f"setCode(4, {REDACTED}) then unlock"


def test_set_code_patterns_take_linear_time_and_leave_other_text_alone() -> None:
    """Text that only mentions setCode keeps its words (a rule page's markers, a log line);
    long hostile text is handled at once (the patterns cannot backtrack: on the older ones
    these inputs took minutes)."""
    for line in ("Lock: setCode failed, retrying in 5 s", "Custom action setCode on Front Door"):
        assert redact_text(line) == line
    page = '{"options": ["setCode(NUMBER,STRING,STRING)", "lock"], "p": "**BROKEN** Hall Siren"}'
    assert "**BROKEN** Hall Siren" in redact_text(page)
    for hostile in ("setCode" + ":" * 100_000, "setCode(" + " " * 100_000, "setCode=" * 20_000):
        assert redact_text(hostile).startswith("setCode")


def test_a_rule_custom_action_calling_set_code_keeps_no_parameter() -> None:
    """Rule Machine's custom action: its parameters are the code when its command is setCode
    (as page records and as a settings map); another action's parameters are kept."""
    page = {
        "inputs": [
            {"name": "cCmd.3", "type": "enum", "value": "setCode"},
            {"name": "cpVal1.3", "type": "number", "value": 3},
            {"name": "cpVal2.3", "type": "text", "value": "9081"},
            {"name": "cCmd.4", "type": "enum", "value": "setLevel"},
            {"name": "cpVal1.4", "type": "number", "value": 40},
        ],
        "settings": {"cCmd.3": "setCode", "cpVal2.3": "9081", "cpVal1.4": 40},
    }
    shown = redact_document(page)
    assert "9081" not in json.dumps(shown)
    assert shown["inputs"][4]["value"] == 40 and shown["settings"]["cpVal1.4"] == 40
    for command in (["setCode"], "setCode(NUMBER,STRING,STRING)"):  # a list; a signature
        other = redact_document({"settings": {"cCmd.5": command, "cpVal2.5": "4417"}})
        assert "4417" not in json.dumps(other), command
    # a command record typed as one, with its arguments under args
    record = {"name": "setCode", "type": "command", "args": [3, "5512"]}
    assert "5512" not in json.dumps(redact(record))


def test_a_lock_code_slot_keeps_only_its_name() -> None:
    codes = {
        "1": {"name": "Ann", "code": "1234"},
        "2": {"name": "Bob", "lockCode": "5678", "data": {"code": "9012"}, "Code ": "3456"},
    }
    shown = redact_lock_codes(codes)
    assert shown["1"] == {"name": "Ann", "code": REDACTED}
    assert shown["2"]["name"] == "Bob"
    text = json.dumps(shown)
    for secret in ("1234", "5678", "9012", "3456"):
        assert secret not in text, secret


# Keys and values that reach every branch of the walk: secrets by name, lock codes, text,
# URL and body keys, records (name/type/command), and every timestamp form the hub writes.
_KEYS = (
    "label",
    "name",
    "type",
    "value",
    "currentValue",
    "default",
    "sent",
    "command",
    "arguments",
    "password",
    "accessToken",
    "lockCodes",
    "message",
    "description",
    "data",
    "http_get",
    "body",
    "last_activity",
    "date",
    "states",
    "items",
    "7",
    "setCode",
)
_TEXTS = (
    "on",
    "",
    "42",
    "Front Door",
    "password",
    "setCode",
    "lockCodes",
    "https://u:p@example.com/x?access_token=abcdef123",
    "2026-11-30T00:25:21.826-0700",
    "2026-11-30T00:25:21Z",
    "2026-11-30T00:25+02",
    "2026-10-21 05:45:12",
    "2026-10-21 05:45",
    "2026-10-21T05:45:12+07:00",
    "2026-10-21",
    "not 2026-10-21 05:45:12",
    '{"1":{"name":"Al","code":"4821"}}',
    "token=abcdefgh1234",
    "x" * 50,
    "2026-13-01 25:61",
)


def _value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.45:
        return rng.choice((*_TEXTS, *_TEXTS, 7, 2.5, None, True, False))
    if roll < 0.75:
        return {rng.choice(_KEYS): _value(rng, depth + 1) for _ in range(rng.randint(0, 6))}
    return [_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]


def test_one_walk_answers_what_redaction_after_the_timestamp_pass_does() -> None:
    """``redact_with_times`` (what every answer goes through) against the two passes it
    replaces, on thousands of generated values covering every branch of the walk."""
    rng = random.Random(27)
    zones = (None, ZoneInfo("America/Denver"), UTC)
    for _ in range(4000):
        value = _value(rng, 0)
        zone = rng.choice(zones)
        assert redact_with_times(value, zone) == redact(iso_times(value, zone)), value
    # and the walk without a zone is still redaction alone: timestamps kept as written
    assert redact({"at": "2026-11-30T00:25:21.826-0700"}) == {"at": "2026-11-30T00:25:21.826-0700"}
    assert redact_with_times({"at": ["2026-11-30T00:25:21.826-0700"]}, None) == {
        "at": ["2026-11-30T00:25:21.826-07:00"]
    }


def test_redacting_named_values_copies_only_when_something_is_secret() -> None:
    rng = random.Random(29)
    for _ in range(2000):
        mapping = {rng.choice(_KEYS): _value(rng, 2) for _ in range(rng.randint(0, 6))}
        shown = redact_by_key(mapping)
        assert shown == {k: redact(v, k) for k, v in mapping.items()}
        if all(redact(v, k) is v for k, v in mapping.items()):
            assert shown is mapping
    states = {"switch": "on", "lockCodes": '{"1":{"name":"Al","code":"4821"}}'}
    shown = redact_by_key(states)
    assert shown is not states and "4821" not in json.dumps(shown) and "4821" in states["lockCodes"]
