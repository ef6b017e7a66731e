"""Progressive meters and Envy bonuses as pure rules (no Django, no clock, no database).

* :mod:`~tables.rules.progressives.chapters`: what each chapter says about its
  progressive (Caribbean Stud § 555, Raise It Up Stud § 587, Six-Card Fortune
  Pai Gow Poker § 588): sections, minimums, pay schedules;
* :mod:`~tables.rules.progressives.events` and :mod:`~tables.rules.progressives.meter`:
  a meter as a state folded from its stream's events (``meter:<id>``), with the
  invariants the chapters impose;
* :mod:`~tables.rules.progressives.envy`: Envy bonuses as settlement functions;
* :mod:`~tables.rules.progressives.wager_check`: the chip count at "no more bets";
* :mod:`~tables.rules.progressives.reconcile`: a meter's gaming day added up.

Pai Gow Poker (§ 561) defines no progressive, meter or Envy bonus, so nothing
here refers to it.
"""
