"""A language added to game.yaml changes the ``locales:`` list and not one other byte.

Every game.yaml in the repository (shipped packs, the starter, the fixtures, the docs' example)
and hand-made variants (flow, block, quoted, commented, CRLF, a BOM, no list yet) get a new
language through :func:`generator.i18n.gamelocales.with_locale`; the diff must be exactly the
``locales:`` line (flow) or one new ``- xx`` line (block), and pnp's own loader must read the
result as the old settings with the language added.
"""

from __future__ import annotations

import shutil

import pytest
from conftest import ROOT, changed_lines

from generator.i18n.gamelocales import add_locale, with_locale
from generator.load.yamledit import EditRefused
from generator.load.yamlsource import load_yaml_text

GAME_FILES = sorted({*ROOT.glob("cards/*/game.yaml"), *ROOT.glob("tests/fixtures/**/game.yaml"),
                     *ROOT.glob("docs/**/game.yaml"), *ROOT.glob("generator/starter/*/game.yaml")})


def _settings(text: str) -> dict:
    doc, findings = load_yaml_text("game.yaml", text)
    assert doc is not None and not findings, findings
    return doc.data


def _added_only_the_locale(old: str, new: str, locale: str, source: str = "en") -> None:
    before, after = _settings(old), _settings(new)
    wanted = [*(before.get("locales") or [source]), locale]
    assert after.pop("locales") == wanted
    before.pop("locales", None)
    assert after == before


def test_there_are_game_files_of_every_kind():
    assert len(GAME_FILES) >= 30
    assert ROOT / "cards" / "cwnb" / "game.yaml" in GAME_FILES
    assert ROOT / "generator" / "starter" / "game" / "game.yaml" in GAME_FILES


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_game_yaml_changes_its_locales_line_only(path):
    text = path.read_bytes().decode("utf-8")
    text = text.replace("@PACK@", "starter").replace("@NAME@", "Starter")  # pnp new's blanks
    data = _settings(text)
    locales = data.get("locales")
    new = with_locale(text, "xx", data.get("source_locale", "en"))
    _added_only_the_locale(text, new, "xx", data.get("source_locale", "en"))
    removed, added = changed_lines(text, new)
    if isinstance(locales, list):  # a flow list here: the one line, with the new item last
        assert len(removed) == len(added) == 1, (removed, added)
        assert added[0] == removed[0].replace("]", ", xx]", 1)
    else:  # no list yet: one line, after source_locale
        assert removed == [] and added == [f"locales: [{data.get('source_locale', 'en')}, xx]\n"]
        lines = new.splitlines()
        if "source_locale" in data:
            assert lines[lines.index(added[0].rstrip("\n")) - 1].startswith("source_locale:")
    assert new.encode("utf-8").count(b"\r") == text.encode("utf-8").count(b"\r")


HEAD = "# a game\npack: x  # its name\nsource_locale: en\n"
TAIL = "set_mark: anchor   # after\ncard_size: poker\n"


@pytest.mark.parametrize(("locales", "removed", "added"), [
    ("locales: [en, ru]\n", ["locales: [en, ru]\n"], ["locales: [en, ru, de]\n"]),
    ("locales: [ 'en', 'ru' ]  # both\n", ["locales: [ 'en', 'ru' ]  # both\n"],
     ["locales: [ 'en', 'ru', 'de' ]  # both\n"]),
    ('locales: ["en"]\n', ['locales: ["en"]\n'], ['locales: ["en", "de"]\n']),
    ("locales: [\n  en,  # the source\n  ru,\n]\n", ["  ru,\n"], ["  ru, de,\n"]),
    ("locales:\n  - en   # source\n  - ru\n", [], ["  - de\n"]),
    ("locales:\n- en\n- ru  # last\n\n# more later\n", [], ["- de\n"]),
    ("locales:\n    -   en\n    - 'ru'\n", [], ["    - 'de'\n"]),
    ("locales: []\n", ["locales: []\n"], ["locales: [en, de]\n"]),
    ("locales:   # none yet\n", ["locales:   # none yet\n"],
     ["locales: [en, de]   # none yet\n"]),
    ("locales: ~\n", ["locales: ~\n"], ["locales: [en, de]\n"]),
    ("", [], ["locales: [en, de]\n"]),
])
def test_flow_block_and_commented_lists_keep_every_other_byte(locales, removed, added):
    text = HEAD + locales + TAIL
    new = with_locale(text, "de", "en")
    _added_only_the_locale(text, new, "de")
    assert changed_lines(text, new) == (removed, added)
    if not removed:  # a new line: right after the last item, or after source_locale
        assert new.replace(added[0], "", 1) == text


def test_line_breaks_a_bom_and_a_missing_last_newline_are_kept():
    crlf = ("\ufeff" + HEAD + "locales:\n  - en\n  - ru  # last").replace("\n", "\r\n")
    new = with_locale(crlf, "de", "en")
    assert new == crlf + "\r\n  - de"
    flow = (HEAD + "locales: [en]").replace("\n", "\r\n")
    assert with_locale(flow, "de", "en") == flow.replace("[en]", "[en, de]")
    none = HEAD.replace("\n", "\r\n") + "card_size: poker"
    assert with_locale(none, "de", "en") == none.replace(
        "source_locale: en\r\n", "source_locale: en\r\nlocales: [en, de]\r\n")


@pytest.mark.parametrize("text", [
    "locales: en\n", "locales: {en: 1}\n", "locales:\n  - en\n  - {code: ru}\n",
    "locales:\n  - en\n  - |\n    ru\n", "- en\n", "locales: [en\n",
])
def test_what_cannot_be_extended_in_place_is_refused(text):
    with pytest.raises(EditRefused):
        with_locale(text, "de", "en")


def test_add_locale_writes_the_file_and_says_what_to_do_when_it_cannot(tmp_path):
    pack = tmp_path / "cwnb"
    shutil.copytree(ROOT / "cards" / "cwnb", pack)
    game = pack / "game.yaml"
    crlf = game.read_bytes().replace(b"\n", b"\r\n")
    game.write_bytes(crlf)
    add_locale(game, "de", "en")
    assert game.read_bytes() == crlf.replace(b"locales: [en, ru]", b"locales: [en, ru, de]")
    game.write_text("pack: x\nsource_locale: en\nlocales: en\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"add 'de' to the 'locales:' list there by hand"):
        add_locale(game, "de", "en")
    assert game.read_text(encoding="utf-8").endswith("locales: en\n")
    shared = "pack: x\nsource_locale: en\nlangs: &l [en, ru]\nlocales: *l\n"
    game.write_text(shared, encoding="utf-8")  # the list is also another setting's
    with pytest.raises(Exception, match="could not add the language safely"):
        add_locale(game, "de", "en")
    assert game.read_text(encoding="utf-8") == shared
