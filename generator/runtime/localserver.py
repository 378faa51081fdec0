"""The one HTTP server pnp starts (``pnp watch``, ``pnp studio``): this machine's pages only.

Both commands serve unpublished cards on the loopback interface, and the studio also writes
them. Listening on 127.0.0.1 keeps other machines out, but not a web page the user visits: it
can make its own domain resolve to 127.0.0.1 (DNS rebinding) and then read the page as one of
its own origin. Such a request still names the attacker's domain in its ``Host`` header, so a
request whose Host is not a loopback name with this server's port is refused (403). The rest is
what any server facing untrusted bytes needs and ``http.server`` leaves to its users:

- a malformed request gets a plain-text 400, a refused one the status it was refused with (see
  :class:`Refused`), a failing handler a 500 (and one line to the ``report`` the server was
  given), never a traceback printed in the user's terminal (``socketserver`` prints one for any
  exception);
- a connection that sends nothing for :data:`IDLE_TIMEOUT_S` is closed (300 idle connections
  held 303 threads);
- at most :data:`MAX_CONNECTIONS` requests are handled at once; more are answered 503 and
  closed, so threads are bounded; the accept queue is :data:`ACCEPT_QUEUE` deep;
- a busy port is a usage error that names the port, before any long first build;
- Ctrl-C (or SIGTERM, a process manager's Ctrl-C) stops the server in one way for every command
  (:func:`serving`).

What a server adds (the watch page's event stream, the studio's token, origin check and JSON
bodies) is its own module's business: this one knows nothing of routes.
"""

from __future__ import annotations

import errno
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import SplitResult, urlsplit

from generator.core.errors import UsageError

#: the only address pnp listens on (never a configurable one)
HOST = "127.0.0.1"
#: the names a browser on this machine uses for it; anything else may be a rebinding attack
LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "127.0.0.1", "[::1]"})
#: seconds a connection may stay silent (a request line, headers, a slow reader, a kept-open
#: connection between two requests: each one holds a thread while it waits)
IDLE_TIMEOUT_S = 20.0
#: requests handled at once (an open proof page holds one for its event stream; a browser keeps
#: about six connections to one server)
MAX_CONNECTIONS = 32
#: connections the kernel keeps waiting to be accepted (socketserver's default is 5)
ACCEPT_QUEUE = 64


class Refused(Exception):
    """A request the server will not serve: the status it is answered with and why."""

    def __init__(self, status: HTTPStatus, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def loopback_host(value: str | None, port: int | None = None) -> bool:
    """Whether a ``Host`` header names this machine: a loopback name and, when ``port`` is
    given, that port (a Host without one means port 80, as HTTP has it)."""
    if not value:
        return False
    host = value.strip().lower()
    if host.startswith("["):  # [::1] or [::1]:8000
        inside, closed, rest = host.partition("]")
        if not closed or (rest and not rest.startswith(":")):
            return False
        name, given = inside + "]", rest[1:]
    else:
        name, _, given = host.partition(":")
    if name not in LOOPBACK_NAMES or not (given == "" or _port(given)):
        return False
    return port is None or int(given or 80) == port


def _port(text: str) -> bool:
    return text.isascii() and text.isdigit() and 0 < int(text) < 65536


class LocalHandler(BaseHTTPRequestHandler):
    """A request handler that answers loopback Host names only, quietly and within bounds.

    Subclasses write ``do_GET`` (and so on) as usual; a check that fails raises
    :class:`Refused`, which :meth:`refuse` answers (a subclass may answer in its own form)."""

    server: LocalServer
    timeout = IDLE_TIMEOUT_S  # StreamRequestHandler puts it on the socket
    #: one request per connection; a server that keeps connections open says HTTP/1.1
    protocol_version = "HTTP/1.0"
    #: a request line that does not parse is answered with a status line all the same
    default_request_version = "HTTP/1.0"
    #: what a refused or failed request is told (no server version, no Python version)
    server_version = "pnp"
    sys_version = ""
    #: errors are text, never HTML: http.server's page quotes the request line back
    error_content_type = "text/plain; charset=utf-8"
    error_message_format = "%(code)d %(message)s: %(explain)s\n"

    def log_message(self, format: str, *args: object) -> None:
        """Requests are not logged: the terminal is for pnp's own messages."""

    def version_string(self) -> str:
        return self.server_version

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False  # http.server has answered 400 (or 414, 431, 505) already
        port = self.server.server_address[1]
        if not loopback_host(self.headers.get("Host"), port):
            self._answer_refusal(Refused(HTTPStatus.FORBIDDEN,
                                         f"open the page as http://{HOST}:{port}/ (pnp serves "
                                         "this machine's own pages only)"))
            return False
        return True

    def target(self) -> SplitResult:
        """The request's path and query, split; a target that does not split is a 400."""
        try:
            return urlsplit(self.path)
        except ValueError:  # e.g. "http://[": an IPv6 host that never closes
            raise Refused(HTTPStatus.BAD_REQUEST, "the request's path does not parse") from None

    def refuse(self, refused: Refused) -> None:
        """Answer a request that is not served (the connection closes after it)."""
        self.send_error(refused.status, None, refused.reason)

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")  # every response, errors too
        super().end_headers()

    def send_body(self, status: int, kind: str, data: bytes, cache: str = "no-store",
                  headers: Iterable[tuple[str, str]] = ()) -> None:
        """A whole answer: its status, type, length and caching, ``headers``, then ``data``
        (left out for a HEAD request, which gets the headers a GET would)."""
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", cache)
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def handle_one_request(self) -> None:
        self._responded = False
        try:
            super().handle_one_request()
        except (TimeoutError, ConnectionError):
            self.close_connection = True  # idle or gone: close without a word
        except Refused as refused:
            self._answer_refusal(refused)
        except Exception as exc:  # a bug must neither print a traceback nor stop the server
            self.close_connection = True
            self.server.report(f"internal error: {type(exc).__name__}: {exc}")
            if self._can_answer():
                self._quietly(self.send_error, HTTPStatus.INTERNAL_SERVER_ERROR)

    def send_response(self, code: int, message: str | None = None) -> None:
        self._responded = True
        super().send_response(code, message)

    def _answer_refusal(self, refused: Refused) -> None:
        self.close_connection = True  # a refused request's body may not have been read
        if self._can_answer():
            self._quietly(self.refuse, refused)

    def _can_answer(self) -> bool:
        """Whether there is a request to answer and no response to it has begun."""
        return not self._responded and bool(getattr(self, "requestline", ""))

    def _quietly(self, answer: Callable[..., None], *args: Any) -> None:
        with suppress(OSError):
            answer(*args)


class LocalServer(ThreadingHTTPServer):
    """A threading HTTP server on :data:`HOST` with bounded threads and no tracebacks.

    ``command`` names the command in the message for a busy port; ``report`` is told of a
    handler that failed (one line, no traceback)."""

    daemon_threads = True  # an open event stream must not keep the process alive on Ctrl-C
    block_on_close = False
    request_queue_size = ACCEPT_QUEUE
    #: Windows lets a second socket bind a port in use when SO_REUSEADDR is set: a second pnp
    #: would share the port instead of being told it is busy
    allow_reuse_address = os.name != "nt"
    command = "pnp"

    def __init__(self, port: int, handler: type[LocalHandler],
                 report: Callable[[str], None] | None = None) -> None:
        self._report = report
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        try:
            super().__init__((HOST, port), handler)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise UsageError(f"port {port} on {HOST} is busy (another {self.command}?); "
                                 "choose another with --port") from None
            raise UsageError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None

    def report(self, line: str) -> None:
        """Tell the user what went wrong in a handler (nothing, when no report was given)."""
        if self._report is not None:
            self._report(line)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

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
        version = self.RequestHandlerClass.protocol_version.encode("ascii")  # type: ignore[attr-defined]
        with suppress(OSError):
            request.settimeout(1.0)
            request.sendall(version + b" 503 Service Unavailable\r\nContent-Length: 0\r\n"
                                      b"Connection: close\r\n\r\n")
        self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """socketserver prints a traceback to stderr here; a bad client is no news."""


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextmanager
def serving(server: LocalServer, name: str) -> Iterator[None]:
    """Serve on a thread of its own while the ``with`` block runs; Ctrl-C or SIGTERM end the
    block quietly, and the server then stops and closes whatever ended it.

    The block runs in the main thread, where Python delivers signals; SIGTERM is turned into
    Ctrl-C for that time, so a process manager stops pnp as cleanly as a user does."""
    threading.Thread(target=server.serve_forever, name=name, daemon=True).start()
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.shutdown()
        server.server_close()


def wait_for_interrupt() -> None:
    """Wait until Ctrl-C (KeyboardInterrupt) or SIGTERM inside :func:`serving`."""
    stop = threading.Event()
    # short waits: the system may hand Ctrl-C to another thread, and Python runs the handler
    # in this one only when it wakes up (a wait without a timeout could sleep through it)
    while not stop.wait(0.25):
        pass
