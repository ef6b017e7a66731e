"""Double Back Jack, 58 Pa. Code Chapter 591 (temporary), as a declaration.

Standard decks, as many as the Rules Submission fixes (§ 591.3(a)); the deal
of § 591.7(e) as in Free Bet; a player Blackjack is paid 2 to 1 at once,
before the reader is used (§ 591.7(f), § 591.12(a)), and a player's 21 as soon
as his hand is complete (§ 591.7(m)); one split, two hands (§ 591.11(a)); a
busted hand may buy a Second Chance card, sideways, whose value comes off
the total (§ 591.7(l)); a dealer 22 pushes every remaining wager
(§ 591.7(q)(1)); Insurance pays 2 to 1 (§ 591.12(c)).

>>> GAME.deal
('seats', 'dealer_up', 'seats', 'dealer_hole')
>>> [spec.name for spec in GAME.wagers if spec.by_choice]
['DOUBLE_DOWN', 'SPLIT', 'SECOND_CHANCE']
"""

from __future__ import annotations

import datetime

from tables.rules.blackjack import (
    BLACKJACK_WAGER,
    DOUBLE_BACK_JACK_591,
    DOUBLE_DOWN,
    INSURANCE,
    SECOND_CHANCE,
    SPLIT,
)
from tables.rules.blackjack_declaration import (
    DEALER_HOLE,
    DEALER_UP,
    SEATS,
    BlackjackGame,
    BlackjackRuleSet,
)
from tables.rules.blackjack_round import declare
from tables.rules.declaration import OptionSpec, WagerSpec

__all__ = ["GAME", "PA_591_2014"]

PA_591_2014 = BlackjackRuleSet(
    id="PA-591-2014",
    game="double_back_jack",
    jurisdiction="PA",
    chapter="591",
    effective_from=datetime.date(2014, 10, 25),
    # 46 Pa.B. 5540 rescinded the temporary chapter from 2016-08-27 (as Lunar Poker's 589).
    effective_to=datetime.date(2016, 8, 26),
    rules=DOUBLE_BACK_JACK_591,
    notes=("§ 591.3(a): the number of decks is the Rules Submission's; six unless it says",),
)

GAME = declare(
    BlackjackGame(
        id="double_back_jack",
        name="Double Back Jack",
        rulesets=(PA_591_2014,),
        wagers=(
            WagerSpec(BLACKJACK_WAGER, "Blackjack Wager", "6(d)"),
            WagerSpec(INSURANCE, "Insurance Wager", "8(b)"),
            WagerSpec(DOUBLE_DOWN, "Double Down Wager", "10(a)", by_choice=True),
            WagerSpec(SPLIT, "Split wager", "11(a)", by_choice=True),
            WagerSpec(SECOND_CHANCE, "Second Chance Wager", "7(l)", by_choice=True),
        ),
        side_wagers=(),
        deal=(SEATS, DEALER_UP, SEATS, DEALER_HOLE),  # § 591.7(e)
        sections={
            "seated": "2(a)",
            "wagers": "6(a)",
            "after_no_more_bets": "6(c)",
            "deal": "7(e)",
            "dealing_shoe": "7(a)",
            "dealer_draw_error": "13(d)",
            "irregularities": "13(a)",
            "drawn_in_error": "13(b)",
            "exposed_in_error": "13(c)",
            "card_not_given": "13(h)",
            "card_missed": "13(g)",
            "settle": "7(t)",
            "close": "7(u)",
            "void": "13",
            "reader_inspection": "2(d)",
            "reader_malfunction": "13(j)",
        },
        # § 591.3(a): "at least one deck"; the Rules Submission fixes the number.
        options=(OptionSpec("decks", "3(a)", tuple(range(1, 9)), 6),),
    )
)
