"""Shared fixtures: PostgreSQL only, one user per casino role, test event types."""

from __future__ import annotations

import pytest
from django.conf import settings

from audit.registry import (
    CENTS,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)

# A small family of event types for testing the ledger itself, independent of
# any game. Registered once for the whole session.
COUNTED = register_event_type(
    EventType(
        name="test.counted",
        version=1,
        description="A numbered fact written by a test writer.",
        schema=object_schema(
            {"writer": {"type": "integer"}, "seq": {"type": "integer"}, "amount": CENTS},
            required=["writer", "seq"],
        ),
    )
)
register_stream_kind(
    StreamKind(name="test", description="Ledger tests", accepts=frozenset({"test.*"}))
)


def pytest_configure(config):
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        raise pytest.UsageError(
            "The test suite runs on PostgreSQL. Run `make test`, or set DATABASE_URL="
            "postgres://postgres@127.0.0.1:5432/pitboss (see README)."
        )
    # Test users need no key stretching; production keeps Django's default.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The test client and the live server speak plain HTTP; tests of TLS behaviour
    # send X-Forwarded-Proto (tests/casino/test_headers.py).
    settings.SECURE_SSL_REDIRECT = False


@pytest.fixture(scope="session", autouse=True)
def _flush_bypasses_append_only_triggers():
    """Transactional tests end with Django's flush (TRUNCATE), which the
    append-only triggers refuse. Test-only: flush inside a transaction with
    triggers off for that transaction alone (SET LOCAL, superuser)."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        statements = original(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
        return ["SET LOCAL session_replication_role = replica", *statements] if statements else []

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = original


@pytest.fixture
def role_users(db):
    """One user per casino role, plus an outsider with no role."""
    from django.contrib.auth.models import Group, User

    from casino.roles import Role

    users = {}
    for role in Role:
        user = User.objects.create_user(username=role.value.replace(" ", "_"), password="pw")
        user.groups.add(Group.objects.get(name=role.value))
        users[role] = user
    users[None] = User.objects.create_user(username="outsider", password="pw")
    certify_in_every_game("dealer")
    return users


def certify_in_every_game(dealer: str, on: str = "2000-01-01") -> None:
    """The dealer passed the table test in every registered game (§ 527.5(a)),
    certified by the shift supervisor, so tests of other rules open tables as before."""
    from audit.ledger import Actor, NewEvent, append
    from tables.training import CERTIFIED, certifiable_games, training_stream

    tests = [{"game": game, "certified_on": on, "certified_by": "shift_supervisor"}
             for game in certifiable_games()]  # fmt: skip
    append(training_stream(dealer), [NewEvent(CERTIFIED, test) for test in tests],
           expected_version=0, actor=Actor.system("fixture"))  # fmt: skip


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(autouse=True)
def _own_export_root(settings, tmp_path):
    """Each test's exports and seal archive in its own directory, never the
    checkout's ``var/exports`` (a seal archived there would outlive the test)."""
    settings.EXPORT_ROOT = tmp_path / "exports"


@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    """Each test starts with no request counted against its clients' rates
    (the counts live in Django's cache, shared by the tests of a process)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _no_round_states_from_another_test():
    """Each test starts with an empty rounds service. Its entries are matched by
    (version, hash), and a hash does not cover the ledger position: the same
    seeded round recorded by an earlier test at other positions would lend
    this test its stale position (a database rebuilt under the same ids is the
    production equivalent, noted in tables.rounds)."""
    from tables.rounds import SERVICE

    SERVICE.forget()


@pytest.fixture(autouse=True)
def _force_login_passes_the_second_factor(monkeypatch):
    """``force_login`` stands for a completed login: for the roles that need
    a second factor (casino.second_factor) that includes the one-time code,
    so the session is marked verified by a confirmed authenticator, as the
    login form marks it. The login form itself is tested in tests/casino."""
    from django.test.client import ClientMixin

    original = ClientMixin._login

    def _login(self, user, backend=None):
        original(self, user, backend)
        from django_otp import DEVICE_ID_SESSION_KEY
        from django_otp.plugins.otp_totp.models import TOTPDevice

        from casino.second_factor import requires_second_factor

        if requires_second_factor(user):
            device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
            device = device or TOTPDevice.objects.create(user=user, name="test", confirmed=True)
            session = self.session
            session[DEVICE_ID_SESSION_KEY] = device.persistent_id
            session.save()

    monkeypatch.setattr(ClientMixin, "_login", _login)
