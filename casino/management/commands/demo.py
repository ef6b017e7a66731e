"""The README's main job: a demo casino on whatever database is configured."""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from rest_framework.authtoken.models import Token

from casino.roles import Role

DEMO_PASSWORD = "pitboss-demo"
DEMO_USERS = [
    ("supervisor", Role.SHIFT_SUPERVISOR, True),
    ("floor", Role.FLOORPERSON, True),
    ("finance", Role.FINANCE, True),
    ("regulator", Role.REGULATOR, True),
    ("dealer", Role.DEALER, False),
    ("table-device", Role.TABLE_DEVICE, False),
    ("admin", Role.ADMINISTRATOR, True),
]


class Command(BaseCommand):
    help = "Build the demo casino (migrate, users, simulated play) and optionally serve it."

    def add_arguments(self, parser):
        parser.add_argument("--serve", action="store_true", help="then run the web server")
        parser.add_argument("--addrport", default="127.0.0.1:8000")

    def handle(self, *args, serve=False, addrport="127.0.0.1:8000", **options):
        call_command("migrate", verbosity=0)
        self.stdout.write("Database migrated.")
        device_token = self._users()
        self._play()
        call_command("verify_ledger", "--no-progress", stdout=self.stdout)
        host = f"http://{addrport}"
        self.stdout.write(
            self.style.SUCCESS(
                "\nPitboss demo casino is ready.\n"
                f"  Admin:       {host}/admin/   login: supervisor / {DEMO_PASSWORD}\n"
                f"               (also floor, finance, regulator, admin; same password)\n"
                f"  API docs:    {host}/api/v1/docs\n"
                f"  Device token (table-device): {device_token}\n"
            )
        )
        if serve:
            call_command("runserver", addrport, "--noreload")

    def _users(self) -> str:
        for username, role, staff in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
            user.is_staff = staff
            user.is_superuser = role is Role.ADMINISTRATOR
            user.save()
            user.groups.add(Group.objects.get(name=role.value))
        device = User.objects.get(username="table-device")
        return Token.objects.get_or_create(user=device)[0].key

    def _play(self) -> None:
        """A simulated gaming day on each side of the 674a effective date
        (2016-08-27) and a recent day with Double Cross, then a replay."""
        import datetime

        from tables.models import Round
        from tables.simulation import TablePlan, simulate_gaming_day

        if Round.objects.exists():
            self.stdout.write("Demo play already recorded; skipping the simulation.")
        else:
            days = [
                (
                    datetime.date(2016, 8, 26),
                    [TablePlan("CC-01", "PA-592-2014"), TablePlan("CC-02", "PA-592-2014")],
                ),
                (
                    datetime.date(2016, 8, 27),
                    [TablePlan("CC-01", "PA-674a-2016"), TablePlan("CC-02", "PA-674a-2016")],
                ),
                (
                    datetime.date(2024, 5, 1),
                    [
                        TablePlan("CC-01", "PA-674a-2019"),
                        TablePlan("CC-02", "PA-674a-2019"),
                        TablePlan("DX-01", "MA-DCP-UNDATED"),
                        TablePlan("DX-02", "MA-DCP-UNDATED"),
                    ],
                ),
            ]
            for seed, (day, plans) in enumerate(days, start=1):
                summary = simulate_gaming_day(
                    plans,
                    day,
                    rounds_per_table=60,
                    seed=seed,
                    dealer_error_percent=5,
                    irregularity_percent=2,
                    rounds_per_commit=20,
                )
                self.stdout.write(
                    f"Simulated {day}: {summary.rounds} rounds, "
                    f"{summary.events} events, {len(summary.injected)} dealer "
                    "errors injected."
                )
        call_command("replay", "--no-progress", stdout=self.stdout)
