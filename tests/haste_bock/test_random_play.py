"""Random simulation: >= 1,000 random games over 2, 3 and 4 players with per-step invariants."""

from __future__ import annotations

import numpy as np
import pytest

from meadowzoo.envs.core.rewards import rank_rewards
from meadowzoo.envs.haste_bock.rules import CARD, MOVE, PANIC, TILE, HasteBockGame
from tests.haste_bock.conformance import check_board

GAMES_PER_COUNT = 340  # x 3 player counts = 1,020 games


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_keep_the_invariants(num_players):
    rng = np.random.default_rng(num_players)
    ends = {"74": 0, "cards": 0}
    for seed in range(GAMES_PER_COUNT):
        game = HasteBockGame(num_players, rng=np.random.default_rng([num_players, seed]))
        last_time = 0
        while not game.is_over:
            legal = game.legal_actions()
            assert legal and legal == sorted(set(legal))
            action = legal[int(rng.integers(len(legal)))]
            pending, player = game.pending, game.player
            cards, pos, facing = sum(game.hands[player]), game.pos[:], game.facing
            game.apply(action)
            check_board(game)
            # time never moves backwards, stops at 37, moves only after a card (+ tile) decision
            assert last_time <= game.time <= 74 and not (last_time < 37 < game.time)
            if pending == PANIC:
                assert game.time == last_time
            if pending == CARD:  # the card leaves the game
                assert sum(game.hands[player]) == cards - 1
            if pending == MOVE:  # a card move moves a sheep or turns the flock (HB-10)
                assert game.pos != pos or game.facing != facing
            if game.pending == MOVE:
                assert game.player == player and pending == CARD
            if game.pending == TILE:
                assert game.player == player
            last_time = game.time
        assert game.current_agent == -1 and game.legal_actions() == []
        if game.time == 74:
            ends["74"] += 1
        else:  # HB-24: the only other end is that nobody holds a card
            assert all(sum(h) == 0 for h in game.hands)
            ends["cards"] += 1
        rewards = rank_rewards(game.places(), game.teams())
        assert abs(sum(rewards)) < 1e-9
    assert ends["74"] > 0

