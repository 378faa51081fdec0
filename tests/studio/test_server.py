"""The studio's server: a page on another site can neither read nor write the pack.

A real server on a free loopback port serves a copy of CWNB; the requests are made by hand, so
that each header a browser (or an attacker's page) would send can be set or left out.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT

from generator.runtime import localserver
from generator.runtime.localserver import loopback_host
from generator.studio import server as studio_server
from generator.studio.server import own_origin


class Running:
    """``pnp studio`` in a process of its own (a server's threads in the test process would
    stay in its memory, which forked tests after this one inherit)."""

    def __init__(self, pack: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", "studio", str(pack), "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        for line in self.process.stdout:
            found = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.server_address = ("127.0.0.1", int(found.group(1)))
                break
        else:
            raise AssertionError(f"pnp studio did not start: {self.process.stderr.read()}")
        port = self.server_address[1]
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/").read().decode()
        self.token = re.search(r'name="pnp-token" content="([^"]+)"', page).group(1)

    def stop(self) -> str:
        self.process.send_signal(signal.SIGINT)
        out, err = self.process.communicate(timeout=60)
        assert self.process.returncode == 0, err
        return out + err


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    root = tmp_path_factory.mktemp("studio")
    pack = root / "cwnb"
    shutil.copytree(ROOT / "cards" / "cwnb", pack)
    (root / "secret.txt").write_text("not the pack's", encoding="utf-8")
    (pack / "art").mkdir()
    (pack / "art" / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)'
        '</script></svg>', encoding="utf-8")
    # (Windows without the right to make links: the other paths still count)
    with contextlib.suppress(OSError):
        (pack / "art" / "link.png").symlink_to(root / "secret.txt")
    server = Running(pack)
    reported: list[str] = []
    yield server, pack, reported
    said = server.stop()
    assert "Traceback" not in said and "internal error" not in said, said


def _request(server, method: str, path: str, body: object = None, token: bool = True,
             headers: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"Host": f"127.0.0.1:{port}"}
    if token:
        sent["X-Pnp-Token"] = server.token
    if body is not None:
        sent["Content-Type"] = "application/json"
        sent["Origin"] = f"http://127.0.0.1:{port}"
    sent.update(headers or {})
    data = json.dumps(body).encode() if body is not None else None
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in sent.items():
        if value is not None:
            connection.putheader(name, value)
    if data is not None:
        connection.putheader("Content-Length", str(len(data)))
    connection.endheaders(data)
    response = connection.getresponse()
    result = response.status, response.read(), {k.lower(): v for k, v in response.getheaders()}
    connection.close()
    return result


def test_host_and_origin_names():
    assert loopback_host("127.0.0.1:8766", 8766) and loopback_host("localhost:8766", 8766)
    assert loopback_host("[::1]:8766", 8766)
    for host in ("evil.example:8766", "127.0.0.1.evil.example:8766", "127.0.0.1:80",
                 "localhost", "", None, "127.0.0.1:8766:1", "[::1]x:8766"):
        assert not loopback_host(host, 8766), host
    assert own_origin("http://127.0.0.1:8766", 8766)
    for origin in ("http://evil.example", "https://127.0.0.1:8766", "null", None,
                   "http://127.0.0.1:8767", "http://127.0.0.1:8766/x"):
        assert not own_origin(origin, 8766), origin


def test_pages_are_served_with_a_policy_that_forbids_everything_foreign(running):
    server, _, _ = running
    status, body, headers = _request(server, "GET", "/", token=False)
    assert status == 200 and b'data-card="uss-nimitz"' in body
    assert server.token.encode() in body  # the page carries the token for its own requests
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert headers["x-frame-options"] == "DENY"
    assert headers["cross-origin-resource-policy"] == "same-origin"
    assert b"<script>" not in body and b" style=" not in body  # nothing inline


def test_a_rebinding_host_is_refused(running):
    server, _, _ = running
    for host in ("evil.example", f"evil.example:{server.server_address[1]}"):
        status, body, _ = _request(server, "GET", "/", headers={"Host": host})
        assert status == 403 and server.token.encode() not in body


def test_writes_need_the_token_the_origin_and_json(running):
    server, pack, _ = running
    ships = pack / "ships.yaml"
    before = ships.read_bytes()
    body = {"values": {"name": "Hacked"}, "original": {}, "version": ""}
    path = "/api/card/uss-nimitz/save"
    cases = [
        ({"token": False}, 403),
        ({"headers": {"X-Pnp-Token": "guess"}}, 403),
        ({"headers": {"Origin": "http://evil.example"}}, 403),
        ({"headers": {"Origin": None}}, 403),
        ({"headers": {"Sec-Fetch-Site": "cross-site"}}, 403),
        ({"headers": {"Content-Type": "text/plain"}}, 415),
    ]
    for options, wanted in cases:
        status, _, _ = _request(server, "POST", path, body, **options)
        assert status == wanted, options
    assert ships.read_bytes() == before
    status, _, _ = _request(server, "GET", "/api/free-id?stem=x", token=False)
    assert status == 403  # the API's reads need the token too


def test_bodies_are_bounded_and_nonsense_is_answered_without_a_traceback(running):
    server, _, _ = running
    port = server.server_address[1]
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(f"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Pnp-Token: "
                    f"{server.token}\r\nOrigin: http://127.0.0.1:{port}\r\nContent-Type: "
                    f"application/json\r\nContent-Length: {studio_server.MAX_BODY + 1}\r\n\r\n"
                    .encode())
        assert raw.recv(100).startswith(b"HTTP/1.1 413")
    for junk in (b"\x16\x03\x01\x00 garbage\r\n\r\n", b"GET /../../etc/passwd HTTP/1.1\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", port)) as raw:
            raw.sendall(junk)
            assert raw.recv(100)[:12] in (b"HTTP/1.1 400", b"HTTP/1.1 403", b"HTTP/1.0 400")
    status, _, _ = _request(server, "POST", "/api/card/uss-nimitz/preview", "not a mapping")
    assert status == 200
    # values within the limits a pack's own files have
    status, body, _ = _request(server, "POST", "/api/card/uss-nimitz/preview",
                               {"values": {"name": "x" * 20_000}})
    assert status == 422 and b"the limit is 10000" in body
    status, _, _ = _request(server, "POST", "/api/translate/ru/check",
                            {"key": "cwnb\x04gun-3in.name\x04Gun Attack 3in",
                             "text": "x" * 20_000})
    assert status == 422
    bomb = "[" + ",".join(["&a [x, x, x, x, x, x, x, x, x]"] + ["*a"] * 9) + "]"
    started = time.monotonic()
    status, body, _ = _request(server, "POST", "/api/card/uss-nimitz/preview",
                               {"values": {"guns": {"$yaml": bomb}}})
    assert status == 200 and time.monotonic() - started < 10
    # (no traceback nor internal error: the fixture reads what the server said when it stops)


def test_no_path_leaves_the_pack(running):
    server, _, _ = running
    for path in ("/pack-file/cwnb/../secret.txt", "/pack-file/cwnb/art/link.png",
                 "/pack-file/cwnb/ships.yaml", "/pack-file/cwnb/%2e%2e/secret.txt",
                 "/static/../app.py", "/static/session.py", "/pictures/../../etc/passwd",
                 "/card/..%2f..%2fsecret.txt"):
        status, body, _ = _request(server, "GET", path)
        assert status == 404, path
        assert b"not the pack's" not in body
    status, body, headers = _request(server, "GET", "/pack-file/cwnb/art/logo.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml"
    assert "sandbox" in headers["content-security-policy"]  # its script never runs


def test_threads_are_bounded_and_silent_connections_closed(running):
    server, _, _ = running
    port = server.server_address[1]
    held = []
    try:
        for _ in range(localserver.MAX_CONNECTIONS):
            held.append(socket.create_connection(("127.0.0.1", port)))
        time.sleep(0.5)
        extra = socket.create_connection(("127.0.0.1", port))
        extra.settimeout(10)
        assert extra.recv(100).startswith(b"HTTP/1.1 503")
        extra.close()
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.5)
    status, _, _ = _request(server, "GET", "/")
    assert status == 200
    assert studio_server.Handler.timeout == localserver.IDLE_TIMEOUT_S


def test_a_preview_over_a_kept_open_connection(running):
    server, _, _ = running
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": f"127.0.0.1:{port}", "X-Pnp-Token": server.token,
               "Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json"}
    pictures = []
    for name in ("USS One", "USS Two"):
        connection.request("POST", "/api/card/uss-nimitz/preview", json.dumps(
            {"values": {"name": name, "class": "Nimitz", "type": "CVN", "nation": "US",
                        "points": 0, "hits_to_sink": 10, "air_strike": 2}, "locale": "en"}),
                           headers)
        answer = json.loads(connection.getresponse().read())
        assert [f["code"] for f in answer["findings"]] == ["out-of-range"]
        assert answer["findings"][0]["field"] == "points"
        connection.request("POST", "/api/card/uss-nimitz/preview", json.dumps(
            {"values": {"name": name, "class": "Nimitz", "type": "CVN", "nation": "US",
                        "points": 16, "hits_to_sink": 10, "air_strike": 2}, "locale": "en"}),
                           headers)
        answer = json.loads(connection.getresponse().read())
        assert answer["findings"] == [] and len(answer["faces"]) == 2
        front = answer["faces"][0]["url"]
        connection.request("GET", front, headers={"Host": headers["Host"]})
        picture = connection.getresponse()
        assert picture.status == 200 and picture.read().startswith(b"\x89PNG")
        pictures.append(front)
    assert pictures[0] != pictures[1]
    connection.close()


def test_refusals_and_errors_carry_the_studio_headers_and_the_api_its_json(running):
    """The local server's own refusals (another port, a request that does not parse) are
    answered with the studio's headers, and the API's in the JSON its pages read."""
    server, _, _ = running
    port = server.server_address[1]
    status, body, headers = _request(server, "GET", "/api/free-id?stem=x",
                                     headers={"Host": f"127.0.0.1:{port + 1}"})
    assert status == 403 and json.loads(body)["status"] == "refused"
    assert headers["x-frame-options"] == "DENY" and headers["connection"] == "close"
    status, body, headers = _request(server, "GET", "/", headers={"Host": "localhost"})
    assert status == 403 and server.token.encode() not in body
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(f"GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        answer = raw.recv(4096)
    assert answer.startswith(b"HTTP/1.1 400") and b"X-Frame-Options: DENY" in answer
