"""A progress bar for long jobs on a terminal, and silence everywhere else.

Builds and exports of a few seconds should show that they are moving, but a log file, a pipe or
CI must get exactly the output they got before. So the bar appears only when the stream is a
terminal, only once the job has run longer than ``delay_s`` (short jobs print nothing extra),
and never with ``--quiet``. It is click's progress bar, drawn on stderr so that stdout stays
clean for whatever a command prints there.

    with Progress("laying out", total=len(cards), enabled=not quiet) as progress:
        for card in cards:
            ...
            progress.advance()
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Any

import click

#: a job finishing sooner than this shows no bar at all
DEFAULT_DELAY_S = 1.0


class Progress:
    """Counts steps of a job and draws a bar for it once the job has taken a while."""

    def __init__(self, label: str, total: int, *, enabled: bool = True,
                 delay_s: float = DEFAULT_DELAY_S, stream: IO[str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label = label
        self.total = max(int(total), 0)
        self.done = 0
        self._stream = stream if stream is not None else sys.stderr
        self._enabled = enabled and _is_terminal(self._stream)
        self._delay_s = delay_s
        self._clock = clock
        self._started = clock()
        self._bar: Any = None  # click's ProgressBar, created when the delay has passed

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        if self._bar is None:
            if not self._enabled or self._clock() - self._started < self._delay_s:
                return
            self._bar = click.progressbar(length=self.total, label=self.label,
                                          file=self._stream, show_pos=True)
            self._bar.__enter__()
            self._bar.update(self.done)
        else:
            self._bar.update(steps)

    def extend(self, steps: int) -> None:
        """Add steps that only became known on the way (pages, once cards are imposed)."""
        self.total += max(int(steps), 0)
        if self._bar is not None:
            self._bar.length = self.total

    def relabel(self, label: str) -> None:
        """Name the current stage of the job (the bar keeps counting the same steps)."""
        self.label = label
        if self._bar is not None:
            self._bar.label = label

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _is_terminal(stream: IO[str]) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed or odd stream is not a terminal
        return False
