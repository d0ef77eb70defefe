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
# the learning probe of session 27 (Volle Wolle 2p, bfloat16, 8M learner steps) with the fused loss
# gradient, seeds 0-3, each final network then 400 games against strong (fused_probe/)
for seed in 0 1 2 3; do
  python -m meadowzoo.training.train_jax --game volle_wolle --players 2 --timesteps 8000000 --seed $seed --devices 2 \
    --eval-every 2000000 --eval-games 100 --ladder greedy,strong --matmul-dtype bfloat16 --loss-gradient fused \
    --out runs/vw2_fused_s$seed --quiet
  python -m meadowzoo.training.evaluate --game volle_wolle --players 2 --agents sampled:runs/vw2_fused_s$seed/policy.npz,strong \
    --games 400 --seed 0 --workers 2
done
python results/trainer_speed/2026-12-06_session28/gradient_agreement.py > gradient_agreement.txt
