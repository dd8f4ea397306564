"""Each game gives its standing columns in its own folder (services/rules/games/<game>/standings.py),
found by game id; a game without them gets the generic fields."""

from __future__ import annotations

import pytest

from clients.tui.table import game_standing_columns, standings
from services.rules import registry


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_game_gives_its_standing_columns_in_its_folder(game_id: str) -> None:
    columns = game_standing_columns(game_id)
    assert columns, game_id
    engine = registry.get_engine(game_id)
    labels, values = standings(game_id, engine.view(engine.new_game(engine.spec.min_players, {}, 3), 0))
    assert labels == [label for label, _ in columns]
    assert len(values) == engine.spec.min_players


def test_a_game_this_client_does_not_know_gets_the_generic_fields() -> None:
    assert game_standing_columns("a_game_not_registered") is None
    engine = registry.get_engine("a_la_carte_cards")  # its players have a score
    view = engine.view(engine.new_game(2, {}, 1), 0)
    labels, values = standings("a_game_not_registered", view)
    assert labels == ["score"]
    assert values == {seat: [str(player.score)] for seat, player in enumerate(view.players)}
