"""Free Bet Blackjack, 58 Pa. Code Chapter 590 (temporary), as a declaration.

Standard decks, as many as the Rules Submission fixes (§ 590.3(a)); one card
to each player, the dealer's up card, a second card to each player, the hole
card (§ 590.7(e)); the reader peeks on an ace or a 10-value card (§ 590.7(g));
Blackjack pays 3 to 2 at once (§ 590.7(h)(1), § 590.12(a)); a hard 9, 10 or 11
doubles and any pair but 10-values splits for a Free Bet lammer, a marker paid
like money when it wins and collected with no money when it does not
(§ 590.10(a)(1), § 590.11(b)); a dealer 22 pushes the Blackjack Wagers and
collects the lammers (§ 590.7(n)(1)); the optional Push 22 Wager pays on the
dealer's 22 from paytable A or B (§ 590.6(e), § 590.12(c)).

>>> GAME.deal
('seats', 'dealer_up', 'seats', 'dealer_hole')
>>> sorted(GAME.handle_wagers)
['BLACKJACK', 'DOUBLE_DOWN', 'INSURANCE', 'PUSH_22', 'SPLIT']
"""

from __future__ import annotations

import datetime

from tables.rules.blackjack import (
    BLACKJACK_WAGER,
    DOUBLE_DOWN,
    FREE_BET_590,
    FREE_DOUBLE_LAMMER,
    FREE_SPLIT_LAMMER,
    INSURANCE,
    PUSH_22,
    SPLIT,
)
from tables.rules.blackjack_declaration import (
    DEALER_HOLE,
    DEALER_UP,
    SEATS,
    BlackjackGame,
    BlackjackRuleSet,
    SideWager,
    Window,
)
from tables.rules.blackjack_round import declare
from tables.rules.blackjack_settlement import settle_push_22
from tables.rules.declaration import OptionSpec, WagerSpec

__all__ = ["GAME", "PA_590_2014"]

PA_590_2014 = BlackjackRuleSet(
    id="PA-590-2014",
    game="free_bet_blackjack",
    jurisdiction="PA",
    chapter="590",
    effective_from=datetime.date(2014, 10, 25),
    # 46 Pa.B. 5540 rescinded the temporary chapter from 2016-08-27 (as Lunar Poker's 589).
    effective_to=datetime.date(2016, 8, 26),
    rules=FREE_BET_590,
    notes=("§ 590.3(a): the number of decks is the Rules Submission's; six unless it says",),
)

GAME = declare(
    BlackjackGame(
        id="free_bet_blackjack",
        name="Free Bet Blackjack",
        rulesets=(PA_590_2014,),
        wagers=(
            WagerSpec(BLACKJACK_WAGER, "Blackjack Wager", "6(d)"),
            WagerSpec(PUSH_22, "Push 22 Wager", "6(e)"),
            WagerSpec(INSURANCE, "Insurance Wager", "8(b)"),
            WagerSpec(DOUBLE_DOWN, "Double Down Wager", "10(a)(2)", by_choice=True),
            WagerSpec(SPLIT, "Split wager (a pair of 10-values)", "11(b)(1)", by_choice=True),
            WagerSpec(FREE_DOUBLE_LAMMER, "Free Bet lammer (double)", "10(a)(1)",
                      by_choice=True, handle=False),
            WagerSpec(FREE_SPLIT_LAMMER, "Free Bet lammer (split)", "11(b)(2)",
                      by_choice=True, handle=False),
        ),  # fmt: skip
        side_wagers=(
            SideWager(name=PUSH_22, window=Window.BEFORE_DEAL, at_most=None,
                      settle=settle_push_22, offered_option="push_22_offered"),
        ),  # fmt: skip
        deal=(SEATS, DEALER_UP, SEATS, DEALER_HOLE),  # § 590.7(e)
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
            "settle": "7(r)",
            "close": "7(s)",
            "void": "13",
            "reader_inspection": "2(d)",
            "reader_malfunction": "13(j)",
        },
        options=(
            # § 590.3(a): "at least one deck"; the Rules Submission fixes the number.
            OptionSpec("decks", "3(a)", tuple(range(1, 9)), 6),
            OptionSpec("push_22_offered", "6(e)", (True, False), True),
            OptionSpec("push_22_table", "12(c)", ("A", "B"), "A"),
        ),
    )
)
