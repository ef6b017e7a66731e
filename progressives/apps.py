from django.apps import AppConfig


class ProgressivesConfig(AppConfig):
    name = "progressives"
    verbose_name = "Progressive meters"

    def ready(self) -> None:
        # Register the meter event types, the ``meter`` stream kind, its projection
        # and the meters the regulator export carries.
        from progressives import exports, projections, streams  # noqa: F401
