"""The ledger's partitions made ahead (``audit.prepare_partitions``) in beat's
schedule, as data: every day at 04:10 in the project's time zone; editable in
the admin."""

from django.conf import settings
from django.db import migrations

TASK = "audit.prepare_partitions"
NAME = "Ledger partitions (this gaming day and the next 60)"


def schedule(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute="10", hour="4", day_of_week="*", day_of_month="*", month_of_year="*",
        timezone=settings.TIME_ZONE,
    )  # fmt: skip
    PeriodicTask.objects.get_or_create(
        name=NAME, defaults={"task": TASK, "crontab": crontab, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(task=TASK).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0016_partitioned_ledger"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(schedule, unschedule)]
