"""Start-up checks with stable ids: a regulated deployment refuses to run
with debug on, the development secret key or no ledger signing key."""

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
    if not settings.DEBUG:
        from audit.seals import signing_key_problem

        problem = signing_key_problem(settings.LEDGER_SIGNING_KEY)
        if problem:
            errors.append(
                Error(
                    f"LEDGER_SIGNING_KEY {problem} while DEBUG is off: gaming-day seals "
                    "would be signed with a development key.",
                    hint="Set LEDGER_SIGNING_KEY (or LEDGER_SIGNING_KEY_FILE) to a base64 raw "
                    "32-byte Ed25519 private key.",
                    id="casino.E002",
                )
            )
    return errors
