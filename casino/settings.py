"""Pitboss settings: everything comes from the environment (see README).

With nothing set we run the embedded default: a SQLite file in the project
folder and Celery tasks executed eagerly in-process, so the demo works on a
bare machine. Production sets DATABASE_URL (PostgreSQL 15+) and
CELERY_BROKER_URL (Redis or RabbitMQ).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from casino.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)
# An insecure key is only tolerated with DEBUG on: system check casino.E001
# refuses to run a non-debug site with it.
INSECURE_SECRET_KEY = "insecure-pitboss-development-key-never-use-in-production"
SECRET_KEY = env_str("SECRET_KEY", INSECURE_SECRET_KEY)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "simple_history",
    "django_celery_beat",
    "casino",
    "audit",
    "tables",
    "progressives",
    "operations",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_database_url = env_str("DATABASE_URL")
if _database_url:
    # Health checks: a connection kept from before a database restart is
    # replaced at the start of the next request instead of failing it.
    DATABASES = {
        "default": dj_database_url.parse(_database_url, conn_max_age=60, conn_health_checks=True)
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Writers take the lock when their transaction starts, so an append
            # never fails half-way upgrading a read lock.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("TIME_ZONE", "America/New_York")
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
LOGIN_URL = "admin:login"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an anonymous request gets 401 with WWW-Authenticate.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_VERSIONING_CLASS": "rest_framework.versioning.URLPathVersioning",
    "ALLOWED_VERSIONS": ["v1"],
    "EXCEPTION_HANDLER": "audit.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Pitboss API",
    "DESCRIPTION": "Append-only ledger of casino table games: append events, read streams, "
    "follow the global log.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from our own static files: the docs page works with no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "audit.api.errors.document_faults",
    ],
}
# What a 503 (database or broker unreachable) tells the device to wait.
API_RETRY_AFTER_SECONDS = env_int("API_RETRY_AFTER_SECONDS", 2)

# No broker configured: the embedded default runs every task in-process
# (eagerly); the in-memory transport keeps Celery from looking for a server.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = not env_str("CELERY_BROKER_URL")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A job whose worker dies comes back promptly. Acknowledged late, a message
# stays with the broker until its job finishes; Redis hands an unacknowledged
# one out again after the visibility timeout (kombu's default: an hour), and
# looks for such messages every restore interval (by default every 100 s).
# The timeout is short on purpose, shorter than the longest job (the close of a
# large day, bench/README.md): every job is idempotent and resumable, and a
# close delivered while another run of it is alive waits its turn
# (operations.close.CloseBusy), so an early re-delivery costs a retry, not a wrong
# answer. Countdowns (retries) stay below the timeout, or they would be
# delivered again before they are due.
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 60)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": max(1, min(10, CELERY_VISIBILITY_TIMEOUT // 6)),
    "unacked_restore_throttle": 1,
    # A broker gone mid-request must not hang the request (nor a job).
    "socket_timeout": 10,
    "socket_connect_timeout": 5,
}
# Publishing after a committed append: a few quick tries, then give up (the
# projections catch up on their next run; audit.ledger.schedule_projections).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0,
                                    "interval_step": 0.5, "interval_max": 1}  # fmt: skip
CELERY_BROKER_CONNECTION_TIMEOUT = 5
# A worker process that dies under a job (killed, out of memory) gives the
# message back at once rather than acknowledging it.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Time limits from the longest job: the close of a 200-table day of 1,000
# rounds each takes about 4.5 min on the bench machine (bench/README.md);
# ten times that stops a hung close, and the next delivery resumes it.
CELERY_CLOSE_TIME_LIMIT = env_int("CELERY_CLOSE_TIME_LIMIT", 45 * 60)
# Everything else (projections catching up, deck checks) is shorter.
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 15 * 60)
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 60
# How soon a close that found another live run of the same day looks again.
CLOSE_BUSY_RETRY_SECONDS = env_int("CLOSE_BUSY_RETRY_SECONDS", 20)
# Periodic jobs (the deck checks) are PeriodicTask rows, editable in the admin.
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# How long before a deck's change falls due the floor gets a notice (§ 592.3(c)).
DECK_CHANGE_LEAD_MINUTES = env_int("DECK_CHANGE_LEAD_MINUTES", 30)

LEDGER_READ_PAGE_MAX = env_int("LEDGER_READ_PAGE_MAX", 1000)
# How far an event's occurred_at may lie from the server's clock (audit.validation):
# ahead by clock drift at most, for everyone; behind by a device's buffer replayed
# after an outage at most, for people and devices (imports and the simulator
# record the past through the system role).
LEDGER_OCCURRED_AT_FUTURE_SECONDS = env_int("LEDGER_OCCURRED_AT_FUTURE_SECONDS", 5 * 60)
LEDGER_OCCURRED_AT_PAST_SECONDS = env_int("LEDGER_OCCURRED_AT_PAST_SECONDS", 24 * 60 * 60)
# Bring read models up to date after every append (a Celery task; inline when
# eager). Off for bulk loads, which run the projections once at the end.
LEDGER_PROJECT_ON_APPEND = env_bool("LEDGER_PROJECT_ON_APPEND", True)
# Signs the gaming-day seals (audit.seals): a base64 raw 32-byte Ed25519 private
# key (or LEDGER_SIGNING_KEY_FILE). Empty with DEBUG on: a development key derived
# from SECRET_KEY, labelled as such; check casino.E002 refuses production without one.
LEDGER_SIGNING_KEY = env_str("LEDGER_SIGNING_KEY")
# Public keys (base64) of earlier signing keys whose seals verify_ledger still
# trusts after a key rotation; the current key's is always trusted.
LEDGER_TRUSTED_PUBLIC_KEYS = env_list("LEDGER_TRUSTED_PUBLIC_KEYS")
# Where the zips of sealed gaming days are kept for download (audit.downloads).
# A cache: a missing zip is rebuilt byte-identical from the ledger and the seal.
# Its seals/ directory is not a cache: each seal is archived there once,
# read-only, outside the database (verify_ledger compares the two).
EXPORT_ROOT = Path(env_str("EXPORT_ROOT") or BASE_DIR / "var" / "exports")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
