"""Owner sentences, each with the tool that must rank in the top 3 of hub_search_tools."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.tools.catalog import _index

CASES: list[tuple[str, tuple[str, ...]]] = [
    ("is anything open or unlocked right now", ("hub_list_devices", "hub_get_home_summary")),
    ("turn off all the lights in the kitchen", ("hub_call_device_command",)),
    ("dim the living room lamp to 30 percent", ("hub_call_device_command",)),
    ("which batteries are getting low", ("hub_list_devices", "hub_get_device_health")),
    ("lock the back door for me", ("hub_call_device_command",)),
    ("what happened to the hallway light last night", ("hub_list_device_events",)),
    ("show me the errors in the hub log from today", ("hub_get_logs",)),
    ("set the house to away mode", ("hub_set_mode",)),
    ("arm the alarm for the night", ("hub_set_hsm",)),
    ("what is the current mode of the house", ("hub_list_modes", "hub_get_info")),
    ("create a hub variable called guest count", ("hub_create_variable",)),
    ("change the value of the vacation variable to true", ("hub_set_variable",)),
    ("make a new room called sunroom", ("hub_create_room",)),
    ("move the desk lamp into the office room", ("hub_update_device", "hub_update_room")),
    ("rename the porch light to front porch light", ("hub_update_device",)),
    ("install this groovy driver I wrote", ("hub_install_code",)),
    ("show me the source code of my custom app", ("hub_get_code",)),
    ("back up the hub before I change anything", ("hub_create_backup",)),
    ("which backups do I have and how old are they", ("hub_list_backups",)),
    ("reboot the hub please", ("hub_reboot_hub",)),
    ("is my zwave mesh healthy", ("hub_get_radio_details", "hub_get_device_health")),
    ("which devices have stopped reporting", ("hub_get_device_health", "hub_get_health_report")),
    ("why is the hub slow today", ("hub_get_performance_stats", "hub_get_health_report")),
    ("how much memory is the hub using", ("hub_get_health_report", "hub_get_performance_stats")),
    ("upload a file to the hub file manager", ("hub_write_file",)),
    ("delete the old garage rule", ("hub_delete_app",)),
    ("pause the motion lighting rule", ("hub_set_rule_paused",)),
    ("run the actions of my goodnight rule now", ("hub_call_rule",)),
    ("which rules are there on the hub", ("hub_list_rules",)),
    (
        "when Front Porch Motion detects motion after sunset turn on the Porch Light and turn "
        "it off 5 minutes after motion stops",
        ("hub_create_rule",),
    ),
    ("make an automation that turns off the kitchen lights at 11pm", ("hub_create_rule",)),
    ("when the garage door opens send me a notification", ("hub_create_rule",)),
    ("every day at 7 set the thermostat to 70", ("hub_create_rule",)),
    ("if the temperature goes above 80 then turn on the fan", ("hub_create_rule",)),
    (
        "whenever someone arrives home unlock nothing but turn on the hall light",
        ("hub_create_rule",),
    ),
    ("what does my motion lighting rule do", ("hub_get_rule",)),
    ("change the delay in my porch rule to 10 minutes", ("hub_update_rule",)),
    ("create a virtual switch called movie time", ("hub_create_device",)),
    ("remove the device old hallway sensor", ("hub_delete_device",)),
    ("what firmware version is the hub running", ("hub_get_info",)),
    ("ping google from the hub", ("hub_call_network_test",)),
    ("how fast is the internet at the hub, run a speed test", ("hub_call_network_test",)),
    ("blink the hub's LED so I can find it", ("hub_call_hub_action",)),
    ("give the hub a static IP address", ("hub_update_network_settings",)),
    ("which apps are installed on the hub", ("hub_list_apps",)),
    ("add the kitchen light to my dashboard", ("hub_update_dashboard",)),
    ("who changed the thermostat through the assistant", ("hub_list_audit_entries",)),
    ("what changed on the hub while I was out this afternoon", ("hub_list_changes",)),
    ("what's going on at home right now", ("hub_get_home_summary",)),
    ("watch the events of the front door live", ("hub_list_events", "hub_list_device_events")),
]


@pytest.mark.parametrize(("sentence", "expected"), CASES)
def test_owner_sentence_ranks_the_tool(sentence: str, expected: tuple[str, ...]) -> None:
    names = [h.name for h in _index().search(sentence)][:3]
    assert set(expected) & set(names), (sentence, names)


def test_at_least_forty_sentences() -> None:
    assert len(CASES) >= 40
