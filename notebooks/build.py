"""Write the walk-through notebooks and execute them so the committed copies show their outputs.

    python notebooks/build.py            # all notebooks
    python notebooks/build.py training   # one of them

The notebooks are code here (cells as strings) so that they stay reviewable in diffs; the test
suite executes the committed ``.ipynb`` files top to bottom (nbmake).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # run as a script: this checkout's meadowzoo, not another one

from meadowzoo.envs import GAMES, plugin  # noqa: E402


def game_notebook(game: str) -> list[tuple[str, str]]:
    """The walk-through of one game, written from its plug-in's title and ``notebook`` facts."""
    declared = plugin(game)
    title, players, blurb = declared.title, declared.notebook.players, declared.notebook.blurb
    return [
        ("markdown", f"# {title}\n\n{blurb}\n\nThis notebook shows the rules in pictures (`rgb_array` "
                     "frames of a seeded game), what an observation and an action mask look like, and the "
                     "random and heuristic players against each other. Rules: "
                     f"[`docs/rules/{game}.md`](../docs/rules/{game}.md); the full specification is the "
                     f"docstring of `envs/{game}/env.py`."),
        ("code", f"import numpy as np\nimport matplotlib.pyplot as plt\nimport meadowzoo\nfrom meadowzoo.envs import {game}_v0\n"
                 "from meadowzoo.agents import make_agent\n"
                 f"env = {game}_v0.raw_env(num_players={players}, render_mode='rgb_array')\nenv.reset(seed=7)\n"
                 "print(env.possible_agents, env.action_space('player_0'))"),
        ("markdown", "## A seeded game in pictures\nThe `strong` heuristic plays every seat; we keep a frame "
                     "every few decisions."),
        ("code", f"players = {{a: make_agent('strong', '{game}', seed=i) for i, a in enumerate(env.possible_agents)}}\n"
                 "frames, steps = [env.render()], 0\n"
                 "while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]) and steps < 60:\n"
                 "    agent = env.agent_selection\n"
                 "    env.step(players[agent].act(env, agent))\n"
                 "    steps += 1\n"
                 "    if steps % 20 == 0:\n"
                 "        frames.append(env.render())\n"
                 "fig, axes = plt.subplots(len(frames), 1, figsize=(10, 4.2 * len(frames)))\n"
                 "for ax, frame in zip(np.atleast_1d(axes), frames):\n"
                 "    ax.imshow(frame); ax.axis('off')\n"
                 "plt.tight_layout(); plt.show()"),
        ("markdown", "## Observation and action mask\nEvery agent sees a float32 vector from its own seat; only "
                     "the agent to move has a non-zero mask. Each legal index has a readable name."),
        ("code", "agent = env.agent_selection\nobs = env.observe(agent)\n"
                 "print('observation', obs['observation'].shape, obs['observation'].dtype)\n"
                 "print('legal actions of', agent, ':')\n"
                 "for a in np.flatnonzero(obs['action_mask'])[:12]:\n"
                 "    print(f'  {a:4d}  {env.action_to_string(int(a))}')\n"
                 "others = [a for a in env.possible_agents if a != agent]\n"
                 "print('other masks empty:', all(not env.observe(a)['action_mask'].any() for a in others))"),
        ("markdown", "## Random against the heuristics\nA few seat-balanced two-player games each (the full "
                     "tables with confidence intervals come from `meadowzoo.training.evaluate`, see "
                     "[`results/README.md`](../results/README.md))."),
        ("code", "from meadowzoo.training.evaluate import evaluate\nfrom meadowzoo.training.stats import interval_text\n"
                 f"game = '{game}'\n"
                 "for hero, opponent in [('greedy', 'random'), ('strong', 'greedy')]:\n"
                 "    pair = evaluate(game, 2, [hero, opponent], games=10, seed=1, progress=False)['head_to_head'][f'{hero}|{opponent}']\n"
                 "    print(f\"{hero:>6} vs {opponent:<6}: placed better in {pair['share']:.0%} of 10 games, 95% CI {interval_text(pair['share_ci'])}\")"),
    ]


def training_notebook() -> list[tuple[str, str]]:
    return [
        ("markdown", "# Training walk-through\n\nA short self-play MaskablePPO run on Volle Wolle (2 players): "
                     "the Gymnasium view, the training command, the learning curve. Real runs use the same "
                     "command with more timesteps (see [`results/README.md`](../results/README.md))."),
        ("code", "import gymnasium, numpy as np, meadowzoo\n"
                 "view = gymnasium.make('meadowzoo/VolleWolle-v0', opponents='random,greedy', num_players=2)\n"
                 "obs, info = view.reset(seed=0)\n"
                 "print(view.observation_space, view.action_space, 'learner seat', info['seat'])\n"
                 "print('legal actions now:', np.flatnonzero(info['action_mask']))"),
        ("code", "import tempfile, csv\nfrom meadowzoo.training.train import main\n"
                 "out = tempfile.mkdtemp()\n"
                 "final = main(['--game', 'volle_wolle', '--players', '2', '--timesteps', '2048', '--n-envs', '1',\n"
                 "              '--n-steps', '256', '--batch-size', '64', '--eval-every', '512', '--eval-games', '8',\n"
                 "              '--ladder', 'random', '--out', out, '--quiet', '--seed', '0'])"),
        ("code", "import matplotlib.pyplot as plt\n"
                 "rows = list(csv.DictReader(open(f'{out}/evaluations.csv')))\n"
                 "steps = [int(r['timesteps']) for r in rows]\n"
                 "plt.plot(steps, [float(r['score_vs_random']) for r in rows], marker='o', label='vs random')\n"
                 "plt.xlabel('timesteps'); plt.ylabel('score (1 = always first)'); plt.ylim(0, 1); plt.legend(); plt.show()"),
        ("markdown", "The policy is saved weights-only (`policy.pt`) and plays as `policy:<path>` in "
                     "`meadowzoo.training.evaluate` and `meadowzoo.training.play`."),
        ("code", "from meadowzoo.agents import make_agent\nagent = make_agent(f'policy:{out}/policy.pt', 'volle_wolle')\nprint(agent.name)"),
    ]


def evaluation_notebook() -> list[tuple[str, str]]:
    return [
        ("markdown", "# Evaluation walk-through\n\nTournaments between players: seat-balanced schedules, win shares "
                     "and mean ranks with 95% intervals, per-seat results and ratings (OpenSkill for any number "
                     "of players, Bradley–Terry Elo). First a small live tournament, then the stored 400-game "
                     "acceptance runs behind the tables of "
                     "[`results/README.md`](../results/README.md)."),
        ("code", "from meadowzoo.training.evaluate import evaluate, agent_table, seat_table\n"
                 "live = evaluate('haste_bock', 4, ['strong', 'greedy', 'random', 'random'], games=8, seed=0, progress=False)\n"
                 "print(agent_table(live))\nprint(seat_table(live))"),
        ("code", "import json\nfrom pathlib import Path\nimport matplotlib.pyplot as plt\n"
                 "root = Path.cwd() if (Path.cwd() / 'results').is_dir() else Path.cwd().parent  # run from notebooks/ or the root\n"
                 "runs = {path.parent.name: json.load(open(path)) for path in sorted(root.glob('results/*_4p_ladder/results.json'))}\n"
                 "assert runs, 'no stored tournament results found'\n"
                 "fig, axes = plt.subplots(1, len(runs), figsize=(5 * len(runs), 3.5), squeeze=False)\n"
                 "for ax, (name, run) in zip(axes[0], runs.items()):\n"
                 "    for agent in run['agents']:\n"
                 "        seats = sorted(run['per_seat'][agent], key=int)\n"
                 "        ax.plot([int(s) for s in seats], [run['per_seat'][agent][s]['mean_rank'] for s in seats], marker='o', label=agent)\n"
                 "    ax.set_title(name); ax.set_xlabel('seat'); ax.set_ylabel('mean rank (1 = first)'); ax.legend()\n"
                 "plt.tight_layout(); plt.show()"),
        ("code", "for name, run in runs.items():\n"
                 "    ratings = sorted(run['openskill'].items(), key=lambda kv: -kv[1]['ordinal'])\n"
                 "    print(name, '  '.join(f\"{a}: {r['mu']:.1f}±{r['sigma']:.1f}\" for a, r in ratings))"),
    ]


#: notebook name -> its cells: one walk-through per game whose plug-in has notebook facts, then these
NOTEBOOKS = {
    **{game: functools.partial(game_notebook, game) for game in GAMES if plugin(game).notebook is not None},
    "training": training_notebook,
    "evaluation": evaluation_notebook,
}


def build(name: str) -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for kind, source in NOTEBOOKS[name]():
        cell = nbformat.v4.new_markdown_cell(source) if kind == "markdown" else nbformat.v4.new_code_cell(source)
        notebook.cells.append(cell)
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(HERE)}}).execute()  # as the tests run them
    path = HERE / f"{name}.ipynb"
    nbformat.write(notebook, path)
    return path


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="notebooks/build.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"notebooks to build (default all: {', '.join(NOTEBOOKS)})")
    args = parser.parse_args(argv)
    for name in args.names:
        if name not in NOTEBOOKS:
            parser.error(f"argument NAME: unknown notebook {name!r}; choose from {', '.join(NOTEBOOKS)}")
    for name in args.names or NOTEBOOKS:
        print("built", build(name))


if __name__ == "__main__":
    main(sys.argv[1:])
