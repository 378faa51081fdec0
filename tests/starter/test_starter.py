"""``pnp new``: the starter game it writes, and the folders it refuses to touch."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
import yaml
from PIL import Image
from pypdf import PdfReader

from generator.starter.newgame import pack_id


def pnp(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd or Path(args[-1]).parent,
                          timeout=300)


def findings(*args: object) -> tuple[int, list[dict]]:
    result = pnp("validate", *args, "--format", "json", cwd=Path(str(args[0])))
    return result.returncode, json.loads(result.stdout)["findings"]


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("new") / "Dragon Duel"
    result = pnp("new", folder)
    assert result.returncode == 0, result.stderr
    assert "pack id 'dragon-duel'" in result.stdout
    return folder


def test_starter_is_a_whole_pack(starter: Path) -> None:
    files = sorted(str(p.relative_to(starter)) for p in starter.rglob("*") if p.is_file())
    assert files == ["README.md", "art/hero.png", "art/spell.svg", "decks/starter.yaml",
                     "game.yaml", "heroes.yaml", "icons/spark.svg", "locales/de.po",
                     "spells.csv", "templates/back.yaml", "templates/card.yaml",
                     "templates/hero.yaml", "templates/spell.yaml"]
    game = yaml.safe_load((starter / "game.yaml").read_text(encoding="utf-8"))
    assert (game["pack"], game["name"]) == ("dragon-duel", "Dragon Duel")
    assert set(game["kinds"]) == {"hero", "spell"}
    assert {k["back"] for k in game["kinds"].values()} == {"back"}  # one shared back
    assert [r.get("scope", "card") for r in game["rules"]] == ["card", "card", "set"]
    assert game["deck"]["size"] == {"min": 8, "max": 16} and game["deck"]["max_copies"] == 2
    assert "@" not in (starter / "README.md").read_text(encoding="utf-8")


def test_starter_art_is_print_ready(starter: Path) -> None:
    with Image.open(starter / "art" / "hero.png") as image:
        width, height = image.size
    # the hero window with its side bleed is 69.5 x 36 mm: 300 dpi needs 821 x 425 px
    assert width / (69.5 / 25.4) >= 300 and height / (36 / 25.4) >= 300
    assert "{icon-spark}" in (starter / "heroes.yaml").read_text(encoding="utf-8")


def test_starter_translation_is_complete(starter: Path) -> None:
    catalog = polib.pofile(str(starter / "locales" / "de.po"))
    assert catalog.percent_translated() == 100
    labels = {e.msgid for e in catalog if e.msgctxt == "label"}
    assert "Dragon Duel" in labels  # the back's title, named after the game
    msgfmt = subprocess.run(["msgfmt", "--check", "-o", "/dev/null",
                             str(starter / "locales" / "de.po")], capture_output=True, text=True)
    # the header is whole from the start: gettext has nothing to warn about
    assert msgfmt.returncode == 0 and msgfmt.stderr == "", msgfmt.stderr


def test_name_with_quotes_stays_valid_yaml_and_po(tmp_path: Path) -> None:
    name = 'The "Quoted" Game: Ärger\\Path'
    assert pnp("new", tmp_path / "g", "--name", name).returncode == 0
    game = yaml.safe_load((tmp_path / "g" / "game.yaml").read_text(encoding="utf-8"))
    assert game["name"] == name and game["pack"] == "the-quoted-game-arger-path"
    back = yaml.safe_load((tmp_path / "g" / "templates" / "back.yaml").read_text("utf-8"))
    assert name in [e.get("label") for e in back["elements"]]
    assert name in {e.msgid for e in polib.pofile(str(tmp_path / "g" / "locales" / "de.po"))}


def test_empty_folder_is_used(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert pnp("new", tmp_path / "empty").returncode == 0
    assert (tmp_path / "empty" / "game.yaml").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["empty"]  # no scratch folder left behind


@pytest.mark.parametrize("make", ["file-inside", "plain-file"])
def test_refuses_what_it_would_overwrite(tmp_path: Path, make: str) -> None:
    target = tmp_path / "taken"
    if make == "file-inside":
        target.mkdir()
        (target / "notes.txt").write_text("mine", encoding="utf-8")
    else:
        target.write_text("mine", encoding="utf-8")
    result = pnp("new", target)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert str(target) in result.stderr
    assert ("not empty" if make == "file-inside" else "not a folder") in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


@pytest.mark.parametrize(("text", "slug"), [("Emberfall", "emberfall"),
                                            ("My  Big_Game!", "my-big-game"),
                                            ("Путь", "my-game"), ("Über Äpfel", "uber-apfel")])
def test_pack_id(text: str, slug: str) -> None:
    assert pack_id(text) == slug


@pytest.mark.parametrize(("locale", "hero", "back"), [("en", "Brave Squire", "Dragon Duel"),
                                                      ("de", "Tapferer Knappe", "Dragon Duel")])
def test_starter_validates_and_builds(starter: Path, tmp_path: Path, locale: str, hero: str,
                                      back: str) -> None:
    code, found = findings(starter, "--locale", locale, "--strict",
                           "--deck", "decks/starter.yaml")
    assert (code, found) == (0, [])
    result = pnp("build", starter, "--locale", locale, "--out", tmp_path, cwd=starter)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "dragon-duel" / locale / "a4"
    fronts = PdfReader(folder / "fronts.pdf")
    assert hero in fronts.pages[0].extract_text()
    # the hero picture (900 x 470 px) is a raster image on the first sheet
    assert [(i.image.width, i.image.height) for i in fronts.pages[0].images][:1] == [(900, 470)]
    assert back in PdfReader(folder / "backs.pdf").pages[0].extract_text()


def test_tutorial_steps_do_what_the_readme_says(starter: Path, tmp_path: Path) -> None:
    """Step 2 (a hero too strong for its cost) and step 3 (a row added to the CSV)."""
    game = tmp_path / "game"
    shutil.copytree(starter, game)
    heroes = game / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("power: 2", "power: 5", 1),
                      encoding="utf-8")
    code, found = findings(game)
    assert code == 1
    assert [(f["code"], Path(f["file"]).name, f["line"], f["column"]) for f in found] == [
        ("hero-power-fits-cost", "heroes.yaml", 4, 5)]
    assert "heroes.yaml:4:5: error[hero-power-fits-cost]" in (game / "README.md").read_text(
        encoding="utf-8")
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("power: 5", "power: 2", 1),
                      encoding="utf-8")
    with (game / "spells.csv").open("a", encoding="utf-8") as table:
        table.write("heal,spell,Healing Rain,2,Each of your heroes heals 2 damage.,art/spell.svg\n")
    assert findings(game) == (0, [])
