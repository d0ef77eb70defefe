"""meadowzoo: rule-faithful PettingZoo environments for Hase und Igel, Haste Bock? and Volle Wolle,
with baseline players, search players and self-play training.

The distribution installs one package, ``meadowzoo``, with the subpackages ``meadowzoo.envs`` (the
games), ``meadowzoo.agents`` (players) and ``meadowzoo.training`` (self-play, tournaments, command
lines). Importing it registers every game with PettingZoo (``meadowzoo/<game>-v0``) and the
single-agent self-play views with Gymnasium (``meadowzoo/HaseUndIgel-v0`` …)::

    import meadowzoo, pettingzoo, gymnasium
    env = pettingzoo.make("aec", "meadowzoo/hase_und_igel-v0", num_players=4)
    view = gymnasium.make("meadowzoo/VolleWolle-v0", opponents="random", num_players=2)
"""

from __future__ import annotations

import os as _os

# In the repository the subpackages live in the top-level folders envs/, agents/ and training/
# (the project's required layout); an installed wheel has them inside this folder, and setuptools'
# ``package-dir`` mapping points an editable install at the top-level folders. When this package is
# imported straight from a source checkout (pytest in the repository root, a git worktree) neither
# applies, so the checkout's root joins this package's search path. The test for "envs" inside
# this folder keeps an installed wheel from ever looking at site-packages' other top-level packages.
_here = _os.path.dirname(_os.path.abspath(__file__))
_root = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "envs")) and _os.path.isfile(
        _os.path.join(_root, "envs", "registry.py")) and _os.path.isfile(_os.path.join(_root, "pyproject.toml")):
    __path__.append(_root)  # noqa: F821  (a package's __path__)

from meadowzoo.envs import GAMES, env_id, game_module  # noqa: E402  (registers the PettingZoo envs)
from meadowzoo.training.gym_ids import GYM_IDS, register_gymnasium  # noqa: E402

register_gymnasium()

__version__ = "0.1.0"
__all__ = ["GAMES", "GYM_IDS", "env_id", "game_module", "__version__"]
