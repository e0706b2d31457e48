"""The secret values the seeded home and the connection hold (with the lock code and device
password the tests set) and the check that finds them in a text, for
glue/test_hostile_secrets.py and glue/test_snapshots.py.
"""

from __future__ import annotations

import json
import re

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed import SEEDED_PREF_PASSWORD
from hubitat_emulator.seed_dev import SEEDED_APP_SECRETS

from ..helpers.hostile import lock_ids

NEW_PIN = "90817"  # set through setCode during the test
NEW_PREF_PASSWORD = "new-bridge-pw-3f1e"  # set through hub_update_device


def seeded_secrets(hub: HubEmulator) -> list[str]:
    """Every secret value the seeded home and the connection hold."""
    out = [hub.password, hub.maker_token, SEEDED_PREF_PASSWORD, NEW_PIN, NEW_PREF_PASSWORD]
    out += SEEDED_APP_SECRETS.values()
    for dev_id in lock_ids(hub):
        codes = json.loads(str(hub.device(dev_id)["attributes"]["lockCodes"]))
        out += [str(slot["code"]) for slot in codes.values()]
    for internals in hub.home.state.dev.internals.values():
        if internals.state.get("accessToken"):
            out.append(str(internals.state["accessToken"]))
    # Easy Dashboards: their PINs and the access tokens /dashboard/all lists; the pin token.
    for dash in hub.home.state.dev.easy_dashboards.values():
        out += [
            str(dash[k]) for k in ("accessToken", "dashboardPin", "hsmPin") if _real(dash.get(k))
        ]
    out.append(hub.home.state.dev.pin_token)
    # Hub Mesh: this hub's own token and any peer's (hubMeshJson serves the first)
    mesh = hub.home.state.mesh
    out += [mesh.token, *(p.token for p in mesh.peers if p.token)]
    assert len(out) >= 17, out
    return sorted(set(out))


def _real(value: object) -> bool:
    """A value that is set (the hub writes unset PINs as "", "null" or "None")."""
    return isinstance(value, str) and value not in ("", "null", "None")


def leaks(text: str, secrets: list[str]) -> list[str]:
    """The secrets found in ``text`` (PINs as whole numbers, not inside longer digit runs)."""
    found = []
    for secret in secrets:
        if secret.isdigit():
            hit = re.search(rf"(?<![0-9]){secret}(?![0-9])", text) is not None
        else:
            hit = secret in text
        if hit:
            found.append(secret)
    return found
