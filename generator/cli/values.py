"""Command-line value types that refuse what would corrupt an output: a usage error, exit 2.

A range check alone lets ``nan`` through (every comparison with NaN is false; click's
FloatRange is such a check), and a NaN millimetre value ends up in every coordinate of a PDF
and its manifest. Every number pnp takes on the command line is parsed here: finite, and within
its range. Each type is a click ``ParamType``: what it refuses goes to ``fail``, which click
reports with the option's name (``Invalid value for '--bleed': 'nan' is not a finite number``)
and exit status 2.
"""

from __future__ import annotations

import math

import click


class FiniteFloat(click.ParamType):
    """A finite number within [low, high] (``nan``, ``inf`` and out-of-range values refused)."""

    name = "number"

    def __init__(self, low: float, high: float, unit: str = "mm", name: str = "") -> None:
        self.low, self.high, self.unit = low, high, unit
        self.shown = name or unit.upper()

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        """How the help names the value: its unit (or name) and range, e.g. ``MM[0-5]``."""
        return f"{self.shown}[{self.low:g}-{self.high:g}]"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        number = self.parse(value, param, ctx)
        if not self.low <= number <= self.high:
            self.fail(f"{number:g} is outside {self.low:g} to {self.high:g} {self.unit}".rstrip(),
                      param, ctx)
        return number

    def parse(self, value: object, param: click.Parameter | None,
              ctx: click.Context | None) -> float:
        """The number ``value`` spells, before its range is checked (a default is a number
        already)."""
        if isinstance(value, float | int) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class WholeNumber(FiniteFloat):
    """A whole number within [low, high] (a resolution, a port)."""

    name = "integer"

    def parse(self, value: object, param: click.Parameter | None,  # type: ignore[override]
              ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a whole number", param, ctx)


class Offset(click.ParamType):
    """``DX,DY`` in millimetres, each finite and at most ``limit`` in size."""

    name = "DX,DY"

    def __init__(self, limit: float = 20.0) -> None:
        self.limit = limit

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[float, float]:
        if isinstance(value, tuple):  # the default, a pair already
            return value  # type: ignore[return-value]
        parts = str(value).split(",")
        if len(parts) != 2:
            self.fail(f"expected DX,DY in millimetres, e.g. 0.5,-1 (got {value!r})", param, ctx)
        axis = FiniteFloat(-math.inf, math.inf)
        dx, dy = (axis.parse(part, param, ctx) for part in parts)
        if abs(dx) > self.limit or abs(dy) > self.limit:
            self.fail(f"an offset over {self.limit:g} mm is not a printer misregistration "
                      f"(got {dx:g},{dy:g})", param, ctx)
        return dx, dy
