"""The current one-time code of a demo person's authenticator (DEBUG only):
the demo enrols one for each person whose role needs a second factor, and
this stands in for the phone app. Refused with DEBUG off."""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice


class Command(BaseCommand):
    help = "Print the current TOTP code of a demo user's authenticator (DEBUG only)."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username, **options):
        if not settings.DEBUG:
            raise CommandError("demo_code is for the demo (DJANGO_DEBUG=1) only")
        device = TOTPDevice.objects.filter(user__in=User.objects.filter(username=username),
                                           name="demo", confirmed=True).first()  # fmt: skip
        if device is None:
            raise CommandError(f"{username!r} has no demo authenticator")
        totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
        totp.time = time.time()
        remaining = device.step - int(totp.time - device.t0) % device.step
        self.stdout.write(f"{totp.token():0{device.digits}d}  (valid for {remaining} s more)")
