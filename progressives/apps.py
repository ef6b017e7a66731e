from django.apps import AppConfig


class ProgressivesConfig(AppConfig):
    name = "progressives"
    verbose_name = "Progressive meters"

    def ready(self) -> None:
        # Register the meter event types, the ``meter`` stream kind, its projection,
        # the meters the regulator export carries and the liability the win report prints.
        from progressives import exports, liability, projections, streams  # noqa: F401
