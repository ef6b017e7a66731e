"""The Celery app. Tasks are thin wrappers around plain functions (see each
app's ``tasks.py``); with no broker configured they run eagerly."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("pitboss")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
