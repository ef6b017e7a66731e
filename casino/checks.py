"""Start-up checks with stable ids: a regulated deployment refuses to run
with debug on or the development secret key."""

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=False)
def check_production_safety(app_configs, **kwargs):
    errors = []
    if not settings.DEBUG and settings.SECRET_KEY == settings.INSECURE_SECRET_KEY:
        errors.append(
            Error(
                "SECRET_KEY is the development key while DEBUG is off.",
                hint="Set SECRET_KEY (or SECRET_KEY_FILE) in the environment, "
                "or DJANGO_DEBUG=1 for local development only.",
                id="casino.E001",
            )
        )
    return errors
