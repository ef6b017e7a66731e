"""What the ledger knows of the apps above it comes by registration
(``audit.providers``): the casino's calendar and roles, the tables' read models."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ImproperlyConfigured

from audit import providers
from audit.records import Actor
from audit.seals import day_window
from casino.models import Casino, Jurisdiction
from casino.roles import Role

pytestmark = pytest.mark.django_db


def test_the_seals_read_the_casinos_gaming_day_as_registered():
    jurisdiction = Jurisdiction.objects.create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction,
                          time_zone="America/New_York",
                          gaming_day_starts_at=datetime.time(6, 0))  # fmt: skip
    assert providers.calendar().name == "Test casino"
    start, end = day_window(datetime.date(2024, 5, 1))
    assert start == datetime.datetime(2024, 5, 1, 10, tzinfo=datetime.UTC)  # 06:00 EDT
    assert end == datetime.datetime(2024, 5, 2, 10, tzinfo=datetime.UTC)


def test_the_ledgers_roles_are_the_casinos():
    roles = providers.roles()
    assert Actor.system("job").roles == frozenset({Role.SYSTEM.value})
    assert roles.export_readers == {"regulator", "finance", "shift supervisor", "administrator"}


def test_the_export_carries_the_read_models_the_apps_registered():
    assert [f.name for f in providers.export_files()] == [
        "bad_beat_funds.csv", "compliance.csv", "decks.csv", "dice.csv", "findings.csv",
        "meters.csv", "rounds.csv", "slips.csv", "table_days.csv", "variances.csv",
        "win_report.csv",
    ]  # fmt: skip


def test_an_export_file_is_a_csv_registered_once(monkeypatch):
    monkeypatch.setattr(providers, "_export_files", {})
    first = providers.register_export_file(providers.ExportFile("a.csv", lambda *_: None))
    assert providers.register_export_file(first) is first  # the same again is harmless
    with pytest.raises(ValueError, match="a.csv registered twice"):
        providers.register_export_file(providers.ExportFile("a.csv", lambda *_: None))
    with pytest.raises(ValueError, match="exported as .csv"):
        providers.register_export_file(providers.ExportFile("seal.json", lambda *_: None))


def test_nothing_registered_is_a_configuration_error(monkeypatch):
    monkeypatch.setattr(providers, "_calendar", None)
    monkeypatch.setattr(providers, "_roles", None)
    with pytest.raises(ImproperlyConfigured, match="no gaming-day calendar"):
        day_window(datetime.date(2024, 5, 1))
    with pytest.raises(ImproperlyConfigured, match="no roles"):
        Actor.system("job")
