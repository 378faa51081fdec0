"""Generate the raster art of the Emberfall test pack (``tests/fixtures/emberfall/art/``).

Emberfall is the game DESIGN.md uses as its example of a game defined in data; the conformance
tests (tests/test_datagame_contract.py) print it. Its pictures are scenes made with Pillow alone,
seeded, so running the script again gives the same pixels:

    .venv/bin/python tools/make_emberfall_art.py

Each format the contract names is used: PNG and JPEG creature scenes, a WebP card back (and the
expansion ``emberfall-ashes`` gets a PNG of its own). The art
window of a creature is 63.5 x 40 mm plus 3 mm bleed on three sides, so 840 x 540 px print at
about 300 dpi; the back, 69.5 x 94.9 mm with its bleed, needs 830 x 1130 px.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter
from ridgeline import ridge  # tools/ridgeline.py (scripts run as tools/<name>.py)

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
ART = FIXTURES / "emberfall" / "art"
EXPANSION_ART = FIXTURES / "emberfall-ashes" / "art"
SCENE = (840, 540)

#: name -> (format, seed, sky top, sky bottom, ground, creature colour, eye colour)
SCENES = {
    "ember-drake.png": ("PNG", 1, (40, 10, 30), (230, 90, 40), (60, 20, 20), (25, 8, 10),
                        (255, 210, 80)),
    "ash-wolf.png": ("PNG", 2, (60, 60, 70), (190, 150, 120), (70, 60, 60), (30, 28, 30),
                     (250, 120, 60)),
    "frost-wyrm.png": ("PNG", 3, (20, 40, 80), (170, 210, 235), (220, 235, 245), (40, 60, 90),
                       (120, 230, 255)),
    "cinder-imp.jpg": ("JPEG", 4, (30, 10, 10), (200, 60, 20), (50, 15, 10), (15, 5, 5),
                       (255, 240, 120)),
    "lava-golem.jpg": ("JPEG", 5, (50, 20, 10), (250, 140, 40), (90, 30, 10), (40, 20, 15),
                       (255, 90, 30)),
    "shade-walker.jpg": ("JPEG", 6, (15, 10, 30), (90, 60, 130), (30, 20, 40), (8, 5, 15),
                         (200, 160, 255)),
}


def mix(a: tuple[int, ...], b: tuple[int, ...], t: float) -> tuple[int, ...]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def creature(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int,
             body: tuple[int, ...], eye: tuple[int, ...]) -> None:
    """A hunched silhouette with two glowing eyes: a blob of overlapping ellipses."""
    cx, cy = w * rng.uniform(0.38, 0.62), h * 0.66
    for _ in range(14):
        rx, ry = w * rng.uniform(0.06, 0.16), h * rng.uniform(0.08, 0.2)
        ox, oy = rng.uniform(-1, 1) * w * 0.12, rng.uniform(-0.8, 0.4) * h * 0.15
        draw.ellipse([cx + ox - rx, cy + oy - ry, cx + ox + rx, cy + oy + ry], fill=body)
    for side in (-1, 1):  # horns
        base = cx + side * w * 0.05
        draw.polygon([(base - w * 0.015, cy - h * 0.22), (base + w * 0.015, cy - h * 0.22),
                      (base + side * w * 0.05, cy - h * 0.42)], fill=body)
    for side in (-1, 1):
        ex = cx + side * w * 0.03
        draw.ellipse([ex - w * 0.012, cy - h * 0.14, ex + w * 0.012, cy - h * 0.10], fill=eye)


def scene(seed: int, top, bottom, ground, body, eye) -> Image.Image:
    scale = 2
    w, h = SCENE[0] * scale, SCENE[1] * scale
    image = Image.new("RGB", (w, h))
    draw = ImageDraw.Draw(image)
    for y in range(h):
        draw.line([(0, y), (w, y)], fill=mix(top, bottom, y / (h - 1)))
    rng = random.Random(seed)
    moon = (w * rng.uniform(0.1, 0.3), h * rng.uniform(0.12, 0.3))
    draw.ellipse([moon[0] - h * 0.09, moon[1] - h * 0.09, moon[0] + h * 0.09, moon[1] + h * 0.09],
                 fill=mix(bottom, (255, 255, 230), 0.6))
    for depth, share in ((0.55, 0.35), (0.68, 0.6), (0.8, 0.85)):
        line = ridge(rng, w, h * depth, h * 0.12)
        draw.polygon([*line, (w, h), (0, h)], fill=mix(bottom, ground, share))
    creature(draw, rng, w, h, body, eye)
    for _ in range(120):  # embers drifting up
        x, y = rng.uniform(0, w), rng.uniform(0, h * 0.8)
        r = rng.uniform(1.5, 4.5) * scale
        draw.ellipse([x - r, y - r, x + r, y + r], fill=mix(eye, (255, 255, 255), 0.3))
    return image.resize(SCENE, Image.Resampling.LANCZOS)


def back() -> Image.Image:
    """The card back: dark red stone with a ring of flames, as WebP."""
    w, h = 830, 1130
    image = Image.new("RGB", (w, h), (60, 14, 12))
    draw = ImageDraw.Draw(image)
    rng = random.Random(9)
    for _ in range(900):
        x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(8, 40)
        shade = rng.randint(40, 95)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=(shade, shade // 4, shade // 5))
    image = image.filter(ImageFilter.GaussianBlur(6))
    draw = ImageDraw.Draw(image)
    cx, cy = w / 2, h / 2
    for i in range(36):
        angle = i * math.tau / 36
        inner, outer = 250, 290 + 30 * (i % 2)
        left, right = angle - 0.06, angle + 0.06
        draw.polygon([(cx + inner * math.cos(left), cy + inner * math.sin(left)),
                      (cx + outer * math.cos(angle), cy + outer * math.sin(angle)),
                      (cx + inner * math.cos(right), cy + inner * math.sin(right))],
                     fill=(230, 120 + 3 * (i % 10), 40))
    return image


def main() -> None:
    ART.mkdir(parents=True, exist_ok=True)
    for name, (fmt, seed, *colours) in SCENES.items():
        image = scene(seed, *colours)
        options = {"quality": 82, "optimize": True} if fmt == "JPEG" else {"optimize": True}
        if fmt == "PNG":
            image = image.quantize(64)  # flat painted colours: a small palette PNG
        image.save(ART / name, fmt, **options)
    back().save(ART / "back.webp", "WEBP", quality=80, method=6)
    # the expansion's own picture (its cards also name one of the base game's)
    EXPANSION_ART.mkdir(parents=True, exist_ok=True)
    deep = scene(7, (10, 20, 30), (120, 50, 30), (30, 20, 20), (12, 8, 8), (255, 120, 40))
    deep.quantize(64).save(EXPANSION_ART / "deep-ember.png", "PNG", optimize=True)


if __name__ == "__main__":
    main()
