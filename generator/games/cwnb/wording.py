"""How a CWNB card text names what carries meaning, per source language: the action cards a
text names as answers or targets, the numbers the rules state about a kind of card (with the
words beside them), and the numbered rules and turn steps a text may cite.

The texts are free (docs/format.md); these tables only let ``rules/texts.py`` find, in a text,
what the engine's own tables (``playrules``) already say, and compare the two. Patterns are
regular expressions matched at the start of a word, case aside (:mod:`generator.rules.textfacts`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from generator.games.cwnb.model import CRIPPLE_MIN_HITS
from generator.games.cwnb.playrules import AIR_DEFENSE_RATING
from generator.rules.textfacts import Fact, Topic, exactly


def _words(en: tuple[str, ...], ru: tuple[str, ...]) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({"en": en, "ru": ru})


#: Answers a text may name (8.31-8.34, 9.3, 12.1), by action kind (or the ship's own rating).
ANSWER_NAMES: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType({
    "evasive": _words((r"evasive",), (r"маневр\w*\s+на\s+уклон", r"уклонени")),
    "ecm": _words((r"ecm\b", r"electronic\s+counter"), (r"РЭБ\b", r"радиоэлектрон")),
    "air_cover": _words((r"air\s+cover",), (r"прикрыти\w*\s+с\s+воздуха",)),
    AIR_DEFENSE_RATING: _words((r"air\s+defen[cs]e",), (r"ПВО\b",)),
    "damage_control": _words((r"damage\s+control",), (r"повреждения\s+локализ",)),
    "asw": _words((r"asw\b", r"anti-submarine"), (r"ПЛО\b", r"противолодочн")),
})

#: Attacks a defense card's text may name, by the attack keys of ``playrules.ATTACKS``; a
#: cruise missile is read before (and instead of) a plain missile.
ATTACK_NAMES: Mapping[tuple[str, ...], Mapping[str, tuple[str, ...]]] = MappingProxyType({
    ("cruise_missile",): _words((r"cruise\s+missiles?",), (r"крылат\w*\s+ракет",)),
    ("gun",): _words((r"guns?\b", r"gunfire"), (r"орудийн", r"артиллер", r"обстрел")),
    ("missile", "submarine_missile"): _words((r"missiles?\b",), (r"ракет",)),
    ("torpedo",): _words((r"torpedo",), (r"торпед",)),
    ("carrier_air_strike", "land_air_strike"): _words((r"air\s+strikes?",),
                                                      (r"удар\w*\s+(?:палубн|аэродромн)",
                                                       r"авиаудар")),
    ("bomber_strike",): _words((r"bomber",), (r"стратегическ",)),
})

#: Words that turn a clause around ("not", "unlike"): such a clause names a card without
#: saying it answers, and is left alone.
NEGATIONS = _words((r"not\b", r"never\b", r"unlike\b", r"cannot\b", r"no\s+longer"),
                   (r"не\b", r"нельзя", r"никогда", r"в\s+отличие"))

_ROWS_3 = exactly(1, 2, 3, (1, 2), (2, 3), (1, 3), (1, 2, 3))
_CRIPPLE = Fact("cripple", "a ship crippled instead of sunk from Hits to Sink",
                exactly(CRIPPLE_MIN_HITS), "12.7",
                _words((r"hits\s+to\s+sink", r"crippl"), (r"чтобы\s+утопить", r"выведен")))

#: Numbers the rules state about each action kind, and the words that name them (7.13-7.16,
#: 8.33, 9.2, 9.4, 5.22, 12.7, 12.9). A card's own damage is added by the check.
ACTION_FACTS: Mapping[str, tuple[Fact, ...]] = MappingProxyType({
    "gun": (Fact("row", "the rows guns fire from and at", exactly(1), "5.22, 7.11",
                 _words((r"rows?\b",), (r"лини", r"ряд"))),),
    "missile": (Fact("row", "the rows missiles fire from and at", exactly(1, 2, (1, 2)),
                     "5.22, 7.12", _words((r"rows?\b",), (r"лини", r"ряд"))),),
    "bomber_strike": (
        Fact("air-cover", "the bomber dice an Air Cover cancels", exactly(2), "7.16, 8.33",
             ANSWER_NAMES["air_cover"]),
        Fact("air-defense", "the bomber dice an Air Defense roll cancels", exactly(1),
             "7.16, 12.1", ANSWER_NAMES[AIR_DEFENSE_RATING]),
        _CRIPPLE),
    "air_cover": (Fact("bomber", "the bomber dice it cancels", exactly(2), "7.16, 8.33",
                       _words((r"bomber",), (r"стратегическ", r"бомбардир"))),),
    "land_air_strike": (
        Fact("targets", "the attacks a land based air strike makes", exactly(2), "7.15",
             _words((r"up\s+to", r"targets?\b", r"attacks\b"), (r"до\s+двух", r"цел"))),
        _CRIPPLE),
    "torpedo": (Fact("hunter", "the hunter's bonus", exactly(1), "7.13",
                     _words((r"hunter",), (r"охотник",))),),
    "asw": (Fact("evasion", "the Los Angeles and Alfa modifier", exactly(1), "7.14",
                 _words((r"los\s+angeles", r"alfa"), (r"лос", r"альф"))),),
    "retreat": (Fact("repairs", "the Damage cards a retreat repairs", exactly(3), "9.2",
                     _words((r"repair", r"damage\s+cards?"), (r"ремонт", r"почин",
                                                              r"карточ\w*\s+поврежд"))),),
    "crew_efficiency": (Fact("rating", "the rating it adds", exactly(1), "9.4",
                             _words((r"rating",), (r"рейтинг",))),),
})
#: a C missile may fly as a cruise missile from or at the third row (12.9)
C_MISSILE_ROWS = Fact("row", "the rows a C missile fires from and at", _ROWS_3,
                      "5.22, 7.12, 12.9", _words((r"rows?\b",), (r"лини", r"ряд")))
DAMAGE_WORDS = _words((r"damage",), (r"повреждени", r"урон"))

#: The numbered rules of the rules of play (001:7-72), and 5.3, which 001:199 and 001:451 cite
#: for the rows requirement that is 5.21.
RULE_NUMBERS = frozenset({
    "1", "2", "2.1", "3", "3.1", "4", "5", "5.1", "5.2", "5.21", "5.22", "5.23", "5.24", "5.3",
    "6", "6.1", "6.2", "7", "7.1", "7.11", "7.12", "7.13", "7.14", "7.15", "7.16", "7.2", "8",
    "8.1", "8.2", "8.3", "8.31", "8.32", "8.33", "8.34", "9", "9.1", "9.2", "9.3", "9.4", "10",
    "11", "11.1", "11.2", "11.3", "11.4", "12", "12.1", "12.2", "12.3", "12.4", "12.5",
    "12.6", "12.7", "12.8", "12.9", "13", "13.1", "13.2", "13.3", "14", "14.1", "14.2",
})

#: What the rules a card text is likely to cite are about (the rules of play's headings).
RULE_TOPICS: tuple[Topic, ...] = (
    Topic("7.11", "gun attacks", _words((r"gun\s+attack",), (r"орудийн\w*\s+обстрел",))),
    Topic("7.12", "missile attacks", _words((r"missile\s+attack",), (r"ракетн\w*\s+атак",))),
    Topic("7.13", "torpedo attacks", _words((r"torpedo", r"hunter"), (r"торпед", r"охотник"))),
    Topic("7.15", "land based air strikes", _words((r"land\s+based",), (r"аэродромн",))),
    Topic("7.16", "bomber strikes", _words((r"bomber",), (r"стратегическ",))),
    Topic("8.1", "area defenses", _words((r"area\s+defen",), (r"зонн",))),
    Topic("8.2", "point defenses", _words((r"point\s+defen",), (r"локальн",))),
    Topic("9.1", "additional ships", _words((r"additional\s+ship",), (r"пополнени",))),
    Topic("9.2", "retreat", _words((r"retreat",), (r"отступлени",))),
    Topic("9.3", "damage control", ANSWER_NAMES["damage_control"]),
    Topic("9.4", "carrier crew efficiency", _words((r"crew\s+efficiency",),
                                                   (r"слаженн",))),
    Topic("10", "carrier modified cards", _words((r"carrier\s+modified",),
                                                 (r"модифицир\w*\s+авианос",))),
    Topic("12.1", "air defense systems", _words((r"air\s+defen[cs]e\s+system", r"aegis"),
                                                (r"систем\w*\s+ПВО", r"aegis"))),
    Topic("12.3", "carrier strike reduction", _words((r"half", r"strike\s+reduction"),
                                                     (r"половин",))),
    Topic("12.4", "prepared defenses", _words((r"prepared", r"face-down", r"face\s+down"),
                                              (r"заранее", r"лицом\s+вниз"))),
    Topic("12.5", "critical damage", _words((r"critical",), (r"серьезн", r"серьёзн"))),
    Topic("12.6", "battleship armor", _words((r"armou?r",), (r"брон",))),
    Topic("12.7", "air strikes versus larger ships", _words((r"crippl",), (r"выведен",))),
    Topic("12.8", "attack opportunities", _words((r"attack\s+opportunit", r"larger",
                                                  r"smaller", r"lesser"),
                                                 (r"дополнительн\w*\s+возможност",))),
    Topic("12.9", "cruise missile attacks", ATTACK_NAMES[("cruise_missile",)]),
    Topic("13.1", "quick response area defense", _words((r"quick\s+response",), ())),
)

#: The steps of a turn (6.1: A.1-A.6, B.1-B.2, C.1-C.3) and the one each special card is
#: played in (9.1 A.5, 9.2 A.6, 9.4 B.1).
STEPS = frozenset({"A.1", "A.2", "A.3", "A.4", "A.5", "A.6", "B.1", "B.2", "C.1", "C.2",
                   "C.3"})
PLAYED_IN: Mapping[str, tuple[str, str]] = MappingProxyType({
    "additional_ship": ("A.5", "9.1"), "retreat": ("A.6", "9.2"),
    "crew_efficiency": ("B.1", "9.4"),
})
#: the words that say a step is when the card itself is played
PLAY_WORDS = _words((r"play",), (r"игра", r"сыгра", r"разыгр"))
