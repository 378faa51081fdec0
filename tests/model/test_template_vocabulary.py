"""The element vocabulary is strict for pnp's own templates too: every shipped template (the
built-in games', Rockpool's, the starter game's) reads without a single finding, and the
checks every game shares (points, masks, gradients, QR boxes) hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from generator.model.template import ELEMENT_PROPS, parse_template, read_template

BOX = [0, 0, 20, 20]

SHIPPED = sorted(p for folder in (ROOT / "templates", ROOT / "cards" / "rockpool" / "templates",
                                  ROOT / "generator" / "starter" / "game" / "templates")
                 for p in folder.rglob("*.yaml") if p.stem not in ("labels", "palette"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_template_reads_without_a_finding(path: Path) -> None:
    template, findings = read_template(path, path.parent.name)
    assert template is not None and findings == []


def test_the_vocabulary_has_the_elements_the_design_names() -> None:
    assert set(ELEMENT_PROPS) == {"rect", "ellipse", "polygon", "line", "text", "image", "qr",
                                  "widget"}
    assert {"mask", "radius"} <= set(ELEMENT_PROPS["image"])
    assert "radius" in ELEMENT_PROPS["rect"] and "points" in ELEMENT_PROPS["polygon"]


@pytest.mark.parametrize(("element", "says"), [
    ({"type": "polygon", "points": [[0, 0], [1, 1]]}, "3 to 200 corners"),
    ({"type": "polygon"}, "a polygon element needs 'points'"),
    ({"type": "image", "box": BOX, "src": "a.png", "mask": "circle"},
     "mask is 'circle'; expected rounded or ellipse"),
    ({"type": "rect", "box": BOX, "fill": {"linear": ["ink"]}}, "'linear' lists 2 to 8 colours"),
    ({"type": "rect", "box": BOX, "fill": {"linear": ["ink", "paper"], "angel": 90}},
     "did you mean 'angle'?"),
    # a box left out printed a picture at no size: the build stopped on a division by zero
    ({"type": "image", "src": "a.png"}, "an image element needs 'box'"),
    ({"type": "text", "text": "x"}, "a text element needs 'box'"),
    ({"type": "image", "box": [0, 0, 0, 10], "src": "a.png"}, "its box has no room"),
    ({"type": "rect", "box": [5, 5, 10, 0]}, "its box has no room"),
    ({"type": "qr", "box": [0, 0, 20, 10], "data": "x"}, "a QR code is square"),
    ({"type": "qr", "box": [0, 0, 20, 20]}, "a qr element needs 'data'"),
    ({"type": "txt"}, "unknown element type 'txt'"),
])
def test_values_every_game_shares_are_checked(element: dict, says: str) -> None:
    template, findings = parse_template({"elements": [element]}, "g", "t", "t.yaml")
    assert template is not None and len(findings) == 1 and says in findings[0].message, findings


@pytest.mark.parametrize("element", [
    {"type": "line", "box": [5, 10, 40, 0]},                    # a level line has no height
    {"type": "polygon", "points": [[0, 0], [10, 0], [5, 8]]},   # placed by its points
])
def test_elements_that_need_no_area_take_a_flat_box_or_none(element: dict) -> None:
    template, findings = parse_template({"elements": [element]}, "g", "t", "t.yaml")
    assert template is not None and findings == []
