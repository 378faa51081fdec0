"""The translator's view without a browser: where each text prints and whether it fits, the
checks, and the PO file written exactly as ``pnp i18n update`` writes it (GNU gettext's own
tools accept it)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import ROOT, run_pnp

from generator.studio import translate
from generator.studio.session import Session


@pytest.fixture
def cwnb(tmp_path) -> Session:
    pack = tmp_path / "cwnb"
    shutil.copytree(ROOT / "cards" / "cwnb", pack)
    return Session(pack, (), ())


def _entry(catalogs: translate.Catalogs, context: str) -> translate.Entry:
    return next(e for e in catalogs.entries if e.context == context)


def test_every_text_is_listed_with_its_translation_and_where_it_prints(cwnb):
    loaded = cwnb.current()
    catalogs = translate.read_catalogs(loaded, "ru")
    assert catalogs.counts() == {"total": 223, "translated": 223, "fuzzy": 0, "missing": 0}
    fitting = translate.Fitting(cwnb, loaded, "ru")
    name = _entry(catalogs, "gun-3in.name")
    assert name.translation == "Орудийный обстрел 3”" and name.card == "gun-3in"
    assert [(s.card, s.side, sorted(s.names)) for s in fitting.slots(name)] == \
        [("gun-3in", "front", ["name"])]
    # a label prints on every card whose face asks for it: one face per pair of templates
    carrier = next(e for e in catalogs.entries if e.is_label and e.source == "Aircraft Carrier")
    slots = fitting.slots(carrier)
    assert [(s.side, s.template) for s in slots] == [("front", "ship")]
    assert slots[0].cards == sum(1 for c in loaded.card_set.cards
                                 if getattr(c, "type", None) == "CV")


def test_a_box_that_overflows_already_is_not_taken_for_another_texts(cwnb):
    po = cwnb.pack / "locales" / "ru.po"
    catalog = polib.pofile(str(po))
    catalog.find("Gun Attack 3in", msgctxt="gun-3in.name").msgstr = "Огонь " * 60
    catalog.save(str(po))
    loaded = cwnb.current()
    catalogs = translate.read_catalogs(loaded, "ru")
    fitting = translate.Fitting(cwnb, loaded, "ru")
    text = _entry(catalogs, "gun-3in.text")
    assert [sorted(s.names) for s in fitting.slots(text)] == [["text"]]
    [(_, over)] = fitting.fits(text, text.translation)
    assert over == 0.0  # the name's overflow is the name's
    [(_, over)] = fitting.fits(_entry(catalogs, "gun-3in.name"), "Огонь " * 60)
    assert over > 0


def test_the_fit_is_measured_in_millimetres_over(cwnb):
    loaded = cwnb.current()
    catalogs = translate.read_catalogs(loaded, "ru")
    fitting = translate.Fitting(cwnb, loaded, "ru")
    text = _entry(catalogs, "gun-3in.text")
    [(slot, over)] = fitting.fits(text, text.translation)
    assert slot.side == "front" and over == 0.0
    [(_, over)] = fitting.fits(text, text.translation * 3)
    assert over > 5.0
    [(_, longer)] = fitting.fits(text, text.translation * 4)
    assert longer > over


def test_checks_are_those_of_validate_and_the_tags(cwnb):
    loaded = cwnb.current()
    entry = _entry(translate.read_catalogs(loaded, "ru"), "gun-3in.text")
    localizer = cwnb.localizer("ru")

    def codes(text: str) -> set[str]:
        return {f.code for f in translate.entry_checks(loaded, entry, text, "ru", localizer)}

    assert {"translation-tokens", "glossary-term", "translation-tags"} <= \
        codes("Корабль <b>{gun-5in}")
    assert not codes(entry.translation)
    assert codes("") == {"missing-translation"}
    glyphs = codes("Корабль \u2603 оруди лини {gun-3in} локализован уклонени")
    assert "missing-glyph" in glyphs and "translation-tokens" not in glyphs


def _save(session: Session, edits: list[translate.Edit]) -> dict:
    loaded = session.current()
    versions = translate.read_catalogs(loaded, "ru").versions
    return translate.save_translations(session, "ru", edits, versions)


def test_saving_writes_the_po_as_i18n_update_does_and_gettext_reads_it(cwnb, tmp_path):
    po = cwnb.pack / "locales" / "ru.po"
    before = po.read_text(encoding="utf-8")
    result = _save(cwnb, [
        translate.Edit("cwnb", "gun-3in.name", "Gun Attack 3in",
                       "Артиллерийский обстрел 3” — длинное название, которое переносится "
                       "по правилам gettext на несколько строк", True,
                       "Орудийный обстрел 3”", False),
        translate.Edit("cwnb", "gun-5in.name", "Gun Attack 5in", "", False,
                       "Орудийный обстрел 5”", False)])
    assert result["status"] == "saved", result
    after = po.read_text(encoding="utf-8")
    assert after != before
    catalog = polib.pofile(str(po))
    fuzzy = catalog.find("Gun Attack 3in", msgctxt="gun-3in.name")
    assert "fuzzy" in fuzzy.flags and fuzzy.msgstr.startswith("Артиллерийский")
    assert catalog.find("Gun Attack 5in", msgctxt="gun-5in.name").msgstr == ""
    # pnp i18n update has nothing to change in it, but nothing: the studio wrote its layout
    assert run_pnp("i18n", "update", str(cwnb.pack), "--locale", "ru").returncode == 0
    assert po.read_text(encoding="utf-8") == after
    # GNU gettext's own tools take it as it is
    if shutil.which("msgfmt") is None:
        pytest.skip("gettext is not installed (apt-get install gettext)")
    checked = subprocess.run(["msgfmt", "-c", "-o", str(tmp_path / "ru.mo"), str(po)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    joined = subprocess.run(["msgcat", str(po)], capture_output=True, text=True)
    assert joined.returncode == 0, joined.stderr
    assert joined.stdout == after  # msgcat would write it byte for byte the same


def test_a_catalog_changed_on_disk_is_not_overwritten_blindly(cwnb):
    loaded = cwnb.current()
    versions = translate.read_catalogs(loaded, "ru").versions
    po = cwnb.pack / "locales" / "ru.po"
    po.write_text(po.read_text(encoding="utf-8").replace(
        'msgstr "Орудийный обстрел 3”"', 'msgstr "Обстрел 3”"'), encoding="utf-8")
    mine = translate.Edit("cwnb", "gun-3in.name", "Gun Attack 3in", "Огонь 3”", False,
                          "Орудийный обстрел 3”", False)
    result = translate.save_translations(cwnb, "ru", [mine], versions)
    assert result["status"] == "conflict"
    assert result["conflicts"][0]["disk"] == "Обстрел 3”"
    assert 'msgstr "Обстрел 3”"' in po.read_text(encoding="utf-8")
    other = translate.Edit("cwnb", "gun-5in.name", "Gun Attack 5in", "Огонь 5”", False,
                           "Орудийный обстрел 5”", False)
    assert translate.save_translations(cwnb, "ru", [other], versions)["status"] == "saved"
    text = po.read_text(encoding="utf-8")
    assert 'msgstr "Обстрел 3”"' in text and 'msgstr "Огонь 5”"' in text
    forced = translate.save_translations(cwnb, "ru", [mine], versions, force=True)
    assert forced["status"] == "saved" and 'msgstr "Огонь 3”"' in po.read_text(encoding="utf-8")


def test_a_new_language_gets_its_catalog_written_as_update_would(tmp_path):
    pack = tmp_path / "rockpool"
    shutil.copytree(ROOT / "cards" / "rockpool", pack)
    (pack / "locales" / "de.po").unlink()
    session = Session(pack, (), ())
    catalogs = translate.read_catalogs(session.current(), "de")
    assert catalogs.counts()["missing"] == catalogs.counts()["total"] > 0
    entry = catalogs.entries[0]
    result = translate.save_translations(session, "de", [translate.Edit(
        entry.pack, entry.context, entry.source, "Seepocke", False, "", False)],
        catalogs.versions)
    assert result["status"] == "saved"
    assert polib.pofile(str(pack / "locales" / "de.po")).find(
        entry.source, msgctxt=entry.context).msgstr == "Seepocke"


def test_the_cli_and_the_studio_list_the_same_messages(cwnb):
    loaded = cwnb.current()
    catalog = polib.pofile(str(Path(cwnb.pack) / "locales" / "ru.po"))
    listed = {(e.context, e.source) for e in translate.read_catalogs(loaded, "ru").entries}
    assert listed == {(e.msgctxt, e.msgid) for e in catalog if not e.obsolete}


def test_the_studio_localizer_keeps_what_the_catalogs_said() -> None:
    """Each edit gets a fresh copy of the localizer read for the pack: every field of it, an
    expansion's own language and the fuzzy entries included (the copy dropped them), with an
    empty set of the messages found missing."""
    from generator.pipeline.localecheck import localizer_for

    session = Session(ROOT / "cards" / "cwnb",
                      (ROOT / "tests" / "fixtures" / "cwnb-audit3-ru",), ())
    loaded = session.current()
    read = localizer_for(loaded.card_set, loaded.game.name, "en")
    assert read.pack_sources  # the expansion is written in Russian
    copy = session.localizer("en")
    assert copy == read
    assert (copy.pack_sources, copy.fuzzy, copy.places) == (read.pack_sources, read.fuzzy,
                                                            read.places)
    copy.missing.add(("x", "y"))
    assert session.localizer("en").missing == set()
