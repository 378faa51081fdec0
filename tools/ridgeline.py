"""A seeded hill or mountain line, shared by the art scripts of this folder.

Midpoint displacement: the line is split in halves again and again, each new midpoint moved up
or down by a random amount that shrinks at every level, which gives the rough-then-smooth edge
of a distant ridge. Same seed, same points.
"""

from __future__ import annotations

import itertools
import random


def ridge(rng: random.Random, width: int, base: float, rough: float) -> list[tuple[float, float]]:
    """65 points of a ridge around height ``base``, from x = 0 to x = ``width``."""
    points = [base, base]
    spread = rough
    while len(points) < 65:
        refined: list[float] = []
        for left, right in itertools.pairwise(points):
            refined += [left, (left + right) / 2 + rng.uniform(-spread, spread)]
        points = [*refined, points[-1]]
        spread *= 0.55
    step = width / (len(points) - 1)
    return [(i * step, y) for i, y in enumerate(points)]
