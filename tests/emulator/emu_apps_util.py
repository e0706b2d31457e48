"""``bare_click``: the form a button click on an app page posts, as the hub UI sends it, for the
emulated app pages' tests: emulator/test_emu_apps.py and emulator/test_emu_cloner.py.
"""

from __future__ import annotations


def bare_click(app_id: object, button: str) -> dict[str, str]:
    """A button click as the hub UI posts it (``appUI.js``)."""
    return {
        "id": str(app_id),
        "name": button,
        f"settings[{button}]": "clicked",
        f"{button}.type": "button",
    }
