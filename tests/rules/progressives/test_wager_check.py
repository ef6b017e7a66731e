"""The progressive chip count at "no more bets" (§ 555.8(b), § 587.8-10, § 588.8-10)."""

from __future__ import annotations

import pytest

from tables.rules.events import DealingMethod
from tables.rules.progressives.chapters import CHAPTERS
from tables.rules.progressives.wager_check import check_wager_count

SECTIONS = {
    ("555", DealingMethod.MANUAL_SHOE): ("555.8(b)", True),
    ("555", DealingMethod.HAND): ("555.9(a)(3)", False),
    ("555", DealingMethod.AUTOMATED_SHOE): ("555.10(a)(2)", False),
    ("587", DealingMethod.MANUAL_SHOE): ("587.8(b)", True),
    ("587", DealingMethod.HAND): ("587.9(a)(3)", True),
    ("587", DealingMethod.AUTOMATED_SHOE): ("587.10(a)(2)", True),
    ("588", DealingMethod.MANUAL_SHOE): ("588.8(b)(2)", True),
    ("588", DealingMethod.HAND): ("588.9(a)(3)(ii)", True),
    ("588", DealingMethod.AUTOMATED_SHOE): ("588.10(a)(2)(ii)", True),
}


@pytest.mark.parametrize(("chapter", "method"), list(SECTIONS), ids=str)
def test_a_count_that_differs_is_a_finding_citing_the_dealing_section(chapter, method):
    finding = check_wager_count(CHAPTERS[chapter], method, collected_chips=3, accepted_wagers=4)
    assert (finding.section, finding.count_required) == SECTIONS[(chapter, method)]
    assert finding.difference == -1


@pytest.mark.parametrize(("chapter", "method"), list(SECTIONS), ids=str)
def test_equal_counts_are_no_finding(chapter, method):
    assert (
        check_wager_count(CHAPTERS[chapter], method, collected_chips=6, accepted_wagers=6) is None
    )


def test_555_8_b_says_which_way_the_count_differs():
    rules = CHAPTERS["555"]
    more = check_wager_count(rules, DealingMethod.MANUAL_SHOE, collected_chips=5, accepted_wagers=3)
    fewer = check_wager_count(
        rules, DealingMethod.MANUAL_SHOE, collected_chips=0, accepted_wagers=1
    )
    assert more.difference == 2 and "did not accept" in more.reason
    assert fewer.difference == -1 and "without a chip" in fewer.reason


def test_555_9_a_3_states_no_count_and_the_finding_says_so():
    finding = check_wager_count(
        CHAPTERS["555"], DealingMethod.HAND, collected_chips=1, accepted_wagers=0
    )
    assert "§ 555.9(a)(3) does not require this count" in finding.reason


def test_a_negative_count_is_not_a_count():
    with pytest.raises(ValueError):
        check_wager_count(
            CHAPTERS["587"], DealingMethod.HAND, collected_chips=-1, accepted_wagers=0
        )
