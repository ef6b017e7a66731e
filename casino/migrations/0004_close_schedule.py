"""The gaming-day close at the boundary (django-celery-beat), as data: the
crontab follows the casino's boundary and time zone (``operations.schedule``
keeps it in step when the casino is saved); editable in the admin."""

from django.db import migrations

TASK = "casino.close_due_day"
NAME = "Gaming-day close (at the gaming-day boundary)"


def schedule(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    Casino = apps.get_model("casino", "Casino")
    casino = Casino.objects.first()
    boundary, zone = (
        (casino.gaming_day_starts_at, casino.time_zone) if casino else (None, "America/New_York")
    )
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute=str(boundary.minute if boundary else 0),
        hour=str(boundary.hour if boundary else 6),
        day_of_week="*", day_of_month="*", month_of_year="*", timezone=zone,
    )
    PeriodicTask.objects.get_or_create(
        name=NAME, defaults={"task": TASK, "crontab": crontab, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(task=TASK).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0003_close_and_variance_policy"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(schedule, unschedule)]
