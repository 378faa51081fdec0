"""Catalogs as gettext makes them: checked with the real msgcat, msgfmt and msgmerge."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import ROOT, run_pnp

from generator.i18n.catalogs import read_catalog
from generator.i18n.gamelocales import with_locale
from generator.i18n.poformat import format_catalog

SHIPPED = sorted((ROOT / "cards").glob("*/locales/*.po*"))


def gettext(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    tool = shutil.which(args[0])
    assert tool, f"{args[0]} is missing: install gettext (.ci/run does)"
    return subprocess.run([tool, *args[1:]], capture_output=True, text=True, input=stdin,
                          timeout=120)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_msgcat_changes_nothing_in_a_shipped_catalog(path):
    result = gettext("msgcat", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [p for p in SHIPPED if p.suffix == ".po"],
                         ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_msgfmt_check_is_silent(path):
    result = gettext("msgfmt", "-c", "-o", "/dev/null", str(path))
    assert result.returncode == 0 and result.stderr == "", result.stderr


def _prose(rnd: random.Random) -> str:
    """Card-like text: Latin and Cyrillic words, numbers, icons, quotes, brackets, dashes."""
    words = []
    for _ in range(rnd.randint(1, 45)):
        word = "".join(rnd.choice(rnd.choice(["abcdefghijklmnopqrstuvwxyz",
                                               "абвгдежзиклмнопрстуфхцчшщыэюя"]))
                       for _ in range(rnd.randint(1, 12)))
        word = rnd.choice([word] * 6 + [str(rnd.randint(0, 999)), "{gun-5in}", "1к6", "U.S.",
                                        "т.е.", "3in", "50%", "+1", "A/B", "№5", "2×"])
        if rnd.random() < 0.1:
            word = rnd.choice("(«“\"„[") + word
        if rnd.random() < 0.25:
            word += rnd.choice([".", ",", ";", ":", "!", "?", ")", "»", "”", "\"", "…", "»."])
        words.append(word)
        words.append(rnd.choice([" "] * 12 + ["-", "/", " — ", "—", "–", "  ", "\t", "\n"]))
    return "".join(words[:-1])


@pytest.mark.parametrize("width", [79, 40])
def test_wrapping_is_gettexts_for_card_texts(tmp_path, width):
    rnd = random.Random(12)
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for index in range(300):
        catalog.append(polib.POEntry(msgctxt=f"card-{index}.text", msgid=_prose(rnd),
                                     msgstr=_prose(rnd), comment="ship text",
                                     occurrences=[("ships.yaml", str(index))]))
    ours = format_catalog(catalog, page_width=width)
    path = tmp_path / "cards.po"
    path.write_text(ours, encoding="utf-8")
    assert gettext("msgcat", f"--width={width}", str(path)).stdout == ours


@pytest.fixture
def cwnb_copy(tmp_path) -> Path:
    target = tmp_path / "cwnb"
    shutil.copytree(ROOT / "cards" / "cwnb", target)
    return target


def test_a_changed_source_text_becomes_fuzzy_exactly_as_msgmerge_does(cwnb_copy):
    ships = cwnb_copy / "ships.yaml"
    old_po = (cwnb_copy / "locales" / "ru.po").read_text(encoding="utf-8")
    entry = next(e for e in polib.pofile(old_po) if e.msgctxt.endswith(".name")
                 and e.msgctxt.split(".")[0] in ships.read_text(encoding="utf-8"))
    text = ships.read_text(encoding="utf-8")
    assert f"name: {entry.msgid}\n" in text
    ships.write_text(text.replace(f"name: {entry.msgid}\n", f"name: {entry.msgid} II\n", 1),
                     encoding="utf-8")
    assert run_pnp("i18n", "extract", str(cwnb_copy)).returncode == 0
    (cwnb_copy / "old.po").write_text(old_po, encoding="utf-8")
    result = run_pnp("i18n", "update", str(cwnb_copy))
    assert result.returncode == 0, result.stderr
    updated = (cwnb_copy / "locales" / "ru.po").read_text(encoding="utf-8")
    changed = next(e for e in polib.pofile(updated) if e.msgctxt == entry.msgctxt)
    assert changed.msgid == f"{entry.msgid} II" and "fuzzy" in changed.flags
    assert changed.previous_msgid == entry.msgid and changed.msgstr == entry.msgstr
    assert f'#| msgctxt "{entry.msgctxt}"' in updated
    merged = gettext("msgmerge", "--previous", "-q", str(cwnb_copy / "old.po"),
                     str(cwnb_copy / "locales" / "messages.pot"), "-o", "-")
    assert merged.returncode == 0, merged.stderr
    assert updated == merged.stdout
    status = run_pnp("i18n", "status", str(cwnb_copy))
    assert status.stdout.split("\n")[1].split()[:4] == ["ru", "222", "0", "1"]  # (+ the pack name)


def test_a_removed_card_goes_obsolete_and_comes_back_translated(cwnb_copy):
    ships = cwnb_copy / "ships.yaml"
    original = ships.read_text(encoding="utf-8")
    first = original.index("\n  - id:")
    second = original.index("\n  - id:", first + 1)
    ships.write_text(original[:first] + original[second:], encoding="utf-8")
    assert run_pnp("i18n", "update", str(cwnb_copy)).returncode == 0
    po = cwnb_copy / "locales" / "ru.po"
    obsolete = [e for e in read_catalog(po) if e.obsolete]
    assert obsolete and all(e.msgstr for e in obsolete)
    assert po.read_text(encoding="utf-8").count("#~ msgctxt") == len(obsolete)
    ships.write_text(original, encoding="utf-8")
    assert run_pnp("i18n", "update", str(cwnb_copy)).returncode == 0
    assert not [e for e in read_catalog(po) if e.obsolete or "fuzzy" in e.flags]


def test_adding_a_language_edits_game_yaml_and_writes_a_complete_catalog(cwnb_copy):
    before = (cwnb_copy / "game.yaml").read_text(encoding="utf-8")
    result = run_pnp("i18n", "update", str(cwnb_copy), "--locale", "de")
    assert result.returncode == 0, result.stderr
    after = (cwnb_copy / "game.yaml").read_text(encoding="utf-8")
    assert after == before.replace("locales: [en, ru]", "locales: [en, ru, de]")
    de = cwnb_copy / "locales" / "de.po"
    check = gettext("msgfmt", "-c", "-o", "/dev/null", str(de))
    assert check.returncode == 0 and check.stderr == "", check.stderr
    catalog = read_catalog(de)
    assert catalog.metadata["Language"] == "de"
    assert catalog.metadata["Language-Team"] == "German"
    assert catalog.metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    assert gettext("msgcat", str(de)).stdout == de.read_text(encoding="utf-8")
    status = run_pnp("i18n", "status", str(cwnb_copy), "--format", "json")
    assert '"locale": "de"' in status.stdout
    assert run_pnp("validate", str(cwnb_copy), "--locale", "de").returncode == 0


@pytest.mark.parametrize(("args", "says"), [
    (["--locale", "xx"], "'xx' is not a language code"),
    (["--locale", "en"], "'en' is the source language"),
])
def test_a_locale_that_cannot_be_added_is_refused(cwnb_copy, args, says):
    result = run_pnp("i18n", "update", str(cwnb_copy), *args)
    assert result.returncode == 2 and says in result.stderr
    assert "de" not in (cwnb_copy / "game.yaml").read_text(encoding="utf-8").split("locales")[1]


def test_update_without_any_target_language_says_how_to_add_one(tmp_path):
    pack = tmp_path / "solo"
    shutil.copytree(ROOT / "cards" / "cwnb", pack)
    game = pack / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("locales: [en, ru]\n", ""),
                    encoding="utf-8")
    result = run_pnp("i18n", "update", str(pack))
    assert result.returncode == 2
    assert "has no language to translate into" in result.stderr
    assert "--locale" in result.stderr


def test_an_unknown_locale_tells_how_to_add_it():
    result = run_pnp("validate", "cards/cwnb", "--locale", "de")
    assert result.returncode == 2
    assert "pack 'cwnb' has no locale 'de'" in result.stderr
    assert "pnp i18n update cards/cwnb --locale de" in result.stderr


def test_a_block_list_of_locales_gets_one_line_and_keeps_its_comments():
    text = ("pack: x  # the pack\nsource_locale: en\nlocales:\n  - en   # source\n"
            "  - ru\nset_mark: anchor\n")
    assert with_locale(text, "de", "en") == text.replace("  - ru\n", "  - ru\n  - de\n")
    assert with_locale("pack: x\nsource_locale: en\nset_mark: a\n", "de", "en") == \
        "pack: x\nsource_locale: en\nlocales: [en, de]\nset_mark: a\n"


def test_overflow_stops_a_build_unless_allowed(cwnb_copy, tmp_path):
    po = cwnb_copy / "locales" / "ru.po"
    catalog = read_catalog(po)
    entry = next(e for e in catalog if e.msgctxt == "gun-5in.text")
    entry.msgstr += " Очень длинный перевод, который никак не помещается." * 12
    po.write_text(format_catalog(catalog), encoding="utf-8")
    out = tmp_path / "out"
    stopped = run_pnp("build", str(cwnb_copy), "--locale", "ru", "--out", str(out))
    assert stopped.returncode == 1
    (line,) = [x for x in stopped.stderr.splitlines() if "[text-overflow]" in x]
    assert ": error[text-overflow]: " in line and "mm too long" in line
    assert "card gun-5in" in line and "locale ru" in line
    # where the translator fixes it: the msgstr of the entry, naming the card's field
    where = line.split(": error[")[0].rsplit(":", 2)
    assert where[0].endswith("locales/ru.po") and "front action text" in line
    assert po.read_text(encoding="utf-8").split("\n")[int(where[1]) - 1].startswith("msgstr")
    assert not out.exists()
    allowed = run_pnp("build", str(cwnb_copy), "--locale", "ru", "--out", str(out),
                      "--allow-overflow")
    assert allowed.returncode == 0, allowed.stderr
    assert ": warning[text-overflow]: " in allowed.stderr
    assert (out / "cwnb" / "ru" / "a4" / "duplex.pdf").is_file()


@pytest.fixture
def german(cwnb_copy) -> Path:
    assert run_pnp("i18n", "update", str(cwnb_copy), "--locale", "de").returncode == 0
    return cwnb_copy


def _msgstr_line(po: Path, context: str) -> int:
    lines = po.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgctxt "{context}"')
    return next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr")) + 1


def test_translation_findings_point_at_the_msgstr_line(german):
    po = german / "locales" / "de.po"
    catalog = read_catalog(po)
    for entry in catalog:
        if entry.msgctxt == "gun-3in.name":
            entry.msgstr = "Kanonenangriff ☃"
        if entry.msgctxt == "gun-3in.text":
            entry.msgstr = "Ein Schiff feuert."  # lost the {gun-3in} icon
    catalog.remove(next(e for e in catalog if e.msgctxt == "gun-5in.name"))
    po.write_text(format_catalog(catalog), encoding="utf-8")
    result = run_pnp("validate", str(german), "--locale", "de", "--format", "json")
    document = json.loads(result.stdout)
    by = {(f["code"], f["card"], f["message"].split(":")[0].split(" has no")[0]): f
          for f in document["findings"]}
    glyph = by[("missing-glyph", "gun-3in", "action name")]
    assert glyph["file"].endswith("locales/de.po")
    assert glyph["line"] == _msgstr_line(po, "gun-3in.name") and glyph["column"] == 1
    tokens = by[("translation-tokens", "gun-3in", "action text")]
    assert tokens["line"] == _msgstr_line(po, "gun-3in.text")
    untranslated = by[("missing-translation", "gun-16in", "action name")]
    assert untranslated["line"] == _msgstr_line(po, "gun-16in.name")
    absent = by[("missing-translation", "gun-5in", "action name")]
    assert absent["file"].endswith("actions.yaml")  # no entry: the source text's place
    assert document["summary"]["missing_translations"]["de"]["label"] > 0
    assert len([f for f in document["findings"] if f["code"] == "missing-translation"]) == \
        sum(document["summary"]["missing_translations"]["de"].values())


def test_missing_translations_are_summarised_unless_verbose(german):
    brief = run_pnp("validate", str(german), "--locale", "de")
    lines = brief.stdout.splitlines()
    assert not [x for x in lines if x.startswith(str(german)) and "missing-translation" in x]
    (summary,) = [x for x in lines if x.startswith("warning[missing-translation]")]
    assert "222 messages have no de translation" in summary
    assert "label 67" in summary and "ship name 55" in summary
    assert lines[-1] == "0 error(s), 222 warning(s)"
    full = run_pnp("validate", str(german), "--locale", "de", "--verbose")
    assert len([x for x in full.stdout.splitlines() if "[missing-translation]" in x]) == 222
    status = run_pnp("i18n", "status", str(german))
    assert "de missing: label 67, ship class 55, ship name 55" in status.stdout
    listed = run_pnp("i18n", "status", str(german), "--verbose")
    # the catalog also names the pack (printed on a tuck box), which validate does not check
    assert len([x for x in listed.stdout.splitlines() if x.startswith("  ")]) == 223


def test_a_label_that_does_not_fit_is_reported_once(german):
    po = german / "locales" / "de.po"
    catalog = read_catalog(po)
    for entry in catalog:
        if entry.msgctxt == "label":
            entry.msgstr = "Überlanger Beschriftungstext ohne jede Chance hineinzupassen " * 2
    po.write_text(format_catalog(catalog), encoding="utf-8")
    result = run_pnp("validate", str(german), "--locale", "de", "--format", "json")
    overflows = [f for f in json.loads(result.stdout)["findings"]
                 if f["code"] == "text-overflow"]
    fields = [f["message"].split(" does not fit")[0] for f in overflows]
    # template labels print on many cards (every ship back says COLD WAR): one finding each
    for label in ("back label 'COLD WAR'", "back label 'NAVAL BATTLES'",
                  "back label 'Hits to Sink'"):
        assert fields.count(label) == 1, label
    # and every text of labels once, however many cards print it: findings are counted by
    # the labels a text prints (the type line's type and nation), not by card
    assert len(fields) == len(set(fields))
    assert len(overflows) < 80
