"""Everything around the games: self-play view and opponent pool, training, tournaments, play.

The Gymnasium self-play views (``meadowzoo/HaseUndIgel-v0`` …) are registered by ``import meadowzoo``
(:mod:`meadowzoo.training.gym_ids`).
"""
