"""Pausing Python's cyclic garbage collector while a stage builds many long-lived objects.

Loading a card file or laying out thousands of faces creates objects that all survive, and no
cycles: the collector finds nothing, yet its passes over everything built so far cost a fifth
to a third of such a stage. Reference counting still frees whatever is dropped; the collector
resumes (if it was on) when the stage ends, however it ends, with what exists then frozen
(``gc.freeze``): never walked again, and never collected as a cycle. A one-shot command loses
nothing by that; a process that rebuilds for ever (``pnp watch``) calls
:func:`collect_frozen` between rebuilds, so a cycle left by one is not kept for good.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            # what the stage built lives on, without cycles: frozen, the collector's first
            # pass after it resumes does not walk all of it again (a few % of a large layout)
            gc.freeze()
            gc.enable()


def collect_frozen() -> None:
    """Give what the stages froze back to the collector, and collect: the pause of a long-
    running process, between two rebuilds."""
    gc.unfreeze()
    gc.collect()
