"""Why the ledger refused a submission. Each maps to one HTTP status."""

from __future__ import annotations


class LedgerError(Exception):
    status_code = 400
    reason = "bad_request"

    def __init__(self, message: str, *, field: str = "", section: str = "", **extra: object):
        super().__init__(message)
        self.message = message
        self.field = field
        self.section = section
        self.extra = extra
        #: Set once the refusal is in RejectedSubmission, so it is kept once.
        self.recorded = False

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"error": self.reason, "message": self.message}
        if self.field:
            body["field"] = self.field
        if self.section:
            body["section"] = self.section
        body.update(self.extra)
        return body


class MalformedSubmission(LedgerError):
    reason = "malformed"


class SchemaViolation(LedgerError):
    reason = "schema_violation"


class RuleViolation(LedgerError):
    """The regulation forbids the event given the stream so far."""

    reason = "rule_violation"


class NotAuthenticated(LedgerError):
    status_code = 401
    reason = "not_authenticated"


class Forbidden(LedgerError):
    status_code = 403
    reason = "forbidden"


class UnknownStream(LedgerError):
    status_code = 404
    reason = "unknown_stream"


class ArchivedStream(LedgerError):
    """The stream's events were archived and detached by retention."""

    status_code = 410
    reason = "archived_stream"


class StaleVersion(LedgerError):
    status_code = 409
    reason = "stale_version"


class PayloadTooLarge(LedgerError):
    """A body larger than the API reads (``API_MAX_BODY_BYTES``): refused unread."""

    status_code = 413
    reason = "too_large"


class IdempotencyConflict(LedgerError):
    status_code = 422
    reason = "idempotency_key_reused"
