"""What a run of faces remembers (widgets by the values they read, conditions by the values
they name) must never change a face: each case here would print a wrong face if the memo's
key missed something the drawing depends on."""

from __future__ import annotations

from generator.core.location import Location
from generator.layout.engine import FaceContext, layout_face, reads
from generator.layout.ops import Text
from generator.model.cards import CardSize, Manifest
from generator.model.template import Element, Template


def _manifest(mark: str = "anchor") -> Manifest:
    return Manifest("p", "cwnb", "P", "1", "en", ("en",), mark, "", CardSize(63.5, 88.9),
                    None, Location("game.yaml"))


def _context(widgets: dict, memo: dict, manifest: Manifest | None = None) -> FaceContext:
    return FaceContext(palette={"ink": "#000000"}, manifest=manifest or _manifest(),
                       locale="en", label=str, widgets=widgets, icons={}, memo=memo)


def _texts(face) -> list[str]:
    return [op.text for op in face.ops if isinstance(op, Text)]


def test_a_declared_widget_is_drawn_once_per_reading_and_never_wrongly() -> None:
    calls: list[object] = []

    @reads("guns")
    def guns(values, box, options, ctx):
        calls.append(values.get("guns"))
        return [Text(box[0], box[1], f"{values.get('guns')!r} {ctx.manifest.set_mark}",
                     "regular", 8.0, "#000000")]

    template = Template("cwnb", "t", 63.5, 88.9,
                        (Element("widget", (1.0, 2.0, 30.0, 5.0), {"widget": "guns"}),),
                        shared=False)
    memo: dict[object, object] = {}
    ctx = _context({"guns": guns}, memo)
    faces = [layout_face(template, values, ctx) for values in (
        {"guns": [5, 3], "name": "A"}, {"guns": [5, 3], "name": "B"},  # same reading
        {"guns": [5, 4], "name": "C"},
        {"guns": [True], "name": "D"}, {"guns": [1], "name": "E"},  # equal in Python only
        {"guns": [1.0], "name": "F"})]
    assert [_texts(face) for face in faces] == [
        ["[5, 3] anchor"], ["[5, 3] anchor"], ["[5, 4] anchor"], ["[True] anchor"],
        ["[1] anchor"], ["[1.0] anchor"]]
    assert calls == [[5, 3], [5, 4], [True], [1], [1.0]]
    # another pack's card (an expansion, its own set mark) is drawn for its own manifest
    other = _context({"guns": guns}, memo, _manifest("star"))
    assert _texts(layout_face(template, {"guns": [5, 3]}, other)) == ["[5, 3] star"]


def test_an_undeclared_widget_is_drawn_on_every_face() -> None:
    calls: list[object] = []

    def named(values, box, options, ctx):
        calls.append(values["name"])
        return [Text(box[0], box[1], str(values["name"]), "regular", 8.0, "#000000")]

    template = Template("cwnb", "t", 63.5, 88.9,
                        (Element("widget", (1.0, 2.0, 30.0, 5.0), {"widget": "named"}),),
                        shared=False)
    ctx = _context({"named": named}, {})
    assert [_texts(layout_face(template, {"name": n}, ctx)) for n in "ABA"] == [
        ["A"], ["B"], ["A"]]
    assert calls == ["A", "B", "A"]


def test_a_remembered_condition_follows_every_name_it_reads() -> None:
    shown = Element("text", (1.0, 2.0, 40.0, 6.0),
                    {"text": "shown", "when": "count == 1 && self.kind != 'spell'"})
    whole = Element("text", (1.0, 10.0, 40.0, 6.0),
                    {"text": "many", "when": "size(self) > 2"})
    template = Template("cwnb", "t", 63.5, 88.9, (shown, whole), shared=False)
    ctx = _context({}, {})
    cases = [({"count": 1, "kind": "ship"}, ["shown"]),
             ({"count": 1, "kind": "spell"}, []),
             ({"count": 2, "kind": "ship"}, []),
             ({"count": 1, "kind": "ship", "name": "x"}, ["shown", "many"]),
             ({"count": 3, "kind": "ship"}, []),
             ({"count": 1, "kind": "ship"}, ["shown"])]
    assert [_texts(layout_face(template, values, ctx)) for values, _ in cases] == [
        expected for _, expected in cases]
    # 1.0 equals 1 in Python (and in CEL), but it is a double: the answer remembered for the
    # int must not answer for it
    typed = Template("cwnb", "t", 63.5, 88.9, (Element(
        "text", (1.0, 2.0, 40.0, 6.0), {"text": "int", "when": "type(count) == int"}),),
        shared=False)
    assert [_texts(layout_face(typed, {"count": n}, ctx)) for n in (1, 1.0, 1)] == [
        ["int"], [], ["int"]]
