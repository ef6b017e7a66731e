"""The games a table device may record rounds of, read from the engine's registry.

``GET /api/v1/games``: each game's layout (card spots), wagers, steps with
their choices, opening options and rule sets, with the sections they come
from: the names ``round.*`` events may use. A new game module appears here
with no edit.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.api.views import HasRole
from tables.rules import registry


class GamesView(APIView):
    permission_classes = [HasRole]

    @extend_schema(
        summary="Games, their declared wagers, card spots, choices and options",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, version: str = "v1") -> Response:
        described = []
        for game_id in registry.game_ids():
            game = registry.declared(game_id)
            family = registry.blackjack(game_id)
            if game is not None:
                described.append(registry.describe(game))
            elif family is not None:
                described.append(registry.describe_blackjack(family))
        return Response({"games": described})
