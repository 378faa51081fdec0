"""Progress bars: on a terminal for jobs over a second, never in pipes, never with --quiet."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

from conftest import CWNB, ROOT, run_pnp

from generator.runtime.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_slow_job_on_a_terminal_shows_a_bar_with_its_counts():
    stream, clock = Terminal(), Clock()
    with Progress("drawing pages", 10, stream=stream, clock=clock) as progress:
        progress.advance(3)
        assert not progress.shown and stream.getvalue() == ""  # not yet a second
        clock.now += 1.5
        progress.advance()
        assert progress.shown
        progress.extend(5)
        progress.advance(11)
    text = stream.getvalue()
    assert "drawing pages" in text
    assert "4/10" in text and "15/15" in text


def test_a_quick_job_prints_nothing():
    stream, clock = Terminal(), Clock()
    with Progress("building", 100, stream=stream, clock=clock) as progress:
        for _ in range(100):
            clock.now += 0.001
            progress.advance()
    assert stream.getvalue() == ""


def test_no_bar_outside_a_terminal_or_when_quiet():
    for stream, enabled in ((io.StringIO(), True), (Terminal(), False)):
        clock = Clock()
        with Progress("building", 5, stream=stream, clock=clock, enabled=enabled) as progress:
            clock.now += 10
            progress.advance(5)
            assert not progress.shown
        assert stream.getvalue() == ""


def test_build_in_a_pipe_prints_only_its_summary(tmp_path):
    result = run_pnp("build", str(CWNB), "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("wrote ") and result.stdout.count("\n") == 1
    assert "\x1b" not in result.stderr and "#" not in result.stderr


def test_quiet_build_on_a_terminal_prints_nothing(tmp_path):
    """stderr is a real pseudo-terminal here, as in an interactive shell."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.run(
            [sys.executable, "-m", "generator", "build", str(CWNB), "--out", str(tmp_path),
             "--quiet"], cwd=ROOT, stdout=subprocess.PIPE, stderr=follower, timeout=300)
        os.close(follower)
        written = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed: everything has been read
                break
            if not chunk:
                break
            written += chunk
    finally:
        os.close(leader)
    assert process.returncode == 0
    assert process.stdout == b"" and written == b""
    assert (tmp_path / "cwnb" / "en" / "a4" / "duplex.pdf").is_file()
