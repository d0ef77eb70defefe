"""Everything around the games: self-play view and opponent pool, training, tournaments, play.

Importing this package registers the Gymnasium self-play views (``meadowzoo/HaseUndIgel-v0`` …).
"""

from training.selfplay import register_gymnasium

register_gymnasium()
