"""The dealer's count of the progressive chips at "no more bets" in a round
(``round.progressive_counted``): replay compares it with the progressive wagers the
system accepted, a difference a finding citing the dealing method's section
(§ 555.8(b), § 587.9(a)(3), § 588.8(b)(2)); §§ 555.9(a)(3) and 555.10(a)(2) state
the lock-out alone, so a difference there is reported as a count not required."""

from __future__ import annotations

import pytest

from tables.rules.engine import Automation, RuleViolation
from tables.rules.events import DealingMethod, NoMoreBets, ProgressiveCounted, WagerPlaced
from tables.rules.games import six_card_fortune_588
from tables.rules.machine import apply, open_round, verify
from tables.rules.replay import FindingKind, replay
from tests.rules import test_caribbean_stud_555 as csp
from tests.rules import test_pai_gow_poker_561 as pgp
from tests.rules import test_raise_it_up_587 as riu
from tests.rules import test_six_card_fortune_588 as scf

HANDS = {1: "2c 5d 7c 9h Jd", 2: "3c 6d 8c Th Qd"}
DEALER = "Ah Kd 4s 3s 2s"


def csp_round(collected: int, method=DealingMethod.MANUAL_SHOE, progressive=(1, 2)) -> list:
    events = csp.a_round(HANDS, DEALER, [(1, "fold"), (2, "fold")], progressive=progressive,
                         method=method)  # fmt: skip
    at = next(i for i, event in enumerate(events) if isinstance(event, NoMoreBets)) + 1
    return [*events[:at], ProgressiveCounted(collected_chips=collected), *events[at:]]


def count_findings(events: list) -> list:
    result = replay(events, tuple(Automation))
    return [f for f in result.findings if f.kind is FindingKind.DEALER_PROCEDURE]


def test_555_8_b_a_count_equal_to_the_accepted_wagers_is_no_finding():
    assert count_findings(csp_round(2)) == []
    assert replay(csp_round(2), tuple(Automation)).final_state.progressive_counted


def test_555_8_b_a_chip_short_of_the_accepted_wagers_is_a_finding_of_the_manual_shoe():
    (finding,) = count_findings(csp_round(1))
    assert (finding.seat, finding.wager, finding.section) == (0, "PROGRESSIVE", "555.8(b)")
    assert finding.detail.startswith("1 progressive chip(s) collected, 2 wager(s) accepted")
    assert "accepted by the system without a chip collected" in finding.detail


def test_555_8_b_a_chip_more_than_the_wagers_accepted_is_a_finding():
    (finding,) = count_findings(csp_round(2, progressive=(1,)))
    assert finding.section == "555.8(b)"
    assert "collected for wagers the system did not accept" in finding.detail


@pytest.mark.parametrize(("method", "section"), [
    (DealingMethod.HAND, "555.9(a)(3)"), (DealingMethod.AUTOMATED_SHOE, "555.10(a)(2)"),
])  # fmt: skip
def test_555_9_a_3_and_555_10_a_2_state_no_count_so_a_difference_says_so(method, section):
    (finding,) = count_findings(csp_round(3, method=method))
    assert finding.section == section
    assert finding.detail.endswith(f"§ {section} does not require this count")


def test_587_9_a_3_dealt_from_the_hand_the_count_is_required():
    events = riu.a_round({1: "2s 5d 7c", 2: "3s 6d 8c"}, "Th Qd 9c",
                         side={1: {"PROGRESSIVE": 100}, 2: {"PROGRESSIVE": 500}},
                         method=DealingMethod.HAND, **riu.OFFERED)  # fmt: skip
    at = next(i for i, event in enumerate(events) if isinstance(event, NoMoreBets)) + 1
    counted = [*events[:at], ProgressiveCounted(collected_chips=1), *events[at:]]
    (finding,) = count_findings(counted)
    assert finding.section == "587.9(a)(3)"
    assert "does not require" not in finding.detail


def test_588_8_b_2_the_six_card_fortune_count_from_a_manual_shoe():
    side = [(1, six_card_fortune_588.PROGRESSIVE, 500)]
    events = scf.a_round({1: "9s Ts Js Qs Ks 2h"}, {1: "6"}, side=side, progressive_offered=True,
                         **scf.READINGS)  # fmt: skip
    at = next(i for i, event in enumerate(events) if isinstance(event, NoMoreBets)) + 1
    (finding,) = count_findings([*events[:at], ProgressiveCounted(collected_chips=0),
                                 *events[at:]])  # fmt: skip
    assert finding.section == "588.8(b)(2)"


def test_555_8_b_the_count_comes_after_no_more_bets_before_the_first_card_and_once():
    events = csp_round(2)
    at = next(i for i, event in enumerate(events) if isinstance(event, ProgressiveCounted))
    state = open_round(csp.game.GAME, events[0])
    for event in events[1 : at - 1]:
        state = apply(state, event)
    early = verify(state, ProgressiveCounted(collected_chips=2))
    assert early is not None and early.section == "555.8(b)"
    state = apply(apply(state, events[at - 1]), events[at])
    again = verify(state, ProgressiveCounted(collected_chips=2))
    assert again is not None and again.section == "555.8(b)"
    state = apply(state, events[at + 1])  # the first card
    with pytest.raises(RuleViolation, match="before the first card"):
        apply(state, ProgressiveCounted(collected_chips=2))


def test_561_pai_gow_poker_has_no_progressive_to_count():
    state = open_round(pgp.game.GAME, pgp.opened())
    state = apply(state, WagerPlaced(seat=1, wager=pgp.game.WAGER, amount_cents=1000))
    state = apply(state, NoMoreBets())
    refused = verify(state, ProgressiveCounted(collected_chips=0))
    assert refused is not None and refused.section.startswith("561.")
    assert refused.field == "collected_chips"


def test_a_negative_count_is_refused_naming_the_field():
    with pytest.raises(ValueError, match="collected_chips"):
        ProgressiveCounted.from_payload({"collected_chips": -1})
