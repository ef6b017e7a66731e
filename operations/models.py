from operations.tokens import DeviceToken  # noqa: F401  (the model lives beside its service)
