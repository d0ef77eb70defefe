"""Command lines around the games: play (``training.play``); training and tournaments follow."""
