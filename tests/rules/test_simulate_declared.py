"""The simulator of declared games (tables.rules.simulate_declared): rounds walked
from the declaration alone, which replay accepts, and whose injected dealer
errors replay finds exactly."""

from __future__ import annotations

import random

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import Outcome
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealerCollected,
    Decision,
    Recipient,
    StubCounted,
    WagerPlaced,
)
from tables.rules.hands import evaluate_three
from tables.rules.registry import declared, ruleset
from tables.rules.replay import replay
from tables.rules.simulate import DealerError, Irregularity, SettlementError
from tables.rules.simulate_declared import (
    ANY_GAME_ERRORS,
    first_wagering_choice,
    irregularities_for,
    simulate_declared,
    strategy_for,
)

TCP = ruleset("PA-565-2010")
SEATS = (1, 2, 3, 4, 5, 6)
VERSIONS = [
    {},
    {"pair_plus_table": "1-4-6-30-40", "tie_rule": "literal"},
    *({"version": v, "ante_bonus_table": t, "ante_bonus_reading": "straight_ABC_spades_AC"}
      for v, t in (("f1", "A"), ("f2", "B"), ("f3", "C"))),
]  # fmt: skip


@pytest.mark.parametrize("options", VERSIONS, ids=lambda o: o.get("version", "base"))
def test_simulated_three_card_poker_rounds_replay_without_findings(options):
    for seed in range(40):
        sim = simulate_declared(random.Random(seed), TCP, seats=SEATS, options=options,
                                count_stub=seed % 2 == 0)  # fmt: skip
        result = replay(sim.events)
        assert sim.injected == ()
        assert result.findings == (), seed
        assert result.final_state.phase == "closed" and result.settlement.complete
        for key, value in options.items():
            assert (key, value) in result.settlement.options_applied


def test_565_8_d_the_deal_goes_one_card_at_a_time_round_the_table_dealer_last():
    sim = simulate_declared(random.Random(3), TCP, seats=(2, 5))
    dealt = [(e.recipient, e.seat, e.spot) for e in sim.events if isinstance(e, CardDealt)]
    player, dealer = Recipient.PLAYER, Recipient.DEALER
    assert dealt == [(who, seat, spot) for spot in "123"
                     for who, seat in ((player, 2), (player, 5), (dealer, None))]  # fmt: skip


def test_565_11_b_the_strategy_plays_queen_six_four_or_better_and_folds_below():
    queen_six_four = evaluate_three(parse_cards("Qc 6d 4h"))
    decided = 0
    for seed in range(30):
        sim = simulate_declared(random.Random(seed), TCP, seats=SEATS)
        cards: dict[int, list] = {}
        for event in sim.events:
            if isinstance(event, CardDealt) and event.recipient is Recipient.PLAYER:
                cards.setdefault(event.seat, []).append(event.card)
            if isinstance(event, Decision):
                plays = evaluate_three(cards[event.seat]) >= queen_six_four
                assert event.choice == ("play" if plays else "fold")
                ante = next(e.amount_cents for e in sim.events if isinstance(e, WagerPlaced)
                            and (e.seat, e.wager) == (event.seat, "ANTE"))  # fmt: skip
                assert event.amount_cents == (ante if plays else None)  # § 565.11(b): Play = Ante
                decided += 1
    assert decided > 100


def test_a_fold_is_collected_at_once_and_the_showdown_turns_seats_counterclockwise():
    for seed in range(30):
        events = simulate_declared(random.Random(seed), TCP, seats=SEATS).events
        for index, event in enumerate(events):
            if isinstance(event, Decision) and event.choice == "fold":
                after = events[index + 1]
                assert isinstance(after, DealerCollected)
                assert (after.seat, after.wager) == (event.seat, "ANTE")
        turned = [e.seat for e in events
                  if isinstance(e, CardExposed) and e.recipient is Recipient.PLAYER]  # fmt: skip
        assert turned == sorted(turned, reverse=True)


def test_the_stub_is_counted_after_the_deal_and_agrees():
    sim = simulate_declared(random.Random(8), TCP, seats=(1, 2, 3), count_stub=True)
    (stub,) = [e for e in sim.events if isinstance(e, StubCounted)]
    assert stub.stub_count == 52 - 12
    assert not replay(sim.events).settlement.voided


def _first_applicable(error, **kwargs):
    for seed in range(1000):
        sim = simulate_declared(random.Random(seed), TCP, seats=SEATS, dealer_errors=[error],
                                **kwargs)  # fmt: skip
        if sim.injected:
            return sim
    raise AssertionError(f"no round allowed {error}")


@pytest.mark.parametrize("error", ANY_GAME_ERRORS)
def test_each_injected_dealer_error_is_found_exactly(error):
    sim = _first_applicable(error)
    (injected,) = sim.injected
    findings = replay(sim.events).findings
    assert [(f.kind, f.seat, f.wager) for f in findings] == [
        (injected.expected_finding, injected.seat, injected.wager)]  # fmt: skip
    assert findings[0].section.startswith("565.")


def test_criss_cross_only_errors_inject_nothing_in_three_card_poker():
    for seed in range(50):
        for error in (DealerError.MISPAY_STRAIGHT, DealerError.PAY_PAIR_OF_TENS):
            sim = simulate_declared(random.Random(seed), TCP, seats=SEATS, dealer_errors=[error])
            assert sim.injected == () and replay(sim.events).findings == ()


def test_many_seeds_with_errors_mixed_in_replay_finds_exactly_what_was_injected():
    errors = list(ANY_GAME_ERRORS)
    injected = 0
    for seed in range(200):
        rng = random.Random(seed)
        chosen = [errors[seed % len(errors)]] if seed % 2 else []
        sim = simulate_declared(rng, TCP, seats=SEATS[: 1 + seed % 6], dealer_errors=chosen)
        findings = replay(sim.events).findings
        expected = [(i.expected_finding, i.seat, i.wager) for i in sim.injected]
        assert [(f.kind, f.seat, f.wager) for f in findings] == expected, seed
        injected += len(sim.injected)
    assert injected > 60  # of 100 rounds with an error: most rounds allow each kind


@pytest.mark.parametrize("irregularity", list(Irregularity))
def test_565_13_irregularities_from_the_declared_remedies(irregularity):
    assert set(irregularities_for(declared("three_card_poker"))) == set(Irregularity)
    sim = simulate_declared(random.Random(5), TCP, seats=SEATS, irregularity=irregularity)
    result = replay(sim.events)
    assert result.findings == () and result.final_state.phase == "closed"
    assert result.settlement.voided is (irregularity is not Irregularity.ONE_CARD_FACE_UP)
    if result.settlement.voided:
        sections = {"two_cards_face_up": "565.13(a)", "community_exposed_early": "565.13(d)",
                    "shoe_jam": "565.13(f)"}  # fmt: skip
        assert result.settlement.void_section == sections[irregularity.value]
        assert {line.outcome for line in result.settlement.lines} == {Outcome.RETURNED}


def test_in_a_void_round_paying_a_returned_wager_is_found_and_a_refused_mistake_is_not_staged():
    void = {"seats": SEATS, "irregularity": Irregularity.SHOE_JAM}
    sim = simulate_declared(random.Random(5), TCP, dealer_errors=[SettlementError.PAY_A_PUSH],
                            **void)  # fmt: skip
    (injected,) = sim.injected
    (finding,) = replay(sim.events).findings
    assert (finding.kind, finding.seat, finding.wager) == (
        injected.expected_finding, injected.seat, injected.wager)  # fmt: skip
    # § 565.11(c): nothing is collected before the first decision, so a collected
    # return cannot be recorded in a round void before the deal.
    clean = simulate_declared(random.Random(5), TCP, **void)
    refused = simulate_declared(random.Random(5), TCP,
                                dealer_errors=[SettlementError.COLLECT_A_PUSH], **void)  # fmt: skip
    assert refused.injected == () and refused.events == clean.events


def test_three_card_poker_has_a_strategy_and_any_other_game_a_default():
    game = declared("three_card_poker")
    assert strategy_for(game) is not first_wagering_choice
    criss_cross = declared("criss_cross_poker")
    assert strategy_for(criss_cross) is first_wagering_choice


def test_the_declared_simulator_walks_criss_cross_from_its_declaration_too():
    # Not how the product simulates Criss-Cross (its own simulator stays), but a
    # check that nothing here is Three Card Poker's: another game's steps walk.
    for ruleset_id in ("PA-592-2014", "PA-674a-2019"):
        for seed in range(10):
            sim = simulate_declared(random.Random(seed), ruleset(ruleset_id), seats=SEATS,
                                    count_stub=True)  # fmt: skip
            result = replay(sim.events)
            assert result.findings == () and result.final_state.phase == "closed"


DICE = [ruleset("PA-585-2014"), ruleset("PA-593-2014")]


@pytest.mark.parametrize("dice_ruleset", DICE, ids=lambda r: r.game)
def test_simulated_dice_rounds_replay_and_replay_finds_exactly_the_injected_errors(dice_ruleset):
    from tables.rules.events import DiceThrown
    from tables.rules.replay import FindingKind
    from tables.rules.simulate import CallError
    from tables.rules.simulate_declared import Play, errors_for

    assert CallError.WRONG_CALL in errors_for(dice_ruleset.game)
    kinds, no_rolls = set(), 0
    for seed in range(60):
        errors = [[], [CallError.WRONG_CALL], [DealerError.MISPAY_FIRST_WIN],
                  [SettlementError.MISS_A_PAYMENT, CallError.WRONG_CALL]][seed % 4]  # fmt: skip
        sim = simulate_declared(random.Random(seed), dice_ruleset, seats=(1, 2, 3),
                                play=Play(no_roll_percent=20), dealer_errors=errors)  # fmt: skip
        result = replay(sim.events)
        assert result.final_state.phase == "closed" and result.settlement.complete
        expected = [(i.expected_finding, i.seat, i.wager) for i in sim.injected]
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == expected, seed
        kinds |= {f.kind for f in result.findings}
        no_rolls += sum(1 for e in sim.events if isinstance(e, DiceThrown) and e.no_roll)
    assert {FindingKind.WRONG_CALL, FindingKind.MISPAID_AMOUNT} <= kinds and no_rolls


@pytest.mark.parametrize(
    ("dice_ruleset", "error", "kind", "sections"),
    [(DICE[0], "no_roll_settled", "WRONGFUL_COLLECTION", {"585.3(f)", "585.3(g)"}),
     (DICE[1], "late_wager_taken", "WRONG_WAGER", {"593.1(c)(2)"})],
    ids=["585_3_f_g_no_roll_settled", "593_1_c_extra_roll_taken_after_the_lock_out"],
)  # fmt: skip
def test_staged_dice_errors_are_found_exactly_citing_their_section(
    dice_ruleset, error, kind, sections
):
    """A no-roll's wagers collected instead of returned (§ 585.3(f)-(g)); an Extra Roll the
    system refused after its lock-out taken by the dealer anyway (§ 593.1(c)(2))."""
    from tables.rules.simulate import DiceError
    from tables.rules.simulate_declared import errors_for

    assert DiceError(error) in errors_for(dice_ruleset.game)
    staged = 0
    for seed in range(20):
        sim = simulate_declared(random.Random(seed), dice_ruleset, seats=(1, 2, 3),
                                dealer_errors=[DiceError(error)])  # fmt: skip
        result = replay(sim.events)
        expected = [(i.expected_finding, i.seat, i.wager) for i in sim.injected]
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == expected, seed
        assert all(f.kind.value == kind and f.section in sections for f in result.findings)
        staged += bool(sim.injected)
    assert staged >= 10


def test_593_2_e_1_pip_street_tie_broken_by_count_order_is_found_exactly():
    """§ 593.2(e)(1): a tie goes to the higher rank (ace > 6 > ... > 2). The dealer who takes
    the face counted first from the ace up pays the Pip Street Wager on it and collects
    the one on the face rank picks; replay finds exactly those lines."""
    from tables.rules.events import DealerPaid, DiceThrown
    from tables.rules.games.high_roll_dice_593 import first_count
    from tables.rules.parsheets.high_roll_dice import counted_first
    from tables.rules.replay import FindingKind
    from tables.rules.simulate import DiceError

    assert first_count((2, 2, 2, 6, 6, 6, 1, 3, 4, 5)) == (6, 3)
    assert counted_first((2, 2, 2, 6, 6, 6, 1, 3, 4, 5)) == 2
    assert counted_first((1, 1, 6, 6, 2, 3, 4, 5, 2, 3)) == 1  # the ace wins a tie either way
    staged = 0
    for seed in range(20):
        sim = simulate_declared(random.Random(seed), DICE[1], seats=(1, 2, 3),
                                dealer_errors=[DiceError.PIP_TIE_BY_COUNT_ORDER])  # fmt: skip
        result = replay(sim.events)
        expected = [(i.expected_finding, i.seat, i.wager) for i in sim.injected]
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == expected, seed
        if not sim.injected:
            continue
        staged += 1
        faces = next(e.faces for e in sim.events if isinstance(e, DiceThrown) and e.faces)
        right, wrong = first_count(faces)[0], counted_first(faces)
        assert right != wrong
        for finding in result.findings:
            if finding.kind is FindingKind.UNEXPECTED_PAYMENT:  # a loser paid: the counted face
                assert finding.wager == f"PIP_{wrong}"
                assert any(isinstance(e, DealerPaid) and (e.seat, e.wager) == (
                    finding.seat, finding.wager) for e in sim.events)  # fmt: skip
            else:  # the winner by rank collected
                assert (finding.kind, finding.wager) == (FindingKind.WRONGFUL_COLLECTION,
                                                         f"PIP_{right}")  # fmt: skip
                assert finding.section == "593.5(a)"
    assert staged >= 15


@pytest.mark.parametrize("nine_wins_on_ten", [False, True])
def test_593_2_e_4_nine_circle_paid_on_ten_is_found_exactly_under_the_default_reading(
    nine_wins_on_ten,
):
    """§ 593.2(e)(4): Millionaire Row's nine circle read as not winning on ten (the default);
    a dealer paying it on ten of a kind is found on every nine circle at the table. Where
    the rule set reads it as winning on ten, there is no mistake to stage."""
    from tables.rules.events import DiceThrown
    from tables.rules.replay import FindingKind
    from tables.rules.simulate import DiceError

    staged = 0
    for seed in range(10):
        sim = simulate_declared(random.Random(seed), DICE[1], seats=(1, 2, 3),
                                options={"nine_wins_on_ten": nine_wins_on_ten},
                                dealer_errors=[DiceError.NINE_PAID_ON_TEN])  # fmt: skip
        result = replay(sim.events)
        expected = [(i.expected_finding, i.seat, i.wager) for i in sim.injected]
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == expected, seed
        faces = next(e.faces for e in sim.events if isinstance(e, DiceThrown) and e.faces)
        if sim.injected:
            staged += 1
            assert len(set(faces)) == 1 and len(faces) == 10
            assert {(f.kind, f.wager) for f in result.findings} == {
                (FindingKind.UNEXPECTED_PAYMENT, "MILLION_9")}  # fmt: skip
            nines = {e.seat for e in sim.events if isinstance(e, WagerPlaced)
                     and e.wager == "MILLION_9"}  # fmt: skip
            assert {f.seat for f in result.findings} == nines
    assert staged == (0 if nine_wins_on_ten else 10)


def test_585_3_f_g_h_a_no_roll_returns_every_wager_and_losers_are_collected_before_winners():
    from tables.rules.events import DealerPaid, DiceThrown, WagerReturned
    from tables.rules.simulate_declared import Play

    voided = settled = 0
    for seed in range(40):
        sim = simulate_declared(random.Random(seed), DICE[0], seats=(1, 2, 3),
                                play=Play(no_roll_percent=50))  # fmt: skip
        kinds = [type(e) for e in sim.events]
        throw = next(e for e in sim.events if isinstance(e, DiceThrown))
        if throw.no_roll in ("DIE_OUT_OF_SHAKER", "DIE_ON_DIE", "NOT_FLAT"):
            voided += 1  # § 585.3(f)-(g): every wager returned
            placed = sum(1 for e in sim.events if isinstance(e, WagerPlaced))
            assert kinds.count(WagerReturned) == placed and DealerPaid not in kinds
        elif DealerPaid in kinds and DealerCollected in kinds:
            settled += 1  # § 585.3(h): the last collection comes before the first payment
            last = max(i for i, kind in enumerate(kinds) if kind is DealerCollected)
            assert last < kinds.index(DealerPaid)
    assert voided and settled


def test_593_1_b_and_2_e_4_simulated_wagers_are_of_equal_value_and_millionaire_row_at_most_1():
    equal = ("PIP_", "LIKE_", "EXTRA_ROLL")
    millionaire = 0
    for seed in range(40):
        sim = simulate_declared(random.Random(seed), DICE[1], seats=(1, 2, 3))
        for seat in (1, 2, 3):
            placed = [e for e in sim.events if isinstance(e, WagerPlaced) and e.seat == seat]
            assert placed and placed[0].wager.startswith("PIP_")  # § 593.2(e)(1) first
            assert len({e.amount_cents for e in placed if e.wager.startswith(equal)}) == 1
            rows = [e.amount_cents for e in placed if e.wager.startswith("MILLION_")]
            assert all(amount <= 100 for amount in rows)
            millionaire += len(rows)
    assert millionaire


def test_a_dice_game_stages_no_card_irregularity():
    assert irregularities_for(declared("props_and_hops")) == ()
    assert irregularities_for(declared("high_roll_dice")) == ()
