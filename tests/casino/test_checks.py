"""casino.E001: no production run with the development secret key."""

from __future__ import annotations

from casino.checks import check_production_safety

REAL_SIGNING_KEY = "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A="  # 32 bytes, test only


def test_it_refuses_the_development_key_without_debug(settings):
    settings.DEBUG = False
    settings.SECRET_KEY = settings.INSECURE_SECRET_KEY
    settings.LEDGER_SIGNING_KEY = REAL_SIGNING_KEY
    assert [error.id for error in check_production_safety(None)] == ["casino.E001"]


def test_a_real_key_passes(settings):
    settings.DEBUG = False
    settings.SECRET_KEY = "a-real-secret-from-the-environment-0123456789"
    settings.LEDGER_SIGNING_KEY = REAL_SIGNING_KEY
    assert check_production_safety(None) == []
