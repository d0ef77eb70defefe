"""The browser app: play against agents, watch and replay games (``meadowzoo-serve``).

Modules: :mod:`.server` (HTTP + JSON API), :mod:`.session` (one game in progress), :mod:`.views`
(what one seat may see, drawn), :mod:`.replay` (records and saved games), :mod:`.gif` (export);
``static/`` holds the page. Each game's view and drawing live beside it (``envs/<game>/view.py``,
``envs/<game>/drawing.py``).
"""
