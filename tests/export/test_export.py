"""pnp export: per-card PNG and PDF files, print-service presets and Tabletop Simulator decks,
checked on the files a user gets (pixel sizes, PDF page boxes, the TTS save's structure)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import CWNB, ROOT, run_pnp
from PIL import Image
from pypdf import PdfReader

from generator.core.errors import UsageError
from generator.export import ExportOptions, export
from generator.model.cards import CARD_SIZES_MM

PT = 72 / 25.4
INCH = 25.4
EXPANSION = ROOT / "cards" / "cwnb-expansion"
COMMANDER = ROOT / "cards" / "commander"
GWAS = ROOT / "cards" / "gwas"
ROCKPOOL = ROOT / "cards" / "rockpool"
PACKS = {"cwnb": (CWNB, ()), "cwnb+cwnb-expansion": (CWNB, (EXPANSION,)),
         "commander": (COMMANDER, ()), "gwas": (GWAS, ()), "rockpool": (ROCKPOOL, ())}


def doc(folder: Path) -> dict:
    return json.loads((folder / "export.json").read_text(encoding="utf-8"))


def px(mm: float, dpi: int) -> int:
    return round(mm / INCH * dpi)


@pytest.fixture(scope="module")
def png_exports(tmp_path_factory) -> dict[str, Path]:
    """Every shipped pack as PNGs at a low resolution (the geometry is the same at 300 dpi)."""
    out = tmp_path_factory.mktemp("png")
    result = {}
    for name, (pack, expansions) in PACKS.items():
        made = export(pack, expansions, None, ExportOptions(to="png", dpi=60), out)
        assert made.out_dir is not None, [f.as_text() for f in made.findings]
        result[name] = made.out_dir
    return result


@pytest.mark.parametrize("name", list(PACKS))
def test_every_png_is_trim_plus_bleed_on_all_four_sides(png_exports, name):
    folder = png_exports[name]
    document = doc(folder)
    assert (document["to"], document["preset"], document["dpi"]) == ("png", None, 60)
    assert document["bleed_mm"] == pytest.approx(3.175)
    sizes = set()
    for entry in document["files"]:
        with Image.open(folder / entry["path"]) as image:
            assert image.size == (entry["width_px"], entry["height_px"])
        sizes.add(image.size)
    bleed = 2 * 3.175
    expected = {(px(63.5 + bleed, 60), px(88.9 + bleed, 60))}
    if name == "gwas":  # the 12.7 mm fleet counters are exported too
        expected.add((px(12.7 + bleed, 60), px(12.7 + bleed, 60)))
    assert sizes == expected


@pytest.mark.parametrize("name", list(PACKS))
def test_export_json_lists_every_printed_card_side(png_exports, name):
    pack, expansions = PACKS[name]
    from generator.pipeline.validate import validate

    cards = validate(pack, expansions).card_set.cards
    entries = doc(png_exports[name])["files"]
    assert Counter(e["side"] for e in entries) == {"front": sum(c.count for c in cards),
                                                   "back": sum(c.count for c in cards)}
    copies = {(e["card"], e["copy"]) for e in entries if e["side"] == "front"}
    assert copies == {(c.id, n) for c in cards for n in range(1, c.count + 1)}
    on_disk = {p.name for p in png_exports[name].glob("*.png")}
    assert on_disk == {e["path"] for e in entries}  # nothing written that is not listed


def test_copies_share_one_file_and_backs_match_their_fronts(png_exports):
    entries = doc(png_exports["cwnb"])["files"]
    by_card = {(e["card"], e["side"]): e["path"] for e in entries}
    assert len({e["path"] for e in entries if e["card"] == "gun-5in"}) == 2  # 12 copies, 2 faces
    assert by_card[("uss-los-angeles", "back")] == "uss-los-angeles.back.png"  # passive side
    assert by_card[("uss-nimitz", "back")] == "uss-nimitz.back.png"  # crippled side
    assert by_card[("gun-5in", "back")] == "back-action.shared.png"


def test_bleed_art_shows_on_all_four_sides(png_exports):
    """A card whose background bleeds: the outermost pixel rows and columns are the card's
    background colour, not white paper."""
    folder = png_exports["cwnb"]
    with Image.open(folder / "back-ship.shared.png") as image:
        rgb = image.convert("RGB")
        w, h = rgb.size
        edges = [rgb.getpixel((x, y)) for x, y in ((w // 2, 0), (w - 1, h // 2),
                                                   (w // 2, h - 1), (0, h // 2))]
    assert all(pixel != (255, 255, 255) for pixel in edges)
    assert len(set(edges)) == 1


def test_per_copy_writes_a_file_for_every_copy(tmp_path):
    made = export(CWNB, (), None, ExportOptions(to="png", dpi=36, kinds=("player_order",),
                                                per_copy=True), tmp_path)
    entries = doc(made.out_dir)["files"]
    assert len({e["path"] for e in entries}) == len(entries) == 18


def test_the_game_crafter_poker_is_825_by_1125(tmp_path):
    made = export(CWNB, (), None, ExportOptions(preset="thegamecrafter",
                                                kinds=("player_order",)), tmp_path)
    document = doc(made.out_dir)
    assert made.out_dir.name == "thegamecrafter"
    assert (document["preset"], document["dpi"]) == ("thegamecrafter", 300)
    for entry in document["files"]:
        with Image.open(made.out_dir / entry["path"]) as image:
            assert image.size == (825, 1125)
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_makeplayingcards_poker_is_822_by_1122(tmp_path):
    made = export(CWNB, (), None, ExportOptions(preset="makeplayingcards",
                                                kinds=("player_order",)), tmp_path)
    assert {(e["width_px"], e["height_px"]) for e in doc(made.out_dir)["files"]} == {(822, 1122)}


def test_a_size_the_service_does_not_print_is_a_usage_error(tmp_path):
    result = run_pnp("export", str(GWAS), "--preset", "thegamecrafter", "--out", str(tmp_path))
    assert result.returncode == 2
    assert "The Game Crafter prints no 12.7 x 12.7 mm card (kind fleet_counter)" in result.stderr
    assert "poker 63.5 x 88.9 mm" in result.stderr and "--kind" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", sorted(CARD_SIZES_MM))
def test_presets_fit_the_named_sizes_they_print(name):
    from generator.export.presets import PRESETS
    from generator.model.cards import CardSize

    size = CardSize.from_spec(name)
    frame = PRESETS["thegamecrafter"].frame_for(size)
    if name == "square":  # 70 mm: TGC's square card is 3.5 in (88.9 mm), not this one
        assert frame is None
        return
    assert frame is not None
    x, y, _, _ = frame.trim
    assert frame.card_x >= x and frame.card_y >= y  # the face sits inside the service's trim
    assert abs(frame.scale - 1) <= 0.01
    assert frame.bleed_needed(size.width_mm, size.height_mm) <= 3.175 + 1.0 + 0.01


def test_card_pdf_pages_have_trim_and_bleed_boxes(tmp_path):
    made = export(GWAS, (), None, ExportOptions(to="card-pdf", kinds=("fleet_counter", "mtb")),
                  tmp_path)
    document = doc(made.out_dir)
    assert document["dpi"] is None
    sizes = set()
    for entry in document["files"]:
        assert entry["width_px"] is entry["height_px"] is None
        reader = PdfReader(made.out_dir / entry["path"])
        assert len(reader.pages) == 1
        page = reader.pages[0]
        media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
        assert [float(v) for v in bleed] == [float(v) for v in media]
        for edge in ("left", "bottom"):
            assert float(getattr(trim, edge)) / PT == pytest.approx(3.175, abs=0.01)
        assert float(media.right - trim.right) / PT == pytest.approx(3.175, abs=0.01)
        assert float(media.top - trim.top) / PT == pytest.approx(3.175, abs=0.01)
        sizes.add((round(float(trim.width) / PT, 2), round(float(trim.height) / PT, 2)))
    assert sizes == {(12.7, 12.7), (63.5, 88.9)}


def test_drivethrucards_is_2_75_by_3_75_inches_with_a_deck_file(tmp_path):
    made = export(CWNB, (), None, ExportOptions(preset="drivethrucards",
                                                kinds=("player_order",)), tmp_path)
    document = doc(made.out_dir)
    assert document["to"] == "card-pdf"
    page = PdfReader(made.out_dir / document["files"][0]["path"]).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((198, 270))
    assert (float(page.trimbox.width), float(page.trimbox.height)) == pytest.approx((180, 252))
    deck = PdfReader(made.out_dir / "deck.pdf")
    assert len(deck.pages) == document["deck_pdf"]["pages"] == 18  # 9 cards, back + front


def test_preset_conflicts_are_usage_errors():
    with pytest.raises(UsageError, match="makes card-pdf files"):
        export(CWNB, (), None, ExportOptions(to="png", preset="drivethrucards"), Path("/tmp"))
    with pytest.raises(UsageError, match="300 dpi"):
        export(CWNB, (), None, ExportOptions(preset="thegamecrafter", dpi=150), Path("/tmp"))
    with pytest.raises(UsageError, match="no cards of kind dragon"):
        export(CWNB, (), None, ExportOptions(to="png", kinds=("dragon",)), Path("/tmp"))


def test_a_failed_export_leaves_the_previous_one(tmp_path):
    made = export(GWAS, (), None, ExportOptions(to="png", dpi=36, kinds=("leader",)), tmp_path)
    before = sorted(p.name for p in made.out_dir.iterdir())
    with pytest.raises(UsageError):
        export(GWAS, (), None, ExportOptions(to="png", dpi=36, kinds=("nope",)), tmp_path)
    assert sorted(p.name for p in made.out_dir.iterdir()) == before
    assert [p.name for p in made.out_dir.parent.iterdir()] == ["png"]  # no scratch left


# --- Tabletop Simulator -------------------------------------------------------------------


@pytest.fixture(scope="module")
def tts_cwnb(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    made = export(CWNB, (EXPANSION,), None, ExportOptions(to="tts", dpi=40), out)
    assert made.out_dir is not None
    return made.out_dir


def test_tts_save_follows_the_custom_deck_format(tts_cwnb):
    from generator.pipeline.validate import validate

    card_set = validate(CWNB, (EXPANSION,)).card_set
    save = json.loads((tts_cwnb / "cwnb+falklands-1982.json").read_text(encoding="utf-8"))
    assert isinstance(save["ObjectStates"], list)
    kinds = [o["Nickname"] for o in save["ObjectStates"]]
    assert kinds == ["action", "player_order", "ship"]
    # the decks lie side by side on the table, each card wide apart, not in one pile
    xs = [o["Transform"]["posX"] for o in save["ObjectStates"]]
    assert all(b - a >= 2.5 for a, b in itertools.pairwise(xs)), xs
    seen_ids = set()
    for deck in save["ObjectStates"]:
        assert deck["Name"] == "Deck"
        cards = [c for c in card_set.cards if c.kind == deck["Nickname"]]
        assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == sum(c.count for c in cards)
        assert [o["CardID"] for o in deck["ContainedObjects"]] == deck["DeckIDs"]
        for deck_id, custom in deck["CustomDeck"].items():
            assert int(deck_id) not in seen_ids
            seen_ids.add(int(deck_id))
            assert set(custom) == {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden",
                                   "UniqueBack", "Type"}
            assert 2 <= custom["NumWidth"] <= 10 and 2 <= custom["NumHeight"] <= 7
            assert custom["FaceURL"].startswith("file://")
            with Image.open(tts_cwnb / custom["FaceURL"].rsplit("/", 1)[1]) as sheet:
                w, h = round(63.5 / INCH * 40), round(88.9 / INCH * 40)
                assert sheet.size == (custom["NumWidth"] * w, custom["NumHeight"] * h)
        for card in deck["ContainedObjects"]:
            deck_id, index = divmod(card["CardID"], 100)
            custom = card["CustomDeck"][str(deck_id)]
            assert index < custom["NumWidth"] * custom["NumHeight"] - 1  # last slot: hidden
        by_card = Counter(o["Description"] for o in deck["ContainedObjects"])
        assert by_card == {c.id: c.count for c in cards}


def test_ships_have_their_own_backs_actions_share_one(tts_cwnb):
    save = json.loads((tts_cwnb / "cwnb+falklands-1982.json").read_text(encoding="utf-8"))
    decks = {o["Nickname"]: o for o in save["ObjectStates"]}
    ships = next(iter(decks["ship"]["CustomDeck"].values()))
    actions = next(iter(decks["action"]["CustomDeck"].values()))
    assert ships["UniqueBack"] is True and ships["BackURL"].endswith("ship-1.back.png")
    assert actions["UniqueBack"] is False and actions["BackURL"].endswith("action.back.png")
    with Image.open(tts_cwnb / "action.back.png") as back:
        assert back.size == (round(63.5 / INCH * 40), round(88.9 / INCH * 40))
    document = doc(tts_cwnb)
    assert document["to"] == "tts" and document["bleed_mm"] == 0
    assert all(entry["card"] is None for entry in document["files"])


def test_tts_base_url_and_counters(tmp_path):
    made = export(GWAS, (), None, ExportOptions(to="tts", kinds=("fleet_counter",),
                                                base_url="https://example.org/gwas/"), tmp_path)
    save = json.loads((made.out_dir / "gwas.json").read_text(encoding="utf-8"))
    (deck,) = save["ObjectStates"]
    custom = next(iter(deck["CustomDeck"].values()))
    assert custom["FaceURL"] == "https://example.org/gwas/fleet-counter-1.front.png"
    assert deck["Transform"]["scaleX"] == pytest.approx(12.7 / 63.5)
    assert doc(made.out_dir)["dpi"] == 300  # a sheet of 12.7 mm counters is small


def test_export_cli_reports_what_it_wrote(tmp_path):
    result = run_pnp("export", str(CWNB), "--to", "png", "--dpi", "36", "--kind",
                     "player_order", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout and "(18 files)" in result.stdout
    assert (tmp_path / "cwnb" / "en" / "png" / "export.json").is_file()


@pytest.mark.parametrize("options", [
    ExportOptions(to="png", dpi=30, kinds=("player_order",)),
    ExportOptions(to="png", dpi=30, kinds=("player_order",), per_copy=True),
    ExportOptions(preset="drivethrucards", kinds=("player_order",)),
    ExportOptions(to="tts", dpi=30),
], ids=["png", "png-per-copy", "drivethrucards", "tts"])
def test_export_json_lists_every_file_the_export_writes(tmp_path, options):
    """``written`` is exactly the folder's files (the TTS saved object and the deck PDF were
    missing), and every card side's file is among them."""
    made = export(CWNB, (), None, options, tmp_path)
    document = doc(made.out_dir)
    on_disk = sorted(p.relative_to(made.out_dir).as_posix()
                     for p in made.out_dir.rglob("*") if p.is_file())
    assert document["written"] == on_disk
    assert {entry["path"] for entry in document["files"]} <= set(on_disk)
    assert made.files == len(on_disk) - 1  # what `pnp export` reports: all but export.json
