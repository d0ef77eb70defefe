"""Compiled self-play PPO over a batch of games of any meadowzoo JAX engine (in the manner of PureJaxRL).

``trainer = SelfPlayPPO(env, config)`` for an engine of :func:`meadowzoo.jax.make`;
``runner = trainer.setup(seed)`` makes the whole training state (a pytree: network, optimizer,
the games in flight, the opponent population, the random key); ``runner, metrics =
trainer.update(runner)`` runs one compiled update: the rollout of ``num_steps`` learner decisions in
each of ``num_envs`` games, the opponents' moves between them, GAE and the PPO epochs. Nothing leaves
the compiled function but the metrics; the same seed gives the same run, and a runner saved between
updates and restored continues exactly as if never stopped.

The learner and its opponents
-----------------------------
Each game seats the learner at a random seat (drawn again for every new game); every other seat
is played by the opponent of its game's *slot*: game ``i`` plays slot ``i // (num_envs /
opponent_slots)``, and each update draws a population member for each slot
(:mod:`meadowzoo.training.jax_population`: frozen Elo-rated snapshots of the learner). Opponents
sample from their masked policy (as the learner does: the ``sampler`` setting,
:mod:`meadowzoo.training.jax_sampling`). A game in flight at the end of an update goes on in the next one
against that update's opponent of its slot; its result rates the member it finished against.

One *learner step* is: the learner acts on its observation and legal-action mask
(``state.observation`` and ``state.legal_action_mask`` of the engine, the PettingZoo env's
encoding), then the opponents move until it is the learner's turn again, in a
``lax.while_loop`` over the batch. A game that ends in between — on the learner's move or on any
opponent's — gives the learner its own final reward (``state.rewards[seat]``: by rank, +1 first,
−1 last) on that learner step, which is then terminal for GAE; the game is replaced by a fresh
one at once. Games may be cut after ``max_game_decisions`` decisions (all seats counted) or when
the engine truncates them; a cut game is scored as a draw (0) or by the standing at the cut
(``truncation_scoring="standing"``: the engine's ``standing_rewards``, the PettingZoo env's
standing at a cut).

The pass cap (``passes_per_step``). Under ``vmap`` every pass of that loop costs the whole batch,
so without a cap one learner step costs as many passes as the longest run of opponent moves in
any of the ``num_envs`` games (Haste Bock? 2p: 5 passes, though most learner moves are followed
by none). With a cap of ``k``, each game makes at most ``k`` moves per learner step: its learner's
(or, where the cap stopped it at an opponent's turn before, that opponent's), then opponents'. A
step in which a game's learner did not move is not a learner decision: it is left out of the loss
and of the ``learner_steps`` count, and what it brought (rewards, the game's end) joins the
learner's previous step (:func:`gae_with_gaps`). After the rollout the games the cap left at an
opponent's turn play on, uncapped, to their learner's turn, so that every update starts with every
game at it. With a cap, ``anneal_timesteps`` anneals by the learner steps counted so far, and
the PPO epochs run over ``epoch_share`` of the rollout's rows, its learner decisions first
(:func:`valid_rows_first`): the steps that were not the learner's cost the epochs nothing. An
update whose learner decisions do not fit in that share runs its epochs over every row, as before.
``opponents_in_first_pass=False`` keeps the first pass for learners' moves: a game the cap left at an
opponent's turn waits for the second pass, and the first pass runs no opponent forward pass (one
actor pass less per learner step, where the first pass rarely needs it; the learner meets the same
games, only some take one more step that is not its learner's).

Devices
-------
With ``devices`` > 1 (settings; on the CPU one device per core, :func:`meadowzoo.jax.use_cpu_devices`)
the update runs data-parallel (``jax.pmap``): each device plays its share of the ``num_envs`` games
(every opponent slot on each device) and computes gradients on its share; the gradients are averaged
over the devices, so the network, the optimizer and the population stay identical everywhere
(the population is rated on every device from all games' results). ``setup`` and ``update``
then work on the *device form* of the runner (every leaf with a leading device axis);
:meth:`SelfPlayPPO.gathered` gives the ordinary runner (checkpoints, export) and
:meth:`SelfPlayPPO.scattered` turns one back. The draws differ from a one-device run of the same
seed (each device folds its index into the rollout and minibatch keys); a run stays reproducible
for the same seed and device count.

Score shaping (``score_shaping`` > 0): potential-based shaping (Ng, Harada & Russell 1999) with
the potential ``phi = score_shaping * (learner's points - best other player's points)`` (the
engine's ``scores``; 0 once a game is over). Each rollout step adds ``gamma * phi(after) -
phi(before)`` to the learner's reward for GAE (:func:`shaping_terms`); over a game these telescope,
so the ranking at the end still decides what is best, while points count the moment they are won.
The population is rated, and rewards are reported, unshaped.

Metrics (per update, host side): the learner's mean final reward and win share over the games that
finished in the rollout, their count, the PPO losses, entropy, approximate KL, the learner's and
the best member's Elo, the population size and whether a snapshot was taken.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import struct

from meadowzoo.training import jax_population
from meadowzoo.training.jax_config import JaxTrainConfig
from meadowzoo.training.jax_network import ActorCritic
from meadowzoo.training.jax_policy_terms import policy_terms
from meadowzoo.training.jax_sampling import sample


@struct.dataclass
class Runner:
    params: dict
    opt_state: optax.OptState
    games: object  # the engine's batched state
    seat: jax.Array  # (num_envs,) the learner's seat per game
    decisions: jax.Array  # (num_envs,) decisions played in each game so far
    population: jax_population.Population
    key: jax.Array
    updates: jax.Array  # () int32
    learner_steps: jax.Array  # () int32: the learner's decisions so far (all devices)


def _select(mask: jax.Array, new, old):
    """Per game: ``new`` where ``mask``, else ``old`` (pytrees with a leading game axis)."""
    def pick(a, b):
        return jnp.where(mask.reshape(mask.shape + (1,) * (a.ndim - 1)), a, b)
    return jax.tree_util.tree_map(pick, new, old)


#: the pmap axis of a data-parallel update
AXIS = "devices"
#: the runner's fields, and those split over the devices (the rest is copied to each)
_FIELDS = ("params", "opt_state", "games", "seat", "decisions", "population", "key", "updates", "learner_steps")
_SPLIT = ("games", "seat", "decisions")


def _map_fields(runner: Runner, split, copy) -> Runner:
    """``runner`` with ``split`` applied to every leaf of the per-game fields (:data:`_SPLIT`)
    and ``copy`` to every leaf of the others: between the ordinary and the device form."""
    return runner.replace(**{name: jax.tree_util.tree_map(split if name in _SPLIT else copy, getattr(runner, name))
                             for name in _FIELDS})


class SelfPlayPPO:
    def __init__(self, env, config: JaxTrainConfig) -> None:
        self.env, self.config = env, config
        self.players = int(env.num_players)
        self.devices = config.devices
        self.local_envs = config.num_envs // config.devices  # games per device (the config checks it divides)
        self.network = ActorCritic(int(env.observation_shape[0]), int(env.num_actions), config.hidden,
                                   config.activation, config.conv, env.board_shape, config.matmul_dtype)
        self.optimizer = optax.chain(optax.clip_by_global_norm(config.max_grad_norm),
                                     optax.adam(self._learning_rate(), eps=1e-5))
        self._init = jax.vmap(env.init)
        self._step = jax.vmap(env.step)
        self._standing = jax.vmap(env.standing_rewards)
        self._scores = jax.vmap(env.scores)
        self._setup_jit = jax.jit(self._setup)
        if self.devices == 1:
            self.update = jax.jit(self._update)
        else:
            if jax.local_device_count() < self.devices:
                raise ValueError(
                    f"devices={self.devices} but JAX has {jax.local_device_count()}: on the CPU call "
                    f"meadowzoo.jax.use_cpu_devices({self.devices}) before JAX's first operation "
                    "(the command line's --devices does it)")
            used = jax.local_devices()[:self.devices]
            self.update = jax.pmap(partial(self._update, axis=AXIS), axis_name=AXIS, devices=used)
            # places a device-form runner as the update's outputs are placed: a runner placed any
            # other way would make the update compile a second time for it
            self._place = jax.pmap(lambda tree: tree, axis_name=AXIS, devices=used)

    def _learning_rate(self):
        """The constant learning rate, or with ``anneal_timesteps`` a linear fall to 0 over the
        optimizer steps of that many learner steps (late, small steps keep a self-play policy from
        drifting away from what it learnt)."""
        cfg = self.config
        if not cfg.anneal_timesteps or cfg.passes_per_step:  # with a pass cap, by learner steps (_update)
            return cfg.learning_rate
        updates = -(-cfg.anneal_timesteps // cfg.steps_per_update)
        return optax.linear_schedule(cfg.learning_rate, 0.0, updates * cfg.update_epochs * cfg.num_minibatches)

    def setup(self, seed) -> Runner:
        """The training state of ``seed`` (the device form when ``devices`` > 1)."""
        return self.scattered(self._setup_jit(seed))

    def gathered(self, runner: Runner) -> Runner:
        """The ordinary runner of a device-form one (games side by side again, one copy of the
        rest; numpy leaves on the host)."""
        if self.devices == 1:
            return runner
        return _map_fields(jax.device_get(runner), split=lambda x: x.reshape((-1,) + x.shape[2:]), copy=lambda x: x[0])

    def host_metrics(self, metrics: dict) -> dict[str, float]:
        """An update's metrics as host floats. With ``devices`` > 1 every device holds the same
        figures (games and losses are gathered before they are reported), so the first copy is taken."""
        host = jax.device_get(metrics)
        return {name: float(np.asarray(value).reshape(-1)[0] if self.devices > 1 else value)
                for name, value in host.items()}

    def scattered(self, runner: Runner) -> Runner:
        """The device form of an ordinary runner: each device's share of the games, a copy of the rest."""
        if self.devices == 1:
            return runner
        d = self.devices
        return self._place(_map_fields(jax.device_get(runner), split=lambda x: x.reshape((d, -1) + x.shape[1:]),
                                       copy=lambda x: np.broadcast_to(x, (d,) + np.shape(x))))

    # ---- games ----------------------------------------------------------------------------------
    def _new_games(self, key: jax.Array, count: int | None = None):
        count = self.local_envs if count is None else count
        k_games, k_seat = jax.random.split(key)
        games = self._init(jax.random.split(k_games, count))
        seat = jax.random.randint(k_seat, (count,), 0, self.players, dtype=jnp.int32)
        return games, seat

    def _opponent_actions(self, slot_params: dict, games, key: jax.Array) -> jax.Array:
        slots = self.config.opponent_slots
        per_slot = self.local_envs // slots
        observation = games.observation.reshape((slots, per_slot) + games.observation.shape[1:])
        mask = games.legal_action_mask.reshape((slots, per_slot, -1))
        logits = jax.vmap(self.network.logits)(slot_params, observation, mask)
        return sample(self.config.sampler, key, logits.reshape(self.local_envs, -1))

    def _advance(self, games, seat, decisions, slot_params, learner_action, learner_moves, key, passes: int,
                 tail: bool = False):
        """Play the learner's action (where ``learner_moves``), then opponents until the game is at
        the learner's turn, in passes over the whole batch, replacing finished games; at most
        ``passes`` passes (0: until every game is at the learner's turn). With a cap, a game not at
        its learner's turn plays its opponent's move in the first pass too (one that the cap stopped
        before), unless the settings keep the first pass for learners (``opponents_in_first_pass``).
        ``tail``: the rollout's last advance with a cap, opponents only, until every game is at its
        learner's turn. Returns the new games, seats, decision counts, the learner's reward
        and whether its game ended."""
        cfg, n = self.config, self.local_envs
        opponents_first = (bool(passes) and cfg.opponents_in_first_pass) or tail
        passes = 0 if tail else passes
        rows = jnp.arange(n)

        def waiting(carry):
            done_passes, games, seat = carry[0], carry[1], carry[2]
            more = jnp.any(games.current_player != seat)
            if passes:
                more = more & (done_passes < passes)
            return (done_passes == 0) | more

        def play(carry):
            done_passes, games, seat, decisions, reward, done, key = carry
            first = done_passes == 0
            key, k_opp, k_step, k_new = jax.random.split(key, 4)
            opponent_moves = games.current_player != seat
            # without a cap, a game not at the learner's turn in the first pass is a fresh game of a
            # new run whose first mover is an opponent: it waits for the second pass (kept as it was,
            # so that runs made before the cap existed replay exactly)
            moving = jnp.where(first, learner_moves | (opponent_moves if opponents_first else False), opponent_moves)
            if opponents_first:
                opponent_action = self._opponent_actions(slot_params, games, k_opp)
            else:  # the first pass plays learners only: no opponent forward pass in it (a branch, not a
                # select: the pass index is the same for the whole batch)
                opponent_action = jax.lax.cond(first, lambda: jnp.zeros(n, jnp.int32),
                                               lambda: self._opponent_actions(slot_params, games, k_opp))
            action = jnp.where(first & learner_moves, learner_action, opponent_action)
            stepped = self._step(games, action, jax.random.split(k_step, n))
            decisions = decisions + moving
            cut = stepped.truncated & ~stepped.terminated
            if cfg.max_game_decisions:
                cut = cut | ((decisions >= cfg.max_game_decisions) & ~stepped.terminated)
            if cfg.truncation_scoring == "standing":
                cut_reward = self._standing(stepped)[rows, seat]
            else:
                cut_reward = jnp.zeros(n, jnp.float32)
            gained = jnp.where(cut, cut_reward, stepped.rewards[rows, seat])
            ended = moving & (stepped.terminated | cut)
            reward = reward + jnp.where(moving, gained, 0.0)
            done = done | ended
            games = _select(moving, stepped, games)

            def renew(args):
                games, seat, decisions = args
                fresh, fresh_seat = self._new_games(k_new)
                return _select(ended, fresh, games), jnp.where(ended, fresh_seat, seat), jnp.where(ended, 0, decisions)

            games, seat, decisions = jax.lax.cond(jnp.any(ended), renew, lambda args: args, (games, seat, decisions))
            return done_passes + 1, games, seat, decisions, reward, done, key

        carry = (jnp.int32(0), games, seat, decisions, jnp.zeros(n, jnp.float32), jnp.zeros(n, bool), key)
        _, games, seat, decisions, reward, done, _ = jax.lax.while_loop(waiting, play, carry)
        return games, seat, decisions, reward, done

    def _potential(self, games, seat: jax.Array) -> jax.Array:
        """The shaping potential of each game for its learner (see the module docstring)."""
        scores = self._scores(games).astype(jnp.float32)
        own = jnp.take_along_axis(scores, seat[:, None], axis=1)[:, 0]
        others = jnp.where(jnp.arange(self.players)[None, :] == seat[:, None], -jnp.inf, scores).max(axis=1)
        over = games.terminated | games.truncated
        return jnp.where(over, 0.0, self.config.score_shaping * (own - others))

    # ---- setup ------------------------------------------------------------------------------------
    def _setup(self, seed: jax.Array) -> Runner:
        key = jax.random.PRNGKey(seed)
        key, k_net, k_games = jax.random.split(key, 3)
        params = self.network.init(k_net)
        games, seat = self._new_games(k_games, self.config.num_envs)
        # where an opponent moves first, the first update's first learner step lets it (see _update)
        return Runner(params=params, opt_state=self.optimizer.init(params), games=games, seat=seat,
                      decisions=jnp.zeros(self.config.num_envs, jnp.int32),
                      population=jax_population.create(params["actor"], self.config.population), key=key,
                      updates=jnp.int32(0), learner_steps=jnp.int32(0))

    # ---- one update ---------------------------------------------------------------------------------
    def _update(self, runner: Runner, axis: str | None = None) -> tuple[Runner, dict]:
        """One update; under ``pmap`` (``axis``) on one device's share of the games."""
        cfg, net = self.config, self.network
        key, k_slots, k_rollout, k_epochs = jax.random.split(runner.key, 4)
        if axis is not None:  # other games and minibatches on each device; the same slots everywhere
            k_rollout = jax.random.fold_in(k_rollout, jax.lax.axis_index(axis))
            k_epochs = jax.random.fold_in(k_epochs, jax.lax.axis_index(axis))
        members = jax_population.draw_slots(runner.population, k_slots, cfg.opponent_slots, cfg.pfsp_power)
        slot_params = jax_population.member_params(runner.population, members)
        params = runner.params

        def learner_step(carry, step_key):
            games, seat, decisions = carry
            k_act, k_advance = jax.random.split(step_key)
            observation, mask = games.observation, games.legal_action_mask
            # always true but in the fresh games of a new run whose first mover is an opponent:
            # there this step only lets the opponents move and is left out of the loss (one
            # compiled copy of the engine's step, instead of a second one in setup)
            learner_moves = games.current_player == seat
            logits = net.logits(params["actor"], observation, mask)
            value = net.value(params["critic"], observation)
            action = sample(cfg.sampler, k_act, logits)
            log_prob = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
            phi_before = self._potential(games, seat) if shaping else None
            games, seat, decisions, reward, done = self._advance(games, seat, decisions, slot_params, action,
                                                                 learner_moves, k_advance, cfg.passes_per_step)
            # the reward GAE learns from (the unshaped one rates the population)
            shaped = reward + shaping_terms(phi_before, self._potential(games, seat), done, cfg.gamma) \
                if shaping else reward
            return (games, seat, decisions), (observation, mask, action, log_prob, value, reward, shaped, done,
                                              learner_moves)

        shaping = cfg.score_shaping > 0
        (games, seat, decisions), batch = jax.lax.scan(
            learner_step, (runner.games, runner.seat, runner.decisions), jax.random.split(k_rollout, cfg.num_steps))
        observation, mask, action, log_prob, value, reward, shaped, done, valid = batch
        if cfg.passes_per_step:
            # games the cap left at an opponent's turn play on to their learner's turn, so that the
            # update ends (and the next begins) with every game at it; what that brings is carried
            # back to each game's last learner step
            phi_before = self._potential(games, seat) if shaping else None
            games, seat, decisions, tail_reward, tail_done = self._advance(
                games, seat, decisions, slot_params, jnp.zeros(self.local_envs, jnp.int32),
                jnp.zeros(self.local_envs, bool), jax.random.fold_in(k_rollout, cfg.num_steps), 0, tail=True)
            tail_shaped = tail_reward + shaping_terms(phi_before, self._potential(games, seat), tail_done, cfg.gamma) \
                if shaping else tail_reward
            last_value = net.value(params["critic"], games.observation)
            advantages, targets = gae_with_gaps(shaped, value, done, valid, tail_shaped, tail_done, last_value,
                                                cfg.gamma, cfg.gae_lambda)
            reward, done = jnp.concatenate([reward, tail_reward[None]]), jnp.concatenate([done, tail_done[None]])
        else:
            last_value = net.value(params["critic"], games.observation)
            advantages, targets = gae(shaped, value, done, last_value, cfg.gamma, cfg.gae_lambda)
        learner_steps = valid.sum(dtype=jnp.int32)
        if axis is not None:
            learner_steps = jax.lax.psum(learner_steps, axis)
        scale = None
        if cfg.passes_per_step and cfg.anneal_timesteps:  # the learning rate falls with the learner steps done
            scale = jnp.clip(1.0 - runner.learner_steps / cfg.anneal_timesteps, 0.0, 1.0)

        flat = jax.tree_util.tree_map(lambda x: x.reshape((-1,) + x.shape[2:]),
                                      (observation, mask, action, log_prob, value, advantages, targets, valid))
        if cfg.epoch_rows < valid.size:
            # the epochs run over the valid rows first (epoch_share), or over every row in an update
            # whose learner decisions do not fit (on every device alike: the gradients are averaged
            # inside the epochs), so that no decision is ever left out
            rows = valid_rows_first(flat[-1], cfg.epoch_rows, jax.random.fold_in(k_epochs, 1))
            decisions_here = valid.sum(dtype=jnp.int32)
            fits = (decisions_here if axis is None else jax.lax.pmax(decisions_here, axis)) <= cfg.epoch_rows
            (params, opt_state), losses = jax.lax.cond(
                fits, lambda: self._epochs(params, runner.opt_state, flat, k_epochs, axis, scale, rows),
                lambda: self._epochs(params, runner.opt_state, flat, k_epochs, axis, scale))
            epoch_rows = jnp.where(fits, cfg.epoch_rows, valid.size)
        else:
            (params, opt_state), losses = self._epochs(params, runner.opt_state, flat, k_epochs, axis, scale)
            epoch_rows = jnp.int32(valid.size)

        game_member = jnp.repeat(members, self.local_envs // cfg.opponent_slots)
        if axis is not None:  # rate (and report) on every device from every game: the same population everywhere
            reward = jax.lax.all_gather(reward, axis, axis=1, tiled=True)
            done = jax.lax.all_gather(done, axis, axis=1, tiled=True)
            game_member = jnp.tile(game_member, self.devices)
            losses = jax.lax.pmean(losses, axis)
        game_member = jnp.broadcast_to(game_member, reward.shape)
        population = jax_population.rate(runner.population, game_member, reward, done, cfg.elo_k)
        population, promoted = jax_population.promote(population, params["actor"], cfg.snapshot_threshold,
                                                      cfg.snapshot_min_updates)
        finished = done.sum()
        metrics = {
            "learner_steps": learner_steps,
            "epoch_rows": epoch_rows,  # rows of each device's rollout the epochs ran over
            "games_finished": finished,
            "mean_reward": jnp.where(finished > 0, (reward * done).sum() / jnp.maximum(finished, 1), jnp.nan),
            "win_share": jnp.where(finished > 0, ((reward > 0) * done).sum() / jnp.maximum(finished, 1), jnp.nan),
            **jax.tree_util.tree_map(jnp.mean, losses),
            "learner_elo": population.learner_rating,
            "best_member_elo": jnp.max(jnp.where(population.filled, population.rating, -jnp.inf)),
            "population": population.filled.sum(),
            "snapshots": population.snapshots,
            "promoted": promoted,
        }
        runner = Runner(params=params, opt_state=opt_state, games=games, seat=seat, decisions=decisions,
                        population=population, key=key, updates=runner.updates + 1,
                        learner_steps=runner.learner_steps + learner_steps)
        return runner, metrics

    def _epochs(self, params, opt_state, flat, key, axis: str | None = None, scale=None, rows=None):
        """``update_epochs`` passes of ``num_minibatches`` minibatches over the rows of ``flat``,
        or over those of ``rows`` (indices into it: :func:`valid_rows_first`)."""
        cfg = self.config
        size = self.local_envs * cfg.num_steps if rows is None else rows.shape[0]
        per_batch = size // cfg.num_minibatches

        def minibatch(state, rows):
            params, opt_state = state
            # each minibatch gathers its own rows: the same batches as permuting the whole rollout
            # first (bit for bit), but a minibatch's rows are still in cache when its products read
            # them (gathering Haste Bock?'s 4096 x 1036 observations at once made its epochs 13% slower)
            batch = jax.tree_util.tree_map(lambda x: x[rows], flat)
            grads, losses = jax.grad(self._loss, has_aux=True)(params, batch)
            if axis is not None:  # one step of the mean gradient: the same network on every device
                grads = jax.lax.pmean(grads, axis)
            updates, opt_state = self.optimizer.update(grads, opt_state, params)
            if scale is not None:  # the annealed learning rate of a capped run (see _learning_rate)
                updates = jax.tree_util.tree_map(lambda u: u * scale, updates)
            return (optax.apply_updates(params, updates), opt_state), losses

        def epoch(state, epoch_key):
            order = jax.random.permutation(epoch_key, size)
            if rows is not None:  # indices of the rows trained on: no copy of the rollout's observations
                order = rows[order]
            return jax.lax.scan(minibatch, state, order.reshape(cfg.num_minibatches, per_batch))

        state, losses = jax.lax.scan(epoch, (params, opt_state), jax.random.split(key, cfg.update_epochs))
        return state, losses

    def _loss(self, params, batch):
        cfg, net = self.config, self.network
        observation, mask, action, old_log_prob, old_value, advantages, targets, valid = batch
        weight = valid.astype(jnp.float32) / jnp.maximum(valid.sum(), 1)

        def mean(x):
            return (x * weight).sum()

        logits = net.logits(params["actor"], observation, mask)
        log_prob, entropy_each = policy_terms(logits, mask, action, cfg.loss_gradient)
        value = net.value(params["critic"], observation)
        clipped_value = old_value + jnp.clip(value - old_value, -cfg.clip_eps, cfg.clip_eps)
        value_loss = 0.5 * mean(jnp.maximum((value - targets) ** 2, (clipped_value - targets) ** 2))
        ratio = jnp.exp(log_prob - old_log_prob)
        centred = advantages - mean(advantages)
        normalised = centred / (jnp.sqrt(mean(centred ** 2)) + 1e-8)
        policy_loss = -mean(jnp.minimum(ratio * normalised,
                                        jnp.clip(ratio, 1 - cfg.clip_eps, 1 + cfg.clip_eps) * normalised))
        entropy = mean(entropy_each)
        total = policy_loss + cfg.vf_coef * value_loss - cfg.ent_coef * entropy
        approx_kl = mean((ratio - 1) - (log_prob - old_log_prob))
        return total, {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy, "approx_kl": approx_kl}


def valid_rows_first(valid: jax.Array, count: int, key: jax.Array) -> jax.Array:
    """``count`` row indices of a rollout whose rows are ``valid`` (its learner decisions) or not:
    the valid rows in random order, then the first rows that are not (the loss masks them out).
    Where more than ``count`` rows are valid, ``count`` of them drawn at random (the trainer then
    runs its epochs over every row instead)."""
    return jnp.argsort(jnp.where(valid, jax.random.uniform(key, valid.shape), 2.0))[:count]


def shaping_terms(phi_before: jax.Array, phi_after: jax.Array, done: jax.Array, gamma: float) -> jax.Array:
    """Potential-based shaping of one step: ``gamma * phi(after) - phi(before)``, where a step that
    ended its game has potential 0 after it (``phi_after`` is then a fresh game's, not this one's).
    Summed over a game with ``gamma`` = 1 the terms telescope to ``-phi(start)``."""
    return gamma * jnp.where(done, 0.0, phi_after) - phi_before


@partial(jax.jit, static_argnums=(4, 5))
def gae(reward, value, done, last_value, gamma: float, lam: float):
    """Generalised advantage estimates and value targets over ``(steps, games)`` arrays; ``done``
    at step t means the game ended during that learner step (no bootstrap past it)."""
    def backward(carry, step):
        advantage, next_value = carry
        r, v, d = step
        live = 1.0 - d.astype(jnp.float32)
        delta = r + gamma * next_value * live - v
        advantage = delta + gamma * lam * live * advantage
        return (advantage, v), advantage

    _, advantages = jax.lax.scan(backward, (jnp.zeros_like(last_value), last_value), (reward, value, done),
                                 reverse=True)
    return advantages, advantages + value


@partial(jax.jit, static_argnums=(7, 8))
def gae_with_gaps(reward, value, done, valid, tail_reward, tail_done, last_value, gamma: float, lam: float):
    """:func:`gae` where some steps are not the learner's (``valid`` false: the pass cap stopped the
    game at an opponent's turn, and that step played opponents only). Such a step is transparent:
    its reward joins the learner's previous step, and where its game ended there, that previous step
    gets no bootstrap. ``tail_reward`` / ``tail_done``: what the rollout's last advance (opponents
    until the learner's turn) brought, after the last step; ``last_value`` the value at the learner's
    turn after it. Equal to :func:`gae` where every step is valid and the tail brought nothing."""
    def backward(carry, step):
        advantage, next_value, pending, alive = carry
        r, v, d, ok = step
        live = 1.0 - d.astype(jnp.float32)
        # a learner step: its reward and those of the opponent-only steps after it (unless its game ended in it)
        delta = r + live * pending + gamma * next_value * (live * alive) - v
        own = delta + gamma * lam * (live * alive) * advantage
        zero = jnp.zeros_like(r)
        passed = (jnp.where(d, zero, advantage), jnp.where(d, zero, next_value),
                  jnp.where(d, r, pending + r), jnp.where(d, zero, alive))
        carry = tuple(jnp.where(ok, a, b) for a, b in zip((own, v, zero, jnp.ones_like(r)), passed))
        return carry, jnp.where(ok, own, 0.0)

    start = (jnp.zeros_like(last_value), last_value, tail_reward, 1.0 - tail_done.astype(jnp.float32))
    _, advantages = jax.lax.scan(backward, start, (reward, value, done, valid), reverse=True)
    return advantages, advantages + value
