"""Command-line value types that refuse what would corrupt an output: a usage error, exit 2.

A range check alone lets ``nan`` through (every comparison with NaN is false), and a NaN
millimetre value ends up in every coordinate of a PDF and its manifest. Every number pnp takes
on the command line is parsed here: finite, and within its range. Each type is an argparse
``type=`` callable: what it refuses raises ``ArgumentTypeError``, which argparse reports with
the option's name (``argument --bleed: 'nan' is not a finite number``) and exit status 2.
"""

from __future__ import annotations

import math
from argparse import ArgumentTypeError


class FiniteFloat:
    """A finite number within [low, high] (``nan``, ``inf`` and out-of-range values refused)."""

    def __init__(self, low: float, high: float, unit: str = "mm", name: str = "") -> None:
        self.low, self.high, self.unit = low, high, unit
        self.name = name or unit.upper()

    @property
    def metavar(self) -> str:
        """How the help names the value: its unit (or name) and range, e.g. ``MM[0-5]``."""
        return f"{self.name}[{self.low:g}-{self.high:g}]"

    def __call__(self, value: str) -> float:
        number = self.parse(value)
        if not self.low <= number <= self.high:
            raise ArgumentTypeError(
                f"{number:g} is outside {self.low:g} to {self.high:g} {self.unit}".rstrip())
        return number

    def parse(self, value: str) -> float:
        """The number ``value`` spells, before its range is checked."""
        try:
            number = float(str(value).strip())
        except ValueError:
            raise ArgumentTypeError(f"{value!r} is not a number") from None
        if not math.isfinite(number):
            raise ArgumentTypeError(f"{value!r} is not a finite number")
        return number


class WholeNumber(FiniteFloat):
    """A whole number within [low, high] (a resolution, a port)."""

    def parse(self, value: str) -> int:  # type: ignore[override]
        try:
            return int(str(value).strip())
        except ValueError:
            raise ArgumentTypeError(f"{value!r} is not a whole number") from None


class Offset:
    """``DX,DY`` in millimetres, each finite and at most ``limit`` in size."""

    metavar = "DX,DY"

    def __init__(self, limit: float = 20.0) -> None:
        self.limit = limit

    def __call__(self, value: str) -> tuple[float, float]:
        parts = str(value).split(",")
        if len(parts) != 2:
            raise ArgumentTypeError(
                f"expected DX,DY in millimetres, e.g. 0.5,-1 (got {value!r})")
        axis = FiniteFloat(-math.inf, math.inf)
        dx, dy = (axis.parse(part) for part in parts)
        if abs(dx) > self.limit or abs(dy) > self.limit:
            raise ArgumentTypeError(f"an offset over {self.limit:g} mm is not a printer "
                                    f"misregistration (got {dx:g},{dy:g})")
        return dx, dy
