# Haste Bock? 2p compiled PPO from scratch, two recipes side by side, one core (device) each, 20 minutes of wall time each
cd "$(dirname "$0")/../../.." && mkdir -p results/jax_from_scratch/haste_bock_2p_recipes_s34/runs
common="--game haste_bock --players 2 --timesteps 60000000 --devices 1 --seed 0 --eval-every 1000000 --eval-games 40 --ladder random,greedy --checkpoint-every 5000000 --quiet"
taskset -c 0 timeout 1200 .venv/bin/python -m meadowzoo.training.train_jax $common --out results/jax_from_scratch/haste_bock_2p_recipes_s34/runs/h128 > results/jax_from_scratch/haste_bock_2p_recipes_s34/runs/h128.log 2>&1 &
taskset -c 1 timeout 1200 .venv/bin/python -m meadowzoo.training.train_jax $common --hidden 64,64 --update-epochs 1 --out results/jax_from_scratch/haste_bock_2p_recipes_s34/runs/h64e1 > results/jax_from_scratch/haste_bock_2p_recipes_s34/runs/h64e1.log 2>&1 &
wait
