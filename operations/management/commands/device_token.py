"""Issue, rotate, revoke and list device tokens (``operations.tokens``).

    manage.py device_token issue table-device --table CC-01
    manage.py device_token issue gateway-1 --device relay-east
    manage.py device_token rotate <token id>
    manage.py device_token revoke <token id>
    manage.py device_token list

A new token is printed once and never kept; each change is a ledger event.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from operations import tokens
from operations.tokens import DeviceToken


class Command(BaseCommand):
    help = "Issue, rotate, revoke or list the API's device tokens."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        issue = sub.add_parser("issue", help="a new token for an account's device")
        issue.add_argument("username")
        issue.add_argument("--device", default="", help="default: the account's username")
        issue.add_argument("--table", default="", help="the table id it is bound to")
        issue.add_argument("--days", type=int, default=None)
        for name in ("rotate", "revoke"):
            one = sub.add_parser(name)
            one.add_argument("token_id")
            if name == "rotate":
                one.add_argument("--days", type=int, default=None)
        sub.add_parser("list", help="every token with its binding and state")
        for name, action in sub.choices.items():
            if name != "list":
                action.add_argument("--by", default="manage.py", help="who does it (recorded)")

    def handle(self, *args, action, by="manage.py", **options):
        try:
            if action == "issue":
                self._issue(by=by, **options)
            elif action == "list":
                for token in DeviceToken.objects.select_related("user"):
                    state = "active" if token.active else ("revoked" if token.revoked_at
                                                           else "expired")  # fmt: skip
                    self.stdout.write(f"{token.token_id}  {token.user.username:<16} "
                                      f"{token.device:<20} {token.table_id or '-':<8} "
                                      f"expires {token.expires_at:%Y-%m-%d}  {state}")  # fmt: skip
            else:
                token = DeviceToken.objects.filter(token_id=options["token_id"]).first()
                if token is None:
                    raise CommandError(f"no token {options['token_id']!r}")
                if action == "revoke":
                    tokens.revoke(token, by=by)
                    self.stdout.write(f"Token {token.token_id} revoked.")
                else:
                    new, plain = tokens.rotate(token, by=by, days=options["days"])
                    self._show(new, plain)
        except tokens.TokenRefused as refused:
            raise CommandError(str(refused)) from None

    def _issue(self, *, username, device, table, days, by, **_):
        from tables.models import Table

        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no account {username!r}")
        bound = None
        if table:
            bound = Table.objects.filter(table_id=table).first()
            if bound is None:
                raise CommandError(f"no table {table!r}")
        token, plain = tokens.issue(user, device=device, table=bound, by=by, days=days)
        self._show(token, plain)

    def _show(self, token, plain) -> None:
        self.stdout.write(f"Token {token.token_id} for {token.device} at "
                          f"{token.table_id or 'no table'}, expires {token.expires_at:%Y-%m-%d}:")
        self.stdout.write(plain)  # fmt: skip
        self.stdout.write("Shown once: it is not kept.")
