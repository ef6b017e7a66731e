"""Benchmarks: ``python -m bench`` (or ``make bench``) runs every one present.

Not tests: they print figures, ratios and PASS/SHORT against targets, and
never touch the development or test databases (the ledger bench creates and
drops its own database, ``pitboss_bench``).
"""
