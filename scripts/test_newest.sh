#!/usr/bin/env bash
# The environments, players and SB3 training against the newest releases a user gets.
# The main venv (scripts/test.sh) carries the ray extra, and Ray pins its own gymnasium (1.2.x),
# while `pip install meadowzoo[train]` brings the newest gymnasium that PettingZoo and
# Stable-Baselines3 allow. This second venv (.venv-newest; MEADOWZOO_NEWEST_VENV moves it) has the
# train and dev extras only, upgraded on every run, and runs the tests that need nothing else.
# CI runs it after the main suite (.ci/run); arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${MEADOWZOO_NEWEST_VENV:-.venv-newest}"
extras="train,dev"
fresh=1
[ -x "$venv/bin/python" ] && fresh=0
MEADOWZOO_VENV="$venv" MEADOWZOO_EXTRAS="$extras" bash scripts/setup.sh
# the newest releases of every dependency, not the venv's: pip's default strategy upgrades only
# what no longer satisfies the requirements. A venv setup.sh has just made holds the newest already
# (as on CI's clean clone), so it is not resolved twice.
if [ "$fresh" = 0 ]; then
  "$venv/bin/python" -m pip install -q --upgrade --upgrade-strategy eager -e ".[$extras]"
fi
"$venv/bin/python" -c "import gymnasium, pettingzoo, numpy, stable_baselines3 as sb3
print(f'newest releases: gymnasium {gymnasium.__version__}, pettingzoo {pettingzoo.__version__}, '
      f'numpy {numpy.__version__}, stable-baselines3 {sb3.__version__}')"
exec "$venv/bin/python" -m pytest -n auto -q -p no:cacheprovider \
  tests/core tests/hase_und_igel tests/haste_bock tests/volle_wolle tests/agents \
  tests/training/test_gym_view.py tests/training/test_selfplay.py tests/training/test_train.py \
  tests/training/test_train_resume.py tests/training/test_episode_replay.py tests/training/test_tournament.py \
  tests/training/test_stats.py "$@"
