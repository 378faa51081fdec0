"""An HTTP server for the user's own machine only: the base of every server pnp starts.

``pnp watch`` (and the studio after it) serves unpublished cards on the loopback interface.
Listening on 127.0.0.1 keeps other machines out, but not a web page the user visits: it can
make its own domain resolve to 127.0.0.1 (DNS rebinding) and then read the proof as a page of
its own origin. Such a request still names the attacker's domain in its ``Host`` header, so a
request whose Host is not a loopback name is refused. The rest is what any server facing
untrusted bytes needs and ``http.server`` leaves to its users:

- a malformed request gets a plain 400 (or a 500 when the handler fails), never a traceback
  printed in the user's terminal (``socketserver`` prints one for any exception);
- a connection that sends nothing for :data:`IDLE_TIMEOUT_S` is closed (300 idle connections
  held 303 threads);
- at most :data:`MAX_CONNECTIONS` requests are handled at once; more are answered 503 and
  closed, so threads are bounded; the accept queue is :data:`ACCEPT_QUEUE` deep.
"""

from __future__ import annotations

import socket
import threading
from contextlib import suppress
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: the names a browser on this machine uses for it; anything else may be a rebinding attack
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]", "localhost."})
#: seconds a connection may stay silent (a request line, headers, a slow reader)
IDLE_TIMEOUT_S = 20.0
#: requests handled at once (an open proof page holds one for its event stream)
MAX_CONNECTIONS = 32
#: connections the kernel keeps waiting to be accepted (socketserver's default is 5)
ACCEPT_QUEUE = 64


def loopback_host(value: str | None) -> bool:
    """Whether a ``Host`` header names this machine: a loopback name, with or without a port."""
    if not value:
        return False
    host = value.strip().lower()
    if host.startswith("["):  # [::1] or [::1]:8000
        inside, closed, rest = host.partition("]")
        if not closed or (rest and not rest.startswith(":")):
            return False
        name, port = inside + "]", rest[1:]
    else:
        name, _, port = host.partition(":")
    return name in LOOPBACK_NAMES and (port == "" or _port(port))


def _port(text: str) -> bool:
    return text.isdigit() and 0 < int(text) < 65536


class LocalHandler(BaseHTTPRequestHandler):
    """A request handler that answers loopback Host names only, quietly and within bounds.
    Subclasses write ``do_GET`` as usual."""

    timeout = IDLE_TIMEOUT_S  # StreamRequestHandler puts it on the socket
    protocol_version = "HTTP/1.0"
    #: a request line that does not parse is answered with a status line all the same
    default_request_version = "HTTP/1.0"
    #: what a refused or failed request is told (no server version, no Python version)
    server_version = "pnp"
    sys_version = ""

    def log_message(self, format: str, *args: object) -> None:
        """Requests are not logged: the terminal is for pnp's own messages."""

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False  # http.server has answered 400 already
        if not loopback_host(self.headers.get("Host")):
            self.send_error(HTTPStatus.FORBIDDEN, "pnp serves this machine's own pages only",
                            "Open the page as http://localhost or http://127.0.0.1.")
            return False
        return True

    def handle_one_request(self) -> None:
        self._responded = False
        try:
            super().handle_one_request()
        except (TimeoutError, ConnectionError):
            self.close_connection = True  # idle or gone: close without a word
        except (ValueError, UnicodeError, LookupError):  # a request line or path that does
            self._fail(HTTPStatus.BAD_REQUEST)            # not parse: 400, no traceback
        except Exception:
            self._fail(HTTPStatus.INTERNAL_SERVER_ERROR)

    def send_response(self, code: int, message: str | None = None) -> None:
        self._responded = True
        super().send_response(code, message)

    def _fail(self, status: HTTPStatus) -> None:
        self.close_connection = True
        if self._responded or not getattr(self, "requestline", ""):
            return  # a response has begun, or there is no request to answer
        with suppress(OSError):
            self.send_error(status)


class LocalServer(ThreadingHTTPServer):
    """A threading HTTP server on a loopback address with bounded threads and no tracebacks."""

    daemon_threads = True  # an open event stream must not keep the process alive on Ctrl-C
    block_on_close = False
    request_queue_size = ACCEPT_QUEUE

    def __init__(self, address: tuple[str, int], handler: type[LocalHandler]) -> None:
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self._busy(request)
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

    def _busy(self, request: socket.socket) -> None:
        """Every slot is taken: say so in a few bytes and close, without a thread."""
        with suppress(OSError):
            request.settimeout(1.0)
            request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n"
                            b"Connection: close\r\n\r\n")
        self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """socketserver prints a traceback to stderr here; a bad client is no news."""
