"""The secrets, URLs and rule spec of the HTTP and ping action tests and the check that no secret
is shown, for managers/test_rule_http_actions.py and tools/test_rule_http_actions.py.
"""

from __future__ import annotations

import json
from typing import Any

TOKEN = "a1b2c3d4-0000-4e5f-9a8b-77c6d5e4f3a2"
WEBHOOK_KEY = "dXyZ12345abcdefGHIJKLmn"
GET_URL = f"http://192.168.1.50/apps/api/7/devices/3/on?access_token={TOKEN}"
POST_URL = f"https://maker.ifttt.com/trigger/door/with/key/{WEBHOOK_KEY}"
BODY = '{"value1": "%device% %value%", "password": "hunter2pw"}'


def _spec(button: str) -> dict[str, Any]:
    return {
        "name": "Tell the world",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "actions": [
            {"http_get": GET_URL},
            {"http_post": POST_URL, "body": BODY, "content_type": "application/json"},
            {"ping": "192.168.1.20"},
        ],
    }


def _no_secret(data: Any) -> None:
    text = json.dumps(data, default=str)
    for secret in (TOKEN, WEBHOOK_KEY, "hunter2pw"):
        assert secret not in text, text
