"""The proof page without a browser: what it holds, the pictures, the CLI, and the watch server.

The browser half (what Chromium shows and does) is in test_proof_browser.py.
"""

from __future__ import annotations

import html
import re
import shutil
import socket
import urllib.request

import pytest
from conftest import ROOT, run_pnp
from PIL import Image

from generator.layout.engine import FaceContext, layout_face
from generator.model.cards import CardSize, Manifest
from generator.model.template import Element, Template
from generator.proof.collect import collect
from generator.proof.page import page_version, render_page
from generator.proof.pictures import DPI, picture_size_px
from generator.proof.preview import write_preview
from generator.proof.watch import ProofState, _SourceFilter, open_server

FIXTURE = ROOT / "tests" / "fixtures" / "proof-pack"
TEXT_BOX = (10.0, 65.5, 50.5, 21.0)  # templates/cwnb/action.yaml: the action text's box


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    out = tmp_path_factory.mktemp("proof")
    return write_preview(FIXTURE, (), ("en", "ru"), out)


def _manifest() -> Manifest:
    from generator.core.location import Location

    return Manifest("p", "cwnb", "P", "1", "en", ("en",), "anchor", "", CardSize(63.5, 88.9),
                    None, Location("game.yaml"))


def test_text_problem_carries_the_box_of_the_text_that_overflows():
    long_text = "word " * 400
    fits_nowhere = Element("text", (5.0, 50.0, 30.0, 8.0),
                           {"text": "{text}", "size": 8, "min_size": 7})

    def chatty_widget(values, box, options, ctx):  # a table of two cells, the second too full
        ctx.fit("Gun", (box[0], box[1], 8.0, box[3]), "regular", 8, 7, "attack:gun")
        ctx.fit(long_text, (box[0] + 9.0, box[1] + 1.0, 11.0, 3.0), "regular", 8, 7,
                ("action:evasive", "action:damage_control"))
        return []

    widget = Element("widget", (2.0, 3.0, 20.0, 5.0), {"widget": "chatty"})
    template = Template("cwnb", "t", 63.5, 88.9, (fits_nowhere, widget), shared=False)
    ctx = FaceContext(palette={"ink": "#000000"}, manifest=_manifest(), locale="en",
                      label=str, widgets={"chatty": chatty_widget}, icons={})
    face = layout_face(template, {"text": long_text}, ctx)
    boxes = {problem.names: problem.box for problem in face.problems}
    assert boxes == {("text",): (5.0, 50.0, 30.0, 8.0),
                     ("action:evasive", "action:damage_control"): (11.0, 4.0, 11.0, 3.0)}
    assert all(problem.overflow_mm > 5 for problem in face.problems)


def test_the_proof_pins_every_finding_of_validate_and_the_locale_checks(preview):
    proof = preview.proof
    expected = run_pnp("validate", str(FIXTURE), "--locale", "en", "--locale", "ru",
                       "--format", "json")
    import json

    wanted = {(f["code"], f["card"], f["locale"], f["line"], f["column"])
              for f in json.loads(expected.stdout)["findings"]}
    shown = {(f.code, f.card, f.locale, f.location.line, f.location.column)
             for f in proof.findings}
    assert shown == wanted
    page = preview.page.read_text(encoding="utf-8")
    for code, card, _, line, column in wanted:
        if card is None:
            continue
        article = re.search(rf'<article [^>]*data-card="{re.escape(card)}".*?</article>', page,
                            re.S)
        assert article is not None, card
        assert f'data-code="{code}"' in article.group(0)
        assert f":{line}:{column}" in article.group(0)


def test_the_overflow_outline_is_the_text_box_of_the_card(preview):
    gun = next(card for card in preview.proof.cards if card.id == "gun-5in")
    for version in gun.versions:
        front = version.faces[0]
        assert [(o.field, (o.x, o.y, o.w, o.h)) for o in front.outlines] == [
            ("action text", TEXT_BOX)]
        assert front.outlines[0].overflow_mm > 1
    calm = next(card for card in preview.proof.cards if card.id == "gun-3in")
    assert all(not face.outlines for version in calm.versions for face in version.faces)


def test_pictures_are_the_printed_faces_with_their_bleed(preview):
    folder = preview.page.parent / "faces"
    names = {path.name for path in folder.iterdir()}
    assert names == set(preview.proof.pictures)
    page = preview.page.read_text(encoding="utf-8")
    assert set(re.findall(r'src="faces/([0-9a-f]+\.png)"', page)) == names
    nimitz = next(card for card in preview.proof.cards if card.id == "uss-nimitz")
    front = nimitz.versions[0].faces[0]
    with Image.open(folder / front.picture) as image:
        assert image.size == picture_size_px(63.5, 88.9, preview.proof.bleed_mm)
        assert image.size[0] == round((63.5 + 3.0) / 25.4 * DPI)
        # the ship card's blue title band runs to the top edge of the bleed: not blank paper
        top = image.convert("RGB").getpixel((image.size[0] // 2, 2))
        assert top != (255, 255, 255)


def test_the_page_escapes_pack_text_and_is_self_contained(preview):
    page = preview.page.read_text(encoding="utf-8")
    assert "<img src=x" not in page
    assert html.escape("<img src=x onerror=alert(1)> & Co") in page
    assert "Proof &lt;test&gt; pack" in page
    assert not re.search(r'(src|href)="(https?:)?//', page)  # no CDN, no network
    assert "<link" not in page and "<script src" not in page
    assert "<body data-version=\"" in page and " data-live>" not in page  # no server to call


def test_same_input_same_page_and_a_second_preview_renders_nothing(preview, tmp_path):
    again = write_preview(FIXTURE, (), ("en", "ru"), tmp_path)
    assert again.page.read_bytes() == preview.page.read_bytes()
    for name in preview.proof.pictures:
        assert (tmp_path / "proofpack/proof/faces" / name).read_bytes() == \
            (preview.page.parent / "faces" / name).read_bytes()
    assert write_preview(FIXTURE, (), ("en", "ru"), tmp_path).rendered == 0


def test_preview_cli_exit_codes_and_usage_errors(tmp_path):
    done = run_pnp("preview", str(FIXTURE), "--locale", "ru", "--out", str(tmp_path))
    assert done.returncode == 1, done.stderr  # the tiny pack breaks CWNB's deck rules
    assert "error[cwnb-component-count]" in done.stderr
    assert (tmp_path / "proofpack/proof/index.html").is_file()
    clean = run_pnp("preview", "cards/cwnb", "--out", str(tmp_path))
    assert clean.returncode == 0, clean.stderr
    assert "wrote" in clean.stdout
    bad_locale = run_pnp("preview", str(FIXTURE), "--locale", "xx", "--out", str(tmp_path))
    assert bad_locale.returncode == 2
    assert "'xx' is not a language code" in bad_locale.stderr  # i18n update would refuse it
    assert "Traceback" not in bad_locale.stderr


def test_a_broken_card_file_shows_its_findings_and_the_cards_that_loaded(tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(FIXTURE, pack)
    (pack / "ships.yaml").write_text("cards:\n  - id: [unclosed\n", encoding="utf-8")
    (pack / "more.yaml").write_text("cards:\n  - id: orphan\n    kind: ship\n    name: 5\n",
                                    encoding="utf-8")
    proof = collect(pack, (), ("en",))
    yaml_errors = [f for f in proof.pack_findings if f.location.file.endswith("ships.yaml")]
    assert yaml_errors and yaml_errors[0].severity == "error" and yaml_errors[0].location.line
    orphan = next(card for card in proof.cards if card.id == "orphan")
    assert orphan.versions == [] and orphan.findings
    assert {card.id for card in proof.cards if card.versions} == {"gun-3in", "gun-5in"}
    page = render_page(proof)
    assert 'data-card="orphan"' in page and "could not be drawn" in page


def test_watch_filter_ignores_output_hidden_and_scratch_files(tmp_path):
    root = tmp_path / "output" / "pack"  # a pack that itself lives under "output/" still works
    keep = _SourceFilter([root])
    assert keep(None, str(root / "ships.yaml"))
    assert keep(None, str(root / "art" / "ship.png"))
    assert not keep(None, str(root / "output" / "x" / "index.html"))
    assert not keep(None, str(root / ".git" / "index"))
    assert not keep(None, str(root / "ships.yaml~"))
    assert not keep(None, str(root / ".ships.yaml.swp"))


def test_watch_state_rebuilds_only_changed_faces_and_survives_broken_files(tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(FIXTURE, pack)
    state = ProofState(pack, (), ("en", "ru"))
    first = state.rebuild()
    assert first.failure is None and first.rendered == len(state.store.pictures)
    again = state.rebuild()
    assert again.rendered == 0
    ships = pack / "ships.yaml"
    ships.write_text(ships.read_text(encoding="utf-8").replace("points: 16", "points: 17"),
                     encoding="utf-8")
    assert state.only_cards_or_catalogs({ships.resolve()})
    edited = state.rebuild({ships.resolve()})  # only Nimitz is laid out again
    assert edited.rendered == 2  # Nimitz's front in en and in ru; its backs show no points
    po = pack / "locales" / "ru.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Нимиц"', 'msgstr "Нимитц"', 1),
                  encoding="utf-8")
    translated = state.rebuild({po.resolve()})
    assert translated.rendered == 2  # Nimitz in ru: the front and the crippled back name it
    assert "Нимитц, front (ru)" in state.html.decode()
    assert not state.only_cards_or_catalogs({(pack / "game.yaml").resolve()})
    version = state.version
    ships.write_text("cards: [", encoding="utf-8")
    broken = state.rebuild()
    assert broken.failure is None and state.version != version
    assert b"yaml" in state.html
    (pack / "game.yaml").unlink()
    gone = state.rebuild()
    assert gone.failure is not None and "game.yaml is missing" in gone.failure
    assert b"game.yaml is missing" in state.html
    assert page_version(state.html.decode()) == state.version


def test_watch_server_serves_page_pictures_and_events_on_loopback_only(tmp_path):
    state = ProofState(FIXTURE, (), ("en",))
    state.rebuild()
    server = open_server(0, state)
    import threading

    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        host, port = server.server_address
        assert host == "127.0.0.1"
        base = f"http://127.0.0.1:{port}"
        page = urllib.request.urlopen(f"{base}/", timeout=10).read().decode()
        assert "data-live" in page
        picture = re.search(r'src="(faces/[0-9a-f]+\.png)"', page).group(1)
        with urllib.request.urlopen(f"{base}/{picture}", timeout=10) as response:
            assert response.headers["Content-Type"] == "image/png"
            assert response.read().startswith(b"\x89PNG")
        with urllib.request.urlopen(f"{base}/__pnp/events", timeout=10) as events:
            lines = [events.readline() for _ in range(4)]
        assert f"data: {state.version}\n".encode() in lines
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{base}/../../etc/passwd", timeout=10)
        with pytest.raises(Exception, match="busy"):
            open_server(port, state)
    finally:
        state.stop()
        server.shutdown()
        server.server_close()


def test_watch_cli_refuses_a_busy_port_with_exit_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_pnp("watch", str(FIXTURE), "--port", str(port))
    assert done.returncode == 2
    assert f"port {port} on 127.0.0.1 is busy" in done.stderr
    assert "Traceback" not in done.stderr


def test_watch_redraws_a_data_game_when_its_art_or_template_changes(tmp_path):
    pack = tmp_path / "dg"
    assert run_pnp("new", str(pack)).returncode == 0
    state = ProofState(pack, (), ("en",))
    assert state.rebuild().failure is None
    before = set(state.store.pictures)
    art = pack / "art" / "hero.png"
    with Image.open(art) as image:
        size = image.size
    Image.new("RGB", size, (20, 160, 60)).save(art)  # same name, new picture
    assert not state.only_cards_or_catalogs({art.resolve()})
    redrawn = state.rebuild({art.resolve()})
    assert redrawn.failure is None and redrawn.rendered > 0
    assert set(state.store.pictures) != before
    template = next((pack / "templates").glob("*.yaml"))
    template.write_text(template.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert state.rebuild({template.resolve()}).failure is None


def test_small_faces_keep_their_printed_proportions_on_the_page():
    from generator.proof.collect import CardView, FaceView, Proof, Version

    def card(card_id: str, width: float, height: float) -> CardView:
        faces = (FaceView("front", f"{card_id}.png", width, height),)
        return CardView(card_id, "counter", "p", card_id, 1, "p.yaml:1:1",
                        versions=[Version("en", card_id, faces)])

    proof = Proof("P", "p", ("en",), 1.5, cards=[card("poker", 63.5, 88.9),
                                                  card("counter", 12.7, 12.7),
                                                  card("tarot", 70.0, 120.0)])
    page = render_page(proof)
    pairs = re.findall(r'--scale:([\d.]+)"><div class="pic"[^>]*><img src="faces/(\w+)\.png',
                       page)
    scales = {name: float(scale) for scale, name in pairs}
    assert scales["poker"] == 1.0
    assert scales["counter"] == 0.35  # true size would be 0.24: too small to see
    assert scales["tarot"] == pytest.approx((70 + 3) / (63.5 + 3), abs=0.001)
    with_more_dots = picture_size_px(12.7, 12.7, 1.5)
    assert with_more_dots[0] >= 390 > round((12.7 + 3) / 25.4 * DPI)
