"""``manage.py parsheet <game> --ruleset <id>``: par sheet of a game from the engine's rule set.

Exact figures (side wagers, counted over every hand) and simulated ones (the
whole game under a strategy, with a 95 % confidence interval) are labelled as
such. ``--json`` prints fractions as ``"num/den"`` strings with decimal strings
beside them; no float is ever printed.

Games are found through :mod:`tables.rules.registry`: a game that offers a
par-sheet function (:mod:`tables.rules.parsheets`) is listed, with its declared
options settable by ``--option name=value`` (``three_card_poker`` is exact
throughout: Pair Plus, the Ante bonus and the Ante/Play game under optimal
play). Criss-Cross and Double Cross keep their own sheets here (simulation
with ``--strategy``/``--rounds``, and the exact solver below).

``criss_cross_poker --exact`` instead solves the whole game exactly under
optimal play (:mod:`tables.rules.parsheet_exact`, 169 starting-hand classes
spread over ``--processes`` worker processes; a few minutes on two cores) and
prints the exact house edge, element of risk, decision frequencies and the
Across decision of every class; ``--exact-classes AA,72o`` solves only those
classes (no whole-game figures).
"""

from __future__ import annotations

import json
import multiprocessing
import random
import time
from decimal import Decimal
from fractions import Fraction

from django.core.management.base import BaseCommand, CommandError

from tables.rules import parsheet, parsheet_exact, parsheets, registry
from tables.rules.rulesets import (
    RULESETS,
    CrissCrossRuleSet,
    DoubleCrossRuleSet,
    PairOfTensMiddleBets,
    get_ruleset,
)

#: Games whose sheets this command builds itself (simulation, the exact solver).
SIMULATED_GAMES = ("criss_cross_poker", "double_cross_poker")
STRATEGIES = ("optimal", "basic")
#: ``--strategy`` with no value: print the game's strategy chart only.
CHART = "chart"
DEFAULT_ROUNDS = {"criss_cross_poker": 100_000, "double_cross_poker": 40_000}
CALIBRATION_SAMPLES = 100
#: The tables of a sheet that lists every wager as rows (the dice games), with headings.
TABLES = {
    "count_probabilities": "Probability of each first-roll count",
    "wagers": "Every wager, per unit wagered",
    "readings": "Under each reading",
}
ROLLOUT_SAMPLES = 64


def _number(value: Fraction, places: int = 6) -> dict[str, str]:
    return {"fraction": parsheet.fraction_text(value), "decimal": f"{_decimal(value, places):f}"}


def _decimal(value: Fraction, places: int = 6) -> Decimal:
    return parsheet.percent(value, places + 2) / 100


def _pct(value: Fraction, places: int = 4) -> str:
    return f"{parsheet.percent(value, places)}%"


class Command(BaseCommand):
    help = (
        "Print the par sheet of a table game (exact side wagers, simulated whole game; "
        "--exact: exact Criss-Cross whole game under optimal play)."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", help="a registered game, e.g. three_card_poker")
        parser.add_argument("--ruleset", required=True, help="rule set id, e.g. PA-674a-2019")
        parser.add_argument(
            "--strategy",
            nargs="?",
            const=CHART,
            default="optimal",
            help="optimal or basic (Criss-Cross, Double Cross); alone, a game's strategy chart "
            "(the blackjack games)",
        )
        parser.add_argument(
            "--rounds",
            type=int,
            default=None,
            help="simulated rounds (default 100,000 Criss-Cross, 40,000 Double Cross)",
        )
        parser.add_argument("--seed", type=int, default=1, help="seed of the random generator")
        parser.add_argument(
            "--pair-of-tens",
            choices=[item.value for item in PairOfTensMiddleBets],
            default=None,
            help="592.12(b) reading for a pair of 10s",
        )
        parser.add_argument(
            "--calibration-samples",
            type=int,
            default=CALIBRATION_SAMPLES,
            help="Criss-Cross: rollouts per starting-hand class for the Across "
            "fold (0: use the exact lower bound instead)",
        )
        parser.add_argument(
            "--exact",
            action="store_true",
            help="Criss-Cross: exact whole-game house edge and element of risk "
            "under optimal strategy (backward induction, minutes)",
        )
        parser.add_argument(
            "--exact-classes",
            default=None,
            help="with --exact: solve only these starting-hand classes "
            "(comma-separated, e.g. AA,72o); no whole-game figures",
        )
        parser.add_argument(
            "--processes", type=int, default=2, help="with --exact: worker processes (1: no pool)"
        )
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a declared option of the game (repeatable; 'none' for no value), e.g. "
            "pair_plus_table=1-4-6-30-40",
        )
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(
        self,
        *args,
        game,
        ruleset,
        strategy,
        rounds,
        seed,
        pair_of_tens,
        calibration_samples=CALIBRATION_SAMPLES,
        json=False,
        exact=False,
        exact_classes=None,
        processes=2,
        option=(),
        **options,
    ):
        self.calibration_samples = calibration_samples
        known = _games()
        if game not in known:
            raise CommandError(f"unknown game {game!r}; known: {', '.join(known)}")
        if ruleset not in RULESETS:
            raise CommandError(
                f"unknown rule set {ruleset!r}; known: " + ", ".join(sorted(RULESETS))
            )
        rules = get_ruleset(ruleset)
        if rules.game != game:
            raise CommandError(f"rule set {ruleset} is for {rules.game}, not {game}")
        if game not in SIMULATED_GAMES:
            started = time.monotonic()
            report = _declared(game, rules, option)
            report.update(
                game=game,
                ruleset=rules.id,
                runtime_seconds=str(round(Decimal(time.monotonic() - started), 1)),
            )
            if strategy == CHART:
                chart = (report.get("whole_game") or {}).get("chart")
                if not chart:
                    raise CommandError(f"{game} has no strategy chart")
                self.stdout.write("\n".join(chart))
            elif json:
                self.stdout.write(_dumps(report))
            else:
                self._print_declared(report)
            return
        if option:
            raise CommandError(f"--option applies to declared par sheets, not {game}")
        if strategy == CHART:
            raise CommandError(f"{game} prints no strategy chart; --strategy optimal or basic")
        if strategy not in STRATEGIES:
            raise CommandError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
        if pair_of_tens is not None and not (
            isinstance(rules, CrissCrossRuleSet) and rules.pair_of_tens_middle_bets is not None
        ):
            raise CommandError(
                f"--pair-of-tens applies only to a rule set whose pay table "
                f"lists a pair of 10s twice (PA-592-2014), not {ruleset}"
            )
        if rounds is not None and rounds < 2:
            raise CommandError("--rounds must be at least 2")
        rounds = rounds or DEFAULT_ROUNDS[game]
        rng = random.Random(seed)
        started = time.monotonic()
        if exact_classes is not None and not exact:
            raise CommandError("--exact-classes needs --exact")
        if exact and not isinstance(rules, CrissCrossRuleSet):
            raise CommandError("--exact is available for criss_cross_poker only")
        if exact and strategy != "optimal":
            raise CommandError("--exact solves the optimal strategy only")
        if processes < 1:
            raise CommandError("--processes must be at least 1")
        if exact:
            report = _criss_cross_exact(rules, pair_of_tens, exact_classes, processes)
        elif isinstance(rules, CrissCrossRuleSet):
            report = self._criss_cross(rules, strategy, rounds, rng, pair_of_tens)
        else:
            assert isinstance(rules, DoubleCrossRuleSet)
            report = self._double_cross(rules, strategy, rounds, rng)
        report.update(
            game=game,
            ruleset=rules.id,
            seed=seed,
            runtime_seconds=str(round(Decimal(time.monotonic() - started), 1)),
        )
        if json:
            self.stdout.write(_dumps(report))
        elif exact:
            self._print_exact(report)
        else:
            self._print(report)

    # -- computation ----------------------------------------------------------------

    def _criss_cross(self, rules, strategy_name, rounds, rng, pair_of_tens):
        pays = parsheet.CrissCrossPays.of(
            rules, PairOfTensMiddleBets(pair_of_tens) if pair_of_tens else None
        )
        optimal = parsheet.CrissCrossOptimal(pays)
        if self.calibration_samples > 0:
            optimal.calibrate(rng, self.calibration_samples)
        strategy = optimal if strategy_name == "optimal" else parsheet.CrissCrossBasic(pays)
        result = parsheet.simulate_criss_cross_game(rng, strategy, rounds)
        rows = parsheet.across_strategy_table(optimal)
        return {
            "options": {
                "pair_of_tens_middle_bets": str(pays.pair_of_tens) if pays.pair_of_tens else None
            },
            "side_wagers": [_sheet(parsheet.five_card_bonus_sheet(rules))],
            "whole_game": _game(
                result,
                strategy_name,
                "initial ante total = both Antes",
                notes=(
                    "Simulated (one position, seeded generator); Five Card Bonus excluded.",
                    "optimal: Middle Bet exactly optimal (all 46 CENTER cards enumerated); Across "
                    "and Down multiples by the exact expected return of that bet over all "
                    "completions of its hand; Across fold by rollouts "
                    f"({self.calibration_samples} per starting-hand class; 0 = exact lower "
                    "bound 2 E[ante] + 3 E[bet] < -2); Down never folds.",
                ),
            ),
            "strategy": {
                "decision": "Across Bet (" + rules.section("11(b)") + "), two cards seen",
                "rules": _across_rules(rows),
                "table": [
                    {
                        "hand": name,
                        "action": _action(multiple),
                        "expected_bet_result": _number(expected),
                    }
                    for name, multiple, expected in rows
                ],
                "later": [
                    f"Down Bet ({rules.section('11(d)')}): 3x if the Down Hand's Bet has a "
                    "positive expected result given the cards seen, else 1x.",
                    f"Middle Bet ({rules.section('11(f)')}): exact; 3x when the Middle Bet's "
                    "expected result is positive, fold when the expected result of the hand "
                    "is worse than losing everything placed, else 1x.",
                ],
            },
        }

    def _double_cross(self, rules, strategy_name, rounds, rng):
        pays = parsheet.DoubleCrossPays.of(rules)
        if strategy_name == "optimal":
            strategy = parsheet.DoubleCrossOptimal(
                pays, random.Random(rng.getrandbits(64)), samples=ROLLOUT_SAMPLES
            )
        else:
            strategy = parsheet.DoubleCrossBasic(pays)
        result = parsheet.simulate_double_cross_game(rng, strategy, rounds)
        return {
            "options": {"hand_comparison": str(rules.hand_comparison)},
            "side_wagers": [_sheet(parsheet.three_card_sheet(rules))],
            "whole_game": _game(
                result,
                strategy_name,
                "initial ante total = the Ante",
                notes=(
                    "Simulated (one position against the dealer, seeded generator); the "
                    "three-card wager excluded.",
                    "optimal: at Section 10(c), with two cards, TOP and ROW-3 seen, fold or play "
                    f"the better alignment by {ROLLOUT_SAMPLES} rollouts of the unseen cards "
                    "per decision (approximately optimal). basic: always play the alignment "
                    "whose revealed card is higher.",
                ),
            ),
            "strategy": {
                "decision": "Fold or play (Section 10(c)): two cards, TOP and ROW-3 seen",
                "rules": [f"{name}: {count:,} rounds" for name, count in result.multiples],
            },
        }

    # -- output ---------------------------------------------------------------------

    def _print_declared(self, report):
        write = self.stdout.write
        # A sheet that simulates its whole game says so ("method", or "exact": False).
        kind = report.get("method") or (
            "EXACT" if report.get("exact", True) else "EXACT side wagers, SIMULATED game")
        write(f"PAR SHEET  {report['game']}  rule set {report['ruleset']}  {kind}")
        for name, value in report["options"].items():
            write(f"  option {name} = {'none' if value is None else value}")
        if "wagers" in report:
            write("")
            write(report["title"])
            for key, heading in TABLES.items():
                if report.get(key):
                    write("")
                    write(heading)
                    for line in _table(report[key]):
                        write(f"  {line}")
            for note in report.get("notes", ()):
                write(f"  Note: {note}")
        for sheet in report.get("side_wagers", ()):
            chosen = " (this rule set's)" if sheet["wager"] == report.get("selected") else ""
            self._print_sheet(sheet, chosen)
        bonuses = report.get("ante_bonus", ())
        if bonuses:
            write("")
            hands = bonuses[0]["combinations"]
            write(f"Ante bonus, per unit of Ante, paid on Ante and Play - EXACT, {hands:,} hands")
            for sheet in bonuses:
                paid = ", ".join(
                    f"{row['label']} {row['odds']} ({row['combinations']:,})"
                    for row in sheet["rows"]
                    if row["odds"] != "loses"
                )
                write(
                    f"  {sheet['wager']} ({sheet['section']}): return "
                    f"{sheet['expected_result']['fraction']} = {sheet['expected_result_percent']}"
                )
                write(f"    {paid}")
        for sheet in report.get("progressive", ()):
            self._print_progressive(sheet)
        game = report.get("whole_game")
        if game:
            write("")
            write(game["title"])
            for key, value in game.items():
                if isinstance(value, dict) and "fraction" in value:
                    write(
                        f"  {key.replace('_', ' ').capitalize()}: {value['fraction']} = "
                        f"{game[key + '_percent']}"
                    )
            write(f"  Strategy: {game['strategy']}")
            for line in game.get("chart", ()):
                write(f"    {line}")
            for row in game.get("near_threshold", ()):
                write(
                    f"    {row['hand']:<8} {row['hands']:>3} hands  value of playing "
                    f"{row['value_of_playing']['decimal']:>10}  {row['decision']}"
                )
            for note in game.get("notes", ()):
                write(f"  Note: {note}")
        for row in report.get("by_ante_bonus", ()):
            if row is report["by_ante_bonus"][0]:
                write("")
                write("Ante/Play under optimal play, by Ante bonus table and reading")
            write(
                f"  {row['ante_bonus']:<28} house edge {row['house_edge_percent']:>9}  "
                f"element of risk {row['element_of_risk_percent']:>9}  "
                f"play {row['play_frequency_percent']}"
            )
        write(f"(runtime {report['runtime_seconds']} s)")

    def _print_progressive(self, sheet):
        """A progressive's exact return as a function of its meter (§ 555.13(d))."""
        write = self.stdout.write
        write("")
        write(f"Progressive payout wager, {sheet['schedule']} - EXACT, by meter amount")
        for row in sheet["rows"]:
            write(f"  {row['hand']:<16} {row['pays']:>20}  {row['combinations']:>6,} hands")
        write(f"  Hit frequency: {sheet['hit_frequency']['decimal']}")
        write(f"  Break-even meter: ${sheet['break_even_meter_cents'] / 100:,.2f}")
        for row in sheet["return_at"]:
            write(f"  Return at a meter of {row['meter']}: {row['expected_result_percent']}")
        write(f"  House hold at the least rate of progression: "
              f"{sheet['house_hold_at_minimum_rate_percent']}")

    def _print_sheet(self, sheet, chosen=""):
        write = self.stdout.write
        write("")
        write(
            f"{sheet['wager']} ({sheet['section']}){chosen} - EXACT, all "
            f"{sheet['combinations']:,} hands counted"
        )
        write(f"  {'Outcome':<42}{'Odds':>10}{'Combinations':>14}{'Probability':>16}{'Return':>16}")
        for row in sheet["rows"]:
            write(
                f"  {row['label']:<42}{row['odds']:>10}{row['combinations']:>14,}"
                f"{row['probability']['decimal']:>16}{row['contribution']['decimal']:>16}"
            )
        write(f"  Hit frequency: {sheet['hit_frequency']['decimal']}")
        write(f"  House edge: {sheet['house_edge']['fraction']} = {sheet['house_edge_percent']}")

    def _print_exact(self, report):
        write = self.stdout.write
        write(f"PAR SHEET  {report['game']}  rule set {report['ruleset']}  EXACT, optimal strategy")
        for name, value in report["options"].items():
            if value is not None:
                write(f"  option {name} = {value}")
        game = report["whole_game"]
        if game is not None:
            write("")
            write("Whole game, optimal strategy - EXACT (backward induction, every deal counted)")
            write(f"  House edge ({game['per']}): {game['house_edge']['fraction']}")
            write(f"    = {game['house_edge_percent']}")
            write(f"  Element of risk (per unit wagered): {game['element_of_risk']['fraction']}")
            write(f"    = {game['element_of_risk_percent']}")
            write(
                f"  Average wagered per round (antes of one unit): "
                f"{game['average_wagered']['decimal']}"
            )
            for decision, frequencies in game["frequencies"].items():
                write(
                    f"  {decision}: "
                    + ", ".join(
                        f"{action} {_pct(Fraction(value['fraction']))}"
                        for action, value in frequencies.items()
                    )
                )
            for note in game["notes"]:
                write(f"  Note: {note}")
        strategy = report["strategy"]
        write("")
        write(f"Strategy: {strategy['decision']}")
        for rule in strategy["rules"]:
            write(f"  {rule}")
        write(
            f"  {'Hand':<6}{'Action':>7}{'EV fold':>12}{'EV 1x':>14}{'EV 3x':>14}"
            f"  {'Down fold/1x/3x %':>22}  {'Middle fold/1x/3x %':>22}"
        )
        for row in strategy["table"]:
            later = [
                "/".join(
                    f"{Decimal(row[name][action]['decimal']) * 100:.1f}"
                    for action in ("fold", "1x", "3x")
                )
                for name in ("down", "middle")
            ]
            write(
                f"  {row['hand']:<6}{row['action']:>7}{row['value_fold']['decimal']:>12}"
                f"{row['value_1x']['decimal']:>14}{row['value_3x']['decimal']:>14}"
                f"  {later[0]:>22}  {later[1]:>22}"
            )
        for rule in strategy.get("later", ()):
            write(f"  {rule}")
        write(f"(runtime {report['runtime_seconds']} s)")

    def _print(self, report):
        write = self.stdout.write
        write(f"PAR SHEET  {report['game']}  rule set {report['ruleset']}  seed {report['seed']}")
        for name, value in report["options"].items():
            if value is not None:
                write(f"  option {name} = {value}")
        for sheet in report["side_wagers"]:
            self._print_sheet(sheet)
        game = report["whole_game"]
        write("")
        write(
            f"Whole game, strategy '{game['strategy']}' - SIMULATED, {game['rounds']:,} "
            f"rounds, 95% confidence intervals"
        )
        write(
            f"  House edge ({game['per']}): {game['house_edge_percent']} "
            f"+/- {game['house_edge_ci_percent']}"
        )
        write(
            f"  Element of risk (per unit wagered): {game['element_of_risk_percent']} "
            f"+/- {game['element_of_risk_ci_percent']}"
        )
        write(
            f"  Average wagered per round (antes of one unit): {game['average_wagered']['decimal']}"
        )
        for name, count in game["decisions"]:
            write(f"  {name}: {count:,}")
        for note in game["notes"]:
            write(f"  Note: {note}")
        strategy = report["strategy"]
        write("")
        write(f"Strategy: {strategy['decision']}")
        for rule in strategy["rules"]:
            write(f"  {rule}")
        for rule in strategy.get("later", ()):
            write(f"  {rule}")
        write(f"(runtime {report['runtime_seconds']} s)")


def _criss_cross_exact(rules, pair_of_tens, exact_classes, processes):
    pays = parsheet.CrissCrossPays.of(
        rules, PairOfTensMiddleBets(pair_of_tens) if pair_of_tens else None
    )
    classes = parsheet_exact.hole_classes()
    if exact_classes is not None:
        wanted = [name.strip() for name in exact_classes.split(",") if name.strip()]
        known = {parsheet.starting_hand_class(hole): (hole, weight) for hole, weight in classes}
        unknown = [name for name in wanted if name not in known]
        if unknown or not wanted:
            raise CommandError(f"unknown starting-hand class(es): {', '.join(unknown)}")
        classes = [known[name] for name in wanted]
    arguments = [(pays.ante, pays.bet, hole) for hole, _ in classes]
    if processes > 1:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            # Suited classes (about ten times the work) first, one class per task.
            order = sorted(
                range(len(arguments)),
                key=lambda i: arguments[i][2][0].suit != arguments[i][2][1].suit,
            )
            solved = pool.map(parsheet_exact.solve_class, [arguments[i] for i in order], 1)
            results = [None] * len(arguments)
            for i, item in zip(order, solved, strict=True):
                results[i] = item
    else:
        results = [parsheet_exact.solve_class(item) for item in arguments]
    game = parsheet_exact.ExactGame(
        tuple(zip(results, (weight for _, weight in classes), strict=True)), 0.0
    )
    rows = sorted(results, key=lambda item: item.value, reverse=True)
    whole = None
    if exact_classes is None:
        names = ("fold", "1x", "3x")
        whole = {
            "strategy": "optimal",
            "exact": True,
            "per": "initial ante total = both Antes",
            "expected_result": _number(game.expected_result),
            "house_edge": _number(game.house_edge),
            "house_edge_percent": _pct(game.house_edge),
            "element_of_risk": _number(game.element_of_risk),
            "element_of_risk_percent": _pct(game.element_of_risk),
            "average_wagered": _number(game.average_wagered),
            "frequencies": {
                decision: {name: _number(value) for name, value in zip(names, values, strict=True)}
                for decision, values in (
                    ("across", game.across_frequency),
                    ("down", game.down_frequency),
                    ("middle", game.middle_frequency),
                )
            },
            "notes": [
                "Exact: backward induction over every deal of the seven cards (one "
                "position, Five Card Bonus excluded); fold, 1x or 3x chosen at each bet by "
                "exact expected value. A multiple strictly between 1x and 3x is never "
                "better (the value is convex in each multiple).",
                "Ties are broken towards 1x, then 3x, then fold; they do not change the "
                "house edge.",
            ],
        }
    return {
        "options": {
            "pair_of_tens_middle_bets": str(pays.pair_of_tens) if pays.pair_of_tens else None
        },
        "whole_game": whole,
        "strategy": {
            "decision": "Across Bet (" + rules.section("11(b)") + "), two cards seen; "
            "expected results in ante units per round (both Antes staked)",
            "rules": _across_rules([(item.name, item.across, item.expected) for item in rows]),
            "table": [
                {
                    "hand": item.name,
                    "action": _action(item.across),
                    "value_fold": _number(item.value_fold),
                    "value_1x": _number(item.value_1x),
                    "value_3x": _number(item.value_3x),
                    "down": _given_class(item.down),
                    "middle": _given_class(item.middle),
                }
                for item in rows
            ],
            "later": [
                f"Down Bet ({rules.section('11(d)')}): fold, 1x or 3x, whichever has the "
                "highest exact expected result given the two cards, ROW-1 and ROW-3, with "
                "the Middle Bet played optimally.",
                f"Middle Bet ({rules.section('11(f)')}): 3x when the Middle Bet's expected "
                "result over the 46 CENTER cards is positive, else 1x; fold when that "
                "continuation is worth less than losing everything placed.",
            ],
        },
    }


def _games() -> tuple[str, ...]:
    """Registered games with a par sheet: the declared ones, and the two built here."""
    found = set(parsheets.games())
    return tuple(g for g in registry.game_ids() if g in found or g in SIMULATED_GAMES)


def _declared(game: str, rules, chosen: list[str]) -> dict[str, object]:
    """The par sheet a game provides (:mod:`tables.rules.parsheets`), made printable."""
    wanted = {}
    for item in chosen:
        name, sep, value = item.partition("=")
        if not sep:
            raise CommandError(f"--option {item!r} is not NAME=VALUE")
        wanted[name.strip()] = None if value.strip().lower() == "none" else value.strip()
    try:
        options = parsheets.options(game, wanted, rules)
        provider = parsheets.provider(game)
        assert provider is not None
        report = provider(rules, options)
    except ValueError as error:
        raise CommandError(str(error)) from None
    return {"options": options, **_plain(report)}


def _plain(value):
    """Fractions as ``{"fraction", "decimal"}`` beside a ``*_percent`` string; sheets as tables."""
    if isinstance(value, parsheet.WagerSheet):
        return _sheet(value)
    if isinstance(value, Fraction):
        return _number(value)
    if isinstance(value, dict):
        plain: dict[str, object] = {}
        for key, item in value.items():
            if key == "selected_side_wager":
                key = "selected"
            plain[key] = _plain(item)
            if isinstance(item, Fraction):
                plain[f"{key}_percent"] = _pct(item)
        return plain
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _table(rows: list[dict[str, object]]) -> list[str]:
    """Rows of plain values as aligned text: probabilities as decimals, other fractions as
    percentages, a house edge also as its exact fraction; ``expected`` is left to the edge.
    Names align left, figures right."""
    columns: list[tuple[str, list[str], bool]] = []
    for key, value in rows[0].items():
        if key.endswith("_percent") or (key == "expected" and "house_edge" in rows[0]):
            continue
        cells = [_cell(row, key) for row in rows]
        figure = isinstance(value, dict | int | bool) or value is None
        columns.append((key.replace("_", " ").capitalize(), cells, figure))
        if key == "house_edge":
            columns.append(("(exact)", [_cell(row, key, exact=True) for row in rows], True))
    widths = [max(len(title), *map(len, cells)) for title, cells, _ in columns]

    def line(texts: list[str]) -> str:
        return "  ".join(
            text.rjust(width) if figure else text.ljust(width)
            for text, width, (_, _, figure) in zip(texts, widths, columns, strict=True)
        ).rstrip()

    header = line([title for title, _, _ in columns])
    return [header, *(line([cells[i] for _, cells, _ in columns]) for i in range(len(rows)))]


def _cell(row: dict[str, object], key: str, exact: bool = False) -> str:
    value = row[key]
    if value is None:
        return "-"
    if isinstance(value, dict) and "fraction" in value:
        if exact:
            return str(value["fraction"])
        return str(value["decimal"] if "probability" in key else row[f"{key}_percent"])
    return str(value)


def _given_class(counts: tuple[int, int, int]) -> dict[str, dict[str, str]]:
    """Probabilities of fold, 1x, 3x at a later decision given the two-card class."""
    return {
        action: _number(Fraction(count, parsheet_exact.ACROSS_DEN))
        for action, count in zip(("fold", "1x", "3x"), counts, strict=True)
    }


def _sheet(sheet: parsheet.WagerSheet) -> dict[str, object]:
    return {
        "wager": sheet.wager,
        "section": sheet.section,
        "combinations": sheet.total,
        "exact": True,
        "rows": [
            {
                "label": row.label,
                "odds": str(row.odds) if row.odds else "loses",
                "combinations": row.combinations,
                "probability": _number(row.probability),
                "contribution": _number(row.contribution),
            }
            for row in sheet.rows
        ],
        "hit_frequency": _number(sheet.hit_frequency),
        "expected_result": _number(sheet.expected_result),
        "expected_result_percent": _pct(sheet.expected_result),
        "house_edge": _number(sheet.house_edge),
        "house_edge_percent": _pct(sheet.house_edge),
    }


def _game(
    result: parsheet.SimulationResult, strategy: str, per: str, notes: tuple[str, ...]
) -> dict[str, object]:
    return {
        "strategy": strategy,
        "exact": False,
        "rounds": result.rounds,
        "per": per,
        "house_edge": _number(result.house_edge),
        "house_edge_ci_half_width": _number(result.house_edge_half_width),
        "house_edge_percent": _pct(result.house_edge, 2),
        "house_edge_ci_percent": _pct(result.house_edge_half_width, 2),
        "element_of_risk": _number(result.element_of_risk),
        "element_of_risk_ci_half_width": _number(result.element_of_risk_half_width),
        "element_of_risk_percent": _pct(result.element_of_risk, 2),
        "element_of_risk_ci_percent": _pct(result.element_of_risk_half_width, 2),
        "average_wagered": _number(result.average_wagered),
        "decisions": [[f"fold at {name}", count] for name, count in result.folds if name != "fold"]
        + [[name, count] for name, count in result.multiples],
        "notes": list(notes),
    }


def _action(multiple: int) -> str:
    return "fold" if multiple == 0 else f"{multiple}x"


def _across_rules(rows: list[tuple[str, int, Fraction]]) -> list[str]:
    """Group the 169 classes by action, strongest first, as readable lines."""
    lines = []
    for action in (3, 1, 0):
        names = [name for name, multiple, _ in rows if multiple == action]
        if names:
            lines.append(f"{_action(action)} ({len(names)} classes): " + " ".join(names))
    return lines


def _dumps(report: dict[str, object]) -> str:
    return json.dumps(report, indent=2)
