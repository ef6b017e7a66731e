"""The close's fixtures (a casino with two tables, the ledger clock, simulated
table days) for every test of this package."""

from tests.operations.test_close import casino, ledger_clock, play  # noqa: F401
