"""Servers pnp starts answer this machine only, and stay bounded (issue 24).

A real ``pnp watch`` server (generator.proof.watch on generator.runtime.localserver) on a free
port of 127.0.0.1, spoken to with raw sockets: a rebinding Host, malformed requests, idle and
surplus connections. Every loop is bounded in count and time and talks to loopback only.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from conftest import ROOT

from generator.core.errors import UsageError
from generator.proof.watch import ProofState, open_server
from generator.runtime import localserver
from generator.runtime.localserver import loopback_host

FIXTURE = ROOT / "tests" / "fixtures" / "proof-pack"


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[int, object]]:
    state = ProofState(FIXTURE, (), ("en",))
    state.rebuild()
    server = open_server(0, state)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], server
    finally:
        state.stop()
        server.shutdown()
        server.server_close()


def _ask(port: int, request: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
        return answer


@pytest.mark.parametrize(("host", "allowed"), [
    ("localhost", True), ("127.0.0.1:8000", True), ("[::1]:8000", True), ("LOCALHOST", True),
    ("evil.example", False), ("evil.example:8000", False), ("127.0.0.1.evil.example", False),
    ("localhost:x", False), ("[::1]x", False), ("", False), (None, False),
])
def test_loopback_host_names(host, allowed):
    assert loopback_host(host) is allowed


def test_a_rebinding_host_is_refused_and_loopback_served(served):
    port, _ = served
    page = _ask(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert page.startswith(b"HTTP/1.0 200") and b"data-live" in page
    evil = _ask(port, b"GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n")
    assert evil.startswith(b"HTTP/1.0 403") and b"data-live" not in evil
    assert _ask(port, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 403")  # no Host


@pytest.mark.parametrize("request_line", [
    b"GET http://[ HTTP/1.1", b"\x00\xff\xfe garbage", b"GET /%zz%ff HTTP/1.1",
    b"GET / HTTP/9.9", b"GET " + b"/a" * 40_000 + b" HTTP/1.1",
])
def test_malformed_requests_get_a_400_without_a_traceback(served, capfd, request_line):
    port, _ = served
    answer = _ask(port, request_line + f"\r\nHost: localhost:{port}\r\n\r\n".encode())
    status = answer.split(b"\r\n", 1)[0]
    assert status.split(b" ")[1:2] in ([b"400"], [b"404"], [b"414"], [b"505"]), answer[:200]
    time.sleep(0.2)
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Exception" not in captured.err


def test_idle_connections_are_closed(served, monkeypatch):
    port, _ = served
    monkeypatch.setattr(localserver.LocalHandler, "timeout", 0.5)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as idle:
        started = time.monotonic()
        assert idle.recv(1024) == b""  # the server closed it, having heard nothing
        assert time.monotonic() - started < 5


def test_threads_are_bounded_and_surplus_connections_are_told_busy(served, monkeypatch):
    port, server = served
    monkeypatch.setattr(localserver.LocalHandler, "timeout", 3.0)
    held = [socket.create_connection(("127.0.0.1", port), timeout=10)
            for _ in range(localserver.MAX_CONNECTIONS)]
    try:
        time.sleep(0.3)
        busy = _ask(port, b"")
        assert busy.startswith(b"HTTP/1.0 503"), busy
        assert threading.active_count() < localserver.MAX_CONNECTIONS + 10
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.5)
    page = _ask(port, f"GET / HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n".encode())
    assert page.startswith(b"HTTP/1.0 200")  # the slots came back
    assert server.request_queue_size >= 64


def test_a_loopback_host_with_another_port_is_refused(served):
    """Both servers ask for this server's own port: a page served from another local port (or
    a proxy there) does not reach pnp under its own name."""
    port, _ = served
    other = port + 1 if port < 65535 else port - 1
    for host in (f"127.0.0.1:{other}", "localhost", f"localhost:{port}0", "localhost:\u00b2"):
        answer = _ask(port, f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n".encode("latin-1"))
        assert answer.startswith(b"HTTP/1.0 403") and b"data-live" not in answer, host
    assert _ask(port, f"GET / HTTP/1.1\r\nHost: localhost.:{port}\r\n\r\n".encode()) \
        .startswith(b"HTTP/1.0 200")
    assert loopback_host(f"[::1]:{port}", port) and not loopback_host("[::1]", port)
    assert loopback_host("127.0.0.1", 80) and not loopback_host("localhost:\u00b2")


def test_refusals_and_errors_are_plain_text_that_quotes_nothing_as_html(served):
    port, _ = served
    for request in (b"GET /<script> HTTP/9.9\r\n\r\n",
                    b"GET / HTTP/1.1\r\nHost: <b>evil</b>.example\r\n\r\n"):
        head, _, body = _ask(port, request).partition(b"\r\n\r\n")
        assert b"Content-Type: text/plain; charset=utf-8" in head, head
        assert b"X-Content-Type-Options: nosniff" in head
        assert b"<html" not in body.lower() and b"<b>" not in body


class _Failing(localserver.LocalHandler):
    def do_GET(self) -> None:
        if self.target().path == "/half":
            self.send_response(200)
            self.end_headers()
        raise ZeroDivisionError("a bug")


def test_a_failing_handler_answers_500_and_reports_one_line(capfd):
    said: list[str] = []
    server = localserver.LocalServer(0, _Failing, said.append)
    with localserver.serving(server, "test-failing"):
        answer = _ask(server.port, f"GET /x HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
                      .encode())
        half = _ask(server.port, f"GET /half HTTP/1.0\r\nHost: localhost:{server.port}\r\n\r\n"
                    .encode())
    assert answer.startswith(b"HTTP/1.0 500"), answer
    assert half.startswith(b"HTTP/1.0 200") and b"500" not in half  # begun: closed, not redone
    assert said == ["internal error: ZeroDivisionError: a bug"] * 2
    assert "Traceback" not in capfd.readouterr().err


def test_a_busy_port_names_the_command():
    with localserver.LocalServer(0, _Failing) as first, pytest.raises(
            UsageError, match=rf"port {first.port} on 127\.0\.0\.1 is busy \(another pnp\?\)"):
        localserver.LocalServer(first.port, _Failing)


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name == "nt",
                    reason="SIGTERM to oneself ends a Windows process")
def test_sigterm_stops_the_server_like_ctrl_c():
    server = localserver.LocalServer(0, _Failing)
    previous = signal.getsignal(signal.SIGTERM)
    with localserver.serving(server, "test-sigterm"):
        port = server.port
        assert _ask(port, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 403")
        os.kill(os.getpid(), signal.SIGTERM)
        localserver.wait_for_interrupt()  # returns by KeyboardInterrupt, which ends the block
        raise AssertionError("SIGTERM did not end the block")
    assert signal.getsignal(signal.SIGTERM) is previous
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
