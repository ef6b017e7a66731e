"""Downloads of sealed gaming days' exports from the admin and the API: the
zip served is the export's own, and every download is in the ledger, once.
A download is a POST (issue 14: a GET with a side effect let 1,017 GETs append
1,017 events, and a link on another site record a download in a regulator's
name)."""

from __future__ import annotations

import datetime
import zipfile

import pytest

from audit.downloads import DayNotSealed, stored_export
from audit.exports import export_day
from audit.ledger import read_stream
from audit.models import DaySeal
from audit.seals import seal_day
from casino.roles import Role
from tests.audit import test_seals
from tests.audit.helpers import device_token
from tests.audit.test_seals import AFTER, CARRIED, DAY, _bypass_triggers

# The two-day ledger and the test signing key of the seal tests.
days = test_seals.days
ledger_clock = test_seals.ledger_clock
_signing_key = test_seals._signing_key

pytestmark = pytest.mark.django_db

NAME = "pitboss-export-2026-03-10.zip"
API = "/api/v1/exports/2026-03-10/"
ADMIN_PAGE = "/admin/audit/dayseal/exports/"
ADMIN = "/admin/audit/dayseal/exports/2026-03-10/download/"
ALLOWED = [Role.REGULATOR, Role.FINANCE, Role.SHIFT_SUPERVISOR, Role.ADMINISTRATOR]
REFUSED = [Role.DEALER, Role.FLOORPERSON, Role.CAGE_CASHIER, Role.TABLE_DEVICE, None]


@pytest.fixture
def export_root(settings, tmp_path):
    settings.EXPORT_ROOT = tmp_path / "exports"
    return settings.EXPORT_ROOT


@pytest.fixture
def sealed(days, ledger_clock, export_root) -> DaySeal:
    """DAY sealed by the close job; downloads happen after the day has ended."""
    seal = seal_day(DAY, now=AFTER)
    ledger_clock.at = AFTER
    return seal


@pytest.fixture
def reference_zip(sealed, tmp_path) -> bytes:
    """The zip ``export_day`` itself writes for the sealed day."""
    return export_day(DAY, tmp_path / "reference", make_zip=True).with_suffix(".zip").read_bytes()


@pytest.fixture
def staff(role_users):
    """Every role's user may open the admin; the Exports page decides by role."""
    for user in role_users.values():
        user.is_staff = True
        user.save()
    return role_users


def _downloads() -> list[dict]:
    return [event.payload for event in read_stream("export:2026-03-10")]


def _body(response) -> bytes:
    # Reading it to the end closes the file (the test client's own close).
    return response.getvalue()


def _assert_is_the_export(response, seal: DaySeal, reference: bytes) -> None:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="{NAME}"'
    assert response["X-Pitboss-Seal"] == seal.seal_hash
    assert "no-store" in response["Cache-Control"]
    assert _body(response) == reference


# --- the API --------------------------------------------------------------------------


def test_a_regulator_downloads_the_export_zip_through_the_api(
    api_client, role_users, sealed, reference_zip
):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    _assert_is_the_export(api_client.post(API), sealed, reference_zip)
    assert _downloads() == [
        {
            "gaming_day": "2026-03-10",
            "downloaded_by": "regulator",
            "roles": ["regulator"],
            "seal_hash": sealed.seal_hash,
        }
    ]


def test_each_download_is_one_event_and_the_same_bytes(
    api_client, role_users, sealed, reference_zip
):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    first, second = _body(api_client.post(API)), _body(api_client.post(API))
    assert first == second == reference_zip
    assert [d["downloaded_by"] for d in _downloads()] == ["regulator", "regulator"]


def test_a_client_may_ask_for_the_zip_by_media_type(api_client, role_users, sealed, reference_zip):
    api_client.force_authenticate(role_users[Role.FINANCE])
    response = api_client.post(API, HTTP_ACCEPT="application/zip")
    _assert_is_the_export(response, sealed, reference_zip)
    refusal = api_client.post("/api/v1/exports/2026-03-11/", HTTP_ACCEPT="application/zip")
    assert refusal.status_code == 404
    assert refusal["Content-Type"] == "application/json"
    assert refusal.json()["error"] == "not_sealed"


def test_the_api_lists_the_sealed_days_with_their_keys_and_download_urls(
    api_client, role_users, sealed
):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    response = api_client.get("/api/v1/exports/")
    assert response.status_code == 200
    (listed,) = response.json()["exports"]
    assert listed["gaming_day"] == "2026-03-10"
    assert listed["seal_hash"] == sealed.seal_hash
    assert listed["merkle_root"] == sealed.merkle_root
    assert listed["public_key"] == sealed.public_key
    assert listed["development_key"] is False
    assert listed["download"] == f"http://testserver{API}"
    assert _downloads() == []  # listing is not downloading


@pytest.mark.parametrize("role", ALLOWED)
def test_the_export_roles_may_list_and_download(api_client, role_users, sealed, role):
    api_client.force_authenticate(role_users[role])
    assert api_client.get("/api/v1/exports/").status_code == 200
    response = api_client.post(API)
    assert response.status_code == 200
    assert _body(response).startswith(b"PK")
    assert [d["roles"] for d in _downloads()] == [[role.value]]


@pytest.mark.parametrize("role", REFUSED)
def test_other_roles_get_403_from_the_api_and_nothing_is_recorded(
    api_client, role_users, sealed, role
):
    api_client.force_authenticate(role_users[role])
    for response in (api_client.get("/api/v1/exports/"), api_client.post(API)):
        assert response.status_code == 403
        assert response.json()["error"] == "forbidden"
    assert _downloads() == []


def test_anonymous_callers_get_401(api_client, sealed):
    assert api_client.get("/api/v1/exports/").status_code == 401
    assert api_client.post(API).status_code == 401
    assert _downloads() == []


def test_the_export_endpoints_only_read(api_client, role_users, sealed):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    assert api_client.post("/api/v1/exports/").status_code == 405
    assert api_client.delete(API).status_code == 405
    assert api_client.get(API).status_code == 405
    assert _downloads() == []


def test_an_unsealed_day_answers_404_naming_the_day_and_is_not_sealed(
    api_client, role_users, days, ledger_clock, export_root
):
    # DAY has ended but the close job has not sealed it: a download must not seal it.
    ledger_clock.at = AFTER
    api_client.force_authenticate(role_users[Role.REGULATOR])
    response = api_client.post(API)
    assert response.status_code == 404
    body = response.json()
    assert body["error"] == "not_sealed"
    assert "gaming day 2026-03-10 is not sealed" in body["message"]
    assert not DaySeal.objects.filter(gaming_day=DAY).exists()
    assert _downloads() == []
    unknown = api_client.post("/api/v1/exports/2031-01-01/").json()
    assert "gaming day 2031-01-01 is not sealed" in unknown["message"]


@pytest.mark.parametrize("text", ["yesterday", "2026-13-01", "20260310", "2026-3-10"])
def test_a_malformed_date_answers_400(api_client, role_users, sealed, text):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    response = api_client.post(f"/api/v1/exports/{text}/")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "day"
    assert repr(text) in body["message"] and "YYYY-MM-DD" in body["message"]


def test_a_day_that_no_longer_matches_its_seal_is_refused_and_not_recorded(
    api_client, role_users, sealed
):
    _bypass_triggers(
        "UPDATE ledger_event SET payload = %s WHERE stream_id = %s AND version = 3",
        ['{"writer": 1, "seq": 3, "amount": 1}', CARRIED],
    )
    api_client.force_authenticate(role_users[Role.REGULATOR])
    response = api_client.post(API)
    assert response.status_code == 409
    assert f"stream {CARRIED} version 3" in response.json()["message"]
    assert _downloads() == []


def test_the_schema_documents_the_zip_download(api_client, role_users):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    schema = api_client.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = schema.json()["paths"]
    assert "get" not in paths["/api/v1/exports/{day}/"]
    download = paths["/api/v1/exports/{day}/"]["post"]
    ok = download["responses"]["200"]
    assert ok["content"]["application/zip"]["schema"] == {"type": "string", "format": "binary"}
    assert "X-Pitboss-Seal" in ok["headers"]
    assert {"400", "403", "404"} <= set(download["responses"])
    assert "/api/v1/exports/" in paths


# --- the admin ------------------------------------------------------------------------


def test_a_regulator_downloads_the_export_zip_through_the_admin(
    client, staff, sealed, reference_zip
):
    client.force_login(staff[Role.REGULATOR])
    page = client.get(ADMIN_PAGE)
    assert page.status_code == 200
    html = page.content.decode()
    assert sealed.seal_hash in html
    assert sealed.public_key in html
    assert f'<form method="post" action="{ADMIN}"' in html and "Download export" in html
    assert "csrfmiddlewaretoken" in html
    assert _downloads() == []  # opening the page is not downloading
    _assert_is_the_export(client.post(ADMIN), sealed, reference_zip)
    assert [(d["downloaded_by"], d["roles"]) for d in _downloads()] == [
        ("regulator", ["regulator"])
    ]


def test_the_seal_list_links_each_day_to_its_download_for_the_export_roles(client, staff, sealed):
    client.force_login(staff[Role.SHIFT_SUPERVISOR])
    html = client.get("/admin/audit/dayseal/").content.decode()
    assert f'href="{ADMIN_PAGE}#day-2026-03-10"' in html and f'href="{ADMIN_PAGE}"' in html
    assert ADMIN not in html  # the seal list links to the Exports page, never downloads
    client.force_login(staff[Role.FLOORPERSON])
    html = client.get("/admin/audit/dayseal/").content.decode()
    assert ADMIN not in html and ADMIN_PAGE not in html


@pytest.mark.parametrize("role", [Role.DEALER, Role.FLOORPERSON, None])
def test_other_roles_get_403_from_the_admin_and_nothing_is_recorded(client, staff, sealed, role):
    client.force_login(staff[role])
    assert client.get(ADMIN_PAGE).status_code == 403
    assert client.post(ADMIN).status_code == 403
    assert _downloads() == []


def test_the_admin_sends_people_who_are_not_signed_in_to_the_login(client, sealed):
    response = client.post(ADMIN)
    assert response.status_code == 302 and "/admin/login/" in response.url
    assert _downloads() == []


def test_the_admin_answers_404_naming_an_unsealed_day_and_400_for_a_bad_date(client, staff, sealed):
    client.force_login(staff[Role.REGULATOR])
    missing = client.post("/admin/audit/dayseal/exports/2026-03-11/download/")
    assert missing.status_code == 404
    assert "gaming day 2026-03-11 is not sealed" in missing.content.decode()
    malformed = client.post("/admin/audit/dayseal/exports/10-03-2026/download/")
    assert malformed.status_code == 400
    assert "YYYY-MM-DD" in malformed.content.decode()
    assert not DaySeal.objects.filter(gaming_day=datetime.date(2026, 3, 11)).exists()
    assert _downloads() == []


# --- a download has an effect: never a GET, never in someone else's name (issue 14) -------


def test_gets_of_the_download_urls_download_nothing_and_record_nothing(
    api_client, client, staff, sealed
):
    """Issue 14: 1,017 GETs by a regulator appended 1,017 ledger events."""
    api_client.force_authenticate(staff[Role.REGULATOR])
    client.force_login(staff[Role.REGULATOR])
    for _ in range(20):
        assert api_client.get(API).status_code == 405
        assert client.get(ADMIN).status_code == 405
    assert _downloads() == []


def test_a_cross_site_post_records_no_download_in_the_regulators_name(staff, sealed):
    """Issue 14: a link (now a form) on another site, followed by a signed-in
    regulator's browser, carries their session cookie but not the CSRF token:
    refused, nothing recorded, nothing handed over."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(staff[Role.REGULATOR])
    for url in (ADMIN, API):
        response = browser.post(url, HTTP_ORIGIN="https://evil.example", HTTP_REFERER="https://evil.example/")
        assert response.status_code == 403
        assert not response.get("Content-Type", "").startswith("application/zip")
    assert _downloads() == []


def test_the_regulators_own_post_with_the_pages_token_downloads_once(staff, sealed, reference_zip):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(staff[Role.REGULATOR])
    page = browser.get(ADMIN_PAGE)
    token = page.context["csrf_token"]
    response = browser.post(ADMIN, {"csrfmiddlewaretoken": str(token)})
    _assert_is_the_export(response, sealed, reference_zip)
    assert [d["downloaded_by"] for d in _downloads()] == ["regulator"]


def test_a_device_token_downloads_with_a_post_and_no_csrf_token(api_client, staff, sealed):
    """A token is a header another site cannot set: no CSRF token is needed. Tokens
    are for devices and gateways (people log in), so this is a finance system's
    gateway account."""
    from django.contrib.auth.models import Group

    gateway = staff[Role.SYSTEM]
    gateway.groups.add(Group.objects.get(name=Role.FINANCE.value))
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {device_token(gateway)}")
    response = api_client.post(API)
    assert response.status_code == 200 and _body(response).startswith(b"PK")
    assert [d["downloaded_by"] for d in _downloads()] == [gateway.get_username()]


# --- the stored zip -------------------------------------------------------------------


def test_the_zip_is_kept_under_export_root_and_rebuilt_identical_when_missing(
    sealed, reference_zip, export_root
):
    path = stored_export(DAY)
    assert path == export_root / NAME
    assert path.read_bytes() == reference_zip
    assert [p.name for p in export_root.iterdir()] == [NAME]  # no build left behind
    path.unlink()
    assert stored_export(DAY).read_bytes() == reference_zip


def test_a_stored_zip_that_is_not_this_seals_export_is_replaced(sealed, reference_zip, export_root):
    export_root.mkdir(parents=True)
    (export_root / NAME).write_bytes(b"not a zip")
    assert stored_export(DAY).read_bytes() == reference_zip
    with zipfile.ZipFile(export_root / "other.zip", "w") as other:
        other.writestr("pitboss-export-2026-03-10/manifest.json", '{"seal_hash": "0"}')
    (export_root / "other.zip").replace(export_root / NAME)
    assert stored_export(DAY).read_bytes() == reference_zip


def test_stored_export_refuses_an_unsealed_day_without_sealing_it(days, export_root):
    with pytest.raises(DayNotSealed, match="gaming day 2026-03-10 is not sealed"):
        stored_export(DAY)
    assert not DaySeal.objects.exists()
    assert not export_root.exists()
