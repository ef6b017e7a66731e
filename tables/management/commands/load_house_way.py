"""``manage.py load_house_way FILE --by USER``: the casino's Pai Gow house way
(§ 561.13(d)) from its Rules Submission file, onto the casino's configuration
stream; ``--confirm VERSION --by USER``: a second person confirms it."""

from __future__ import annotations

import json
import pathlib

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from audit import errors
from audit.ledger import Actor
from casino import configuration as config
from tables import house_way_config


class Command(BaseCommand):
    help = ("Record a Pai Gow house way (a Rules Submission file, § 561.13(d)) as a "
            "configuration change, or confirm one (--confirm VERSION).")  # fmt: skip

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="the house way's JSON file")
        parser.add_argument("--by", required=True, help="the username who records it")
        parser.add_argument("--confirm", type=int, metavar="VERSION",
                            help="confirm the house way proposed at this version")
        parser.add_argument("--reason", default="", help="why (default: the file's source)")

    def handle(self, *args, file=None, by="", confirm=None, reason="", **options):
        user = User.objects.filter(username=by, is_active=True).first()
        if user is None:
            raise CommandError(f"--by: no active user {by!r}")
        actor = Actor.from_user(user, source="manage.py")
        try:
            if confirm is not None:
                version = house_way_config.confirm(confirm, actor=actor)
                self.stdout.write(f"{config.CASINO_STREAM} version {confirm} confirmed by {by} "
                                  f"(version {version})")  # fmt: skip
                return
            if not file:
                raise CommandError("name the house way's file, or --confirm VERSION")
            try:
                data = json.loads(pathlib.Path(file).read_text())
            except (OSError, ValueError) as error:
                raise CommandError(f"{file}: {error}") from None
            version = house_way_config.load(data, actor=actor, reason=reason)
        except errors.LedgerError as error:
            raise CommandError(error.message) from None
        waiting = any(c.version == version for c in config.waiting_changes(config.CASINO_STREAM))
        self.stdout.write(f"{config.CASINO_STREAM} version {version}: house way {data['id']} "
                          f"version {data['version']} from {data['effective_from']}"
                          + (f"; waiting for a second person (--confirm {version})"
                             if waiting else ""))  # fmt: skip
