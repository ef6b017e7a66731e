"""Pitboss settings: everything comes from the environment (see README).

With nothing set we run the embedded default: a SQLite file in the project
folder and Celery tasks executed eagerly in-process, so the demo works on a
bare machine. Production sets DATABASE_URL (PostgreSQL 15+) and
CELERY_BROKER_URL (Redis or RabbitMQ).
"""

from __future__ import annotations

from pathlib import Path

import csp.constants as csp
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
# Dates ISO, times to the second with the zone (casino/formats/en/formats.py).
FORMAT_MODULE_PATH = ["casino.formats"]
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

# --- issue 14 (h14a): bounded input and throttling of the API ------------------------
# Bodies larger than this are refused (413, recorded with their length) unread.
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 1024 * 1024)
# JSON nested deeper than this is refused (400) before anything reads it.
API_MAX_JSON_DEPTH = env_int("API_MAX_JSON_DEPTH", 32)
# How much of a refused body its record keeps (with the body's length and SHA-256).
REJECTED_BODY_PREFIX_BYTES = env_int("REJECTED_BODY_PREFIX_BYTES", 2048)
# Throttling: per address without valid credentials (checked before anything is
# stored), per token (or session) with them. The counts live in Django's cache:
# CACHE_URL (redis://…) shares them between server processes; without it each
# process counts on its own (the embedded demo, the tests).
REST_FRAMEWORK |= {
    "DEFAULT_THROTTLE_CLASSES": [
        "audit.api.throttling.AddressThrottle",
        "audit.api.throttling.TokenThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anonymous": env_str("API_THROTTLE_ANONYMOUS", "20/min"),
        "token": env_str("API_THROTTLE_TOKEN", "3000/min"),
    },
    # Proxies in front of the server whose X-Forwarded-For is believed; with 0 the
    # address is the connection's, so a forged header cannot dodge the throttle.
    "NUM_PROXIES": env_int("API_TRUSTED_PROXIES", 0),
}
_cache_url = env_str("CACHE_URL")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _cache_url}
    if _cache_url
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pitboss"}
}
# --- end issue 14 (h14a) ---------------------------------------------------------------

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
# How many worker processes the scheduled close reads the day with: it is cut
# by position range into parts, tasks for every worker on the broker (operations.day_read).
CLOSE_WORKERS = env_int("CLOSE_WORKERS", 2)
# A day of fewer events is read in one process: parts would cost more than they save.
CLOSE_PARTS_ABOVE_EVENTS = env_int("CLOSE_PARTS_ABOVE_EVENTS", 50_000)
# A part holds no more than about this many events, whatever the workers: a reader's
# memory is its part's streams, so a busy day is read in more parts, not larger ones.
CLOSE_PART_EVENTS = env_int("CLOSE_PART_EVENTS", 1_000_000)
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
# PostgreSQL partitions the ledger by the gaming day each stream began on, this
# many months of days a partition (audit.partitions; bench/partitions.py).
LEDGER_PARTITION_MONTHS = env_int("LEDGER_PARTITION_MONTHS", 1)
# How long the ledger keeps its events (issue 16 cites PA § 465a.6's five years):
# manage.py retain_ledger archives and detaches only partitions of older days.
LEDGER_RETENTION_YEARS = env_int("LEDGER_RETENTION_YEARS", 5)
# Where the zips of sealed gaming days are kept for download (audit.downloads).
# A cache: a missing zip is rebuilt byte-identical from the ledger and the seal.
# Its seals/ directory is not a cache: each seal is archived there once,
# read-only, outside the database (verify_ledger compares the two).
EXPORT_ROOT = Path(env_str("EXPORT_ROOT") or BASE_DIR / "var" / "exports")


# --- Logins, sessions, tokens and headers (issue 14) --------------------------------
# Kept together so the hardening reads in one place. Apps and middleware are
# appended here rather than edited into the lists above.
INSTALLED_APPS += ["axes", "django_otp", "django_otp.plugins.otp_totp"]
INSTALLED_APPS.remove("rest_framework.authtoken")  # tokens are operations.tokens, hashed
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                  "csp.middleware.CSPMiddleware")  # fmt: skip
MIDDLEWARE += [
    "django_otp.middleware.OTPMiddleware",
    # Idle timeout, then the second factor: both after authentication.
    "casino.access.IdleTimeoutMiddleware",
    "casino.second_factor.SecondFactorMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 page.
    "axes.middleware.AxesMiddleware",
]
# Axes first: a locked-out address or username is refused before any password is checked.
AUTHENTICATION_BACKENDS = ["casino.access.LockoutBackend",
                           "django.contrib.auth.backends.ModelBackend"]  # fmt: skip
# Five wrong passwords lock the username, and five from one address lock the
# address (a spray over many usernames), for half an hour.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("LOGIN_LOCKOUT_MINUTES", 30) / 60  # hours
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_CLIENT_IP_CALLABLE = "casino.access.client_address"  # the proxy's X-Forwarded-For
AXES_RESET_ON_SUCCESS = True
# Attempts refused during a lockout neither extend it nor are stored one by one
# (axes would append each to one row: a client could grow it without end).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_VERBOSE = False
# Successful logins and logouts are ledger events (casino.access), not also axes' log.
AXES_DISABLE_ACCESS_LOG = True
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": env_int("PASSWORD_MIN_LENGTH", 12)}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]  # fmt: skip
# A session ends after this much idleness (casino.access.IdleTimeoutMiddleware;
# the floor board's own refresh is not activity), and at the latest a shift
# after the login.
SESSION_IDLE_SECONDS = env_int("SESSION_IDLE_SECONDS", 15 * 60)
SESSION_COOKIE_AGE = env_int("SESSION_MAX_SECONDS", 12 * 60 * 60)
OTP_TOTP_ISSUER = env_str("OTP_TOTP_ISSUER", "Pitboss")
# Wrong codes count as failed logins towards the lockout above, which is the
# throttle; django-otp's own (doubling delays) would refuse a right code too.
OTP_TOTP_THROTTLE_FACTOR = 0
# Device tokens: hashed, bound to a device and a table, expiring (operations.tokens).
DEVICE_TOKEN_DAYS = env_int("DEVICE_TOKEN_DAYS", 90)
REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = [
    # Token first, so an anonymous request gets 401 with WWW-Authenticate.
    "operations.tokens.DeviceTokenAuthentication",
    "rest_framework.authentication.SessionAuthentication",
]
# TLS: behind a proxy that terminates it and says so in X-Forwarded-Proto.
# Cookies are Secure and HSTS is sent only when the request came over TLS
# (Django's SecurityMiddleware sends HSTS on secure requests only).
if env_bool("BEHIND_TLS_PROXY", not DEBUG):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Plain HTTP is redirected to HTTPS in production; a server run without TLS on
# purpose (the bench's local gunicorn) sets SECURE_SSL_REDIRECT=0.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 60 * 60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
# No script reads either cookie (forms carry the CSRF token).
SESSION_COOKIE_HTTPONLY = CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Content Security Policy: the site's own scripts, styles and images only; the
# few inline scripts and styles carry the request's nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF, csp.NONCE],
        "style-src": [csp.SELF, csp.NONCE],
        # Style attributes (the cards' SVG layout, the admin's widgets) cannot run
        # code; scripts stay strict.
        "style-src-attr": [csp.UNSAFE_INLINE],
        "img-src": [csp.SELF, "data:"],
        "connect-src": [csp.SELF],
        "font-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    }
}
TEMPLATES[0]["OPTIONS"]["context_processors"].append("csp.context_processors.nonce")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
