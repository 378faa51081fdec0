"""The studio's HTTP server, hardened for a page that can write the user's files.

``pnp watch`` only shows cards; the studio writes them, so a page on any other site must not be
able to read or change the pack through it. Everything that guards the server is here, in one
small module (the watch server's hardening is meant to become the same piece):

- it listens on 127.0.0.1 only (never a configurable address);
- a request whose ``Host`` is not a loopback name with this server's port is refused (403): a
  site that points its own name at 127.0.0.1 (DNS rebinding) still sends that name;
- every write (POST) and every API read needs the per-run token (``X-Pnp-Token``, compared in
  constant time), which only the studio's own pages carry: another site cannot read them;
- every write must come from the studio's own origin (``Origin``, and ``Sec-Fetch-Site`` when
  the browser sends it) and be JSON (a cross-site form cannot send it without a preflight
  this server never answers);
- request bodies are bounded, connections that stay silent are closed, at most
  :data:`MAX_CONNECTIONS` requests are served at once (more are answered 503 without a thread),
  and a failing handler answers 500 without printing a traceback;
- every response forbids framing, sniffing, referrers and embedding by other origins, and the
  pages' Content-Security-Policy allows scripts, styles, pictures and requests from the studio
  itself only (no inline script, no CDN).

Paths are the router's concern (:mod:`generator.studio.app`): no URL is ever turned into a
file path except through the pack's own file listing.

Connections are kept open (HTTP/1.1 keep-alive), so a live edit's request and its picture
travel over a connection that is already there.
"""

from __future__ import annotations

import errno
import hmac
import json
import secrets
import threading
from collections.abc import Callable
from contextlib import suppress
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from generator.core.errors import UsageError

HOST = "127.0.0.1"
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
#: seconds a kept-open connection may stay silent before it is closed
IDLE_TIMEOUT_S = 30.0
#: requests served at once (a browser keeps about six connections to one server)
MAX_CONNECTIONS = 32
ACCEPT_QUEUE = 64
#: the largest request body (a card's fields, a batch of translations)
MAX_BODY = 4 * 1024 * 1024
TOKEN_HEADER = "X-Pnp-Token"
CONTENT_SECURITY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
                    "img-src 'self' data:; connect-src 'self'; font-src 'self'; "
                    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class Refused(Exception):
    """A request the server will not serve: its status and a short reason."""

    def __init__(self, status: HTTPStatus, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def loopback_host(value: str | None, port: int) -> bool:
    """Whether a ``Host`` header names this server on this machine."""
    if not value:
        return False
    host = value.strip().lower()
    if host.startswith("["):
        name, _, rest = host.partition("]")
        name += "]"
        given = rest[1:] if rest.startswith(":") else ("" if not rest else None)
    else:
        name, _, given = host.partition(":")
    if given is None or name not in LOOPBACK_NAMES:
        return False
    return given == str(port) or (given == "" and port == 80)


def own_origin(value: str | None, port: int) -> bool:
    """Whether an ``Origin`` header is this server's own (http, a loopback name, its port)."""
    if not value:
        return False
    parts = urlsplit(value)
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


class Handler(BaseHTTPRequestHandler):
    """One connection: requests read within bounds, checked, routed, answered."""

    server: StudioServer
    protocol_version = "HTTP/1.1"  # connections stay open between requests
    #: a request line that does not parse is still answered with a status line
    default_request_version = "HTTP/1.0"
    timeout = IDLE_TIMEOUT_S
    server_version = "pnp-studio"
    sys_version = ""

    def log_message(self, format: str, *args: object) -> None:
        """Requests are not logged: the terminal is for what pnp has to say."""

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (TimeoutError, ConnectionError):
            self.close_connection = True

    def do_GET(self) -> None:
        self._serve("GET")

    def do_HEAD(self) -> None:
        self._serve("HEAD")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        try:
            request = self._request(method)
            response = self.server.route(request)
        except Refused as refused:
            self.close_connection = True  # a refused body may not have been read
            response = json_response({"status": "refused", "message": refused.reason},
                                     refused.status) if self.path.startswith("/api/") \
                else text_response(refused.reason, refused.status)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            return
        except Exception as exc:  # a bug must not print a traceback nor stop the server
            self.server.report(f"internal error: {type(exc).__name__}: {exc}")
            response = text_response("internal error", 500)
        with suppress(BrokenPipeError, ConnectionResetError):
            self._send(response, method == "HEAD")

    def _request(self, method: str) -> Request:
        port = self.server.server_address[1]
        if not loopback_host(self.headers.get("Host"), port):
            raise Refused(HTTPStatus.FORBIDDEN, "the studio answers http://127.0.0.1:"
                          f"{port}/ only")
        parts = urlsplit(self.path)
        api = parts.path.startswith("/api/")
        if method == "POST" or api:
            self._check_token()
        body: Any = None
        if method == "POST":
            self._check_origin(port)
            body = self._json_body()
        elif self.headers.get("Content-Length") not in (None, "0"):
            raise Refused(HTTPStatus.BAD_REQUEST, "a GET carries no body")
        return Request(method, parts.path, parts.query, body, self.headers)

    def _check_token(self) -> None:
        given = self.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given.encode("utf-8", "replace"),
                                   self.server.token.encode("ascii")):
            raise Refused(HTTPStatus.FORBIDDEN, "this request needs the studio page's token")

    def _check_origin(self, port: int) -> None:
        if not own_origin(self.headers.get("Origin"), port):
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

    def _send(self, response: Response, head_only: bool) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.kind)
        self.send_header("Content-Length", str(len(response.data)))
        self.send_header("Cache-Control", response.cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        if response.kind.startswith("text/html"):
            self.send_header("Content-Security-Policy", CONTENT_SECURITY)
        for name, value in response.headers.items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if not head_only:
            self.wfile.write(response.data)


class StudioServer(ThreadingHTTPServer):
    """A thread per connection, at most :data:`MAX_CONNECTIONS` of them."""

    daemon_threads = True
    block_on_close = False
    request_queue_size = ACCEPT_QUEUE

    def __init__(self, port: int, route: Router, report: Callable[[str], None]) -> None:
        self.route = route
        self.report = report
        self.token = secrets.token_urlsafe(32)
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__((HOST, port), Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            with suppress(OSError):
                request.settimeout(1.0)
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                                b"Connection: close\r\n\r\n")
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that misbehaves is no news for the terminal."""


def open_server(port: int, route: Router, report: Callable[[str], None]) -> StudioServer:
    try:
        return StudioServer(port, route, report)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {HOST} is busy (another pnp studio?); choose "
                             "another with --port") from None
        raise UsageError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None


def port_of(server: StudioServer) -> int:
    return int(server.server_address[1])
