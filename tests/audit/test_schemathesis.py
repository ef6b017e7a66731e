"""schemathesis against a real server on PostgreSQL (issue 14: a run of 4,975
requests got 434 × 500, two invalid requests accepted, three valid ones
refused and four undocumented statuses).

The live server (pytest-django's, DEBUG off, on the test database) answers
whatever schemathesis generates from the published schema, every check on
(``schemathesis.toml`` beside this file), bounded in examples per operation
and by a hard timeout. It must find no server error and no schema violation.
The figures (requests, operations, statuses) are printed for the record.
"""

from __future__ import annotations

import base64
import collections
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from casino.roles import Role

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES_PER_OPERATION = 25
TIMEOUT_SECONDS = 100


@pytest.fixture
def token(db):
    """A relaying job's account that is also a regulator, so every operation
    (appends, reads, the global log, exports) reaches its own logic."""
    from django.contrib.auth.models import Group, User

    from tests.audit.helpers import device_token

    user = User.objects.create_user(username="schemathesis", password="pw")
    user.groups.add(*Group.objects.filter(name__in=[Role.SYSTEM.value, Role.REGULATOR.value]))
    return device_token(user)


def test_schemathesis_finds_no_server_error_and_no_schema_violation(
    live_server, token, settings, tmp_path
):
    settings.LEDGER_SIGNING_KEY = base64.b64encode(bytes(range(32))).decode()
    har = tmp_path / "run.har"
    command = [
        str(Path(sys.executable).with_name("st")), "--config-file", str(CONFIG), "run",
        f"{live_server.url}/api/v1/schema",
        "--header", f"Authorization: Token {token}",
        "--max-examples", str(EXAMPLES_PER_OPERATION), "--seed", "14",
        "--phases", "examples,coverage,fuzzing", "--workers", "1", "--no-color",
        "--report", "har", "--report-har-path", str(har),
    ]  # fmt: skip
    started = time.monotonic()
    run = subprocess.run(  # noqa: S603
        command, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT_SECONDS
    )  # fmt: skip
    elapsed = time.monotonic() - started
    output = run.stdout + run.stderr
    entries = json.loads(har.read_text())["log"]["entries"]
    statuses = collections.Counter(entry["response"]["status"] for entry in entries)
    operations = {(e["request"]["method"], e["request"]["url"].split("?")[0]) for e in entries}
    print(f"\nschemathesis: {len(entries)} requests in {elapsed:.0f} s, statuses "
          f"{dict(sorted(statuses.items()))}\n" + output[-1500:])  # fmt: skip
    assert run.returncode == 0, output[-6000:]
    assert not [code for code in statuses if code >= 500]
    assert "7 selected / 7 total" in output and len(operations) > 7
    assert len(entries) > 300
