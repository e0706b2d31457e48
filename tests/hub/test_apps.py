"""The library's app readers (``hub/apps.py``) fed the real hub's recorded answers, no hass:
the app tree (parents, children, depth, names as the user typed them), an app's config page
and status (both shapes of its state), the Visual Rule answers (classic and graph) and the
app types one can add.

Moved from tests/tools/test_apps.py (test_app_tree_parses_the_real_shape,
test_config_page_and_status_parse_the_real_shapes,
test_visual_rule_answers_parse_the_real_shapes: the tools' gates, refusals and summaries
stay there) and tests/tools/test_app_create.py (test_app_types_parse_from_the_fixture: the
tool's paged list of types stays there)."""

from __future__ import annotations

import json

from custom_components.hubitat_dev_tools.hub.answers import check_success
from custom_components.hubitat_dev_tools.hub.app_page import parse_page
from custom_components.hubitat_dev_tools.hub.apps import (
    app_name_text,
    is_classic_visual_rule,
    parse_app_tree,
    parse_app_types,
    parse_config_page,
    parse_rule_builder20,
    parse_status,
)

from ..contract import load_fixture


def test_app_tree_parses_the_real_shape() -> None:
    answer = load_fixture("apps/apps_list").answer
    apps = {a.id: a for a in parse_app_tree(answer)}
    assert apps["430"].parent_id == "21" and apps["430"].depth == 1
    assert apps["21"].children == ["430"] and apps["430"].is_rm_rule
    # markup removed, the name as the user typed it (decoded or not: both shapes are read)
    assert apps["430"].name == "Heat On <67 (Paused)"
    escaped = json.loads(json.dumps(answer).replace("Heat On <67", "Heat On &lt;67"))
    assert {a.id: a.name for a in parse_app_tree(escaped)}["430"] == "Heat On <67 (Paused)"
    assert app_name_text("a &amp;lt; b") == "a &lt; b"  # decoded once, never twice
    assert app_name_text("<b>Mini split =&lt;73.6</b>") == "Mini split =<73.6"


def test_config_page_and_status_parse_the_real_shapes() -> None:
    config = parse_config_page(load_fixture("apps/configure_json").answer, "430")
    assert config["app"]["label"] == "Heat On <67" and config["app"]["version"] == 12
    inputs, buttons = parse_page(config)
    assert set(inputs) == {"origLabel", "tDev0", "modes", "logging", "threshold"}
    assert inputs["tDev0"].is_device and inputs["tDev0"].device_ids == [12]
    assert list(buttons) == ["updateRule"] and not buttons["updateRule"].submit_on_change
    status = parse_status(load_fixture("apps/status_json").answer, "430")
    assert status["installedApp"]["label"] == "Heat On <67"
    state = status["appState"]
    assert state["manifests"] == {"a": 1} and state["stopped"] is False
    assert state["allLocalVars"]["timeout"]["value"] == 300
    # the older map shape of appState is read too
    assert parse_status({"appState": {"x": "[1]"}}, "1")["appState"] == {"x": [1]}


def test_visual_rule_answers_parse_the_real_shapes() -> None:
    classic = load_fixture("apps/visual_rule").answer
    assert is_classic_visual_rule(classic)
    assert not is_classic_visual_rule({})  # an unknown id
    assert not is_classic_visual_rule({"broken": False, "ruleText": []})  # an RM rule's state
    graph = parse_rule_builder20(load_fixture("apps/visual_rule_graph").answer)
    assert graph is not None and graph["validationErrors"] == ["Node 3 has no device"]
    assert json.loads(graph["ruleJson"]) == {"nodes": [], "edges": []}
    assert parse_rule_builder20({"success": False, "message": "not found"}) is None
    check_success(load_fixture("apps/visual_rule_pause").answer, "pause rule 1")


def test_app_types_parse_from_the_fixture() -> None:
    types = parse_app_types(load_fixture("apps/apps_list").answer)
    assert [t.as_dict() for t in types] == [
        {
            "type_id": "21",
            "name": "Rule Machine",
            "user": False,
            "menu": "Automations",
            "description": "Rules",
        },
        {
            "type_id": "7",
            "name": "Motion Announcer",
            "user": True,
            "menu": "Apps",
            "description": "Announce motion",
        },
    ]
    assert parse_app_types({"systemAppTypes": [{"id": None}, "x", {"id": 3}]}) == []
    assert parse_app_types([]) == []
