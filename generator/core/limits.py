"""The limits pnp puts on what a pack may hold, each reported under a finding code of its own.

A pack is shared: people build packs they did not write. Whatever a pack holds, pnp must end
within seconds and bounded memory with a located finding, so every dimension along which input
can grow without end has an explicit ceiling here, far above anything a real game needs
(CWNB: 178 cards, 30 KB of YAML, texts under 300 characters, nesting depth 4). Each ceiling has
its finding code, so that a user who does hit one reads which, and where.
"""

from __future__ import annotations

from typing import Final

MiB: Final = 1024 * 1024

#: ``yaml-too-deep``: lists and mappings nested inside each other (the interpreter's own stack
#: would overflow on deep nesting, and no card needs more than a handful of levels)
MAX_DEPTH: Final = 64
#: ``yaml-too-large``: values one YAML file holds as written (an 8 MiB card file of real cards,
#: some 27,000 ships, holds about 800,000; each costs a few hundred bytes of located data)
MAX_VALUES: Final = 1_000_000
#: ``yaml-too-large``: values aliases may add on top of what is written ("billion laughs" grows
#: here, not in the text); counted apart, so a large file without aliases is no alias bomb
MAX_ALIAS_VALUES: Final = 200_000
#: ``string-too-long``: characters in one text (a YAML scalar or a PO message)
MAX_STRING_CHARS: Final = 10_000
#: ``number-too-large``: magnitude of a whole number (JSON tools read integers up to 2**53
#: exactly; anything beyond is a typo or an attack)
MAX_INTEGER: Final = 2**53
#: ``too-many-cards``: distinct cards in a card set (base pack and its expansions)
MAX_CARDS: Final = 100_000
#: ``too-many-copies``: printed copies in a card set (the sum of every card's count)
MAX_COPIES: Final = 250_000
#: ``too-many-terms``: entries of a glossary (each is looked for in every text of the pack)
MAX_GLOSSARY_TERMS: Final = 2_000
#: ``too-many-files``: files and folders looked at in one pack folder
MAX_PACK_ENTRIES: Final = 20_000
#: ``table-too-large``: rows (the header included) and columns of a CSV table or an XLSX sheet
MAX_TABLE_ROWS: Final = 100_000
MAX_TABLE_COLUMNS: Final = 500
#: ``table-too-large``: cells holding a value in one CSV table, cells written in one XLSX
#: workbook (openpyxl spends some 20 microseconds on each; 1,000 cards of 20 fields is 20,000)
MAX_TABLE_CELLS: Final = 100_000
#: ``art-unreadable``: nesting of an SVG's elements (svglib's XML parser, libxml2, stops reading
#: at 256 levels and would print the drawing cut short)
MAX_SVG_DEPTH: Final = 200
#: ``art-unreadable``: copies of shapes an SVG draws through ``<use>`` (a reference to a group of
#: references is the "billion laughs" of drawings; svglib stops at 10,000 after seconds)
MAX_SVG_USE_COPIES: Final = 1_000
#: ``art-unreadable``: characters of path data (``d``, ``points``) an SVG draws, copies through
#: ``<use>`` counted (svglib and ReportLab spend about 0.7 s of CPU per million; a traced
#: illustration holds a few hundred thousand)
MAX_SVG_PATH_CHARS: Final = 1_000_000
#: ``art-unreadable``: colour stops an SVG's gradient fills may paint, bounded as fills times
#: the stops of its largest gradient (1,000 fills of a 1,000-stop gradient took 30 s and 1 GiB
#: to draw; a real drawing paints a few hundred)
MAX_SVG_GRADIENT_PAINT: Final = 5_000
#: ``art-unreadable``: SVG files reached through references from one drawing (a drawing that
#: uses a shape of another file of the pack, which uses one of a third...)
MAX_SVG_FILE_DEPTH: Final = 4
#: ``art-too-large``: pixels of one raster picture (a card at 600 dpi is 3 megapixels, at 1200
#: dpi 12; decoding a 40-megapixel WebP took 640 MiB, and a 25-megapixel one failed within the
#: 1 GiB budget; printing a 40-megapixel PNG took 1.7 s and 500 MiB)
MAX_PIXELS: Final = 16_000_000
#: ``art-pixel-budget``: pixels of all the raster pictures of a card set together (art files
#: and pictures embedded in SVG art): each is decoded to be checked and again to be printed.
#: The floor, plus so many pixels per byte of picture data: real art is large on disk too
#: (a photograph is 3-10 pixels per byte, a drawing 1-4); flat pictures of 40 megapixels in
#: 2 KB are 20,000
PACK_PIXELS_FLOOR: Final = 64_000_000
PACK_PIXELS_PER_BYTE: Final = 8
#: ``file-too-large``: bytes an XLSX workbook unpacks to (its XML), and its parts (a workbook
#: is a dozen parts and two per sheet)
MAX_XLSX_EXPANDED: Final = 64 * MiB
MAX_XLSX_PARTS: Final = 1_000
#: ``xlsx-token-too-long``: bytes of one token (a tag with its attributes, a comment, a CDATA
#: section) of a workbook's XML: expat's work grows with the square of the longest (a 4 MB
#: comment cost 0.12 s, a 24 MB one minutes); a cell's text is at most 32,767 characters
MAX_XLSX_TOKEN: Final = 256 * 1024
#: ``xlsx-too-deep``: nesting of elements in a workbook's XML part (a sheet needs about 6:
#: worksheet, sheetData, row, c, is, r, t); the readers keep every open element, and 9
#: million nested tags in a 67 KB workbook took 2.5 GiB
MAX_XLSX_DEPTH: Final = 64
#: ``table-too-large``: entries (elements) of a workbook's style sheet; a real one has a few
#: hundred, and openpyxl reads every one before the first row
MAX_XLSX_STYLE_ENTRIES: Final = 20_000

#: work of the similarity comparisons ``pnp i18n update`` makes to find fuzzy matches, in
#: bytes walked: a comparison walks the longer text's bytes once, with one more pass per
#: 2,048 bytes of the shorter (about 0.2 microseconds each, so the whole is some 2 s). New
#: texts are compared with old translated ones: 100,000 obsolete entries took minutes, and
#: counting comparisons alone let 10,000 long ones take 8.8 s. Past it, new messages are added
#: untranslated, as ``msgmerge --no-fuzzy-matching`` adds them
MAX_FUZZY_WORK: Final = 10_000_000
#: ``po-too-large``: obsolete entries (``#~``) one catalog keeps; every ``i18n update`` formats
#: and writes each again (100,000 took 3.4 s of the update's 4.9 s)
MAX_PO_OBSOLETE: Final = 10_000

#: ``file-too-large``: bytes of each kind of file a pack holds
FILE_BYTES: Final[dict[str, int]] = {
    "manifest": 1 * MiB,      # game.yaml (a data game keeps schemas and rules there)
    "card-file": 8 * MiB,     # card YAML
    "catalog": 8 * MiB,       # locales/*.po, *.pot
    "glossary": 2 * MiB,      # glossary.yaml
    "deck": 1 * MiB,          # decks/*.yaml
    "template": 1 * MiB,      # a data game's templates/*.yaml
    "table": 8 * MiB,         # a data game's CSV and XLSX card files
    "image": 32 * MiB,        # art: PNG, JPEG, WebP, SVG (Pillow's bomb guard limits pixels)
    "icon": 1 * MiB,          # icons/*.svg
    "font": 16 * MiB,         # a data game's own TrueType fonts
}
