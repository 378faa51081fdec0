"""Tabletop Simulator decks: card sheets, backs and a saved object that spawns the decks.

Follows TTS's save-file format (docs/exports.md has the references): a custom deck is a sheet
image of at most 10 x 7 cards read left to right, top to bottom; the last slot of a sheet is the
image TTS shows for a card hidden in another player's hand, unless ``BackIsHidden`` says to use
the back, which pnp does (the slot holds the back as well, so both readings agree). Each card is
``CardID = deck id * 100 + its slot``; ``DeckIDs`` lists one id per copy. Cards whose backs
differ (CWNB submarines' passive side, crippled ships) get back sheets laid out like the fronts
(``UniqueBack``); otherwise one back image serves the deck. One deck per card kind, so a game's
piles (ships, actions, orders...) come out as the piles the rules use.

Sheet images are referred to by file:// URL of the finished export folder; ``--base-url`` puts
another prefix there (the folder uploaded to a web host), as TTS needs for multiplayer games.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from pathlib import Path

from msgspec import Struct
from PIL import Image

from generator.export.pictures import INCH, pixels, render_pages, save_png
from generator.model.cards import Card, CardSize
from generator.pipeline.prepare import Prepared
from generator.render.cardpdf import card_pdf_bytes, plain_frame
from generator.runtime.progress import Progress

MAX_COLUMNS, MAX_ROWS = 10, 7
MIN_GRID = 2  # TTS's custom deck dialog takes 2 to 10 columns and 2 to 7 rows
#: a sheet this wide or high at most by default: a texture size every graphics card loads
DEFAULT_SHEET_PX = 4096
MAX_DPI = 300
#: a poker card is about 2.5 TTS units wide at scale 1; other sizes scale from it
POKER_WIDTH_MM = 63.5
FaceKey = tuple[str, str]


class Sheet(Struct, frozen=True):
    deck_id: int
    cards: tuple[Card, ...]
    columns: int
    rows: int

    @property
    def hidden_slot(self) -> int:
        return self.columns * self.rows - 1


def grid_for(count: int) -> tuple[int, int]:
    """Columns and rows for ``count`` cards plus the hidden slot."""
    slots = count + 1
    columns = min(MAX_COLUMNS, max(MIN_GRID, slots))
    rows = max(MIN_GRID, math.ceil(slots / columns))
    return columns, rows


def default_dpi(sizes: list[CardSize]) -> int:
    """The finest resolution at which a full 10 x 7 sheet of every size stays within
    :data:`DEFAULT_SHEET_PX` (a smaller sheet of counters could be finer, but one dpi keeps
    every deck of an export alike)."""
    dpi = MAX_DPI
    for size in sizes:
        dpi = min(dpi, math.floor(DEFAULT_SHEET_PX / (MAX_COLUMNS * size.width_mm / INCH)),
                  math.floor(DEFAULT_SHEET_PX / (MAX_ROWS * size.height_mm / INCH)))
    return max(dpi, 1)


def _guid(*parts: object) -> str:
    """TTS object GUIDs are six hex digits; derived from the content so output is stable."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, scale: float, face_down: bool = True) -> dict[str, float]:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": scale, "scaleY": 1.0,
            "scaleZ": scale}


def _object(name: str, nickname: str, x: float, scale: float, guid: str) -> dict[str, object]:
    return {"GUID": guid, "Name": name, "Transform": _transform(x, scale), "Nickname": nickname,
            "Description": "", "GMNotes": "", "ColorDiffuse": {"r": 0.713, "g": 0.713,
                                                                  "b": 0.713},
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
            "Tooltip": True, "GridProjection": False, "HideWhenFaceDown": True,
            "Hands": name == "Card", "SidewaysCard": False, "LuaScript": "",
            "LuaScriptState": "", "XmlUI": ""}


class TtsWriter:
    def __init__(self, ready: Prepared, dpi: int, scratch: Path, url_prefix: str,
                 progress: Progress) -> None:
        self.ready = ready
        self.dpi = dpi
        self.scratch = scratch
        self.url_prefix = url_prefix
        self.progress = progress
        self.files: list[dict[str, object]] = []
        self.next_deck_id = 1

    def size(self, card: Card) -> CardSize:
        return self.ready.game.size_of(card, self.ready.card_set.base.manifest.card_size)

    def nickname(self, card: Card) -> str:
        name = getattr(card, "name", None)
        if isinstance(name, str) and name:
            return self.ready.localizer.field(card, "name")
        return card.id

    def pictures(self, keys: list[FaceKey], size: CardSize) -> dict[FaceKey, Image.Image]:
        """Every face in ``keys`` rendered at trim size (TTS cards are cut cards)."""
        layouts = self.ready.faces.layouts
        # Tabletop Simulator draws its cards with rounded corners of its own: a picture cut
        # to the pack's would show white slivers at the corners of TTS's card
        frame = plain_frame(size.width_mm, size.height_mm, 0.0, rounded=False)
        cell = (pixels(size.width_mm, self.dpi), pixels(size.height_mm, self.dpi))
        data = card_pdf_bytes(((layouts[key], frame) for key in keys), "pnp tts")
        self.progress.extend(len(keys))
        result = {}
        for key, image in zip(keys, render_pages(data, [cell] * len(keys)), strict=True):
            result[key] = image
            self.progress.advance()
        return result

    def save(self, image: Image.Image, name: str, side: str) -> str:
        save_png(image, self.scratch / name, self.dpi)
        self.files.append({"path": name, "card": None, "copy": None, "side": side,
                           "width_px": image.width, "height_px": image.height})
        return self.url_prefix + name

    def sheet_image(self, sheet: Sheet, images: list[Image.Image], hidden: Image.Image
                    ) -> Image.Image:
        width, height = hidden.size
        canvas = Image.new("RGB", (sheet.columns * width, sheet.rows * height), "white")
        for slot, image in [*enumerate(images), (sheet.hidden_slot, hidden)]:
            canvas.paste(image, ((slot % sheet.columns) * width, (slot // sheet.columns) * height))
        return canvas

    def deck(self, kind: str, cards: list[Card], x: float) -> dict[str, object]:
        faces = self.ready.faces
        size = self.size(cards[0])
        back_keys = [faces.backs[c.id] for c in cards]
        unique_back = len(set(back_keys)) > 1
        keys = list(dict.fromkeys([faces.fronts[c.id] for c in cards] + back_keys))
        pictures = self.pictures(keys, size)
        stem = kind.replace("_", "-")
        single_back = None if unique_back else self.save(pictures[back_keys[0]],
                                                         f"{stem}.back.png", "back")
        custom: dict[str, dict[str, object]] = {}
        contained: list[dict[str, object]] = []
        deck_ids: list[int] = []
        capacity = MAX_COLUMNS * MAX_ROWS - 1
        for start in range(0, len(cards), capacity):
            chunk = tuple(cards[start:start + capacity])
            sheet = Sheet(self.next_deck_id, chunk, *grid_for(len(chunk)))
            self.next_deck_id += 1
            number = start // capacity + 1
            hidden = pictures[Counter(back_keys).most_common(1)[0][0]]  # the usual back
            face_url = self.save(self.sheet_image(
                sheet, [pictures[faces.fronts[c.id]] for c in chunk], hidden),
                f"{stem}-{number}.front.png", "front")
            back_url = single_back or self.save(self.sheet_image(
                sheet, [pictures[faces.backs[c.id]] for c in chunk], hidden),
                f"{stem}-{number}.back.png", "back")
            entry = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": sheet.columns,
                     "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique_back,
                     "Type": 0}
            custom[str(sheet.deck_id)] = entry
            for slot, card in enumerate(chunk):
                card_id = sheet.deck_id * 100 + slot
                for copy in range(1, card.count + 1):
                    deck_ids.append(card_id)
                    contained.append({**_object("Card", self.nickname(card), x,
                                                size.width_mm / POKER_WIDTH_MM,
                                                _guid(card.id, copy)),
                                      "Description": card.id, "CardID": card_id,
                                      "CustomDeck": {str(sheet.deck_id): entry}})
        if len(contained) == 1:
            return contained[0]
        return {**_object("Deck", kind, x, round(size.width_mm / POKER_WIDTH_MM, 4),
                          _guid("deck", kind)),
                "DeckIDs": deck_ids, "CustomDeck": custom, "ContainedObjects": contained}


def write_tts(ready: Prepared, cards: list[Card], dpi: int | None, scratch: Path, target: Path,
              base_url: str | None, progress: Progress) -> dict[str, object]:
    """Write the sheets and ``<pack>.json``; returns the export.json fields of a TTS export."""
    sizes = list(dict.fromkeys(ready.game.size_of(c, ready.card_set.base.manifest.card_size)
                               for c in cards))
    dpi = dpi or default_dpi(sizes)
    prefix = base_url.rstrip("/") + "/" if base_url else target.resolve().as_uri() + "/"
    writer = TtsWriter(ready, dpi, scratch, prefix, progress)
    by_kind: dict[str, list[Card]] = {}
    for card in cards:
        by_kind.setdefault(card.kind, []).append(card)
    states = [writer.deck(kind, group, 3.0 * index) for index, (kind, group)
              in enumerate(by_kind.items())]
    manifest = ready.card_set.base.manifest
    save = {"SaveName": f"{manifest.name} ({ready.locale})", "EpochTime": 0, "Date": "",
            "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
            "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "",
            "TabStates": {}, "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
            "ObjectStates": states}
    name = f"{ready.name}.json"
    (scratch / name).write_text(json.dumps(save, indent=2, ensure_ascii=False) + "\n",
                                encoding="utf-8")
    return {"dpi": dpi, "files": writer.files, "tts_object": name}
