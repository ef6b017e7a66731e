from django.utils import timezone
from rest_framework import serializers


class ZonedDateTimeField(serializers.DateTimeField):
    """An RFC 3339 time with its zone: a naive one is refused, never read as
    the server's local time."""

    def enforce_timezone(self, value):
        if timezone.is_naive(value):
            raise serializers.ValidationError(
                "a time must carry its zone (Z or ±hh:mm); a naive time is never read as "
                "the server's local time"
            )
        return super().enforce_timezone(value)


class EventInSerializer(serializers.Serializer):
    type = serializers.CharField(min_length=1, max_length=100)
    payload = serializers.DictField()
    occurred_at = ZonedDateTimeField(required=False)
    metadata = serializers.DictField(required=False, default=dict)


class AppendRequestSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="How many events you believe the stream holds; 0 starts it.",
    )
    # A ListField rather than many=True: the schema then states minItems and maxItems.
    events = serializers.ListField(
        child=EventInSerializer(), allow_empty=False, min_length=1, max_length=500
    )


class AppendResultSerializer(serializers.Serializer):
    stream_id = serializers.CharField()
    first_version = serializers.IntegerField()
    last_version = serializers.IntegerField()
    first_position = serializers.IntegerField()
    last_position = serializers.IntegerField()
    hashes = serializers.ListField(child=serializers.CharField())


class EventOutSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    stream_id = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField()
    schema_version = serializers.IntegerField()
    payload = serializers.DictField()
    metadata = serializers.DictField()
    occurred_at = serializers.DateTimeField()
    recorded_at = serializers.DateTimeField()
    prev_hash = serializers.CharField()
    hash = serializers.CharField()


class StreamReadSerializer(serializers.Serializer):
    stream_id = serializers.CharField()
    version = serializers.IntegerField()
    events = EventOutSerializer(many=True)


class GlobalReadSerializer(serializers.Serializer):
    events = EventOutSerializer(many=True)
    last_position = serializers.IntegerField()
    head = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)


class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(required=False)
    section = serializers.CharField(required=False)
    current_version = serializers.IntegerField(required=False)


class ExportSerializer(serializers.Serializer):
    """One sealed gaming day whose export can be downloaded."""

    gaming_day = serializers.DateField()
    seal_hash = serializers.CharField()
    merkle_root = serializers.CharField()
    public_key = serializers.CharField(help_text="Base64 raw Ed25519 key that signed the seal")
    fingerprint = serializers.CharField(help_text="SHA-256 of the raw public key, hex")
    development_key = serializers.BooleanField(
        help_text="True when signed with a development key: not valid for regulatory use"
    )
    sealed_at = serializers.DateTimeField()
    download = serializers.URLField(
        help_text="POST to this URL (no body) for the export's zip; each POST is one "
        "download, recorded in the ledger"
    )


class SigningKeySerializer(serializers.Serializer):
    """The casino's seal-signing key, as published to regulators."""

    algorithm = serializers.CharField()
    public_key = serializers.CharField(help_text="Base64 raw Ed25519 public key")
    fingerprint = serializers.CharField(help_text="SHA-256 of the raw public key, hex")
    development = serializers.BooleanField(
        help_text="True for a development key: not valid for regulatory use"
    )


class ExportListSerializer(serializers.Serializer):
    signing_key = SigningKeySerializer()
    exports = ExportSerializer(many=True)
