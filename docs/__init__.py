"""The documentation's helpers (``python -m docs.pictures`` redraws the README pictures)."""
