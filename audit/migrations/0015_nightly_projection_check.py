"""The nightly check of the read models against the ledger
(``audit.verify_projections``) in beat's schedule, as data: every night at
04:30 in the project's time zone, after the ledger check; editable in the admin."""

from django.conf import settings
from django.db import migrations

TASK = "audit.verify_projections"
NAME = "Read-model check (every projection recomputed from the ledger and compared)"


def schedule(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute="30", hour="4", day_of_week="*", day_of_month="*", month_of_year="*",
        timezone=settings.TIME_ZONE,
    )  # fmt: skip
    PeriodicTask.objects.get_or_create(
        name=NAME, defaults={"task": TASK, "crontab": crontab, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(task=TASK).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0014_permission_change_grant"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(schedule, unschedule)]
