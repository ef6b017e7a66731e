"""Throttling of the API (DRF), counted in Django's cache.

Without valid credentials a client is counted per address, and refused past
its rate *before* anything of its request is stored (``LedgerAPIView`` checks
throttles before permissions, and an invalid token is counted as anonymous
before its 401 is recorded). With them, per token (a session where there is
none): a device that misbehaves is slowed down without slowing its neighbours.
"""

from __future__ import annotations

import hashlib

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class _Throttle(SimpleRateThrottle):
    def get_rate(self):
        # Read when asked, not when the class was defined (DRF's default), so a
        # change of settings (a test's) takes effect.
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]


class AddressThrottle(_Throttle):
    """Requests without valid credentials, per client address (``NUM_PROXIES``
    decides whether ``X-Forwarded-For`` is believed)."""

    scope = "anonymous"

    def get_cache_key(self, request, view):
        if request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(_Throttle):
    """Authenticated requests, per token (its digest: the key is a secret), or
    per account for a session."""

    scope = "token"

    def get_cache_key(self, request, view):
        user = request.user
        if not user.is_authenticated:
            return None
        token = getattr(request.auth, "pk", None)
        if token is not None:
            ident = "token-" + hashlib.sha256(str(token).encode()).hexdigest()[:32]
        else:
            ident = f"user-{user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
