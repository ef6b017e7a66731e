"""Who came in and went out: every login, failed login, lockout and logout
(and every second-factor enrolment and device-token change) is a ledger event.

The events go to one stream per UTC date, ``access:<YYYY-MM-DD>``, appended by
the system on the person's behalf and naming them (a failed login names no
account, only the username typed, and a person holds no right to append).
Attempts refused while a username or an address is locked out are not recorded
one by one: the lockout is, once, and django-axes keeps its count; so a
hostile client cannot grow the ledger faster than the failure limit allows.

Sessions also end after ``SESSION_IDLE_SECONDS`` without a person's activity
(``IdleTimeoutMiddleware``); the floor board's own refresh is not activity.
"""

from __future__ import annotations

import ipaddress
import time
import unicodedata
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from audit import errors
from audit.ledger import Actor, NewEvent, append
from audit.registry import (
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)

NAME = {"type": "string", "maxLength": 150}
ADDRESS = {"type": "string", "maxLength": 64}


def _event(name: str, description: str, properties: dict[str, Any]) -> str:
    register_event_type(EventType(name=name, version=1, description=description,
                                  schema=object_schema(properties)))  # fmt: skip
    return name


LOGGED_IN = _event(
    "access.logged_in",
    "A person logged in (the password, and the second factor where the role requires one).",
    {"username": NAME, "address": ADDRESS,
     "second_factor": {"enum": ["totp", "not required", "to enrol"]}},
)  # fmt: skip
LOGIN_FAILED = _event(
    "access.login_failed",
    "A login was refused: a wrong password or an unknown username, or a wrong one-time code.",
    {"username": NAME, "address": ADDRESS, "reason": {"enum": ["password", "one-time code"]}},
)
LOCKED_OUT = _event(
    "access.locked_out",
    "Too many failed logins: the username and the address are refused for the cool-off time.",
    {"username": NAME, "address": ADDRESS, "cool_off_minutes": {"type": "integer", "minimum": 0}},
)
LOGGED_OUT = _event(
    "access.logged_out",
    "A session ended: logged out, idle too long, or older than the longest session.",
    {"username": NAME, "address": ADDRESS, "reason": {"enum": ["logout", "idle", "expired"]}},
)
ENROLLED = _event(
    "access.second_factor_enrolled",
    "A person confirmed a TOTP authenticator.",
    {"username": NAME, "address": ADDRESS, "device": NAME},
)
FACTOR_CHANGED = _event(
    "access.second_factor_changed",
    "An authenticator was added already confirmed, re-keyed, reassigned or removed outside "
    "the enrolment (the admin's device pages, a command).",
    {"username": NAME, "device": NAME, "action": {"enum": ["added", "changed", "removed"]}},
)
TOKEN_CHANGED = _event(
    "access.device_token_changed",
    "A device token was issued, rotated or revoked (named by its id; the secret is never kept).",
    {"action": {"enum": ["issued", "rotated", "revoked"]}, "account": NAME, "device": NAME,
     "table_id": {"type": ["string", "null"], "maxLength": 50},
     "token": {"type": "string", "maxLength": 16},
     "expires_at": {"type": ["string", "null"], "maxLength": 40}, "by": NAME},
)  # fmt: skip

register_stream_kind(StreamKind(
    name="access",
    description="Logins, failed logins, lockouts, logouts, second-factor enrolments and "
    "device-token changes of one UTC date.",
    accepts=frozenset({LOGGED_IN, LOGIN_FAILED, LOCKED_OUT, LOGGED_OUT, ENROLLED, FACTOR_CHANGED,
                       TOKEN_CHANGED}),
))  # fmt: skip


def printable(text: Any, limit: int = 150) -> str:
    """What a client typed, as the ledger can hold it: no control characters
    (NUL among them), no lone surrogates, at most ``limit`` characters."""
    text = str(text or "").encode("utf-8", "replace").decode("utf-8")
    kept = "".join(ch if unicodedata.category(ch)[0] != "C" else "\ufffd" for ch in text)
    return kept[:limit]


def client_address(request) -> str:
    """The client's address: behind the TLS proxy (``BEHIND_TLS_PROXY``), the
    last ``X-Forwarded-For`` entry, the one the proxy added (every client
    would otherwise share the proxy's address, and one lockout would lock
    them all out); otherwise ``REMOTE_ADDR``. Used by django-axes too."""
    remote = request.META.get("REMOTE_ADDR", "")
    if not getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(forwarded))
    except ValueError:
        return remote


def address_of(request) -> str:
    return printable(client_address(request) if request is not None else "", 64)


def record(event_type: str, payload: dict[str, Any]) -> None:
    """Append one access event to today's stream (retried if another append
    took the same version first)."""
    stream_id = f"access:{timezone.now():%Y-%m-%d}"
    actor = Actor.system("access", source="auth")
    for attempt in range(5):
        try:
            append(stream_id, [NewEvent(event_type, payload)], expected_version=None, actor=actor)
            return
        except errors.StaleVersion:
            if attempt == 4:
                raise


def _logged_in(sender, request, user, **kwargs) -> None:
    from casino.second_factor import requires_second_factor

    if not requires_second_factor(user):
        factor = "not required"
    elif getattr(user, "otp_device", None) is not None:
        factor = "totp"
    else:
        factor = "to enrol"
    if request is not None and hasattr(request, "session"):
        request.session[LAST_ACTIVITY] = request.session[LOGGED_IN_AT] = time.time()
    record(LOGGED_IN, {"username": printable(user.get_username()),
                       "address": address_of(request), "second_factor": factor})  # fmt: skip


def _logged_out(sender, request, user, **kwargs) -> None:
    if user is None:
        return
    reason = getattr(request, "pitboss_session_end", "logout")
    record(LOGGED_OUT, {"username": printable(user.get_username()),
                        "address": address_of(request), "reason": reason})  # fmt: skip


def _refused_while_locked(request) -> bool:
    """Whether this attempt was refused because of an earlier lockout
    (``LockoutBackend``), recorded when it began."""
    return getattr(request, "pitboss_refused_while_locked", False)


class LockoutBackend(AxesStandaloneBackend):
    """django-axes' check, marking the attempts it refuses for a lockout."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        try:
            return super().authenticate(request, username, password, **kwargs)
        except PermissionDenied:
            request.pitboss_refused_while_locked = True
            raise


def _failed(request, username: Any) -> None:
    if request is not None:
        if getattr(request, "pitboss_failure_recorded", False):
            return
        request.pitboss_failure_recorded = True
    record(LOGIN_FAILED, {"username": printable(username), "address": address_of(request),
                          "reason": getattr(request, "pitboss_failure", "password")})  # fmt: skip


def _login_failed(sender, credentials, request=None, **kwargs) -> None:
    if not _refused_while_locked(request):
        _failed(request, credentials.get("username"))


def _locked_out(sender, request, username, ip_address, **kwargs) -> None:
    if _refused_while_locked(request):
        return
    # django-axes may hear of the failure first: the failure, then the lockout.
    _failed(request, username)
    record(LOCKED_OUT, {"username": printable(username), "address": printable(ip_address, 64),
                        "cool_off_minutes": int(settings.AXES_COOLOFF_TIME * 60)})  # fmt: skip


#: What makes an authenticator another one (its secret, its owner, whether it counts).
_FACTOR_FIELDS = ("key", "user_id", "confirmed")


def _factor_before(sender, instance, **kwargs) -> None:
    found = sender.objects.filter(pk=instance.pk) if instance.pk else sender.objects.none()
    instance._pitboss_before = found.values(*_FACTOR_FIELDS).first()


def _factor_saved(sender, instance, created, update_fields=None, **kwargs) -> None:
    before = getattr(instance, "_pitboss_before", None)
    if update_fields is not None and set(update_fields) == {"confirmed"}:
        return  # the enrolment page's confirmation, recorded there with the address
    if before is None:
        action = "added" if instance.confirmed else ""
    elif any(before[name] != getattr(instance, name) for name in _FACTOR_FIELDS):
        action = "changed" if instance.confirmed or before["confirmed"] else ""
    else:
        action = ""  # a login's bookkeeping (the last step used, throttling)
    if action:
        _factor_event(instance, action)


def _factor_removed(sender, instance, **kwargs) -> None:
    if instance.confirmed:
        _factor_event(instance, "removed")


def _factor_event(device, action: str) -> None:
    record(FACTOR_CHANGED, {"username": printable(device.user.get_username()),
                            "device": printable(device.name), "action": action})


def connect() -> None:
    from axes.signals import user_locked_out
    from django.db.models.signals import post_delete, post_save, pre_save
    from django_otp.plugins.otp_totp.models import TOTPDevice

    pre_save.connect(_factor_before, sender=TOTPDevice, dispatch_uid="casino.access.factor")
    post_save.connect(_factor_saved, sender=TOTPDevice, dispatch_uid="casino.access.factor")
    post_delete.connect(_factor_removed, sender=TOTPDevice, dispatch_uid="casino.access.factor")

    user_logged_in.connect(_logged_in, dispatch_uid="casino.access.logged_in")
    user_logged_out.connect(_logged_out, dispatch_uid="casino.access.logged_out")
    user_login_failed.connect(_login_failed, dispatch_uid="casino.access.login_failed")
    user_locked_out.connect(_locked_out, dispatch_uid="casino.access.locked_out")


# --- idle timeout ----------------------------------------------------------------

LAST_ACTIVITY = "pitboss_last_activity"
LOGGED_IN_AT = "pitboss_logged_in_at"
#: URL names of requests a page makes by itself (a refresh): not a person's activity.
BACKGROUND_URL_NAMES = frozenset({"floor-board-data"})


class IdleTimeoutMiddleware:
    """Logs a session out after ``SESSION_IDLE_SECONDS`` without activity (the
    logout recorded with reason ``idle``), and ``SESSION_COOKIE_AGE`` after the
    login however active (``expired``; the cookie's own age slides with each
    save). Only sessions are concerned: token requests carry no session."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = time.time()
            idle = now - request.session.get(LAST_ACTIVITY, now) > settings.SESSION_IDLE_SECONDS
            old = now - request.session.get(LOGGED_IN_AT, now) > settings.SESSION_COOKIE_AGE
            if idle or old:
                request.pitboss_session_end = "idle" if idle else "expired"
                logout(request)
                if request.path.startswith("/api/"):
                    return self.get_response(request)
                return redirect_to_login(request.get_full_path(), reverse("admin:login"))
            if not self._background(request):
                request.session[LAST_ACTIVITY] = now
        return self.get_response(request)

    @staticmethod
    def _background(request) -> bool:
        from django.urls import Resolver404, resolve

        try:
            return resolve(request.path_info).url_name in BACKGROUND_URL_NAMES
        except Resolver404:
            return False
