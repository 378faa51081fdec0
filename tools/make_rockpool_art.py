"""Generate the raster art of the Rockpool pack: the two water textures behind tide cards and
card backs (``cards/rockpool/art/water-low.png`` and ``water-high.png``).

The textures are made, not photographed: smooth value noise folded into bright ridges looks like
the light nets (caustics) that sunlight draws on the floor of a shallow pool. Everything is
seeded, so running the script again gives the same pixels. Only Pillow is needed:

    .venv/bin/python tools/make_rockpool_art.py

The images are 1000 x 1370 px: a poker card with 3 mm bleed on every side (69.5 x 94.9 mm)
prints them at about 365 dpi, above the 300 dpi that pnp asks of raster art.
"""

from __future__ import annotations

import random
from pathlib import Path

from PIL import Image, ImageChops, ImageFilter, ImageOps

SIZE = (1000, 1370)
ART = Path(__file__).resolve().parents[1] / "cards" / "rockpool" / "art"

#: name -> (seed, deep colour, mid colour, light colour)
WATERS = {
    "water-low": (7, "#2f7f86", "#6cbcb8", "#e9f4e4"),
    "water-high": (11, "#0f2f4a", "#1f5f7a", "#9fd0d8"),
}


def value_noise(rng: random.Random, cells: tuple[int, int]) -> Image.Image:
    """A smooth grey field: random values on a coarse grid, enlarged with bicubic smoothing."""
    grid = Image.new("L", cells)
    grid.putdata([rng.randrange(256) for _ in range(cells[0] * cells[1])])
    return grid.resize(SIZE, Image.Resampling.BICUBIC)


def ridges(field: Image.Image, sharpness: float) -> Image.Image:
    """Bright thin lines where the field crosses its middle grey: the caustic net."""
    return field.point(lambda v: int(255 * (1 - abs(v - 128) / 128) ** sharpness))


def water(seed: int, deep: str, mid: str, light: str) -> Image.Image:
    rng = random.Random(seed)
    net = ImageChops.lighter(ridges(value_noise(rng, (9, 12)), 7.0),
                             ridges(value_noise(rng, (14, 19)), 9.0))
    net = net.filter(ImageFilter.GaussianBlur(2.2))
    swell = value_noise(rng, (4, 5)).filter(ImageFilter.GaussianBlur(40))
    depth = Image.linear_gradient("L").resize(SIZE).point(lambda v: 255 - v // 2)
    tone = ImageChops.multiply(swell.point(lambda v: 90 + v // 2), depth)
    grey = ImageChops.add(tone.point(lambda v: v * 3 // 4), net.point(lambda v: v * 2 // 3))
    return ImageOps.colorize(grey, black=deep, mid=mid, white=light, midpoint=110)


def main() -> None:
    for name, (seed, deep, mid, light) in WATERS.items():
        image = water(seed, deep, mid, light)
        path = ART / f"{name}.png"
        image.quantize(colors=96, dither=Image.Dither.FLOYDSTEINBERG).save(
            path, optimize=True, dpi=(365, 365))
        print(f"wrote {path} {image.size[0]}x{image.size[1]} px, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
