"""What the studio's server adds to pnp's local server, for a page that can write the files.

``pnp watch`` only shows cards; the studio writes them, so a page on any other site must not be
able to read or change the pack through it. The guards every pnp server has (127.0.0.1 only, a
loopback ``Host`` with this server's port, malformed requests answered 400 without a traceback,
idle connections closed, bounded threads, one shutdown path) are
:mod:`generator.runtime.localserver`'s. Here is only what the studio needs beyond them:

- every write (POST) and every API read needs the per-run token (``X-Pnp-Token``, compared in
  constant time), which only the studio's own pages carry: another site cannot read them;
- every write must come from the studio's own origin (``Origin``, and ``Sec-Fetch-Site`` when
  the browser sends it) and be JSON (a cross-site form cannot send it without a preflight
  this server never answers);
- request bodies are bounded (:data:`MAX_BODY`);
- every response, refusals and errors included, forbids framing, sniffing, referrers and
  embedding by other origins, and the pages' Content-Security-Policy allows scripts, styles,
  pictures and requests from the studio itself only (no inline script, no CDN);
- a refused API request is answered in JSON, as the pages expect.

Paths are the router's concern (:mod:`generator.studio.app`): no URL is ever turned into a
file path except through the pack's own file listing.

Connections are kept open (HTTP/1.1 keep-alive), so a live edit's request and its picture
travel over a connection that is already there.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from generator.runtime.localserver import (
    LocalHandler,
    LocalServer,
    Refused,
    loopback_host,
)

#: the largest request body (a card's fields, a batch of translations)
MAX_BODY = 4 * 1024 * 1024
TOKEN_HEADER = "X-Pnp-Token"
CONTENT_SECURITY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
                    "img-src 'self' data:; connect-src 'self'; font-src 'self'; "
                    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
#: sent with every response (X-Content-Type-Options: nosniff is the local server's own)
SECURITY_HEADERS = (("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
                    ("Cross-Origin-Resource-Policy", "same-origin"),
                    ("Cross-Origin-Opener-Policy", "same-origin"))


def own_origin(value: str | None, port: int) -> bool:
    """Whether an ``Origin`` header is this server's own (http, a loopback name, its port)."""
    if not value:
        return False
    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme == "http" and parts.path in ("", "/") and loopback_host(parts.netloc,
                                                                              port)


class Request:
    """What a route sees of a request."""

    def __init__(self, method: str, path: str, query: str, body: Any,
                 headers: Any) -> None:
        self.method, self.path, self.query, self.body, self.headers = (
            method, path, query, body, headers)


class Response:
    def __init__(self, status: int, kind: str, data: bytes, cache: str = "no-store",
                 headers: dict[str, str] | None = None) -> None:
        self.status, self.kind, self.data, self.cache = status, kind, data, cache
        self.headers = headers or {}


def json_response(value: object, status: int = 200) -> Response:
    return Response(status, "application/json; charset=utf-8",
                    json.dumps(value, ensure_ascii=False).encode("utf-8"))


def text_response(text: str, status: int) -> Response:
    return Response(status, "text/plain; charset=utf-8", (text + "\n").encode("utf-8"))


Router = Callable[[Request], Response]


class Handler(LocalHandler):
    """One connection: requests checked for the token, the origin and the body, routed,
    answered with the studio's headers; kept open between requests."""

    server: StudioServer
    protocol_version = "HTTP/1.1"  # connections stay open between requests
    server_version = "pnp-studio"

    def do_GET(self) -> None:
        self._send(self.server.route(self._request("GET")))

    def do_HEAD(self) -> None:
        self._send(self.server.route(self._request("HEAD")))

    def do_POST(self) -> None:
        self._send(self.server.route(self._request("POST")))

    def refuse(self, refused: Refused) -> None:
        """A refusal in the form its caller reads: JSON for the API, else text."""
        response = json_response({"status": "refused", "message": refused.reason},
                                 refused.status) if self.path.startswith("/api/") \
            else text_response(refused.reason, refused.status)
        self._send(response)

    def end_headers(self) -> None:
        for name, value in SECURITY_HEADERS:  # every response, refusals and errors too
            self.send_header(name, value)
        super().end_headers()

    def _request(self, method: str) -> Request:
        parts = self.target()
        if method == "POST" or parts.path.startswith("/api/"):
            self._check_token()
        body: Any = None
        if method == "POST":
            self._check_origin()
            body = self._json_body()
        elif self.headers.get("Content-Length") not in (None, "0"):
            raise Refused(HTTPStatus.BAD_REQUEST, "a GET carries no body")
        return Request(method, parts.path, parts.query, body, self.headers)

    def _check_token(self) -> None:
        given = self.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given.encode("utf-8", "replace"),
                                   self.server.token.encode("ascii")):
            raise Refused(HTTPStatus.FORBIDDEN, "this request needs the studio page's token")

    def _check_origin(self) -> None:
        if not own_origin(self.headers.get("Origin"), self.server.port):
            raise Refused(HTTPStatus.FORBIDDEN, "writes come from the studio's own pages only")
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site != "same-origin":
            raise Refused(HTTPStatus.FORBIDDEN, "writes come from the studio's own pages only")

    def _json_body(self) -> Any:
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "the studio takes JSON only")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise Refused(HTTPStatus.LENGTH_REQUIRED, "a body needs its length") from None
        if length < 0 or length > MAX_BODY:
            raise Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "the request is too large")
        raw = self.rfile.read(length)
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise Refused(HTTPStatus.BAD_REQUEST, "the body is not JSON") from None

    def _send(self, response: Response) -> None:
        headers = [("Content-Security-Policy", CONTENT_SECURITY)] \
            if response.kind.startswith("text/html") else []
        headers += response.headers.items()
        if self.close_connection:
            headers.append(("Connection", "close"))
        self.send_body(response.status, response.kind, response.data, response.cache, headers)


class StudioServer(LocalServer):
    """pnp's local server with the studio's router and this run's token."""

    command = "pnp studio"

    def __init__(self, port: int, route: Router, report: Callable[[str], None]) -> None:
        self.route = route
        self.token = secrets.token_urlsafe(32)
        super().__init__(port, Handler, report)
