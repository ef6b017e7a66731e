"""The README's main job: a demo casino on whatever database is configured."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.base import BaseCommand

from casino.roles import Role

DEMO_PASSWORD = "pitboss-demo"
DEMO_USERS = [
    # username, role, staff (may use the admin), full name
    ("supervisor", Role.SHIFT_SUPERVISOR, True, "Sam Supervisor"),
    ("floor", Role.FLOORPERSON, True, "Frankie Floor"),
    ("floor2", Role.FLOORPERSON, True, "Flo Second"),
    ("cage", Role.CAGE_CASHIER, True, "Casey Cage"),
    ("finance", Role.FINANCE, True, "Fin Ance"),
    ("regulator", Role.REGULATOR, True, "Reggie Ulator"),
    ("dealer", Role.DEALER, False, "Dana Dealer"),
    ("dealer2", Role.DEALER, False, "Devon Dealer"),
    ("table-device", Role.TABLE_DEVICE, False, "Card reader CC-01"),
    ("admin", Role.ADMINISTRATOR, True, "Ada Admin"),
    # A second administrator: a change of append permissions needs two.
    ("admin2", Role.ADMINISTRATOR, True, "Abe Admin"),
]
#: When the demo's configuration starts where a rule set names no date.
UNDATED_FROM = datetime.date(2014, 1, 1)
#: The demo's dealers passed their table tests before its first played day (2016-07-28).
TRAINED_ON = datetime.date(2016, 7, 1)
#: table id, game, rule sets over time (effective from), min and max wager, dealing method
DEMO_TABLES = [
    (
        "CC-01",
        "criss_cross_poker",
        ["PA-592-2014", "PA-674a-2016", "PA-674a-2019"],
        1000,
        50000,
        "HAND",
    ),
    (
        "CC-02",
        "criss_cross_poker",
        ["PA-592-2014", "PA-674a-2016", "PA-674a-2019"],
        2500,
        100000,
        "MANUAL_SHOE",
    ),
    ("DX-01", "double_cross_poker", ["MA-DCP-UNDATED"], 1000, 50000, "AUTOMATED_SHOE"),
    ("DX-02", "double_cross_poker", ["MA-DCP-UNDATED"], 2500, 100000, "MANUAL_SHOE"),
]


def _deals_cards(table_id: str) -> bool:
    """Whether the game at ``table_id`` deals cards (so needs a deck)."""
    from tables.models import Table
    from tables.rules.registry import declared

    game = declared(Table.objects.get(table_id=table_id).game)
    return game is None or bool(game.layout.seat_spots or game.layout.dealer_spots
                                or game.layout.community_spots)  # fmt: skip


#: When a past day's play starts on the ledger's clock (after the gaming day's
#: start) and when its close runs (after its end, before the next day's play).
PAST_PLAY_STARTS_AFTER = datetime.timedelta(hours=2)
#: The demo casino's Pai Gow house way is loaded from its Rules Submission file from
#: this day (§ 561.13(d)): the demo's Pai Gow days before it name ``SAMPLE-2010``.
HOUSE_WAY_FROM = datetime.date(2016, 8, 1)
PAST_CLOSE_RUNS_AFTER = datetime.timedelta(hours=1)
#: The demo's progressive meters: one linked to both Caribbean Stud tables (§ 555),
#: one to both Raise It Up Stud Poker tables (§ 587), one to both Six-Card Fortune
#: tables (§ 588).
DEMO_METER = "CSP-PROG-1"
RIU_METER = "RIU-PROG-1"
SCF_METER = "SCF-PROG-1"
#: The optional wagers a game's demo tables offer (their Rules Submission's choices).
TABLE_OPTIONS = {
    "raise_it_up_stud_poker": (("pair_plus_table", "A"), ("progressive_offered", True),
                               ("six_card_bonus_table", "A")),
    # § 588's Envy provisions contradict each other: the demo casino's readings of them.
    "six_card_fortune_pai_gow_poker": (("envy_recipients", "lammer_holders"),
                                       ("envy_unscheduled", "nothing"),
                                       ("progressive_offered", True)),
}  # fmt: skip

#: How often a simulated player strays from the par sheet's strategy at a
#: decision (Criss-Cross): enough to be human, little enough that actual and
#: theoretical win stay comparable.
PLAYER_MISTAKE_PERCENT = 3

#: How long ago the demo's dice went into the shaker: PAH-01's are due off the
#: table within the half hour (amber on the floor board), HRD-01's are fresh.
DICE_HOURS_IN_SHAKER = {"PAH-01": 23.75}


def _dice_in_shaker(table_id: str, today, dealer: str, now, actor) -> None:
    """A set of dice received, inspected and placed in the shaker at ``table_id``."""
    import datetime

    from audit.ledger import NewEvent, append
    from tables.models import Table

    since = now - datetime.timedelta(hours=DICE_HOURS_IN_SHAKER.get(table_id, 3))
    count = Table.objects.get(table_id=table_id).dice_count()
    append(f"dice:{table_id}-{today:%Y%m%d}", [
        NewEvent("dice.received", {"table_id": table_id, "count": count, "received_by": "floor"},
                 occurred_at=since),
        NewEvent("dice.inspected", {"inspected_by": "floor2"}, occurred_at=since),
        NewEvent("dice.placed_in_shaker", {"floorperson": "floor", "dealer": dealer},
                 occurred_at=since),
    ], expected_version=0, actor=actor)  # fmt: skip


def declared_tables() -> list[tuple[str, str, list[str], int, int, str]]:
    """Two tables for every other game in the engine's registry, so a new game
    module is on the demo floor with no edit here: named by the game's initials
    (``three_card_poker`` is TCP-01 and TCP-02), its rule sets oldest first, a
    manual shoe; the second table plays at higher limits. A blackjack game has one
    table, dealing from its (automated) shoe through the day.

    >>> [t[:5] for t in declared_tables() if t[1] == "three_card_poker"]
    [('TCP-01', 'three_card_poker', ['PA-565-2010'], 500, 50000), \
('TCP-02', 'three_card_poker', ['PA-565-2010'], 1000, 100000)]
    """
    from tables.rules.registry import blackjack, game_ids, rulesets

    listed = {game for _, game, *_ in DEMO_TABLES}
    tables = []
    for game in game_ids():
        if game in listed:
            continue
        own = sorted((r for r in rulesets().values() if r.game == game),
                     key=lambda r: r.effective_from)  # fmt: skip
        initials = "".join(word[0] for word in game.split("_")).upper()
        shoe = blackjack(game) is not None
        for minimum, maximum in ((500, 50000), (1000, 100000))[: 1 if shoe else 2]:
            number = 1 + sum(1 for table in tables if table[0].startswith(f"{initials}-"))
            tables.append((f"{initials}-{number:02d}", game, [r.id for r in own], minimum,
                           maximum, "AUTOMATED_SHOE" if shoe else "MANUAL_SHOE"))  # fmt: skip
    return tables


def in_force(table: tuple[str, str, list[str], int, int, str], day) -> str | None:
    """The rule set of a declared table in force on ``day``, if any."""
    from tables.rules.rulesets import get_ruleset

    found = [rid for rid in table[2] if get_ruleset(rid).in_force(day)]
    return found[-1] if found else None


class Command(BaseCommand):
    help = "Build the demo casino (migrate, users, simulated play) and optionally serve it."

    def add_arguments(self, parser):
        parser.add_argument("--serve", action="store_true", help="then run the web server")
        parser.add_argument("--addrport", default="127.0.0.1:8000")

    def handle(self, *args, serve=False, addrport="127.0.0.1:8000", **options):
        call_command("migrate", verbosity=0)
        self.stdout.write("Database migrated.")
        self._users()
        self._configure()
        self._train()
        device_token = self._device_token()
        self._play()
        call_command("verify_ledger", "--no-progress", stdout=self.stdout)
        host = f"http://{addrport}"
        self.stdout.write(
            self.style.SUCCESS(
                "\nPitboss demo casino is ready.\n"
                f"  Admin:       {host}/admin/   login: supervisor / {DEMO_PASSWORD}\n"
                f"               (also floor, finance, regulator, admin, admin2; same password)\n"
                f"  API docs:    {host}/api/v1/docs\n"
                f"  Device token (table-device at CC-01, shown once): {device_token}\n"
            )
        )
        self._print_authenticators()
        if serve:
            call_command("runserver", addrport, "--noreload")

    def _users(self) -> None:
        from casino.models import Employee

        for badge, (username, role, staff, full_name) in enumerate(DEMO_USERS, start=1001):
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
            user.is_staff = staff
            user.is_superuser = role is Role.ADMINISTRATOR
            user.save()
            user.groups.add(Group.objects.get(name=role.value))
            Employee.objects.get_or_create(
                user=user, defaults={"badge": str(badge), "full_name": full_name}
            )

    def _device_token(self) -> str:
        from operations import tokens
        from tables.models import Table

        device = User.objects.get(username="table-device")
        return tokens.issue(device, table=Table.objects.get(table_id="CC-01"), by="demo")[1]

    def _print_authenticators(self) -> None:
        """The demo's people whose role needs a second factor get an
        authenticator enrolled here, its secret printed: add it to any TOTP
        app, or read the current code with ``manage.py demo_code <username>``
        (DEBUG only). A real deployment enrols each person at their first login."""
        from django_otp.plugins.otp_totp.models import TOTPDevice

        from casino.second_factor import requires_second_factor, secret_of

        self.stdout.write("Second factor (shift supervisor, finance, regulator, administrator):")
        for username, *_ in DEMO_USERS:
            user = User.objects.get(username=username)
            if not requires_second_factor(user):
                continue
            device, _ = TOTPDevice.objects.get_or_create(user=user, name="demo",
                                                         defaults={"confirmed": True})  # fmt: skip
            self.stdout.write(f"  {username:<11} secret {secret_of(device)}   {device.config_url}")
        self.stdout.write("  The current code: .venv/bin/python manage.py demo_code supervisor")

    def _configure(self) -> None:
        """The property, its jurisdictions and tables. The configuration that
        decides money is recorded as it changed over the years, in the ledger
        (``casino.configuration``): each change proposed by the administrator
        and confirmed by the shift supervisor inside the gaming day it took
        effect (``audit.clock.recording_at``), the admin's history written from it."""
        import datetime

        from audit import clock
        from audit.ledger import Actor, stream_version
        from casino import configuration as config
        from casino.models import Casino, Jurisdiction, VariancePolicy
        from tables import configuration
        from tables.models import Table
        from tables.rules.rulesets import get_ruleset

        pennsylvania, _ = Jurisdiction.objects.get_or_create(
            code="PA", defaults={"name": "Pennsylvania Gaming Control Board"}
        )
        Jurisdiction.objects.get_or_create(
            code="MA", defaults={"name": "Massachusetts Gaming Commission"}
        )
        if not Casino.objects.exists():
            Casino.objects.create(
                name="Pitboss Demo Casino",
                jurisdiction=pennsylvania,
                time_zone="America/New_York",
                gaming_day_starts_at=datetime.time(6, 0),
            )
        casino = Casino.current()
        admin = Actor.from_user(User.objects.get(username="admin"), source="demo")
        supervisor = Actor.from_user(User.objects.get(username="supervisor"), source="demo")

        def change(stream_id: str, settings: dict, day: datetime.date, reason: str) -> None:
            with clock.recording_at(casino.gaming_day_bounds(day)[0]) as moment:
                version = config.propose(stream_id, settings, effective_from=moment,
                                         reason=reason, actor=admin)  # fmt: skip
                config.confirm(stream_id, version, actor=supervisor)
                if stream_id != config.CASINO_STREAM:
                    configuration.apply(stream_id.partition(":")[2])

        if not stream_version(config.CASINO_STREAM):
            change(config.CASINO_STREAM, {"two_person_configuration": True,
                                          **VariancePolicy().thresholds()},
                   UNDATED_FROM, "the casino's segregation of duties and variance thresholds")
        if config.configuration_at(config.CASINO_STREAM, clock.now()).get("house_way") is None:
            self._load_house_way(casino, admin, supervisor)
        for table_id, game, rulesets, low, high, dealing in [*DEMO_TABLES, *declared_tables()]:
            stream_id = configuration.table_config_stream(table_id)
            if stream_version(stream_id):
                continue
            # Six positions, or fewer where a rule set seats fewer (High Roll Dice: five).
            seated = [getattr(get_ruleset(r), "max_seats", None) or 6 for r in rulesets]
            settings = {"game": game, "pit": "1", "min_wager_cents": low, "max_wager_cents": high,
                        "positions": min([6, *seated]), "dealing_method": dealing,
                        "shuffler": "none", "status": "active"}  # fmt: skip
            for ruleset_id in rulesets:
                start = get_ruleset(ruleset_id).effective_from or UNDATED_FROM
                change(stream_id, {**settings, "ruleset_id": ruleset_id}, start,
                       f"{ruleset_id} in force from {start}")  # fmt: skip
                settings = {}
        self.stdout.write(f"Configured {Table.objects.count()} tables in the ledger.")

    def _load_house_way(self, casino, admin, supervisor) -> None:
        """The casino's Pai Gow house way (§ 561.13(d)) loaded from its Rules Submission
        file (``tables/house_ways/sample-2010.json``, as ``manage.py load_house_way``
        does) from HOUSE_WAY_FROM: Pai Gow rounds before it name ``SAMPLE-2010``,
        those after carry the loaded version."""
        import json
        import pathlib

        from audit import clock
        from tables import house_way_config

        data = json.loads((pathlib.Path(house_way_config.__file__).parent / "house_ways"
                           / "sample-2010.json").read_text())  # fmt: skip
        with clock.recording_at(casino.gaming_day_bounds(HOUSE_WAY_FROM)[0]) as moment:
            version = house_way_config.load({**data, "effective_from": moment.isoformat()},
                                            actor=admin)  # fmt: skip
            house_way_config.confirm(version, actor=supervisor)

    def _train(self) -> None:
        """The demo's dealers passed the table test in every game the demo's tables
        deal before its first day (§ 527.5(a)), certified by the shift supervisor."""
        from audit.ledger import Actor, NewEvent, append, stream_version
        from tables.training import CERTIFIED, training_stream

        supervisor = Actor.from_user(User.objects.get(username="supervisor"), source="demo")
        games = sorted({table[1] for table in [*DEMO_TABLES, *declared_tables()]})
        dealers = [d for d in ("dealer", "dealer2") if not stream_version(training_stream(d))]
        for dealer in dealers:
            append(training_stream(dealer), [NewEvent(CERTIFIED, {
                "game": game, "certified_on": str(TRAINED_ON), "certified_by": "supervisor"})
                for game in games], expected_version=0, actor=supervisor)  # fmt: skip
        if dealers:
            self.stdout.write(f"Certified {', '.join(dealers)} in {len(games)} games "
                              f"(§ 527.5(a)) from {TRAINED_ON}.")  # fmt: skip

    def _fresh_seal_archive(self) -> None:
        """A new demo ledger starts a new seal archive: the seals a previous
        demo database archived (``EXPORT_ROOT/seals``) are kept beside it,
        renamed, instead of being reported by ``verify_ledger`` as seal rows
        deleted from this one."""
        from django.utils import timezone

        from audit.models import DaySeal
        from audit.seals import archive_root

        root = archive_root()
        if DaySeal.objects.exists() or not root.is_dir() or not any(root.iterdir()):
            return
        kept = root.with_name(f"seals-before-{timezone.now():%Y%m%dT%H%M%S}")
        root.rename(kept)
        self.stdout.write(f"A previous demo's seal archive was kept as {kept.name}.")

    def _play(self) -> None:
        """Simulated gaming days: whole table days (opened, buy-ins, rounds,
        closed, drop counted and verified) for two weeks of Criss-Cross under
        592 up to 2016-08-26 and under 674a from 2016-08-27, each closed by
        the close job (replay, reconciliation, seal, export), with two planted
        variances; every other registered game's table (``declared_tables``,
        Three Card Poker's TCP-01) plays and closes beside them; then today with
        Double Cross and those tables, where the tables are opened,
        decks put in use (one overdue, one due), dice in the shaker at the dice
        tables (PAH-01's due), fills requested and approved,
        and the deck job runs."""
        import datetime

        from django.utils import timezone

        from audit import clock
        from audit.ledger import Actor, stream_version
        from audit.projections import run_all
        from casino.models import Casino, current_gaming_day
        from operations.close import close_gaming_day
        from operations.meter_rounds import record_day
        from tables.models import Round
        from tables.simulation import (
            TableDayPlan,
            TablePlan,
            record_buy_ins,
            simulate_gaming_day,
            simulate_table_days,
        )

        if Round.objects.exists():
            self.stdout.write("Demo play already recorded; skipping the simulation.")
            return
        self._fresh_seal_archive()
        now = timezone.now()
        today = current_gaming_day(now)
        cross = ["CC-01", "CC-02"]
        july = [datetime.date(2016, 7, 28) + datetime.timedelta(days=n) for n in range(4)]
        august = [datetime.date(2016, 8, 15) + datetime.timedelta(days=n) for n in range(13)]
        planted = {
            datetime.date(2016, 8, 26): TableDayPlan(drop_short_cents={"CC-01": 10_000}),
            datetime.date(2016, 8, 27): TableDayPlan(inventory_short_cents={"CC-02": 4_000}),
        }
        casino = Casino.current()
        meters = self._configure_meters(july[0])
        # A progressive paid $25 more than the meter owed, on the first day from the
        # 20th with a progressive payout; a controller off by $12.50 on the 21st.
        wrong_payment_from = datetime.date(2016, 8, 20)
        wrong_display_on = datetime.date(2016, 8, 21)
        wrong_payment_made = False
        for seed, day in enumerate([*july, *august], start=10):
            ruleset = "PA-674a-2016" if day >= datetime.date(2016, 8, 27) else "PA-592-2014"
            busy = day >= datetime.date(2016, 8, 26)
            start, end = casino.gaming_day_bounds(day)
            # Recorded as if played that day and closed the next morning
            # (before the next day's play starts), not today.
            with clock.recording_at(start + PAST_PLAY_STARTS_AFTER):
                summary = simulate_table_days(
                    [*(TablePlan(t, ruleset) for t in cross), *self._declared_plans(day)], day,
                    seed=seed,
                    rounds_per_table=60 if busy else 30, plan=planted.get(day),
                    dealer_error_percent=5 if busy else 2, irregularity_percent=2 if busy else 0,
                    rounds_per_commit=20, mistake_percent=PLAYER_MISTAKE_PERCENT,
                )  # fmt: skip
            for meter in meters:
                planted_here = meter == DEMO_METER
                with clock.recording_at(end - PAST_CLOSE_RUNS_AFTER):
                    recorded = record_day(
                        meter, day, actor=Actor.system("simulator", source="simulator"),
                        validated_by="floorperson",
                        wrong_payment_cents=2_500 if planted_here and day >= wrong_payment_from
                        and not wrong_payment_made else 0,
                        displayed_error_cents=1_250 if planted_here and day == wrong_display_on
                        else 0)  # fmt: skip
                wrong_payment_made |= planted_here and recorded.wrong_payment_made
            with clock.recording_at(end + PAST_CLOSE_RUNS_AFTER) as closed_at:
                report = close_gaming_day(day, requested_by="supervisor", now=closed_at)
            self.stdout.write(
                f"Simulated and closed {day}: {summary.rounds} rounds, {summary.events} "
                f"events, {len(summary.injected)} dealer errors injected, "
                f"{report.variances} variances."
            )
        self._open_today(today, now)
        plans = [*(TablePlan(t, "PA-674a-2019") for t in cross),
                 TablePlan("DX-01", "MA-DCP-UNDATED"), TablePlan("DX-02", "MA-DCP-UNDATED"),
                 *self._declared_plans(today)]  # fmt: skip
        summary = simulate_gaming_day(plans, today, rounds_per_table=60, seed=4,
                                      dealer_error_percent=5, irregularity_percent=2,
                                      rounds_per_commit=20,
                                      mistake_percent=PLAYER_MISTAKE_PERCENT)  # fmt: skip
        # Today's buy-ins so far, so that the live drop and hold mean something.
        floor = Actor.system("simulator", source="simulator")
        for plan in plans:
            stream = f"table:{plan.table_id}:{today}"
            record_buy_ins(plan, stream, summary, floor, version=stream_version(stream))
        run_all()
        self.stdout.write(
            f"Simulated {today}: {summary.rounds} rounds, {summary.events} events, "
            f"{len(summary.injected)} dealer errors injected."
        )
        self._poker_room(today)
        call_command("check_decks", stdout=self.stdout)
        call_command("replay", "--no-progress", stdout=self.stdout)

    def _poker_room(self, today) -> None:
        """Today's poker room (§ 553): four tables, three planted dealer errors, the replay;
        the Bad Beat fund counted and its display adjusted, a time-charge table."""
        from casino.models import Casino
        from tables.bad_beat import count_variances
        from tables.poker_room import (
            adjust_display,
            charge_time,
            count_fund,
            play_poker_day,
            replay_poker_day,
        )

        day = play_poker_day(today, hands_per_table=60, seed=12, supervisor="supervisor")
        found = replay_poker_day(today)
        self.stdout.write(f"Poker room {today}: {day.hands} hands, {day.events} events, "
                          f"{len(day.planted)} dealer errors planted; replay found:")  # fmt: skip
        for stream, findings in found.items():
            self.stdout.write(f"  /admin/poker-hands/{stream.partition(':')[2]}/ (the hand):")
            for finding in findings:
                self.stdout.write(f"  {stream} {finding.kind} § {finding.section} "
                                  f"({finding.expected_cents} expected, "
                                  f"{finding.recorded_cents} recorded)")  # fmt: skip
        # The Bad Beat box counted $1 short (§ 553.20(d)): a variance against the hands.
        count_fund("BB-HOLDEM", today, dealer="dealer", floorperson="floor", short_cents=100)
        for fund, variance in count_variances(today).items():
            self.stdout.write(f"  Bad Beat fund {fund}: counted {variance.counted_cents}, "
                              f"contributed {variance.contributed_cents} "
                              f"(§ {variance.section})")  # fmt: skip
        # Finance's daily adjustment of the fund's display, a floorperson present (§ 553.20(h)).
        shown = adjust_display("BB-HOLDEM", today, finance="finance", floorperson="floor")
        self.stdout.write(f"  Bad Beat fund BB-HOLDEM displayed at {shown} cents: "
                          "/admin/bad-beat-funds/BB-HOLDEM/")  # fmt: skip
        # A $5-$10 table charging time instead of a rake: $30 an hour, every 20 minutes.
        start = Casino.current().gaming_day_bounds(today)[0] + datetime.timedelta(hours=14)
        cents = charge_time("PK-TC-01", today, start, periods=12, seats=(1, 2, 3, 4, 5, 6),
                            dealer="dealer2", floorperson="floor")  # fmt: skip
        self.stdout.write(f"  Time charges at PK-TC-01: {cents} cents in 12 periods "
                          "(§ 553.15(b)(3))")

    def _configure_meters(self, first_day) -> list[str]:
        """A progressive meter linked to both Caribbean Stud tables (§ 555.13(d)-(e)): $1
        wagers, 70 % of each, $10,000 initial and reset, the straight flush at 10 %; and one
        linked to both Raise It Up tables (§ 587.12(e)): $1 and $5 wagers, 14 % of each (the
        least § 587.12(e)(3) allows), $10,000 initial and reset ($1,000 at least); and one
        linked to both Six-Card Fortune tables (§ 588.12(d)): the simulated players' $1, $5
        and $25 wagers, 15 % of each (the casino's rate: the chapter states none), $10,000
        initial and reset ($5,000 at least)."""
        from audit import clock
        from audit.ledger import Actor
        from casino.models import Casino
        from progressives import service
        from tables.rules.progressives.chapters import (
            CARIBBEAN_STUD_555,
            RAISE_IT_UP_587,
            SIX_CARD_FORTUNE_588,
        )
        from tables.rules.progressives.events import MeterConfigured, OddCents, RateBase

        supervisor = Actor.from_user(User.objects.get(username="supervisor"), source="demo")
        meters = []
        for meter_id, rules, amounts, rate in (
                (DEMO_METER, CARIBBEAN_STUD_555, (100,), 70),
                (RIU_METER, RAISE_IT_UP_587, (100, 500), 14),
                (SCF_METER, SIX_CARD_FORTUNE_588, (100, 500, 2_500), 15)):  # fmt: skip
            tables = tuple(t[0] for t in declared_tables() if t[1] == rules.game)
            if not tables:
                continue
            with clock.recording_at(Casino.current().gaming_day_bounds(first_day)[0]):
                service.configure(MeterConfigured(
                    meter_id=meter_id, effective_from=first_day, chapter=rules.chapter,
                    tables=tables, wager_amounts_cents=amounts, rate_numerator=rate,
                    rate_denominator=100, rate_base=RateBase.AMOUNT_WAGERED,
                    initial_cents=1_000_000, reset_cents=1_000_000, schedule=rules.schedule,
                    share_rounding="round_down_to_cent",
                    odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER), actor=supervisor)  # fmt: skip
            self.stdout.write(f"Configured progressive meter {meter_id} for {', '.join(tables)}.")
            meters.append(meter_id)
        return meters

    def _declared_plans(self, day) -> list:
        """The declared games' tables, each under its rule set in force on ``day``."""
        from casino.models import Casino
        from tables import house_way_config
        from tables.simulation import TablePlan

        # § 561.13(d): Pai Gow rounds carry the casino's house way in force that day.
        loaded = house_way_config.submission_at(
            Casino.current().gaming_day_bounds(day)[0] + PAST_PLAY_STARTS_AFTER)
        house_way = (("house_way", loaded[0].token),) if loaded else ()
        plans = []
        for table in declared_tables():
            ruleset = in_force(table, day)
            if ruleset is not None:
                options = TABLE_OPTIONS.get(table[1], ())
                if table[1] == "pai_gow_poker":
                    options = (*options, *house_way)
                plans.append(TablePlan(table[0], ruleset, options=options))
        return plans

    def _open_today(self, today, now) -> None:
        """Today's openers, decks and fills, appended as the floor would."""
        import datetime

        from audit.ledger import Actor, NewEvent, append
        from audit.projections import run_all

        floor = Actor.system("demo", source="demo")
        hours_in_use = {"CC-01": 4.5, "CC-02": 7.7, "DX-01": 2, "DX-02": 1,
                        **{plan.table_id: 3 for plan in self._declared_plans(today)}}  # fmt: skip
        for number, (table_id, hours) in enumerate(hours_in_use.items(), start=1):
            dealer = "dealer" if number % 2 else "dealer2"
            append(f"table:{table_id}:{today}",
                   [NewEvent("table.opened", {"opener": {"2500": 200, "10000": 50, "500": 400},
                                              "dealer": dealer, "floorperson": "floor"})],
                   expected_version=0, actor=floor)  # fmt: skip
            if table_id == "DAB-01":  # its floorperson inspects the card reader (§ 581.2(d))
                append(f"table:{table_id}:{today}", [
                    NewEvent("table.floorperson_assigned", {"floorperson": "floor"}),
                    NewEvent("table.reader_inspected", {"inspected_by": "floor"})],
                    expected_version=1, actor=floor)  # fmt: skip
            since = now - datetime.timedelta(hours=hours)
            if _deals_cards(table_id):  # a dice game's table takes no deck
                append(f"deck:{table_id}-{today:%Y%m%d}-RED", [
                    NewEvent("deck.received", {"table_id": table_id, "back_colour": "red",
                                               "received_by": "floor"}, occurred_at=since),
                    NewEvent("deck.inspected", {"dealer": dealer}, occurred_at=since),
                    NewEvent("deck.verified", {"floorperson": "floor2"}, occurred_at=since),
                    NewEvent("deck.put_in_use", {}, occurred_at=since),
                ], expected_version=0, actor=floor)  # fmt: skip
            else:  # its dice in the shaker instead, one set near its 24 hours (§ 585.3(b)(1))
                _dice_in_shaker(table_id, today, dealer, now, floor)
            fill = {"table_id": table_id, "gaming_day": str(today),
                    "amounts": {"2500": 40 * number}, "requested_by": "cage"}  # fmt: skip
            events = [NewEvent("slip.fill_requested", fill)]
            if number % 2:
                events.append(NewEvent("slip.approved", {"approved_by": "floor"}))
            append(f"slip:{today.year}-{number:06d}", events, expected_version=0, actor=floor)
        run_all()
        self.stdout.write(
            f"Opened {len(hours_in_use)} tables for {today} with decks, dice and fills."
        )
