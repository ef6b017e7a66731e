from django.apps import AppConfig


class ProgressivesConfig(AppConfig):
    name = "progressives"
