"""A random driver of Hase und Igel that still finishes games, for soak runs and tests: pure
random runners hoard carrots and never meet the finishing limit (HUI-18), so random games would only ever
truncate. Not an agent of the ladder: a load generator that reaches endgames."""

from __future__ import annotations

import numpy as np

from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import GIVE_OFFSET, IS_LETTUCE, SLOT_ACTIONS


def racing_random(env, rng: np.random.Generator) -> int:
    """Uniform random 30% of the time; otherwise head for the Goal: finish when possible, visit
    lettuce squares while holding lettuce, shed surplus carrots once all lettuce is eaten."""
    legal = env.legal_actions()
    game = env.game
    moves_end = SLOT_ACTIONS * game.rpp
    forward = [a for a in legal if a < moves_end and a % SLOT_ACTIONS < 64]
    goal = [a for a in forward if a % SLOT_ACTIONS == data.GOAL - 1]
    if goal:
        return goal[0]
    if rng.random() < 0.3 or not forward:
        return legal[int(rng.integers(len(legal)))]
    player = game.cur
    if game.lettuces[player]:
        lettuce = [a for a in forward if IS_LETTUCE[a % SLOT_ACTIONS + 1]]
        if lettuce:
            return lettuce[0]
    elif game.carrots[player] > data.FINISH_LIMIT * (game.finished + 1):
        give = [a for a in legal if a == game.card_base + 1 or (a < moves_end and a % SLOT_ACTIONS == GIVE_OFFSET)]
        if give:
            return give[0]
        return forward[-1]
    return forward[int(rng.integers(len(forward)))]
