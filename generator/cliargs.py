"""Command-line value types that refuse what would corrupt an output: a usage error, exit 2.

click's FloatRange lets ``nan`` through (every comparison with NaN is false), and a NaN
millimetre value ends up in every coordinate of a PDF and its manifest. Every number pnp takes
on the command line is parsed here: finite, and within its range.
"""

from __future__ import annotations

import math

import click


class FiniteFloat(click.ParamType):
    """A finite number within [low, high] (``nan``, ``inf`` and out-of-range values refused)."""

    name = "number"

    def __init__(self, low: float, high: float, unit: str = "mm") -> None:
        self.low, self.high, self.unit = low, high, unit

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, float | int) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if not self.low <= number <= self.high:
            self.fail(f"{number:g} is outside {self.low:g} to {self.high:g} {self.unit}",
                      param, ctx)
        return number

    def get_metavar(self, param: click.Parameter, *args: object, **kwargs: object) -> str:
        return f"{self.unit.upper()}[{self.low:g}-{self.high:g}]"


class Offset(click.ParamType):
    """``DX,DY`` in millimetres, each finite and at most ``limit`` in size."""

    name = "DX,DY"

    def __init__(self, limit: float = 20.0) -> None:
        self.limit = limit

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[float, float]:
        if isinstance(value, tuple):
            return value  # type: ignore[return-value]
        parts = str(value).split(",")
        if len(parts) != 2:
            self.fail(f"expected DX,DY in millimetres, e.g. 0.5,-1 (got {value!r})", param, ctx)
        axis = FiniteFloat(-math.inf, math.inf)
        dx, dy = (axis.convert(part, param, ctx) for part in parts)
        if abs(dx) > self.limit or abs(dy) > self.limit:
            self.fail(f"an offset over {self.limit:g} mm is not a printer misregistration "
                      f"(got {dx:g},{dy:g})", param, ctx)
        return dx, dy
