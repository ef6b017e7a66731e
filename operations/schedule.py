"""Keeps the close's beat schedule on the casino's gaming-day boundary."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from casino.models import Casino

CLOSE_TASK = "casino.close_due_day"


@receiver(post_save, sender=Casino, dispatch_uid="operations.schedule.follow_boundary")
def follow_boundary(sender, instance: Casino, **kwargs) -> None:
    """Point the close's PeriodicTask at a crontab of the casino's boundary
    (minute, hour) in its time zone."""
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    boundary = instance.gaming_day_starts_at
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute=str(boundary.minute), hour=str(boundary.hour), day_of_week="*",
        day_of_month="*", month_of_year="*", timezone=instance.time_zone,
    )  # fmt: skip
    # save(), not update(): beat notices changes through PeriodicTask's save signal.
    for task in PeriodicTask.objects.filter(task=CLOSE_TASK).exclude(crontab=crontab):
        task.crontab = crontab
        task.save()
