"""Print services' card formats: trim, bleed and resolution for every card size they print.

Every figure here, and where it comes from, is listed in docs/exports.md. A service prints a
card at its own trim size, which is not always the card's to the tenth of a millimetre (a
70 x 120 mm tarot card against 2.75 x 4.75 in): the face is then scaled uniformly to fit inside
the service's trim, centred, and its bleed art fills the sliver left on one axis. Sizes further
apart than :data:`MAX_SCALE_CHANGE` or :data:`MAX_PADDING_MM` are not the same card size, and
an export asking for one is refused with the sizes the service does print.
"""

from __future__ import annotations

from msgspec import Struct

from generator.model.cards import CardSize
from generator.render.cardpdf import CardFrame

INCH = 25.4
#: the face may shrink or grow this much to meet a service's trim (1 % is 0.9 mm on a poker card)
MAX_SCALE_CHANGE = 0.01
#: and leave at most this much of the service's trim to its bleed art, per side
MAX_PADDING_MM = 1.0


class ServiceSize(Struct, frozen=True, gc=False):
    """One card size a service prints: its trim and the bleed on each axis, in inches."""

    name: str
    trim_w_in: float
    trim_h_in: float
    bleed_x_in: float
    bleed_y_in: float

    @property
    def trim_mm(self) -> tuple[float, float]:
        return self.trim_w_in * INCH, self.trim_h_in * INCH

    def pixels(self, dpi: int) -> tuple[int, int]:
        return (round((self.trim_w_in + 2 * self.bleed_x_in) * dpi),
                round((self.trim_h_in + 2 * self.bleed_y_in) * dpi))

    def describe(self) -> str:
        w, h = self.trim_mm
        return f"{self.name} {w:.1f} x {h:.1f} mm ({self.trim_w_in:g} x {self.trim_h_in:g} in)"


class Preset(Struct, frozen=True):
    name: str
    service: str
    to: str  # png | card-pdf
    dpi: int
    sizes: tuple[ServiceSize, ...]

    def frame_for(self, card: CardSize) -> CardFrame | None:
        """The page a card of this size gets at this service, or None if it prints no such
        size."""
        for size in self.sizes:
            frame = _fit(card, size)
            if frame is not None:
                return frame
        return None

    def supported(self) -> str:
        return "; ".join(size.describe() for size in self.sizes)


def _fit(card: CardSize, size: ServiceSize) -> CardFrame | None:
    trim_w, trim_h = size.trim_mm
    scale = min(trim_w / card.width_mm, trim_h / card.height_mm)
    pad_x = (trim_w - card.width_mm * scale) / 2
    pad_y = (trim_h - card.height_mm * scale) / 2
    if abs(scale - 1) > MAX_SCALE_CHANGE or max(pad_x, pad_y) > MAX_PADDING_MM:
        return None
    bleed_x, bleed_y = size.bleed_x_in * INCH, size.bleed_y_in * INCH
    return CardFrame(trim_w + 2 * bleed_x, trim_h + 2 * bleed_y, (bleed_x, bleed_y, trim_w, trim_h),
                     bleed_x + pad_x, bleed_y + pad_y, 1.0 if abs(scale - 1) < 1e-9 else scale)


EIGHTH = 0.125
#: MakePlayingCards states its bleed as 36 px per side at 300 dpi: 0.12 in, not quite 1/8 in
MPC_BLEED = 36 / 300

PRESETS: dict[str, Preset] = {
    "thegamecrafter": Preset("thegamecrafter", "The Game Crafter", "png", 300, (
        ServiceSize("poker", 2.5, 3.5, EIGHTH, EIGHTH),
        ServiceSize("bridge", 2.25, 3.5, EIGHTH, EIGHTH),
        ServiceSize("mini", 1.75, 2.5, EIGHTH, EIGHTH),
        ServiceSize("tarot", 2.75, 4.75, EIGHTH, EIGHTH),
        ServiceSize("square", 3.5, 3.5, EIGHTH, EIGHTH),
        ServiceSize("jumbo", 3.5, 5.5, EIGHTH, EIGHTH),
        ServiceSize("micro", 1.25, 1.75, EIGHTH, EIGHTH),
        ServiceSize("business", 2.0, 3.5, EIGHTH, EIGHTH),
    )),
    "makeplayingcards": Preset("makeplayingcards", "MakePlayingCards", "png", 300, (
        ServiceSize("poker", 2.5, 3.5, MPC_BLEED, MPC_BLEED),
        ServiceSize("tarot", 2.75, 4.75, MPC_BLEED, MPC_BLEED),
    )),
    "drivethrucards": Preset("drivethrucards", "DriveThruCards", "card-pdf", 300, (
        ServiceSize("poker", 2.5, 3.5, EIGHTH, EIGHTH),
    )),
}
