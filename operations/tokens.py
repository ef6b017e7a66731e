"""Device tokens: how table devices and system gateways authenticate to the API.

A token is ``<id>.<secret>``: the id finds the row, the secret is never
stored, only its SHA-256 (32 random bytes need no key stretching). It is
shown once, when issued or rotated; it expires (``DEVICE_TOKEN_DAYS``), and is
bound to a device and a table: a table device's token to the device its
account is and to the table it sits at, a system gateway's to the gateway it
runs on (and to a table, where it relays for one). Issuing, rotating and
revoking are ledger events (``access.device_token_changed``), done with
``manage.py device_token`` or the admin (*Operations → Device tokens*).

The API sees the binding on the request: ``request.auth`` is the
``DeviceToken``, so ``request.auth.table_id`` is the table id (``"CC-01"``,
or ``None`` for a gateway bound to no table) and ``request.auth.device`` the
device name. A session request has no ``request.auth`` token (``None``).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import secrets

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from rest_framework import authentication, exceptions

from audit.records import roles_of
from casino.roles import Role

KEYWORD = "Token"


class DeviceToken(models.Model):
    token_id = models.CharField(max_length=16, unique=True, editable=False)
    digest = models.CharField(max_length=64, editable=False, help_text="SHA-256 of the secret")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="device_tokens", verbose_name="account")  # fmt: skip
    device = models.CharField(max_length=150)
    table = models.ForeignKey("tables.Table", to_field="table_id", db_column="table_id",
                              on_delete=models.PROTECT, null=True, blank=True)  # fmt: skip
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    replaced_by = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="replaces")  # fmt: skip
    issued_by = models.CharField(max_length=150)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.token_id} ({self.device}{', ' + self.table_id if self.table_id else ''})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None and self.expires_at > timezone.now()


class TokenRefused(ValueError):
    """A token that may not be issued (the account, device or table is wrong)."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _check_binding(user, device: str, table) -> None:
    roles = roles_of(user)
    if Role.TABLE_DEVICE.value in roles:
        if table is None:
            raise TokenRefused(f"{user.get_username()} is a table device: name its table")
        if device != user.get_username():
            raise TokenRefused(f"a table device's token is bound to the device its account is "
                               f"({user.get_username()!r}), not {device!r}")  # fmt: skip
    elif Role.SYSTEM.value not in roles:
        raise TokenRefused(f"{user.get_username()} is a person: people log in with a session "
                           "and their second factor; tokens are for table devices and the "
                           "system's gateways")  # fmt: skip
    if not device:
        raise TokenRefused("name the device the token is installed on")


def _record(action: str, token: DeviceToken, by: str) -> None:
    from casino.access import TOKEN_CHANGED, printable, record

    record(TOKEN_CHANGED, {
        "action": action, "account": printable(token.user.get_username()),
        "device": printable(token.device), "table_id": token.table_id,
        "token": token.token_id, "by": printable(by),
        "expires_at": token.expires_at.isoformat() if action != "revoked" else None,
    })  # fmt: skip


def _new(user, device: str, table, by: str, days: int | None) -> tuple[DeviceToken, str]:
    now = timezone.now()
    secret = secrets.token_urlsafe(32)
    token = DeviceToken.objects.create(
        token_id=secrets.token_hex(6), digest=_digest(secret), user=user, device=device,
        table=table, created_at=now, issued_by=by,
        expires_at=now + datetime.timedelta(days=days or settings.DEVICE_TOKEN_DAYS),
    )  # fmt: skip
    return token, f"{token.token_id}.{secret}"


def issue(user, *, device: str = "", table=None, by: str, days: int | None = None
          ) -> tuple[DeviceToken, str]:  # fmt: skip
    """A new token for ``user``'s ``device`` at ``table`` (a ``tables.Table`` or
    None); returns the row and the token, which is shown once and never kept."""
    device = device or user.get_username()
    _check_binding(user, device, table)
    with transaction.atomic():
        token, plain = _new(user, device, table, by, days)
        _record("issued", token, by)
    return token, plain


def rotate(token: DeviceToken, *, by: str, days: int | None = None) -> tuple[DeviceToken, str]:
    """Replace ``token`` with a new one of the same binding; the old one stops now."""
    with transaction.atomic():
        old = DeviceToken.objects.select_for_update().get(pk=token.pk)
        if old.revoked_at is not None:
            raise TokenRefused(f"token {old.token_id} is revoked; issue a new one")
        new, plain = _new(old.user, old.device, old.table, by, days)
        old.revoked_at, old.replaced_by = timezone.now(), new
        old.save(update_fields=["revoked_at", "replaced_by"])
        _record("rotated", new, by)
    return new, plain


def revoke(token: DeviceToken, *, by: str) -> None:
    with transaction.atomic():
        old = DeviceToken.objects.select_for_update().get(pk=token.pk)
        if old.revoked_at is None:
            old.revoked_at = timezone.now()
            old.save(update_fields=["revoked_at"])
            _record("revoked", old, by)


class DeviceTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Token <id>.<secret>``: an active token of an active
    account; ``request.auth`` is its ``DeviceToken`` (the binding)."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != KEYWORD.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header: Token <id>.<secret>.")
        try:
            token_id, secret = header[1].decode("ascii").split(".", 1)
        except (UnicodeDecodeError, ValueError):
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        token = (DeviceToken.objects.select_related("user")
                 .filter(token_id=token_id).first())  # fmt: skip
        if token is None or not hmac.compare_digest(token.digest, _digest(secret)):
            raise exceptions.AuthenticationFailed("Invalid token.")
        if token.revoked_at is not None:
            raise exceptions.AuthenticationFailed("This token was revoked.")
        if token.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed("This token has expired: rotate it.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("This token's account is disabled.")
        return token.user, token

    def authenticate_header(self, request) -> str:
        return KEYWORD


try:  # the OpenAPI schema names the scheme as DRF's own token scheme did
    from drf_spectacular.extensions import OpenApiAuthenticationExtension

    class DeviceTokenScheme(OpenApiAuthenticationExtension):
        target_class = "operations.tokens.DeviceTokenAuthentication"
        name = "tokenAuth"

        def get_security_definition(self, auto_schema):
            return {"type": "apiKey", "in": "header", "name": "Authorization",
                    "description": "Token <id>.<secret>, a device token "
                    "(manage.py device_token issue)"}  # fmt: skip
except ImportError:  # pragma: no cover
    pass
