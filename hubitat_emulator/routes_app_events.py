"""``GET /installedapp/eventsJson/<id>``: one app's event history (see ``app_events.py``)."""

from __future__ import annotations

from aiohttp import web

from .clock import fmt_event
from .home import Home
from .responses import Responses
from .routes_common import Routes


def setup(app: web.Application, home: Home, http: Responses) -> None:
    app.router.add_get("/installedapp/eventsJson/{id}", _AppEventRoutes(home, http).events_json)


class _AppEventRoutes(Routes):
    async def events_json(self, request: web.Request) -> web.StreamResponse:
        found = self.app_by_id(request.match_info["id"])
        if found is None:
            return self.http.not_found()
        return self.http.json(
            [
                {
                    "name": e.name,
                    "value": e.value,
                    "descriptionText": e.description,
                    "date": fmt_event(e.date),
                }
                for e in reversed(found.events)
            ]
        )
