"""Volle Wolle (Zoch 2007): a dice-bidding game for the best sheep cards, as a PettingZoo AEC env."""
