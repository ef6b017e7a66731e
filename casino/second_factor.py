"""The second factor: a TOTP authenticator (django-otp) for the roles that
can move money, judge it or change the system: shift supervisors, finance,
regulators and administrators (and any superuser).

The admin's login form asks for the one-time code beside the password. A
person of those roles who has no authenticator yet logs in with the password
alone into a session that can only enrol one (``enrol``): the page shows the
secret and its ``otpauth://`` address, and the first code it accepts confirms
the authenticator and verifies the session. Until then every other page sends
them there, and the API refuses their session (403). A wrong code counts as a
failed login (django-axes' lockout, and ``access.login_failed``).
"""

from __future__ import annotations

import base64
import binascii

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_login_failed
from django.http import JsonResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django_otp import devices_for_user, verify_token
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

from audit.records import roles_of
from casino.roles import Role

#: The roles whose logins need the second factor (issue 14; see README "Logins").
SECOND_FACTOR_ROLES = frozenset(
    {Role.SHIFT_SUPERVISOR, Role.FINANCE, Role.REGULATOR, Role.ADMINISTRATOR}
)
AUTHENTICATOR = "authenticator"


def requires_second_factor(user) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or bool(roles_of(user) & {r.value for r in SECOND_FACTOR_ROLES})


def confirmed_devices(user) -> list[TOTPDevice]:
    return [d for d in devices_for_user(user, confirmed=True) if isinstance(d, TOTPDevice)]


class LoginForm(AdminAuthenticationForm):
    """The admin's login: username, password, and the one-time code where the
    person's role requires one."""

    otp_token = forms.CharField(
        label="One-time code", required=False, max_length=8,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
        help_text="From your authenticator: shift supervisors, finance, regulators and "
        "administrators.",
    )  # fmt: skip

    def clean(self):
        cleaned = super().clean()
        user = self.get_user()
        if user is None or not requires_second_factor(user):
            return cleaned
        devices = confirmed_devices(user)
        if not devices:
            return cleaned  # a session that can only enrol one (SecondFactorMiddleware)
        token = (cleaned.get("otp_token") or "").strip()
        device = None
        if token.isdigit():
            for candidate in devices:
                device = verify_token(user, candidate.persistent_id, token)
                if device is not None:
                    break
        if device is None:
            self.request.pitboss_failure = "one-time code"
            user_login_failed.send(sender=__name__, request=self.request,
                                   credentials={"username": user.get_username()})  # fmt: skip
            self.user_cache = None
            raise forms.ValidationError(
                "Enter the one-time code of your authenticator: your role requires it.",
                code="otp",
            )
        user.otp_device = device  # django-otp marks the session verified on login
        return cleaned


def secret_of(device: TOTPDevice) -> str:
    return base64.b32encode(binascii.unhexlify(device.key)).decode()


@login_required(login_url="admin:login")
def enrol(request):
    """Show the authenticator's secret; the first code it accepts confirms it."""
    user = request.user
    if not requires_second_factor(user) or request.user.is_verified():
        return redirect("admin:index")
    if confirmed_devices(user):
        # A confirmed authenticator but a session that never used it: log in again.
        logout(request)
        return redirect("admin:login")
    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=AUTHENTICATOR, confirmed=False)
    error = ""
    if request.method == "POST":
        token = request.POST.get("otp_token", "").strip()
        if token.isdigit() and device.verify_token(token):
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            otp_login(request, device)
            from casino.access import ENROLLED, address_of, printable, record

            record(ENROLLED, {"username": printable(user.get_username()),
                              "address": address_of(request), "device": device.name})  # fmt: skip
            return redirect("admin:index")
        error = "That code is not the authenticator's current one; try the next."
    return TemplateResponse(request, "admin/second_factor.html", {
        "title": "Set up your authenticator", "secret": secret_of(device),
        "otpauth": device.config_url, "error": error, "site_header": "Pitboss",
    })  # fmt: skip


class SecondFactorMiddleware:
    """A session of a role that needs the second factor, not verified by it,
    reaches the enrolment page and the logout only."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (user is not None and requires_second_factor(user) and not user.is_verified()
                and not self._allowed(request.path)):  # fmt: skip
            if request.path.startswith("/api/"):
                return JsonResponse({"error": "forbidden", "field": "otp_token",
                                     "message": "this session has not passed the second factor "
                                     "its role requires: log in with your one-time code"},
                                    status=403)  # fmt: skip
            return redirect("second-factor-enrol")
        return self.get_response(request)

    @staticmethod
    def _allowed(path: str) -> bool:
        from django.conf import settings

        allowed = (reverse("second-factor-enrol"), reverse("admin:logout"),
                   reverse("admin:login"), "/" + settings.STATIC_URL.lstrip("/"))  # fmt: skip
        return path.startswith(allowed)
