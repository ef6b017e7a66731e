"""The nightly ledger check (``audit.verify_ledger``) in beat's schedule, as
data: every night at 03:30 in the project's time zone; editable in the admin."""

from django.conf import settings
from django.db import migrations

TASK = "audit.verify_ledger"
NAME = "Ledger check (every hash chain, stream head, seal and side table)"


def schedule(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute="30", hour="3", day_of_week="*", day_of_month="*", month_of_year="*",
        timezone=settings.TIME_ZONE,
    )  # fmt: skip
    PeriodicTask.objects.get_or_create(
        name=NAME, defaults={"task": TASK, "crontab": crontab, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(task=TASK).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0008_permission_history"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(schedule, unschedule)]
