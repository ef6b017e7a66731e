"""The deck job every minute (django-celery-beat), as data: editable (interval,
enabled) in the admin without a deploy."""

from django.db import migrations

TASK = "tables.check_decks"
NAME = "Deck checks (§ 592.3(c) change interval, § 592.8(f) stub counts)"


def schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = IntervalSchedule.objects.get_or_create(every=1, period="minutes")
    PeriodicTask.objects.get_or_create(
        name=NAME, defaults={"task": TASK, "interval": every_minute, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(task=TASK).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_tables_decks_slips"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(schedule, unschedule)]
