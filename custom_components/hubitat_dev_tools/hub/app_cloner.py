"""The hub's App Cloner (hub reference §12.3, §12.6): a transient classic app opened on a
source app, driven through its page like any other (:class:`ClonerPage`)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl, quote

from .app_page import AppPage, breadcrumbs
from .client import HubClient
from .errors import HubBadResponseError, HubNotFoundError

CLONER_ACTION_RE = r"_action_href_name\|{action}\|(\d+)"
_CLONER_ID_RE = re.compile(r"/(?:apps/api|installedapp/configure)/(\d+)")
_CLONER_VIEWS: dict[str, dict[str, str]] = {
    # the input triplets each rendered view posts back on a form refresh
    "source": {
        "exportRuleButton.type": "button",
        "exportRuleButton.multiple": "false",
        "settings[exportRuleButton]": "",
        "ruleUpload.type": "file-text",
        "ruleUpload.multiple": "false",
        "settings[ruleUpload]": "",
        "cloneRuleButton.type": "button",
        "cloneRuleButton.multiple": "false",
        "settings[cloneRuleButton]": "",
    },
    "confirmation": {
        "cancelUpload.type": "button",
        "cancelUpload.multiple": "false",
        "settings[cancelUpload]": "",
    },
    "importRule": {},
}


class ClonerPage(AppPage):
    """One App Cloner instance opened on a source app; its page is ``main``."""

    root_page = "main"

    def __init__(self, client: HubClient, cloner_id: str, source_id: str, path: str) -> None:
        super().__init__(client, cloner_id)
        self.source_id = source_id
        self.context_path = path  # the redirect target (path and query): the source context
        self.context_url = f"{client.base_url}{path}"  # the referrer of the clone path
        # the cloner's own page: the referrer of the import path
        self.config_url = f"{client.base_url}/installedapp/configure/{cloner_id}/main"

    async def _read(self, page: str | None) -> dict[str, Any]:
        # the cloner's current view (it re-renders as it works: read leniently)
        data = await self.client.get_json(f"/installedapp/configure/json/{self.app_id}/main")
        return data if isinstance(data, dict) else {}

    async def prime(self) -> None:
        """Render the source context (it seeds the cloner with its source), then read the
        page (an upload posted before that read is dropped by the hub)."""
        # The query (an access token) goes as params so that no error message can carry it.
        bare, _, query = self.context_path.partition("?")
        await self.client.request("GET", bare, params=dict(parse_qsl(query)), expect="text")
        await self.reload()

    async def refresh(
        self, *, page: str, view: str, referrer: str, extras: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """The form refresh the hub UI posts after a click or a change: the rendered view's
        inputs posted back; returns the new view."""
        form = {
            "formAction": "update",
            "id": self.app_id,
            "version": "1",
            "appTypeId": "",
            "appTypeName": "",
            "currentPage": page,
            "pageBreadcrumbs": breadcrumbs(page, self.root_page),
            "referrer": referrer,
            "url": self.config_url,
            "_cancellable": "false",
            **_CLONER_VIEWS[view],
            **(extras or {}),
        }
        data = await self.post_update(form, what=f"refresh the App Cloner page (app {self.app_id})")
        if not isinstance(data, dict):
            raise HubBadResponseError(
                f"The App Cloner (app {self.app_id}) answered a form refresh with no page"
            )
        return data


async def open_cloner(client: HubClient, source_id: str) -> ClonerPage:
    """Create a cloner for ``source_id`` (a transient app: the caller removes it, and primes
    it with :meth:`ClonerPage.prime`)."""
    try:
        location = await client.get_location(
            f"/installedapp/sysAppApi/appCloner/app/{quote(source_id, safe='')}"
        )
    except HubNotFoundError as err:
        raise HubNotFoundError(
            f"The hub's App Cloner does not answer for app {source_id} (HTTP 404).",
            hint="The app may have just been deleted (list the apps again); firmware older "
            "than the App Cloner does not have it.",
        ) from err
    m = _CLONER_ID_RE.search(location)
    if m is None:
        raise HubBadResponseError(
            f"The App Cloner answered with an unexpected redirect for app {source_id}",
            hint="This firmware's App Cloner is not supported; report the firmware version.",
        )
    return ClonerPage(client, m.group(1), source_id, re.sub(r"^https?://[^/]+", "", location))


def cloner_action_index(page: dict[str, Any], action: str) -> int | None:
    """The session-scoped index of an ``_action_href_name|<action>|<idx>`` link on a view."""
    m = re.search(CLONER_ACTION_RE.format(action=re.escape(action)), json.dumps(page))
    return int(m.group(1)) if m else None


def cloner_export_text(page: dict[str, Any]) -> str | None:
    """The export document a refresh after the Export click carries (a download input)."""
    config = page.get("configPage")
    sections = config.get("sections") if isinstance(config, dict) else None
    for section in sections if isinstance(sections, list) else []:
        if not isinstance(section, dict):
            continue
        for key in ("input", "inputs", "body"):
            items = section.get(key)
            for item in items if isinstance(items, list) else []:
                text = item.get("filecontent") if isinstance(item, dict) else None
                if isinstance(text, str) and text.startswith("{") and "appReplacements" in text:
                    return text
    return None
