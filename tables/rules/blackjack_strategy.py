"""Each blackjack game's optimal total-dependent strategy and its house edge under it.

The calculation, per game and deck count (:func:`strategy`, :func:`house_edge`):

* **The dealer** exactly: for every up card (and, for the edge, every pair of player
  cards) his final-total probabilities by recursion over the remaining shoe, card by
  card without replacement, memoised on the shoe's composition; after the peek
  (§ 581.7(g), § 590.7(g), § 591.7(h)) the hole card is conditioned on no Blackjack.
  He stands on all 17s (§ 581.7(n), § 590.7(l), § 591.7(o)); a 22 is kept apart for
  § 590.7(n)(1) and § 591.7(q)(1).
* **The player** by expectation over every decision the chapter allows: stand, hit,
  double (§ 5xx.10; on any number of cards in § 581.10(a); free on a hard 9 to 11 in
  § 590.10(a)(1)), split (§ 5xx.11; free but for 10-values in § 590.11(b)), surrender
  (§ 581.9(a) at any point below 21, after a double or split too; § 590.9, § 591.9 on
  the first two cards) and the Second Chance of § 591.7(l).
* **The strategy** is total-dependent: one action per (stage, total, soft, pair, up
  card), chosen for a hand of money from the shoe less the up card; each entry ranks
  every allowed action so a player who may not take the first (a split past the
  limit) takes the next; a split hand dealt its pair again splits again (to four hands,
  § 581.11(c), § 590.11(d); not split aces in § 581.11(e); § 591.11(a) allows two)
  where that is worth more, decided per pair and up card. Double Attack's raise
  (§ 581.6(e), § 581.7(e)) is taken on the up cards where the hand's expectation without
  a dealer Blackjack is positive (the Double Attack Wager is returned on one,
  § 581.7(o)(2)).
* **The edge** plays that strategy on each of the up card and the player's first two
  cards exactly (the dealer's probabilities from the shoe less those three cards).

What it approximates: the player's later cards (hits, doubles, split cards) come from
that composition *with replacement* (the dealer's do not: his recursion removes them
from the shoe, but not the player's later cards); a Free Bet lammer hand is played by
the money hand's chart. Probabilities are
floats: they are chances, not money, and the approximation is far above their
rounding; the edge is handed on as a :class:`~fractions.Fraction` of a billionth.

>>> from tables.rules.blackjack import FREE_BET_590
>>> chart = strategy(FREE_BET_590)
>>> chart.action(FIRST, 11, False, 0, 10), chart.action(FIRST, 16, False, 8, 10)
('D', 'P')
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from tables.rules.blackjack import BlackjackRules, Soft17, card_value
from tables.rules.cards import STANDARD_DECK

__all__ = [
    "FIRST", "SPLIT", "MORE", "ONE_CARD", "BUST", "RESPLIT", "LETTERS",
    "Strategy", "Edge", "composition", "dealer_outcomes", "strategy", "house_edge", "chart_text",
]  # fmt: skip

# Stages of a hand, each with the decisions its chapter allows there.
FIRST = "first"  # the first two cards, not split
SPLIT = "split"  # the first two cards of a split hand
MORE = "more"  # three or more cards
ONE_CARD = "one_card"  # § 581: after a double's card or a split ace's: stand or surrender
BUST = "bust"  # § 591.7(l): a busted hand, Second Chance or not
RESPLIT = "resplit"  # a split hand dealt its pair again: "P" splits again, "-" plays on
_DONE = "done"  # no decision left (a double's card outside § 581)
LETTERS = {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender",
           "C": "second_chance"}  # fmt: skip
"""The chart's letters and the decisions (:class:`tables.rules.events.Decision`) they name."""

Comp = tuple[int, ...]  # cards left by value: index 0 aces, 1 twos, ..., 9 ten-values
Dist = tuple[float, ...]  # the dealer's final 17, 18, 19, 20, 21, 22, over 22
_UPS = tuple(range(1, 11))
T = TypeVar("T")
Key = tuple[str, int, bool, int, int]  # stage, hard total, an ace, pair value (or 0), up card
Memo = dict[tuple[Comp, int, bool], Dist]  # the dealer's: shoe left, hard total, an ace


def composition(rules: BlackjackRules, decks: int | None = None) -> Comp:
    """The batch by value: eight Spanish decks for § 581.3(a), else ``decks`` (the rules' own)."""
    if decks is not None and rules.chapter != "581":
        rules = dataclasses.replace(rules, decks=decks)
    counts = [0] * 10
    for card, count in zip(STANDARD_DECK, rules.shoe().composition, strict=True):
        counts[card_value(card) - 1] += count
    return tuple(counts)


def _less(comp: Comp, value: int) -> Comp:
    return (*comp[: value - 1], comp[value - 1] - 1, *comp[value:])


_FINAL = {
    total: tuple(1.0 if i == total - 17 else 0.0 for i in range(7)) for total in range(17, 23)
}
_OVER_22 = (0.0,) * 6 + (1.0,)


def _dealer(comp: Comp, hard: int, ace: bool, hits_soft_17: bool,
            memo: Memo) -> Dist:  # fmt: skip
    soft = ace and hard <= 11
    total = hard + 10 if soft else hard
    if total > 22:
        return _OVER_22
    if total > 17 or (total == 17 and not (soft and hits_soft_17)):
        return _FINAL[total]
    key = (comp, hard, ace)
    found = memo.get(key)
    if found is not None:
        return found
    left = sum(comp)
    acc = [0.0] * 7
    for index, count in enumerate(comp):
        if count:
            value = index + 1
            sub = _dealer(_less(comp, value), hard + value, ace or value == 1, hits_soft_17, memo)
            weight = count / left
            for i in range(7):
                acc[i] += weight * sub[i]
    result = tuple(acc)
    memo[key] = result
    return result


def _blackjack_card(rules: BlackjackRules, up: int) -> int:
    """The hole card that gives the dealer a Blackjack (0: he does not peek on ``up``)."""
    return {1: 10, 10: 1}.get(up, 0)


def dealer_outcomes(rules: BlackjackRules, comp: Comp, up: int,
                    memo: Memo | None = None) -> tuple[float, Dist]:  # fmt: skip
    """The chance of a dealer Blackjack, and his final totals given none, from ``comp``.

    ``comp`` is the shoe less the up card (and any player cards); the hole card is drawn
    from it, then every card the dealer's rule calls for.
    """
    memo = {} if memo is None else memo
    hits = rules.soft_17 is Soft17.HIT
    blackjack = _blackjack_card(rules, up)
    left = sum(comp) - (comp[blackjack - 1] if blackjack else 0)
    acc = [0.0] * 7
    for index, count in enumerate(comp):
        value = index + 1
        if count and value != blackjack:
            sub = _dealer(_less(comp, value), up + value, up == 1 or value == 1, hits, memo)
            for i in range(7):
                acc[i] += count / left * sub[i]
    chance = comp[blackjack - 1] / sum(comp) if blackjack else 0.0
    return chance, tuple(acc)


@dataclass(frozen=True, slots=True)
class Strategy:
    """A game's chart: for each (stage, hard total, ace, pair, up card) its actions, best first."""

    rules: BlackjackRules
    decks: int
    ranks: dict[Key, tuple[str, ...]]
    #: § 581.6(e): the up cards (by value, ace 1) on which the Double Attack Wager is placed.
    raise_on: frozenset[int] = frozenset()

    def ranking(self, stage: str, hard: int, ace: bool, pair: int, up: int) -> tuple[str, ...]:
        """Every allowed action at this point, best first."""
        return self.ranks[(stage, hard, ace, pair, up)]

    def action(self, stage: str, total: int, soft: bool, pair: int, up: int) -> str:
        """The chart's letter for a ``total`` (``soft`` with an ace counted 11)."""
        hard = total - 10 if soft else total
        return self.ranks[(stage, hard, soft or pair == 1, pair, up)][0]


class _Hands:
    """The player's hands against one up card, drawing from one composition with replacement.

    ``chart`` given: its actions are played; else each state's best action is chosen
    (for a unit of money) and recorded in :attr:`ranks`.
    """

    def __init__(self, rules: BlackjackRules, comp: Comp, up: int, dealer: Dist,
                 chart: Strategy | None) -> None:  # fmt: skip
        self.rules, self.up, self.chart = rules, up, chart
        left = sum(comp)
        self.draw = [(index + 1, count / left) for index, count in enumerate(comp) if count]
        busts = dealer[6] + (0.0 if rules.dealer_22_pushes else dealer[5])
        # Per player total 4..21: the chance to win and to lose standing on it.
        self.win = [busts + sum(dealer[: max(0, total - 17)]) for total in range(22)]
        self.lose = [sum(dealer[max(0, total - 16) : 5]) for total in range(22)]
        self.ranks: dict[Key, tuple[str, ...]] = {}
        self.values: dict[tuple[str, int, bool, int, int, int], float] = {}

    # ---- outcomes ------------------------------------------------------------------------

    def stand(self, total: int, money: int, markers: int) -> float:
        """A lammer is paid with a win and collected with no money otherwise (§ 590.7(o)-(q))."""
        win = self.win[total]
        return money * (win - self.lose[total]) + markers * win

    def second_chance(self, hard: int, money: int) -> float:
        """§ 591.7(l): a wager as large as the hand's, the card's value subtracted."""
        value = 0.0
        for card, chance in self.draw:
            total = hard - card
            if total > 21:
                value -= chance * 2 * money  # § 591.7(l)(1)
            elif total == 21:
                value += chance * money  # § 591.7(l)(2), § 591.12(b)
            else:  # § 591.7(s)(1)(i), (s)(2), (s)(3)
                value += chance * money * (self.win[total] - 2 * self.lose[total])
        return value

    def after_card(self, hard: int, ace: bool, stage: str, money: int, markers: int) -> float:
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        if total > 21:
            if self.rules.second_chance:
                return self.value(BUST, hard, False, 0, money, markers)
            return -money
        if total == 21:  # no card is drawn to 21 (§ 5xx.7(j)(1)); § 591.7(m) pays it at once
            return money if self.rules.twenty_one_at_once else self.stand(21, money, markers)
        if stage == _DONE:
            return self.stand(total, money, markers)
        return self.value(stage, hard, ace, 0, money, markers)

    # ---- decisions -----------------------------------------------------------------------

    def allowed(self, stage: str, pair: int) -> tuple[str, ...]:
        rules = self.rules
        if stage == BUST:
            return ("C", "S")
        if stage == ONE_CARD:
            return ("S", "R")
        actions = ["H", "S"]
        if stage in (FIRST, SPLIT) or rules.double_on_any_count:
            actions.append("D")
        if pair and rules.max_hands > 1:
            actions.append("P")
        if stage == FIRST or rules.late_surrender:
            actions.append("R")
        return tuple(actions)

    def action_value(self, action: str, stage: str, hard: int, ace: bool, pair: int,
                     money: int, markers: int) -> float:  # fmt: skip
        rules = self.rules
        total = hard + 10 if ace and hard <= 11 else hard
        if action == "S":
            return -money if total > 21 else self.stand(total, money, markers)
        if action == "R":
            return -money / 2  # § 5xx.9: half the wager (the added money too, § 581.9 reading)
        if action == "C":
            return self.second_chance(hard, money)
        if action == "H":
            return sum(chance * self.after_card(hard + card, ace or card == 1, MORE, money, markers)
                       for card, chance in self.draw)  # fmt: skip
        if action == "D":
            free = rules.free_bet and stage in (FIRST, SPLIT) and not ace and 9 <= hard <= 11
            money, markers = (money, markers + 1) if free else (money + 1, markers)
            after = ONE_CARD if rules.late_surrender else _DONE
            return sum(chance * self.after_card(hard + card, ace or card == 1, after, money,
                                                markers) for card, chance in self.draw)  # fmt: skip
        # "P": hands of one card each, each dealt its second card.
        if rules.max_hands <= 2 or (pair == 1 and rules.split_aces_one_card):
            return self.split(pair, False)
        key = (RESPLIT, 2 * pair, pair == 1, pair, self.up)
        if self.chart is not None and key in self.chart.ranks:
            return self.split(pair, self.chart.ranks[key][0] == "P")
        again, once = self.split(pair, True), self.split(pair, False)
        self.ranks[key] = ("P", "-") if again > once else ("-", "P")
        return max(again, once)

    def split(self, pair: int, again: bool) -> float:
        """A unit hand split: a hand dealt the pair's value splits ``again`` while the chapter
        allows another hand (§ 581.11(c), § 590.11(d)); each hand's cards with replacement."""
        rules = self.rules
        stage = SPLIT
        if pair == 1 and rules.split_aces_one_card:  # § 581.11(e): one card each
            stage = ONE_CARD if rules.late_surrender else _DONE
        # § 590.11(b): a Free Bet lammer for every new hand but of 10-values.
        new = (0, 1) if rules.free_bet and pair != 10 else (1, 0)
        chance = dict(self.draw).get(pair, 0.0)
        parts: dict[tuple[tuple[int, int], bool], float] = {}

        def part(stake: tuple[int, int], paired: bool) -> float:
            """The hand's value over the second cards that pair it (or not)."""
            if (stake, paired) not in parts:
                parts[(stake, paired)] = sum(
                    weight * self.after_card(pair + card, pair == 1 or card == 1, stage, *stake)
                    for card, weight in self.draw if (card == pair) == paired)  # fmt: skip
            return parts[(stake, paired)]

        def hands(created: int, pending: tuple[tuple[int, int], ...]) -> float:
            if not pending:
                return 0.0
            stake, rest = pending[0], pending[1:]
            value = part(stake, False) + (1 - chance) * hands(created, rest)
            if again and created < rules.max_hands:
                return value + chance * hands(created + 1, (stake, new, *rest))
            return value + part(stake, True) + chance * hands(created, rest)

        return hands(2, ((1, 0), new))

    def ranking(self, stage: str, hard: int, ace: bool, pair: int) -> tuple[str, ...]:
        key = (stage, hard, ace, pair, self.up)
        if self.chart is not None and key in self.chart.ranks:
            return self.chart.ranks[key]
        found = self.ranks.get(key)
        if found is None:
            scored = [(self.action_value(action, stage, hard, ace, pair, 1, 0), action)
                      for action in self.allowed(stage, pair)]  # fmt: skip
            found = tuple(action for _, action in sorted(scored, key=lambda item: -item[0]))
            self.ranks[key] = found
        return found

    def value(self, stage: str, hard: int, ace: bool, pair: int, money: int, markers: int) -> float:
        key = (stage, hard, ace, pair, money, markers)
        found = self.values.get(key)
        if found is None:
            best = self.ranking(stage, hard, ace, pair)[0]
            found = self.action_value(best, stage, hard, ace, pair, money, markers)
            self.values[key] = found
        return found

    def first(self, a: int, b: int) -> float:
        """A unit hand of ``a`` and ``b`` (not a Blackjack), the dealer without one."""
        return self.value(FIRST, a + b, a == 1 or b == 1, a if a == b else 0, 1, 0)


def _hands_of_two() -> Iterator[tuple[int, int]]:
    for a in _UPS:
        for b in _UPS[a - 1 :]:
            yield a, b


def _two_cards(comp: Comp, a: int, b: int) -> float:
    """The chance of the two values ``a`` and ``b`` (either order) from ``comp``."""
    left = sum(comp)
    if a == b:
        return comp[a - 1] * (comp[a - 1] - 1) / (left * (left - 1))
    return 2 * comp[a - 1] * comp[b - 1] / (left * (left - 1))


def _cached(function: Callable[[BlackjackRules, int | None], T],
            ) -> Callable[[BlackjackRules, int | None], T]:  # fmt: skip
    """Memoised per rules object (they hold a mapping, so they do not hash); the cache keeps
    each object alive, so its id is not reused while it is a key."""
    cache: dict[tuple[int, int | None], tuple[BlackjackRules, T]] = {}

    @functools.wraps(function)
    def cached(rules: BlackjackRules, decks: int | None = None) -> T:
        key = (id(rules), decks)
        if key not in cache:
            cache[key] = (rules, function(rules, decks))
        return cache[key][1]

    return cached


@_cached
def _chart(rules: BlackjackRules, decks: int | None) -> Strategy:
    shoe = composition(rules, decks)
    ranks: dict[Key, tuple[str, ...]] = {}
    stages = [MORE, SPLIT] + ([ONE_CARD] if rules.late_surrender else [])
    for up in _UPS:
        comp = _less(shoe, up)
        hands = _Hands(rules, comp, up, dealer_outcomes(rules, comp, up)[1], None)
        for a, b in _hands_of_two():
            hands.first(a, b)
        # Every row a chart prints or a simulated hand may reach, reached by a first hand or not.
        for stage in stages:
            for hard in range(2, 21):
                for ace in (False, True):
                    hands.ranking(stage, hard, ace, 0)
        for hard in range(4, 21):
            hands.ranking(FIRST, hard, False, 0)
        for hard in range(3, 11):
            hands.ranking(FIRST, hard, True, 0)
        if rules.second_chance:
            for hard in range(22, 31):
                hands.ranking(BUST, hard, False, 0)
        ranks.update(hands.ranks)
    return Strategy(rules, sum(shoe) // (48 if rules.chapter == "581" else 52), ranks)


def strategy(rules: BlackjackRules, decks: int | None = None) -> Strategy:
    """The optimal total-dependent strategy for ``rules`` (``decks``: default the rules').

    § 581: with the up cards on which the Double Attack Wager is placed, which the
    exact calculation (:func:`house_edge`) decides.
    """
    chart = _chart(rules, decks)
    if rules.chapter != "581":
        return chart
    return dataclasses.replace(chart, raise_on=house_edge(rules, decks).raise_on)


@dataclass(frozen=True, slots=True)
class Edge:
    """A game's house edge under its strategy, per initial main wager."""

    rules: BlackjackRules
    decks: int
    house_edge: Fraction
    #: Per up card (value, ace 1): the player's expectation per initial main wager.
    by_up: tuple[tuple[int, float], ...]
    raise_on: frozenset[int]


def _edge(rules: BlackjackRules, shoe: Comp, chart: Strategy) -> dict[int, tuple[float, float]]:
    """Per up card: the main wager's expectation and (§ 581) a Double Attack unit's."""
    found: dict[int, tuple[float, float]] = {}
    pays = float(rules.blackjack_odds.numerator) / float(rules.blackjack_odds.denominator)
    for up in _UPS:
        after_up = _less(shoe, up)
        memo: Memo = {}
        main = extra = 0.0
        for a, b in _hands_of_two():
            chance = _two_cards(after_up, a, b)
            if not chance:
                continue
            comp = _less(_less(after_up, a), b)
            blackjack, dealer = dealer_outcomes(rules, comp, up, memo)
            if a == 1 and b == 10:
                if rules.blackjack_before_peek:  # § 591.7(f): paid before the reader is used
                    main += chance * pays
                else:  # both Blackjacks tie (§ 581.7(o)(1)(iii), § 590.7(g)(1))
                    main += chance * (1 - blackjack) * pays
                    extra += chance * (1 - blackjack) * pays
                continue
            played = _Hands(rules, comp, up, dealer, chart).first(a, b)
            main += chance * ((1 - blackjack) * played - blackjack)
            extra += chance * (1 - blackjack) * played  # § 581.7(o)(2): returned on a Blackjack
        found[up] = (main, extra)
    return found


@_cached
def house_edge(rules: BlackjackRules, decks: int | None = None) -> Edge:
    """The house edge of ``rules`` under :func:`strategy`, per initial main wager.

    § 581: the Double Attack Wager, the Bet's size, is placed on :attr:`Strategy.raise_on`
    and its result is part of the edge per initial Bet Wager.
    """
    chart = _chart(rules, decks)
    shoe = composition(rules, decks)
    per_up = _edge(rules, shoe, chart)
    # § 581.6(e): the wager is placed having seen the up card, when it is worth placing.
    raise_on = frozenset(up for up, (_, extra) in per_up.items()
                         if rules.chapter == "581" and extra > 0)  # fmt: skip
    total = sum(shoe)
    player = 0.0
    by_up = []
    for up, (main, extra) in per_up.items():
        raised = extra if up in raise_on else 0.0
        by_up.append((up, main + raised))
        player += shoe[up - 1] / total * (main + raised)
    edge = Fraction(round(-player * 10**9), 10**9)
    return Edge(rules, chart.decks, edge, tuple(by_up), raise_on)


# ---- the chart ----------------------------------------------------------------------------

_COLUMNS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def _row(chart: Strategy, label: str, stage: str, hard: int, ace: bool, pair: int) -> list[str]:
    if (stage, hard, ace, pair, 2) not in chart.ranks:
        return []  # a row no hand of this game reaches (split aces in § 581.11(e))
    cells = [chart.ranking(stage, hard, ace, pair, up)[0] for up in _COLUMNS]
    return [f"{label:<12}" + " ".join(f"{cell:>2}" for cell in cells)]


def _rows(chart: Strategy, stage: str, label: str, totals: range, soft: bool = False) -> list[str]:
    """A block's rows: hard totals (labelled ``<label> <total>``) or, with ``soft``, the
    soft totals of an ace and ``totals`` (labelled by their count with the ace as 11)."""
    return [line for total in totals
            for line in _row(chart, f"{label} {total + 10 if soft else total}", stage, total,
                             soft, 0)]  # fmt: skip


def _pairs(chart: Strategy, stage: str) -> list[str]:
    return [line for v in (1, *range(2, 11))
            for line in _row(chart, "pair {0},{0}".format("A" if v == 1 else v), stage, 2 * v,
                             v == 1, v)]  # fmt: skip


def chart_text(chart: Strategy) -> str:
    """The chart: rows the player's total (soft, pair), columns the up card, H/S/D/P/R (and C)."""
    rules = chart.rules
    header = f"{'':<12}" + " ".join(f"{'A' if up == 1 else up:>2}" for up in _COLUMNS)
    legend = ", ".join(f"{letter} {name}" for letter, name in LETTERS.items())
    lines = [f"Chapter {rules.chapter}, {chart.decks} decks: the first two cards ({legend})",
             header]  # fmt: skip
    lines += _rows(chart, FIRST, "hard", range(5, 20))
    lines += _rows(chart, FIRST, "soft", range(3, 11), soft=True)
    lines += _pairs(chart, FIRST)
    lines += ["After a split, the first two cards of each hand", header]
    lines += _rows(chart, SPLIT, "hard", range(4, 21))
    lines += _rows(chart, SPLIT, "soft", range(2, 11), soft=True)
    lines += ["Three or more cards", header]
    lines += _rows(chart, MORE, "hard", range(6, 21))
    lines += _rows(chart, MORE, "soft", range(3, 11), soft=True)
    if (RESPLIT, 16, False, 8, 2) in chart.ranks:
        lines += [f"A split hand dealt its pair again: P splits again (to {rules.max_hands} "
                  f"hands), - plays its total", header]  # fmt: skip
        lines += _pairs(chart, RESPLIT)
    if rules.late_surrender:
        lines += ["After a double's card (or a split ace's): S stand, R surrender", header]
        lines += _rows(chart, ONE_CARD, "hard", range(4, 21))
    if rules.second_chance:
        lines += ["Busted: C buys the Second Chance (§ 591.7(l)), S declines", header]
        lines += _rows(chart, BUST, "bust", range(22, 31))
    if rules.chapter == "581":
        cells = ["R" if up in chart.raise_on else "-" for up in _COLUMNS]
        lines += ["Double Attack Wager (§ 581.6(e)): R raise", header,
                  f"{'raise':<12}" + " ".join(f"{cell:>2}" for cell in cells)]  # fmt: skip
    return "\n".join(lines)
