"""The library's app page (``hub/app_page.py``) on its own, no hass: the answers to a button
click and a settings submit read as the real hub gives them (both refusal shapes decoded, a
page or a text body not taken for a refusal), and the Done form a new instance is finished
with.

Moved from tests/tools/test_apps.py (test_click_and_submit_answers_decode_both_refusal_shapes)
and tests/tools/test_app_create.py (test_done_form_is_the_pages_done); the tools' gates,
refusals and summaries stay there."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.hub.app_page import AppPage, check_page_answer
from custom_components.hubitat_dev_tools.hub.errors import HubRefusedError

from ..contract import load_fixture


def test_click_and_submit_answers_decode_both_refusal_shapes() -> None:
    ok = load_fixture("apps/button_click").answer
    assert check_page_answer(ok, "press x") == ok
    page = load_fixture("apps/settings_submit").answer
    assert check_page_answer(page, "save")["configPage"]["name"] == "mainPage"
    for refusal, reason in (
        ({"status": "error", "message": "Invalid version"}, "Invalid version"),
        ({"status": "failed"}, "status 'failed'"),
        ({"success": False, "errorMessage": "nope"}, "nope"),
        ({"status": "false", "success": "false"}, "no reason given"),
    ):
        with pytest.raises(HubRefusedError) as err:
            check_page_answer(refusal, "press x")
        assert reason in str(err.value), refusal
    # no envelope at all (a page model alone, a text body) is not a refusal
    assert check_page_answer("<html></html>", "press x") == "<html></html>"


def test_done_form_is_the_pages_done() -> None:
    page = AppPage(None, "12", name="mainPage")  # type: ignore[arg-type]
    page.version = 3
    form = page.done_form({}, label="Porch")
    assert form["_action_update"] == "Done" and form["label"] == "Porch"
    assert form["appTypeId"] == "" and form["appTypeName"] == "" and form["_cancellable"] == "false"
    assert form["currentPage"] == "mainPage" and form["version"] == "3"
    assert page.installed is None
