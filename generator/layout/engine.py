"""Lay out one card face: template elements + face values -> drawing operations.

The engine knows nothing of any game: values come from the game's ``face_values``, drawings of
game things (weapon symbols, rating badges) from its widgets and inline icons.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

from msgspec import Struct, field
from msgspec.structs import replace

from generator.cache.memo import DigestMemo, digest_of, memo_for
from generator.core.findings import did_you_mean
from generator.layout.ops import (
    Ellipse,
    Fill,
    Gradient,
    Group,
    Image,
    Line,
    Op,
    Polygon,
    QrCode,
    Rect,
    Text,
)
from generator.layout.richtext import Style, colors_named, has_markup, parse
from generator.layout.textfit import (
    PT_TO_MM,
    FittedText,
    Piece,
    Variants,
    fit_text,
    run_style,
    variants_of,
)
from generator.model.cards import Manifest
from generator.model.template import PLAIN_NAME, Element, Template, TemplateError

Box = tuple[float, float, float, float]
IconPainter = Callable[[float, float, float, str], list[Op]]  # x, baseline, size mm, color
Widget = Callable[..., list[Op]]  # (values, box, options, ctx) -> ops
#: a ``{field}`` placeholder of a template text or source (group 1: the field's name)
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
ASCENT = 0.74  # cap-height-ish share of the font size above the baseline (PT Sans)


class TextProblem(Struct, frozen=True, gc=False):
    """A text that did not fit, or named an icon nobody draws.

    ``field`` is what the text prints, as the finding names it and a translator finds it: a
    card field or a label key (a template text's, or the one a widget printed in the cell).
    ``parts`` holds every such name, in print order, when one text joins several (a table cell
    listing the answers to an attack); empty otherwise. ``box`` is where the text was meant to
    go (x, y, width, height in card mm: the template element's box, or the widget's cell), so
    that a proof can outline the overflow on the card's picture; ``overflow_mm`` is how far the
    text runs past it."""

    field: str
    overflow_mm: float
    size_pt: float
    kind: str = "overflow"  # overflow | unknown-icon | markup | qr
    detail: str = ""
    box: Box | None = None
    parts: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """Every card field or label key the text prints (one, unless it joins several)."""
        return self.parts or (self.field,)


class FaceContext(Struct):
    """Everything a face needs besides the card: palette, marks, locale, label translation."""

    palette: Mapping[str, str]
    manifest: Manifest
    locale: str
    label: Callable[[str], str]
    widgets: Mapping[str, Callable[..., list[Op]]]
    icons: Mapping[str, IconPainter]
    bleed_mm: float = 0.0
    #: texts that widgets could not fit; the engine adds them to the face's problems
    problems: list[TextProblem] = field(default_factory=list)
    #: a ``when:``/``unless:`` CEL condition -> its value for this card (None: face values)
    condition: Callable[[str], bool] | None = None
    #: the folder that ``image`` paths written in a template are relative to (a data game's
    #: pack, a built-in game's template folder), None where no art is drawn
    art_root: Path | None = None
    #: a data game's art problems are findings of validation, so art that cannot be drawn is
    #: left out here; a built-in game's art is ours, and a missing file is a template error
    art_checked: bool = True
    #: the card's own pack folder: a path read from a card field (``src: "{art}"``) is looked
    #: for there first, so an expansion's cards print the expansion's art
    card_root: Path | None = None
    #: colours read from card fields were checked by validation, on the card (a data game):
    #: an unknown one paints nothing here rather than being reported a second time
    checked_colors: bool = False
    #: what a card's enum fields print as in text (a data game's ``x-labels``, translated):
    #: a ``{field}`` in a text shows these, a colour or a file name the field's own value
    printed: Mapping[str, str] | None = None
    #: face values made of labels -> the label keys (and card fields) each prints: a ship's
    #: type name is label ``type:DD``, a data card's enum field its ``x-labels`` entry. A
    #: template text that overflows names these, as a widget names what it fits, so that its
    #: finding points at the catalog entry a translator must shorten (None: every value
    #: prints the card field of its name)
    printed_from: Mapping[str, tuple[str, ...]] | None = None
    #: what one run of faces (one locale, palette and bleed) has already laid out: a text
    #: element's ops by its content and colour, an element's settings read once. The same label,
    #: class or cost on thousands of cards is then fitted and positioned once (None: no memo)
    memo: dict[object, object] | None = None

    def fit(self, text: str, box: Box, style: str, size_pt: float, min_size_pt: float,
            what: str | tuple[str, ...]) -> FittedText:
        """Fit a widget's text into its cell ``box`` (x, y, width, height in card mm) like a
        template text. ``what`` is what the text prints: the label key or card field (or, for
        a text that joins several labels, all of their keys). A text that overflows is kept
        with both, so that its finding names the label a translator must shorten, at its
        catalog entry, and a proof outlines that cell rather than the whole widget."""
        fitted = fit_text(text, box[2], box[3], style, size_pt, min_size_pt, self.locale)
        if not fitted.fits:
            names = (what,) if isinstance(what, str) else what
            self.problems.append(TextProblem(names[0], fitted.overflow_mm, fitted.size_pt,
                                             box=box, parts=names if len(names) > 1 else ()))
        return fitted

    def color(self, name: object, values: Mapping[str, object] | None = None) -> str | None:
        """A palette name or ``#rrggbb``; with the face ``values``, ``{field}`` placeholders
        are filled first (``fill: "{school}"``), the same for every element that paints."""
        if name in (None, "none"):
            return None
        text = str(name)
        if values is not None and "{" in text:
            text = substitute(text, values)
            if text in ("", "none") or (self.checked_colors and not text.startswith("#")
                                        and text not in self.palette):
                return None
        if text.startswith("#"):
            return text
        if text not in self.palette:
            raise TemplateError(f"unknown colour '{text}' (not in the palette)")
        return self.palette[text]


class FaceLayout(Struct):
    width_mm: float = 0.0
    height_mm: float = 0.0
    ops: list[Op] = field(default_factory=list)
    problems: list[TextProblem] = field(default_factory=list)
    #: the card's rounded corners (``corner_radius_mm``): a lone card page is cut to them
    corner_radius_mm: float = 0.0


def substitute(text: str, values: Mapping[str, object]) -> str:
    """Fill ``{name}`` placeholders from the face values; other braces are inline icons."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            return match.group(0)
        value = values[name]
        return "" if value is None else str(value)

    return PLACEHOLDER.sub(replace, text)


def condition_holds(expression: str, values: Mapping[str, object],
                    condition: Callable[[str], bool] | None = None,
                    memo: dict[object, object] | None = None) -> bool:
    """A bare name reads a face value; anything else is CEL over the card (``condition``, for
    a data game) or over the face values (``self`` and bare names). Over face values (a
    built-in game's own templates) a condition that fails to evaluate is a template error, not
    a silently hidden element."""
    if PLAIN_NAME.fullmatch(expression):
        return bool(values.get(expression))
    if condition is not None:
        return condition(expression)
    key = _condition_key(expression, values) if memo is not None else None
    known = memo.get(key) if key is not None else None  # type: ignore[union-attr]
    if known is None:
        known = _evaluated(expression, values, memo)
        if key is not None:
            remember(memo, key, known)
    return known  # type: ignore[return-value]


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: ``self`` other than as ``self.name``: the condition reads the face values as a whole
_WHOLE_SELF = re.compile(r"\bself\b(?!\s*\.\s*[A-Za-z_])")


@cache
def _condition_names(expression: str) -> tuple[str, ...] | None:
    """Every name a condition's text holds (values it may read, and more: functions, words
    in its strings), or None when it reads ``self`` whole."""
    if _WHOLE_SELF.search(expression):
        return None
    return tuple(dict.fromkeys(_NAME.findall(expression)))


def _condition_key(expression: str, values: Mapping[str, object]) -> tuple | None:
    """A condition's memo key: its text and the values of every name in it. Two faces that
    agree on those agree on the condition (``body_top == 34`` on ten thousand ships is
    evaluated once per distinct body_top)."""
    names = _condition_names(expression)
    if names is None:
        return None
    return _reading_key((condition_holds, expression), names, values)


#: template conditions' verdicts kept between runs (generator.cache.memo): a built-in game's
#: build asks the same few dozen conditions every time, and answering them costs the CEL
#: runtime's import (some 30 ms of a small build)
_CONDITIONS_FOLDER = "conditions"
_CONDITIONS_MAGIC = b"pnp-conditions 1\n"


def _evaluated(expression: str, values: Mapping[str, object],
               memo: dict[object, object] | None) -> bool:
    """The condition's verdict: remembered from an earlier run for the same expression over
    the same values it reads, else worked out by the CEL engine (and then remembered)."""
    names = _condition_names(expression)
    digest = None
    if names is not None:
        digest = digest_of((expression, [(name, values.get(name)) for name in names]))
    known = _verdicts().answer(digest) if digest is not None else None
    if known is not None:
        return bool(known)
    value = _cel_verdict(expression, values, memo)
    if digest is not None:
        _verdicts().learn(digest, int(value))
    return value


@cache
def _verdicts() -> DigestMemo:
    return memo_for(_CONDITIONS_FOLDER, _CONDITIONS_MAGIC, b"template conditions")


def _cel_verdict(expression: str, values: Mapping[str, object],
                 memo: dict[object, object] | None) -> bool:
    from generator.rules.cel import CelProblem, describe_error, is_error, plain_evaluator

    try:
        value = plain_evaluator(expression)(_activation(values, memo))
    except CelProblem as problem:
        raise TemplateError(f"when/unless: {problem.message}") from None
    if is_error(value) or not isinstance(value, bool):
        detail = describe_error(value) if is_error(value) else f"gives {value!r}, not true/false"
        raise TemplateError(f"when/unless {expression!r}: {detail}")
    return value


def _activation(values: Mapping[str, object],
                memo: dict[object, object] | None) -> dict[str, object]:
    """CEL's view of the face values, built once per face (the run's memo holds the last one,
    with the very values object it was made from)."""
    last = memo.get(_activation) if memo is not None else None
    if isinstance(last, tuple) and last[0] is values:
        return last[1]
    # a value the card does not have (None) is absent, as a data card's missing field is:
    # ``has(self.damage)`` asks for it, and reading it anyway makes the condition false
    present = {name: value for name, value in values.items() if value is not None}
    activation: dict[str, object] = {name: value for name, value in present.items()
                                     if PLAIN_NAME.fullmatch(name)}
    activation["self"] = present
    remember(memo, _activation, (values, activation))
    return activation


def visible(element: Element, values: Mapping[str, object],
            condition: Callable[[str], bool] | None = None,
            memo: dict[object, object] | None = None) -> bool:
    props = element.props
    when = props.get("when")
    unless = props.get("unless")
    if when is None and unless is None:
        return True
    if when is not None and not condition_holds(str(when), values, condition, memo):
        return False
    return not (unless is not None and condition_holds(str(unless), values, condition, memo))


#: an underline's place below the baseline and its thickness, as shares of the font size
UNDERLINE_DROP = 0.12
UNDERLINE_WIDTH = 0.06


def text_ops(fitted: FittedText, box: Box, align: str, valign: str, font: str, color: str,
             icons: Mapping[str, IconPainter], colors: Mapping[str, str] | None = None,
             variants: Variants | None = None) -> tuple[list[Op], list[str]]:
    """Position fitted lines in the box; returns ops and the names of unknown icons. Rich-text
    runs print in their own ``variants`` of ``font`` and in their ``<font color>`` (a name
    ``colors`` resolves; an unresolved one prints in ``color``), underlined runs get a line."""
    x, y, w, h = box
    size_mm = fitted.size_pt * PT_TO_MM
    block = (len(fitted.lines) - 1) * fitted.leading_mm + size_mm * ASCENT if fitted.lines else 0
    top = {"top": y, "middle": y + (h - block) / 2, "bottom": y + h - block}.get(valign, y)
    ops: list[Op] = []
    unknown: list[str] = []
    variants = variants or variants_of(font)

    def paint(style: Style | None) -> str:
        if style is None or style.color is None:
            return color
        if style.color.startswith("#"):
            return style.color
        return (colors or {}).get(style.color, color)

    for index, line in enumerate(fitted.lines):
        baseline = top + size_mm * ASCENT + index * fitted.leading_mm
        start = {"left": x, "center": x + (w - line.width_mm) / 2,
                 "right": x + w - line.width_mm}.get(align, x)
        _line_ops(line.pieces, start, baseline, fitted.size_pt, font, variants, paint, icons,
                  ops, unknown)
    return ops, unknown


def _line_ops(pieces: tuple[Piece, ...], start: float, baseline: float, size_pt: float,
              font: str, variants: Variants, paint: Callable[[Style | None], str],
              icons: Mapping[str, IconPainter], ops: list[Op], unknown: list[str]) -> None:
    """One line's ops: runs of one style as one text each, icons, underlines."""
    size_mm = size_pt * PT_TO_MM
    cursor = start
    pending = ""
    pending_x = cursor
    pending_style: Style | None = None
    under: tuple[float, str] | None = None  # an underline's start and colour
    drop = baseline + size_mm * UNDERLINE_DROP
    thickness = round(size_pt * UNDERLINE_WIDTH, 3)
    for piece in pieces:
        style = piece.style
        underlined = style is not None and style.underline
        if under is not None and (not underlined or paint(style) != under[1]):
            ops.append(Line(under[0], drop, cursor, drop, under[1], thickness))
            under = None
        if underlined and under is None:
            under = (cursor, paint(style))
        if piece.icon is None:
            if pending and style != pending_style:
                ops.append(_run(pending_x, baseline, pending, pending_style, size_pt, font,
                                variants, paint))
                pending = ""
            if not pending:
                pending_x = cursor
                pending_style = style
            pending += piece.text
        else:
            if pending:
                ops.append(_run(pending_x, baseline, pending, pending_style, size_pt, font,
                                variants, paint))
                pending = ""
            painter = icons.get(piece.icon)
            if painter is None:
                unknown.append(piece.icon)
            else:
                ops.extend(painter(cursor, baseline, size_mm, paint(style)))
        cursor += piece.width_mm
    if pending:
        ops.append(_run(pending_x, baseline, pending, pending_style, size_pt, font, variants,
                        paint))
    if under is not None:
        ops.append(Line(under[0], drop, cursor, drop, under[1], thickness))


def _run(x: float, baseline: float, text: str, style: Style | None, size_pt: float, font: str,
         variants: Variants, paint: Callable[[Style | None], str]) -> Text:
    """A run of one style as a text op (a plain run in the element's own font and colour)."""
    return Text(x, baseline, text, font if style is None else run_style(variants, style),
                size_pt, paint(style))


def markup_problems(text: str, ctx: FaceContext) -> tuple[list[str], dict[str, str]]:
    """What is wrong with a text's rich-text markup, and the colours its ``<font color>``
    tags name that the palette knows (name -> #rrggbb)."""
    if not has_markup(text):
        return [], {}
    problems = list(parse(text).problems)
    colors: dict[str, str] = {}
    for name in colors_named(text):
        if name.startswith("#"):
            if len(name) != 7 or any(c not in "0123456789abcdefABCDEF" for c in name[1:]):
                problems.append(f"<font color=\"{name}\">: a colour is a palette name or "
                                "#rrggbb")
            continue
        if name in ctx.palette:
            colors[name] = ctx.palette[name]
        else:
            problems.append(f"<font color=\"{name}\">: unknown colour '{name}'; the palette "
                            f"has: {', '.join(sorted(ctx.palette))}"
                            f"{did_you_mean(name, sorted(ctx.palette))}")
    return problems, colors


#: entries a run's memo holds before it starts afresh (a 50,000-card run keeps bounded memory)
MEMO_LIMIT = 50_000


def remember(memo: dict[object, object] | None, key: object, value: object) -> None:
    """Keep ``value`` in a run's memo (if there is one), within :data:`MEMO_LIMIT`."""
    if memo is None:
        return
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value


class _TextSpec(Struct, frozen=True, gc=False):
    """A text element's settings, read from its properties once per run of faces."""

    label: str | None
    raw: str
    upper: bool
    font: str
    size: float
    min_size: float
    angle: int
    box: Box
    hyphenate: bool
    field_name: str
    #: the one field the text is (``text: "{name}"``), read without substitute's regex
    only_field: str | None
    #: every ``{value}`` the text prints, in order
    placeholders: tuple[str, ...]
    align: str
    valign: str
    color: object
    #: the styles rich-text runs print in (regular, bold, italic, bold italic)
    variants: Variants


def _text_spec(element: Element) -> _TextSpec:
    props = element.props
    raw = str(props.get("text", ""))
    single = PLACEHOLDER.fullmatch(raw)
    angle = text_angle(props.get("rotate", 0))
    _, _, w, h = element.box
    size = float(props.get("size", 8))  # type: ignore[arg-type]
    return _TextSpec(
        label=str(props["label"]) if "label" in props else None,
        raw=raw, upper=bool(props.get("upper")), font=str(props.get("font", "regular")),
        size=size, min_size=float(props.get("min_size", size)),  # type: ignore[arg-type]
        angle=angle, box=(0.0, 0.0, h, w) if angle else element.box,  # turned: along the height
        hyphenate=bool(props.get("hyphenate", True)),
        only_field=single.group(1) if single else None,
        placeholders=tuple(dict.fromkeys(PLACEHOLDER.findall(raw))),
        field_name=str(props.get("field") or (single.group(1) if single else
                                              props.get("label", "text"))),
        align=str(props.get("align", "left")), valign=str(props.get("valign", "top")),
        color=props.get("color", "ink"),
        variants=tuple(props["font_variants"]) if "font_variants" in props  # type: ignore
        else variants_of(str(props.get("font", "regular"))))


def _text_element(element: Element, values: Mapping[str, object], ctx: FaceContext,
                  layout: FaceLayout) -> None:
    memo = ctx.memo
    spec = memo.get(id(element)) if memo is not None else None
    if spec is None:
        spec = _text_spec(element)
        remember(memo, id(element), spec)
    assert isinstance(spec, _TextSpec)
    # the text shows what the fields print (their labels); its colour, the fields' own values
    shown = {**values, **ctx.printed} if ctx.printed else values
    if spec.label is not None:
        content = ctx.label(spec.label)
    elif spec.only_field is not None:  # as substitute: None prints nothing, absent stays
        value = shown.get(spec.only_field, spec.raw)
        content = "" if value is None else str(value)
    else:
        content = substitute(spec.raw, shown) if "{" in spec.raw else spec.raw
    if spec.upper:
        content = content.upper()
    if not content.strip():
        return
    color = ctx.color(spec.color, values) or "#000000"
    key = (id(element), content, color)
    done = memo.get(key) if memo is not None else None
    if done is None:
        done = _text_result(spec, element.box, content, color, ctx)
        remember(memo, key, done)
    ops, problems = done  # type: ignore[misc]
    layout.ops.extend(ops)
    if problems and ctx.printed_from and spec.label is None:
        problems = _named(problems, spec.placeholders, ctx.printed_from)
    layout.problems.extend(problems)


def _named(problems: tuple[TextProblem, ...], placeholders: tuple[str, ...],
           printed_from: Mapping[str, tuple[str, ...]]) -> tuple[TextProblem, ...]:
    """A template text's overflows named by what its values print (``printed_from``), when
    one of them is made of labels: "{type} · {type_name}" prints field ``type`` and label
    ``type:DD``. Named here, after the run's memo, which keeps a text's problems by its
    content alone."""
    if not any(name in printed_from for name in placeholders):
        return problems
    names = tuple(dict.fromkeys(part for name in placeholders
                                for part in printed_from.get(name, (name,))))
    return tuple(replace(p, field=names[0], parts=names if len(names) > 1 else ())
                 if p.kind == "overflow" else p for p in problems)


def _text_result(spec: _TextSpec, element_box: Box, content: str, color: str,
                 ctx: FaceContext) -> tuple[tuple[Op, ...], tuple[TextProblem, ...]]:
    """A text's ops and problems: a pure function of the element, its content and colour (and
    the run's locale and icons), which is what lets a run of faces remember it."""
    fitted = fit_text(content, spec.box[2], spec.box[3], spec.font, spec.size, spec.min_size,
                      ctx.locale if spec.hyphenate else None,
                      spec.variants if spec.variants != variants_of(spec.font) else None)
    problems: list[TextProblem] = []
    if not fitted.fits:
        problems.append(TextProblem(spec.field_name, fitted.overflow_mm, fitted.size_pt,
                                    box=element_box))
    marked, colors = markup_problems(content, ctx)
    problems += [TextProblem(spec.field_name, 0.0, fitted.size_pt, "markup", problem,
                             box=element_box) for problem in marked]
    ops, unknown = text_ops(fitted, spec.box, spec.align, spec.valign, spec.font, color,
                            ctx.icons, colors, spec.variants)
    if spec.angle:
        ops = [turned(op, element_box, spec.angle) for op in ops]
    for name in unknown:
        problems.append(TextProblem(spec.field_name, 0.0, fitted.size_pt, "unknown-icon", name,
                                    box=element_box))
    return tuple(ops), tuple(problems)


ROTATIONS = (0, 90, -90)


def text_angle(raw: object) -> int:
    """``rotate:`` of a text element: 90 reads bottom to top, -90 top to bottom."""
    if raw not in ROTATIONS or isinstance(raw, bool):
        raise TemplateError(f"rotate is {raw!r}; a text turns by 90 (reading upwards) or -90 "
                            "(reading downwards)")
    return int(raw)  # type: ignore[arg-type]


def turned(op: Op, box: Box, angle: int) -> Op:
    """An op laid out in a turned text's own frame (x along the line, y down its lines, origin
    at the frame's top-left) placed on the card: a quarter turn about the element's box."""
    x, y, w, h = box

    def place(u: float, v: float) -> tuple[float, float]:
        return (x + v, y + h - u) if angle == 90 else (x + w - v, y + u)

    if isinstance(op, Text):
        px, py = place(op.x, op.y)
        return replace(op, x=px, y=py, angle=float(angle))
    if isinstance(op, Image):  # an inline icon turns about its bottom-left corner
        px, py = place(op.x, op.y + op.h)
        return replace(op, x=px, y=py - op.h, angle=float(angle))
    if isinstance(op, Line):  # an underline
        (x1, y1), (x2, y2) = place(op.x1, op.y1), place(op.x2, op.y2)
        return replace(op, x1=x1, y1=y1, x2=x2, y2=y2)
    raise TemplateError(f"a turned text cannot hold this inline icon ({type(op).__name__}); "
                        "icons drawn from SVG files turn with their text")


_SIDES = ("top", "right", "bottom", "left")


def _bleed_box(box: Box, bleed: object, amount: float) -> Box:
    """Grow a box past the trim on the sides named (``true`` = all four)."""
    sides = _SIDES if bleed is True else tuple(bleed) if isinstance(bleed, list) else ()
    x, y, w, h = box
    if "left" in sides:
        x, w = x - amount, w + amount
    if "right" in sides:
        w += amount
    if "top" in sides:
        y, h = y - amount, h + amount
    if "bottom" in sides:
        h += amount
    return x, y, w, h


def fill_of(raw: object, ctx: FaceContext, values: Mapping[str, object],
            span: Box | None = None) -> Fill:
    """A ``fill``: a colour, or a gradient ``{linear: [A, B], angle: DEG}`` of colours laid
    across ``span`` (the element's box)."""
    if isinstance(raw, Mapping):
        colors = tuple(ctx.color(c, values) or "#ffffff" for c in raw.get("linear") or ())
        return Gradient(colors, float(raw.get("angle", 0)), span)  # type: ignore[arg-type]
    return ctx.color(raw, values)


def _shape_element(element: Element, values: Mapping[str, object], ctx: FaceContext,
                   layout: FaceLayout) -> None:
    """A rect, ellipse or polygon: filled (a colour or a gradient) and stroked."""
    props = element.props
    fill = fill_of(props.get("fill"), ctx, values,
                   None if element.type == "polygon" else element.box)
    stroke = ctx.color(props.get("stroke"), values)
    key = (id(element), fill, stroke)
    shape = ctx.memo.get(key) if ctx.memo is not None else None
    if shape is None:
        width = float(props.get("stroke_width", 0.5))  # type: ignore[arg-type]
        if element.type == "polygon":
            points = tuple((float(px), float(py)) for px, py in props["points"])  # type: ignore
            shape = Polygon(points, fill=fill, stroke=stroke, width_pt=width)
        else:
            x, y, w, h = _bleed_box(element.box, props.get("bleed"), ctx.bleed_mm)
            if element.type == "ellipse":
                shape = Ellipse(x, y, w, h, fill=fill, stroke=stroke, width_pt=width)
            else:
                shape = Rect(x, y, w, h, fill=fill, stroke=stroke, width_pt=width,
                             radius=float(props.get("radius", 0.0)))  # type: ignore[arg-type]
        remember(ctx.memo, key, shape)
    layout.ops.append(shape)  # type: ignore[arg-type]


#: bytes a QR code holds at most here (level M holds 2,331; a code that full needs a large
#: card to be read)
QR_MAX_BYTES = 2000


def _qr_element(element: Element, values: Mapping[str, object], ctx: FaceContext,
                layout: FaceLayout) -> None:
    """A QR code of ``data`` (placeholders filled); nothing when it comes out empty."""
    raw = str(element.get("data", ""))
    data = substitute(raw, values)
    if not data:
        return
    if len(data.encode("utf-8")) > QR_MAX_BYTES:
        single = PLACEHOLDER.fullmatch(raw)  # the card field it comes from, where there is one
        layout.problems.append(TextProblem(
            single.group(1) if single else "data", 0.0, 0.0, "qr", f"a QR code holds at most "
            f"{QR_MAX_BYTES} bytes; this data has {len(data.encode('utf-8'))}",
            box=element.box))
        return
    x, y, size, _ = element.box
    layout.ops.append(QrCode(x, y, size, data,
                             ctx.color(element.get("color", "#000000"), values) or "#000000"))


def art_roots(src: str, game_root: Path, card_root: Path | None) -> tuple[Path, ...]:
    """Where an image's file is looked for: a path that is one card field (``"{art}"``) in the
    card's own pack, then the game's; a path the template writes, in the game's pack."""
    if card_root is not None and PLACEHOLDER.fullmatch(src):
        return (card_root, game_root)
    return (game_root,)


def _image_element(element: Element, values: Mapping[str, object], ctx: FaceContext,
                   layout: FaceLayout) -> None:
    """Art that is missing or refused is not drawn: validation reports it on its card field."""
    if ctx.art_root is None:
        raise TemplateError("image elements need a game defined in a pack folder")
    raw = str(element.get("src", ""))
    src = substitute(raw, values)
    key = (id(element), src, ctx.card_root, ctx.art_root)
    placed = ctx.memo.get(key) if ctx.memo is not None else None
    if placed is None:
        placed = _place_image(element, raw, src, ctx)
        if placed is None:
            return
        remember(ctx.memo, key, placed)
    painted = _mentions_braces(element.get("color")) or _mentions_braces(element.get("colors"))
    op = None if painted else ctx.memo.get((key, Image)) if ctx.memo is not None else None
    if op is None:
        info, clip, (x, y, w, h) = placed  # type: ignore[misc]
        tint = ctx.color(element.get("color"), values) if info.tintable else None
        colors = element.get("colors") or {}
        recolor = tuple(sorted((str(source).lower(), ctx.color(target, values) or "#000000")
                               for source, target in dict(colors).items()))
        mask = str(element.get("mask", ""))
        radius = float(element.get("radius", min(clip[2], clip[3]) / 8)) \
            if mask == "rounded" else 0.0  # type: ignore[arg-type]
        op = Image(x, y, w, h, str(info.path), info.vector, clip, tint,
                   recolor=recolor if info.vector else (), mask=mask, mask_radius=radius)
        if not painted:  # its colours name no field: the same op for every face of the run
            remember(ctx.memo, (key, Image), op)
    layout.ops.append(op)  # type: ignore[arg-type]


def _place_image(element: Element, raw: str, src: str, ctx: FaceContext) -> tuple | None:
    """An image's file, clip and place (None: art validation reports it, nothing is drawn)."""
    from generator.load import art

    assert ctx.art_root is not None
    try:
        info = art.art_info(art.resolve_first(art_roots(raw, ctx.art_root, ctx.card_root), src))
    except (art.ArtProblem, OSError) as exc:
        if ctx.art_checked:
            return None
        raise TemplateError(f"image '{src}': {getattr(exc, 'message', exc)}") from None
    clip = _bleed_box(element.box, element.get("bleed"), ctx.bleed_mm)
    return info, clip, art.placement(info, clip, str(element.get("fit", "cover")))


def art_image(ctx: FaceContext, src: str, x: float, y: float, width: float,
              color: str | None = None) -> Image:
    """A widget's art file (relative to the game's art folder) ``width`` wide at (x, y), as
    tall as its proportions say; ``color`` paints its currentColor."""
    from generator.load import art

    if ctx.art_root is None:
        raise TemplateError("art needs a game folder")
    try:
        info = art.art_info(art.resolve(ctx.art_root, src))
    except art.ArtProblem as problem:
        raise TemplateError(f"art '{src}': {problem.message}") from None
    return Image(x, y, width, width / info.aspect, str(info.path), info.vector,
                 color=color if info.tintable else None)


def _element_ops(element: Element, values: Mapping[str, object], ctx: FaceContext,
                 layout: FaceLayout, template: Template) -> None:
    memo = ctx.memo
    if memo is None:
        _draw_element(element, values, ctx, layout, template)
        return
    key = (_element_ops, id(element))
    fixed = memo.get(key)
    if fixed is None:
        fixed = _unchanging(element)
        remember(memo, key, fixed)
    if fixed is False:
        _draw_element(element, values, ctx, layout, template)
        return
    if fixed is True:  # the first face that shows it: draw it and keep what it drew
        drawn = FaceLayout()
        _draw_element(element, values, ctx, drawn, template)
        fixed = (tuple(drawn.ops), tuple(drawn.problems))
        remember(memo, key, fixed)
    ops, problems = fixed  # type: ignore[misc]
    layout.ops.extend(ops)
    layout.problems.extend(problems)


def _unchanging(element: Element) -> bool:
    """True when an element draws the same on every face of a run: no condition, no
    ``{field}`` (nor inline icon) anywhere in it, no widget. A template's frame, bands, rules
    and labels are drawn once per run and repeated."""
    if element.type == "widget" or "when" in element.props or "unless" in element.props:
        return False
    return not _mentions_braces(element.props)


def _mentions_braces(value: object) -> bool:
    if isinstance(value, str):
        return "{" in value
    if isinstance(value, Mapping):
        return any(_mentions_braces(k) or _mentions_braces(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_mentions_braces(item) for item in value)
    return False


def _draw_element(element: Element, values: Mapping[str, object], ctx: FaceContext,
                  layout: FaceLayout, template: Template) -> None:
    if not visible(element, values, ctx.condition, ctx.memo):
        return
    opacity = element.get("opacity")
    if opacity is None or float(opacity) >= 1:  # type: ignore[arg-type]
        _draw_kind(element, values, ctx, layout, template)
        return
    inner = FaceLayout()  # drawn as one group, so that overlapping parts do not add up
    _draw_kind(element, values, ctx, inner, template)
    if inner.ops:
        layout.ops.append(Group(tuple(inner.ops), float(opacity)))  # type: ignore[arg-type]
    layout.problems.extend(inner.problems)


def _draw_kind(element: Element, values: Mapping[str, object], ctx: FaceContext,
               layout: FaceLayout, template: Template) -> None:
    if element.type == "image":
        _image_element(element, values, ctx, layout)
    elif element.type in ("rect", "ellipse", "polygon"):
        _shape_element(element, values, ctx, layout)
    elif element.type == "qr":
        _qr_element(element, values, ctx, layout)
    elif element.type == "line":
        x, y, w, h = element.box
        layout.ops.append(Line(x, y, x + w, y + h, ctx.color(element.get("stroke", "ink"), values),
                               float(element.get("stroke_width", 0.5))))
    elif element.type == "text":
        _text_element(element, values, ctx, layout)
    else:
        name = str(element.get("widget"))
        widget = ctx.widgets.get(name)
        if widget is None:
            raise TemplateError(f"template {template.name}: unknown widget '{name}'")
        reading = _widget_reading(widget, element, values, ctx)
        done = ctx.memo.get(reading) if reading is not None else None  # type: ignore[union-attr]
        if done is None:
            options = element.get("options", {}) or {}
            ops = widget(values, element.box, options, ctx)
            done = (tuple(ops), tuple(ctx.problems))
            ctx.problems.clear()
            if reading is not None:
                remember(ctx.memo, reading, done)
        layout.ops.extend(done[0])  # type: ignore[index]
        layout.problems.extend(done[1])  # type: ignore[index]


def reads(*names: str) -> Callable[[Widget], Widget]:
    """Declare the face values a widget reads (besides its options, box and the run's palette,
    labels and icons): a run of faces then draws it once per distinct reading and repeats the
    result, as it does a text. The weapon row of ten thousand ships takes a few dozen
    drawings. A widget without the declaration is drawn on every face."""

    def declared(widget: Widget) -> Widget:
        widget.face_values = names  # type: ignore[attr-defined]
        return widget

    return declared


def _widget_reading(widget: Widget, element: Element, values: Mapping[str, object],
                    ctx: FaceContext) -> tuple | None:
    """The memo key of a declared widget's drawing on this face: the element, the card's pack
    (its manifest and folder) and the values it reads. None: not declared, no memo, or a
    value that cannot be a key."""
    names = getattr(widget, "face_values", None)
    if names is None or ctx.memo is None:
        return None
    return _reading_key((reads, id(element), id(ctx.manifest), ctx.card_root), names, values)


def _reading_key(prefix: tuple, names: tuple[str, ...],
                 values: Mapping[str, object]) -> tuple | None:
    """``prefix`` and the values ``names`` take on this face, as a memo key (None: a value
    that cannot be one, such as a mapping)."""
    key = (*prefix, tuple(_frozen(values.get(name)) for name in names))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _frozen(value: object) -> object:
    """A face value as a memo key: with its type (True, 1 and 1.0 are equal keys, but not the
    same value to CEL or a widget), lists as tuples (a mapping stays, and is refused)."""
    if isinstance(value, list | tuple):
        return (tuple, tuple(_frozen(item) for item in value))
    return (value.__class__, value)


def layout_face(template: Template, values: Mapping[str, object], ctx: FaceContext) -> FaceLayout:
    """Raises TemplateError located at the element that could not be drawn."""
    layout = FaceLayout(template.width_mm, template.height_mm)
    for element in template.elements:
        try:
            _element_ops(element, values, ctx, layout, template)
        except TemplateError as exc:
            if exc.location is None and element.location is not None:
                raise TemplateError(str(exc), element.location) from None
            raise
    layout.problems.extend(ctx.problems)
    ctx.problems.clear()
    return layout
