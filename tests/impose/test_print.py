"""The print engine, checked on the PDFs and manifests a user would get from pnp build."""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest
from conftest import CWNB, run_pnp
from pdfread import open_pdf
from pypdf import PdfReader

from generator.impose.sheets import PAPERS, SheetOptions, compute_grid
from generator.model.cards import CardSize
from generator.pipeline.build import build

PT = 72 / 25.4
CARD_W, CARD_H = 63.5, 88.9


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """The CWNB deck built once per paper and flip mode."""
    out = tmp_path_factory.mktemp("out")
    result = {}
    for paper, duplex in (("a4", "long"), ("letter", "short")):
        built = build(CWNB, (), None, SheetOptions(paper=paper, duplex=duplex), out / duplex)
        assert built.out_dir is not None, [f.as_text() for f in built.findings]
        result[(paper, duplex)] = built.out_dir
    return result


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_both_papers_give_three_by_three_poker(paper):
    grid = compute_grid(SheetOptions(paper=paper), CardSize(CARD_W, CARD_H))
    assert (grid.cols, grid.rows) == (3, 3)
    width, height = PAPERS[paper]
    assert grid.x0 == pytest.approx((width - 3 * CARD_W) / 2)
    assert grid.y0 == pytest.approx((height - 3 * CARD_H) / 2)


@pytest.mark.parametrize(("key", "size_mm"), [(("a4", "long"), (210.0, 297.0)),
                                              (("letter", "short"), (215.9, 279.4))])
def test_page_sizes_in_mm(builds, key, size_mm):
    for name in ("fronts.pdf", "backs.pdf", "duplex.pdf"):
        reader = PdfReader(builds[key] / name)
        for page in reader.pages:
            box = page.mediabox
            assert float(box.width) / PT == pytest.approx(size_mm[0], abs=0.01)
            assert float(box.height) / PT == pytest.approx(size_mm[1], abs=0.01)
    doc = manifest(builds[key])
    assert (doc["paper"]["width_mm"], doc["paper"]["height_mm"]) == size_mm


def test_every_copy_is_placed_once_nine_per_sheet(builds):
    doc = manifest(builds[("a4", "long")])
    fronts = [p for p in doc["pages"] if p["side"] == "front"]
    backs = [p for p in doc["pages"] if p["side"] == "back"]
    assert len(fronts) == len(backs) == 21  # 13 action + 1 order + 7 ship sheets, as in 2.1
    assert all(1 <= len(p["cards"]) <= 9 for p in fronts)
    copies = [(c["id"], c["copy"]) for p in fronts for c in p["cards"]]
    assert len(copies) == len(set(copies)) == 114 + 9 + 55
    assert len(PdfReader(builds[("a4", "long")] / "fronts.pdf").pages) == 21
    assert len(PdfReader(builds[("a4", "long")] / "duplex.pdf").pages) == 42


@pytest.mark.parametrize("key", [("a4", "long"), ("letter", "short")])
def test_every_back_is_the_mirror_of_its_front(builds, key):
    doc = manifest(builds[key])
    width, height = doc["paper"]["width_mm"], doc["paper"]["height_mm"]
    fronts = {(p["sheet"]): p for p in doc["pages"] if p["side"] == "front"}
    backs = {(p["sheet"]): p for p in doc["pages"] if p["side"] == "back"}
    checked = 0
    for sheet, front in fronts.items():
        back_rects = {(c["id"], c["copy"]): c for c in backs[sheet]["cards"]}
        for card in front["cards"]:
            back = back_rects[(card["id"], card["copy"])]
            if key[1] == "long":
                expected = (width - card["x_mm"] - card["w_mm"], card["y_mm"])
            else:
                expected = (card["x_mm"], height - card["y_mm"] - card["h_mm"])
            assert (back["x_mm"], back["y_mm"]) == pytest.approx(expected, abs=0.001)
            assert (back["w_mm"], back["h_mm"]) == (card["w_mm"], card["h_mm"])
            assert back["rotation"] == card["rotation"] == 0
            checked += 1
    assert checked == 178


def test_cards_get_their_own_backs(builds):
    doc = manifest(builds[("a4", "long")])
    faces = {c["id"]: c["face"] for p in doc["pages"] if p["side"] == "back"
             for c in p["cards"]}
    assert faces["uss-los-angeles"] == "back-passive"
    assert faces["uss-nimitz"] == "back-crippled"
    assert faces["uss-spruance"] == "back-ship"
    assert faces["order-3"] == "back-order"
    assert faces["gun-5in"] == "back-action"


def test_crop_marks_sit_outside_the_grid_and_are_visible(builds):
    folder = builds[("a4", "long")]
    doc = manifest(folder)
    x0, y0 = doc["grid"]["x0_mm"], doc["grid"]["y0_mm"]
    column_edges = [x0 + i * CARD_W for i in range(4)]
    with open_pdf(folder / "fronts.pdf") as pages:
        lines = pages[0].lines
    assert all(line.linewidth >= 0.25 for line in lines)
    above_grid = [line for line in lines if line.bottom / PT < y0 - 1.0
                  and abs(line.x0 - line.x1) < 0.01]
    found = sorted({round(line.x0 / PT, 2) for line in above_grid})
    assert found == pytest.approx(column_edges, abs=0.01)
    assert all(line.linewidth >= 0.5 for line in above_grid)


def test_back_offset_shifts_back_pages_only(tmp_path):
    options = SheetOptions(paper="a4", duplex="long", back_offset_mm=(1.5, -0.5))
    plain = manifest(build(CWNB, (), None, SheetOptions(paper="a4"), tmp_path / "a").out_dir)
    shifted = manifest(build(CWNB, (), None, options, tmp_path / "b").out_dir)
    for before, after in zip(plain["pages"], shifted["pages"], strict=True):
        for a, b in zip(before["cards"], after["cards"], strict=True):
            dx, dy = (1.5, -0.5) if before["side"] == "back" else (0.0, 0.0)
            assert b["x_mm"] == pytest.approx(a["x_mm"] + dx)
            assert b["y_mm"] == pytest.approx(a["y_mm"] + dy)


def test_duplex_none_writes_fronts_only(tmp_path):
    out = build(CWNB, (), None, SheetOptions(duplex="none"), tmp_path).out_dir
    assert sorted(p.name for p in out.iterdir()) == ["fronts.pdf", "manifest.json"]
    assert {p["side"] for p in manifest(out)["pages"]} == {"front"}


def test_same_input_same_bytes(builds, tmp_path):
    again = build(CWNB, (), None, SheetOptions(paper="a4", duplex="long"), tmp_path).out_dir
    for name in ("fronts.pdf", "backs.pdf", "duplex.pdf", "manifest.json"):
        assert (again / name).read_bytes() == (builds[("a4", "long")] / name).read_bytes()


def test_fonts_are_embedded_subsets_and_no_base14_font(builds):
    with pikepdf.open(builds[("a4", "long")] / "fronts.pdf") as pdf:
        fonts = {str(obj.BaseFont): obj for obj in pdf.objects
                 if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"}
        assert fonts, "no fonts found"
        for name, font in fonts.items():
            assert "Helvetica" not in name and "Times" not in name
            descendant = font.DescendantFonts[0] if "/DescendantFonts" in font else font
            assert "/FontFile2" in descendant.FontDescriptor, name
            assert "+" in name, f"{name} is not a subset"


def test_card_text_is_really_in_the_pdf(builds):
    with open_pdf(builds[("a4", "long")] / "fronts.pdf") as pages:
        ship_sheet = pages[14].text()
        action_sheet = pages[0].text()
    assert "USS Nimitz" in ship_sheet and "Hits to Sink" in ship_sheet
    assert "Gun Attack 3in" in action_sheet


def test_interrupted_build_keeps_the_previous_output(tmp_path, monkeypatch):
    first = build(CWNB, (), None, SheetOptions(), tmp_path).out_dir
    before = {p.name: p.read_bytes() for p in first.iterdir()}

    def explode(*args, **kwargs):
        raise RuntimeError("power cut")

    import generator.pipeline.build as build_module

    monkeypatch.setattr(build_module, "manifest_document", explode)
    with pytest.raises(RuntimeError):
        build(CWNB, (), None, SheetOptions(cut_lines=False), tmp_path)
    assert {p.name: p.read_bytes() for p in first.iterdir()} == before
    leftovers = [p.name for p in first.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


def test_russian_build_prints_russian_names_and_labels_on_the_right_pages(tmp_path):
    out = build(CWNB, (), "ru", SheetOptions(paper="a4"), tmp_path).out_dir
    doc = manifest(out)
    assert doc["locale"] == "ru"
    pages = {c["id"]: p["index"] for p in doc["pages"] if p["side"] == "front"
             for c in p["cards"]}
    with open_pdf(out / "fronts.pdf") as fronts:
        def text_of(card_id: str) -> str:
            return " ".join(fronts[pages[card_id] - 1].text().split())

        assert "Нимиц" in text_of("uss-nimitz") and "Чтобы утопить" in text_of("uss-nimitz")
        assert "Очки" in text_of("uss-nimitz") and "Атомный авианосец" in text_of("uss-nimitz")
        assert "Киров" in text_of("kirov")
        assert "Орудийный обстрел" in text_of("gun-5in")
        assert "Таблица акций" in text_of("order-1")
        assert "Gun Attack" not in text_of("gun-5in")
    with open_pdf(out / "backs.pdf") as backs:
        back_pages = {c["id"]: p["index"] for p in doc["pages"] if p["side"] == "back"
                      for c in p["cards"]}
        assert "ПОДБИТ" in backs[back_pages["uss-nimitz"] - 1].text()


@pytest.mark.parametrize(("paper", "duplex"), [("a4", "long"), ("letter", "short")])
def test_calibration_scales_sit_behind_the_front_targets(tmp_path, paper, duplex):
    from generator.layout.ops import Line
    from generator.render.calibrate import SCALE_GAP_MM, calibration_pages

    options = SheetOptions(paper=paper, duplex=duplex)
    width, height = PAPERS[paper]
    front, back = calibration_pages(options)
    long_lines = [op for op in front.marks if isinstance(op, Line)
                  and abs(op.x1 - op.x2) < 1e-9 and abs(op.y2 - op.y1) > 20]
    assert len(long_lines) == 5
    back_lines = [op for op in back.marks if isinstance(op, Line)]
    for target in long_lines:
        x, y = target.x1, (target.y1 + target.y2) / 2
        bx, by = (width - x, y) if duplex == "long" else (x, height - y)
        zero_tick = [op for op in back_lines if abs(op.x1 - bx) < 1e-6
                     and abs(op.y1 - (by - SCALE_GAP_MM)) < 1e-6 and op.x1 == op.x2]
        assert zero_tick, f"no DX scale zero behind the target at {x}, {y}"
    result = run_pnp("calibrate", "--paper", paper, "--duplex", duplex, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    pdf = PdfReader(tmp_path / "calibrate" / f"{paper}-{duplex}" / "calibrate.pdf")
    assert len(pdf.pages) == 2
    assert float(pdf.pages[1].mediabox.width) / PT == pytest.approx(width, abs=0.01)


def test_sheets_split_by_kind_only_when_the_pack_asks_and_always_by_size():
    from generator.impose.sheets import Slot, paginate

    poker, counter = CardSize(CARD_W, CARD_H), CardSize(12.7, 12.7)
    slots = ([Slot(f"s{i}", 1, "ship", poker) for i in range(5)]
             + [Slot(f"a{i}", 1, "action", poker) for i in range(7)]
             + [Slot(f"c{i}", 1, "counter", counter) for i in range(3)])
    per_sheet = {poker: 9, counter: 294}.get
    by_kind = paginate(slots, per_sheet, new_sheet_per_kind=True)
    assert [len(sheet) for sheet in by_kind] == [5, 7, 3]
    mixed = paginate(slots, per_sheet, new_sheet_per_kind=False)
    assert [len(sheet) for sheet in mixed] == [9, 3, 3]
    assert {slot.size for slot in mixed[-1]} == {counter}
