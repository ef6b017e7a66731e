from django.apps import AppConfig


class ProgressivesConfig(AppConfig):
    name = "progressives"
    verbose_name = "Progressive meters"

    def ready(self) -> None:
        # Register the meter event types, the ``meter`` stream kind and its projection.
        from progressives import projections, streams  # noqa: F401
