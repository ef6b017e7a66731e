from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """What spans the apps: the gaming-day close (its stream, events,
    projection, schedule, Celery tasks, admin page and command) and the demo.
    It sits above ``tables`` and ``progressives`` so they need not import each
    other or reach up into it (the import contract in pyproject.toml)."""

    name = "operations"
    verbose_name = "Operations"

    def ready(self) -> None:
        # The close stream, its events and projection; the close's schedule.
        from operations import close, schedule  # noqa: F401
