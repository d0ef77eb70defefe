"""Monte Carlo tree search for every meadowzoo game, blind to hidden information.

The search is *information-set MCTS* with one open-loop tree (Cowling, Powley & Whitehouse 2012,
"single-observer ISMCTS"):

* Before every simulation the real env is cloned and the copy's hidden parts are redrawn with
  ``game.resample_hidden(seat, rng)`` — the unseen hare-deck order, the Volle Wolle draw pile and
  other players' unrevealed bids — consistently with what the deciding seat knows, and future
  chance (dice, reshuffles) is reseeded. The search therefore never reads the real hidden state:
  two states that differ only in hidden parts give the same decision for the same seed.
* The tree is over AEC decisions: a node is the sequence of actions from the root, whoever takes
  them, so a turn made of several decisions of one player (Haste Bock? card → move → tile) and
  chance inside ``apply`` (dice, shuffles) need no special case. Because a determinization may
  allow different actions at the same node, selection only considers actions legal in the current
  copy and uses *availability counts* in the UCB exploration term.
* Statistics are per seat: each edge keeps the sum of every player's final reward (the env's rank
  rewards in [-1, 1]), and the player to move at a node picks by its own column, so the search
  works unchanged for 2 to 6 players and for teams (team-mates share rewards).
* A simulation plays on from the new leaf with a rollout policy (uniform random by default, or any
  registered agent, e.g. ``greedy`` or ``strong``) for at most ``depth`` decisions; a rollout cut
  short is scored by a *leaf value* (``leaf=public``: :func:`meadowzoo.agents.values.state_values`, a cheap
  public-state guess; ``leaf=strong``: the strong heuristic's evaluation, see
  :mod:`meadowzoo.agents.guides`); a ``max_turns`` truncation scores 0 for everybody, as in the env.
* Optional heuristic guidance (:mod:`meadowzoo.agents.guides`, chosen by game name): with ``prior=strong``
  and ``width=K`` a node only considers the K actions the strong heuristic ranks best (scored once,
  on the determinization that first reaches the node; actions a later determinization allows
  outside that set are considered only when none of the set is legal there). ``tree=T`` caps the
  tree at T decisions below the root — ``tree=1`` is flat Monte Carlo over the root's candidates,
  which spends the budget on many determinizations (dice, decks) and long rollouts instead of a
  deep tree, the better use of a small budget in games with much chance.

The decision is the most visited root action (ties: the higher mean value, then the lower index).

Command-line spec: ``mcts:N`` (``N`` simulations per decision), optionally followed by
``:key=value`` settings, e.g. ``mcts:200:rollout=greedy:depth=40:c=1.0`` or
``mcts:24:rollout=strong:depth=12:leaf=strong:prior=strong:width=3:tree=1`` (the settings measured
against the strong heuristic per game are in ``results/acceptance.sh`` and ``results/README.md``).
"""

from __future__ import annotations

import math
from typing import Any

from meadowzoo.agents.base import Agent
from meadowzoo.agents.guides import LEAF_KINDS, PRIOR_KINDS, action_scores, leaf_values, top_actions
from meadowzoo.envs.core.rewards import rank_rewards
from meadowzoo.envs.registry import plugin

#: rollout length cap (decisions after the leaf) for a search not bound to a game; a game's own cap
#: is its plug-in's ``search.rollout_depth`` (long random games need a short cut)
DEFAULT_DEPTH = 200


class _Edge:
    """Statistics of one action at one node, plus the node it leads to."""

    __slots__ = ("visits", "available", "totals", "children", "candidates")

    def __init__(self, num_agents: int) -> None:
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * num_agents
        self.children: dict[int, _Edge] = {}
        self.candidates: frozenset[int] | None = None  # the prior's top actions at the node below


class MCTSAgent(Agent):
    """Information-set MCTS with a fixed number of simulations per decision."""

    name = "mcts"

    def __init__(
        self,
        simulations: int = 200,
        seed: int | None = None,
        *,
        c: float = 1.0,
        rollout: str = "random",
        depth: int | None = None,
        leaf: str = "public",
        prior: str = "none",
        width: int = 0,
        tree: int = 0,
        game: str | None = None,
    ) -> None:
        super().__init__(seed)
        if simulations < 1:
            raise ValueError(f"mcts needs at least 1 simulation, got {simulations}")
        if leaf not in LEAF_KINDS:
            raise ValueError(f"mcts leaf must be one of {LEAF_KINDS}, got {leaf!r}")
        if prior not in PRIOR_KINDS:
            raise ValueError(f"mcts prior must be one of {PRIOR_KINDS}, got {prior!r}")
        if not math.isfinite(c) or c < 0:
            raise ValueError(f"mcts c (the exploration constant) must be a finite number >= 0, got {c}")
        for what, value in (("depth", depth), ("width", width), ("tree", tree)):
            if value is not None and value < 0:
                raise ValueError(f"mcts {what} must be at least 0, got {value}")
        # the prior only narrows the search to its `width` best actions: one without the other does nothing
        if width and prior == "none":
            raise ValueError(f"mcts width={width} needs prior=strong (the prior ranks the actions kept)")
        if prior != "none" and not width:
            raise ValueError(f"mcts prior={prior} needs width=K >= 1 (the prior keeps its K best actions)")
        self.simulations = int(simulations)
        self.c = float(c)
        self.rollout = rollout
        if depth is None:
            depth = DEFAULT_DEPTH if game is None else plugin(game).search.rollout_depth
        self.depth = int(depth)
        self.leaf = leaf
        self.prior = prior
        self.width = int(width)
        self.tree = int(tree)  # 0: no cap
        self.game_name = game
        self._rollout_agent: Agent | None = None
        if rollout != "random":
            from meadowzoo.agents.registry import make_agent  # late: the registry imports this module

            self._rollout_agent = make_agent(rollout, game, seed=None)
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        if self._rollout_agent is not None:
            self._rollout_agent.seed(int(self.rng.integers(2**63)))

    # ---- the decision -------------------------------------------------------------------------
    def act(self, env: Any, agent: str) -> int:
        legal = env.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = env.game.current_agent
        n = len(env.possible_agents)
        root = _Edge(n)
        for _ in range(self.simulations):
            copy = env.clone()
            copy.game.resample_hidden(seat, self.rng)
            copy._refresh()
            self._simulate(copy, root, n)
        best = max(
            legal,
            key=lambda a: (root.children[a].visits, root.children[a].totals[seat] / max(1, root.children[a].visits), -a)
            if a in root.children else (0, -math.inf, -a),
        )
        return int(best)

    def _simulate(self, env: Any, root: _Edge, n: int) -> None:
        path: list[tuple[_Edge, int]] = []  # (edge taken, seat that took it)
        node = root
        expanded = False
        values: list[float] | None = None
        while True:
            values = self._outcome(env)
            if values is not None:
                break
            if self.tree and len(path) >= self.tree:
                values = self._rollout(env)
                break
            seat = env.game.current_agent
            legal = self._candidates(env, node)
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(self.rng.integers(len(untried)))]
                edge = children[action] = _Edge(n)
                expanded = True
            else:
                action, edge = self._select(children, legal, seat)
            for a in legal:
                sibling = children.get(a)
                if sibling is not None:
                    sibling.available += 1
            env.step(action)
            path.append((edge, seat))
            node = edge
            if expanded:
                values = self._rollout(env)
                break
        for edge, _ in path:
            edge.visits += 1
            totals = edge.totals
            for p in range(n):
                totals[p] += values[p]

    def _candidates(self, env: Any, node: _Edge) -> list[int]:
        """The legal actions the search considers at ``node`` (all, or the prior's top ``width``)."""
        legal = env.legal_actions()
        if self.prior == "none" or len(legal) == 1:
            return legal
        if node.candidates is None:
            scores = action_scores(self.prior, env.game, legal, self.rng)
            node.candidates = frozenset(top_actions(scores, legal, self.width))
        kept = [a for a in legal if a in node.candidates]
        return kept or legal

    def _select(self, children: dict[int, _Edge], legal: list[int], seat: int) -> tuple[int, _Edge]:
        best_action, best_edge, best_score = -1, None, -math.inf
        c = self.c
        for action in legal:
            edge = children[action]
            score = edge.totals[seat] / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best_score:
                best_action, best_edge, best_score = action, edge, score
        return best_action, best_edge

    # ---- leaves ---------------------------------------------------------------------------------
    @staticmethod
    def _outcome(env: Any) -> list[float] | None:
        """Per-seat result if the game has ended or was truncated, else None."""
        game = env.game
        if game.is_over:
            return rank_rewards(game.places(), game.teams())
        if env.truncations[env.agent_selection]:
            return [0.0] * game.num_agents
        return None

    def _rollout(self, env: Any) -> list[float]:
        policy = self._rollout_agent
        rng = self.rng
        for _ in range(self.depth):
            values = self._outcome(env)
            if values is not None:
                return values
            if policy is None:
                legal = env.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            else:
                action = policy.act(env, env.agent_selection)
            env.step(action)
        values = self._outcome(env)
        return values if values is not None else leaf_values(self.leaf, env.game)


def parse_spec(parameter: str | None, game: str, seed: int | None) -> MCTSAgent:
    """Build an agent from the part of ``mcts:N[:key=value...]`` after ``mcts:``."""
    settings: dict[str, Any] = {}
    simulations = 200
    for i, token in enumerate((parameter or "").split(":")):
        if not token:
            continue
        key, eq, value = token.partition("=")
        if eq and key in settings:
            raise ValueError(f"mcts setting {key!r} given twice in {parameter!r}")
        if not eq and i == 0:
            simulations = _number(token, int, "simulations")
        elif key in ("c",):
            settings[key] = _number(value, float, key)
        elif key in ("depth", "width", "tree"):
            settings[key] = _number(value, int, key)
        elif key == "rollout" and value:
            settings[key] = value.replace("+", ":")
        elif key in ("leaf", "prior") and value:
            settings[key] = value
        else:
            raise ValueError(f"bad mcts setting {token!r}; use mcts:N[:c=1.0][:depth=60][:rollout=random|greedy|...]"
                             "[:leaf=public|strong][:prior=none|strong][:width=K][:tree=T]")
    return MCTSAgent(simulations, seed, game=game, **settings)


def _number(text: str, kind: type, what: str) -> Any:
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"mcts {what} must be a number, got {text!r}") from None
