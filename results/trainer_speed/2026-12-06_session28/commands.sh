# Session 28 (2026-12-06), this machine's two cores: the session-27 trainer (commit 06f5c19, in a git
# worktree) against this session's (fused policy-terms gradient, minibatches gathered one at a time),
# interleaved, two rounds per game; speed_<game>_<old|new>_<round>.json, the log in ab_speed.log
git worktree add /tmp/oldhead 06f5c19
for g in haste_bock hase_und_igel volle_wolle; do for round in 1 2; do for tree in old new; do
  dir=.; [ $tree = old ] && dir=/tmp/oldhead
  (cd $dir && python -m benchmarks.train_speed --game $g --players 2 --cores 2 --jax-updates 25 --skip-sb3 \
     --json speed_${g}_${tree}_$round.json)
done; done; done
# Haste Bock?'s breakdown with this session's trainer (haste_bock_breakdown_session28.json); the same
# command in the worktree gave the session-27 figures quoted in docs/jax.md
python -m benchmarks.train_breakdown --game haste_bock --cores 2 --json haste_bock_breakdown_session28.json
