"""How the emulated hub answers: JSON/text/HTML responses, its error page and its login page."""

from __future__ import annotations

import html
import json

from aiohttp import web

NO_COOKIE = "X-Emulator-No-Cookie"  # internal marker: send no HUBSESSION (stripped before sending)

LOGIN_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Hubitat Elevation&reg; - Login</title></head>
<body><div class="login">
<h2>Hubitat Elevation&reg;</h2>
{error}<form action="/login" method="post">
<input type="text" name="username" placeholder="Username" autocomplete="username">
<input type="password" name="password" placeholder="Password" autocomplete="current-password">
<input type="submit" name="submit" value="Login">
</form></div></body></html>
"""


def login_page(error: str | None = None) -> str:
    err = f'<div class="alert alert-danger">{html.escape(error)}</div>\n' if error else ""
    return LOGIN_PAGE.format(error=err)


def error_page(status: int, reason: str) -> str:
    return (
        f'<html><head><meta charset="utf-8"><title>Error {status} {reason}</title></head>'
        f"<body><h2>HTTP ERROR {status} {reason}</h2><table><tr><th>STATUS:</th><td>{status}</td>"
        f"</tr><tr><th>MESSAGE:</th><td>{reason}</td></tr></table></body></html>"
    )


def redirect(location: str) -> web.Response:
    """A ``302`` to ``location``."""
    return web.Response(status=302, headers={"Location": location})


class Responses:
    """Builds the hub's responses; ``json_content_type`` is the admin JSON content type."""

    def __init__(self) -> None:
        self.json_content_type = "text/html"

    def json(self, data: object, *, status: int = 200, maker: bool = False) -> web.Response:
        ctype = "text/html" if maker else self.json_content_type
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return web.Response(text=body, status=status, content_type=ctype, charset="utf-8")

    @staticmethod
    def text(body: str, *, status: int = 200, ctype: str = "text/plain") -> web.Response:
        return web.Response(text=body, status=status, content_type=ctype, charset="utf-8")

    @staticmethod
    def html_page(body: str, *, status: int = 200) -> web.Response:
        return web.Response(text=body, status=status, content_type="text/html", charset="utf-8")

    def error(self, status: int, reason: str | None = None) -> web.Response:
        """The hub's HTML error page; ``reason`` defaults to the HTTP reason phrase."""
        if reason is None:
            reason = web.Response(status=status).reason or "Error"
        return self.html_page(error_page(status, reason), status=status)

    def not_found(self) -> web.Response:
        return self.error(404, "Not Found")

    def result(self, success: bool, message: str | None = None) -> web.Response:
        """The common ``{"success": bool, "message": str|null}`` answer."""
        return self.json({"success": success, "message": message})
