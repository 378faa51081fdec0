"""The one-line shortcut of text fitting must give exactly what the general line breaker gives."""

from __future__ import annotations

import random

import pytest

from generator.layout import textfit

WORDS = ("USS", "Nimitz", "Admiral", "Kuznetsov", "Sovremenny-class", "7", "Type", "22",
         "Эсминец", "«Адмирал", "Ушаков»", "Großkampfschiff", "—", "a", "W", "IIII", "mmmm")


def _general(text: str, width: float, height: float, style: str, size: float,
             smallest: float, lang: str | None) -> textfit.FittedText:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(textfit, "_on_one_line", lambda *args: None)
        return textfit.fit_text.__wrapped__(text, width, height, style, size, smallest, lang)


def test_the_shortcut_agrees_with_the_line_breaker() -> None:
    chosen = random.Random(14)
    shortcut_taken = 0
    for _ in range(3000):
        text = " ".join(chosen.choice(WORDS) for _ in range(chosen.randint(0, 6)))
        if chosen.random() < 0.1:
            text = "  " + text.replace(" ", "   ") + " "  # runs of spaces collapse alike
        size = chosen.choice((6.0, 7.5, 9.0, 12.0))
        smallest = size - chosen.choice((0.0, 0.5, 1.5, 3.0))
        width = chosen.uniform(2.0, 60.0)
        height = chosen.uniform(1.0, 12.0)  # boxes of no line, one line and several lines
        style = chosen.choice(("regular", "bold"))
        lang = chosen.choice((None, "en", "ru"))
        sizes = textfit._sizes(size, smallest)
        quick = textfit._on_one_line(text, width, height, style, sizes)
        general = _general(text, width, height, style, size, smallest, lang)
        if quick is not None:
            shortcut_taken += 1
            assert quick == general, (text, width, height, style, size, smallest)
        assert textfit.fit_text.__wrapped__(text, width, height, style, size, smallest,
                                            lang) == general
    assert shortcut_taken > 300  # the cases the shortcut is for were really tried
