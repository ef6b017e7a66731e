"""The poker room: nonbanked Poker, Pennsylvania 58 Pa. Code Chapter 553.

Players play against each other for pots; the house takes the rake and time
charges (§ 553.15) and, where offered, a Bad Beat contribution (§ 553.20).
Pure Python like the rest of :mod:`tables.rules`: no Django, no clock, no
shuffling; every card comes from the caller.

* :mod:`.rules`: the games of § 553.9(a) as declarations (streets, openers,
  hand forming, splits) and a table's rule set (structure, limits, forced
  wagers, cap on raises, chip, the options where the chapter is open).
* :mod:`.hand`: one hand as a state machine, verify / can / apply per action
  with refusals citing the section, modelled on pokerkit's phases.
* :mod:`.pots`: main and side pots, the uncalled bet, split shares.
* :mod:`.lows`: ace-to-five low hands and the eight-or-better qualifier.
* :mod:`.charges`: rake, time charges and the Bad Beat fund's rules.
* :mod:`.settlement`: what a finished hand requires, pot by pot.
* :mod:`.events`: a hand as events; :mod:`.record` records one as it is played;
  :mod:`.replay` folds them through :mod:`.hand` and judges the dealer's money.
* :mod:`.rulesets`: the posted rule sets a hand's events name.
* :mod:`.phh`: hands in and out of PHH, pokerkit's hand history format.
* :mod:`.bad_beat_fund`: a fund's effective-dated rules, its daily count, awards
  and display.
* :mod:`.time_charges`: a table's day of time charges against the posted schedule.
* :mod:`.simulate`: random hands for the tests, the bench and the demo.
"""
