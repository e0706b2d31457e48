"""HACS and hassfest rules we can check here (hassfest itself lives in HA's source tree).

Checked by hand and documented in README/ARCHITECTURE: repository description and topics
(GitHub settings), brands served by the core `brands` component from our brand/ folder.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest
import voluptuous as vol
from homeassistant.helpers import config_validation as cv
from PIL import Image
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "custom_components" / "hubitat_dev_tools"


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def test_manifest() -> None:
    manifest = load(PKG / "manifest.json")
    keys = list(manifest)
    assert keys[:2] == ["domain", "name"], "hassfest: domain and name first"
    assert keys[2:] == sorted(keys[2:]), "hassfest: the other keys sorted"
    assert manifest["domain"] == PKG.name
    for key in ("version", "documentation", "issue_tracker", "codeowners", "iot_class"):
        assert manifest.get(key), f"{key} is required (HACS/loader)"
    assert re.fullmatch(r"\d+\.\d+\.\d+", manifest["version"])
    assert manifest["config_flow"] is True
    assert manifest["integration_type"] in ("hub", "service", "device", "system")
    assert manifest["iot_class"] in ("local_push", "local_polling", "calculated")
    assert all("==" in r for r in manifest["requirements"]), "pin runtime requirements"
    for matcher in manifest.get("dhcp", []):
        assert set(matcher) <= {"macaddress", "hostname", "registered_devices"}
        if "macaddress" in matcher:
            assert re.fullmatch(r"[0-9A-F]{6}\*", matcher["macaddress"])


def test_hacs_json() -> None:
    hacs = load(ROOT / "hacs.json")
    allowed = {
        "name",
        "content_in_root",
        "zip_release",
        "filename",
        "hide_default_branch",
        "country",
        "homeassistant",
        "persistent_directory",
        "render_readme",
    }
    assert set(hacs) <= allowed, "HACS rejects unknown keys"
    assert hacs["name"]
    assert re.fullmatch(r"\d{4}\.\d{1,2}\.\d+", hacs["homeassistant"])


def test_strings_and_translations() -> None:
    strings = load(PKG / "strings.json")
    assert strings == load(PKG / "translations" / "en.json"), "en.json must mirror strings.json"
    text = json.dumps(strings)
    assert "http://" not in text and "https://" not in text, "hassfest: no URLs in strings"
    # every issue and flow step the code uses has its text
    code = "\n".join(p.read_text() for p in PKG.rglob("*.py"))
    for key in set(re.findall(r'translation_key=(?:f?"([a-z_]+)|([A-Z_]+))', code)):
        name = key[0]
        if name:
            assert name in strings["issues"], name
    for step in set(re.findall(r'step_id="([a-z_]+)"', code)):
        assert (
            step in strings["config"]["step"]
            or step in strings["options"]["step"]
            or any(
                step in issue.get("fix_flow", {}).get("step", {})
                for issue in strings["issues"].values()
            )
        ), step


def _strings(value: object, where: str = "") -> list[tuple[str, str]]:
    """Every (key path, text) in a strings file."""
    if isinstance(value, dict):
        return [pair for key, item in value.items() for pair in _strings(item, f"{where}.{key}")]
    assert isinstance(value, str), f"{where}: {value!r} is not a string"
    return [(where, value)]


def test_strings_pass_the_hassfest_value_rules() -> None:
    """The rules hassfest applies to every translation value (HTML, placeholders, spaces)."""
    strings = load(PKG / "strings.json")
    for where, text in _strings(strings):
        # Home Assistant's own validator for "the string should not contain HTML".
        cv.string_with_no_html(text)
        assert text == text.strip(), f"{where}: leading or trailing spaces"
        assert not re.search(r"'\{\w+\}'", text), f"{where}: placeholder in single quotes"
        for _, field, _, _ in string.Formatter().parse(text):
            if field:
                assert field.isidentifier(), f"{where}: placeholder {{{field}}}"


def test_issues_have_a_description_or_a_fix_flow_not_both() -> None:
    for key, issue in load(PKG / "strings.json")["issues"].items():
        assert "title" in issue, key
        assert ("description" in issue) != ("fix_flow" in issue), (
            f"issue {key}: hassfest's 'fixable' exclusion allows one of description and fix_flow"
        )


def test_html_rule_is_the_one_that_rejected_us() -> None:
    # The two strings hassfest rejected before (angle-bracket placeholders) fail the rule.
    for text in ("URLs (/apps/api/<app id>/...)", "gateways (hub_read_<domain>)"):
        with pytest.raises(vol.Invalid):
            cv.string_with_no_html(text)


@pytest.mark.parametrize(
    ("name", "size"), [("icon.png", 256), ("icon@2x.png", 512), ("dark_icon.png", 256)]
)
def test_brand_icons(name: str, size: int) -> None:
    with Image.open(PKG / "brand" / name) as img:
        assert img.size == (size, size)
        assert img.mode == "RGBA"


def test_brand_logos() -> None:
    for name, height in (("logo.png", 128), ("logo@2x.png", 256), ("dark_logo.png", 128)):
        with Image.open(PKG / "brand" / name) as img:
            assert img.size[1] == height
            assert img.size[0] >= height


def test_quality_scale() -> None:
    data = YAML(typ="safe").load((PKG / "quality_scale.yaml").read_text())
    rules = data["rules"]
    assert len(rules) >= 50
    for rule, value in rules.items():
        status = value if isinstance(value, str) else value["status"]
        assert status in ("done", "todo", "exempt"), rule
        if status == "exempt":
            assert isinstance(value, dict) and value.get("comment"), f"{rule}: say why"
