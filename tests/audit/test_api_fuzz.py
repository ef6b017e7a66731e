"""Whatever a device sends, the append endpoint answers 2xx or 4xx, never 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.roles import Role

pytestmark = pytest.mark.django_db

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
events = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["test.counted", "round.opened", "round.card_dealt", "x"])
        | st.text(max_size=20)
    },
    optional={
        "payload": values
        | st.fixed_dictionaries(
            {"writer": st.integers(), "seq": st.integers()},
            optional={"amount": st.integers() | st.floats()},
        ),
        "occurred_at": st.text(max_size=30) | st.just("2024-05-01T10:00:00Z"),
        "metadata": values,
    },
)
bodies = (
    st.fixed_dictionaries(
        {},
        optional={
            "expected_version": st.integers(-2, 3) | scalars,
            "events": st.lists(events, max_size=3),
        },
    )
    | values
)
streams = st.sampled_from(["test:fuzz", "round:fuzz", "nokind:1", "test:a:b", "round:"])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stream=streams, body=bodies)
def test_the_append_endpoint_never_answers_500(api_client, role_users, stream, body):
    api_client.force_authenticate(role_users[Role.SYSTEM])
    response = api_client.post(
        f"/api/v1/streams/{stream}/events", json.dumps(body), content_type="application/json"
    )
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert set(response.json()) >= {"error", "message"}
