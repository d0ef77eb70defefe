import sys, importlib.util
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session31")); import ab2dev
import jax, jax.numpy as jnp, numpy as np
spec = importlib.util.spec_from_file_location("hbv", sys.argv[2]); M = importlib.util.module_from_spec(spec); sys.modules["hbv"] = M; spec.loader.exec_module(M)
i32 = jnp.int32; D, T, E = M.D, M.T, M.E
MOVE, TILE, PANIC, CARD, OVER, NUM_KINDS = M.MOVE, M.TILE, M.PANIC, M.CARD, M.OVER, M.NUM_KINDS

def split_obs(self, state, seat, barrier=False, planes_mode="cmp"):
    n = self.n
    seat = jnp.asarray(seat, i32) % n
    phase = jnp.asarray(T.PHASE_OF)[state.time]
    pending, over = state.pending, state.pending == OVER
    fallback = (pending == CARD) & jnp.any(state.legal_action_mask[NUM_KINDS: 2 * NUM_KINDS])
    pending_slot = jnp.where(pending == CARD, fallback.astype(i32), jnp.where(
        (pending == MOVE) | (pending == TILE), pending + 1, jnp.where(pending == PANIC, i32(4), i32(-1))))
    at_panic = pending == PANIC
    order = jnp.asarray(self.order)[seat]
    pad = 4 - n
    hot = lambda value, size: (jnp.arange(size, dtype=i32) == value).astype(i32)
    squares = state.pos[jnp.asarray(self.plane_sheep)[seat]]
    g1 = jnp.concatenate([hot(state.facing, 4), jnp.stack([phase == 2, phase == 4]).astype(i32),
                          hot(state.time, D.TRACK_END + 1), hot(phase, 5)])
    scores = jnp.pad(jnp.asarray(M.SCORE_FEATURE)[jnp.clip(state.scores[order], -M.SCORE_BOUND, M.SCORE_BOUND) + M.SCORE_BOUND], (0, pad))
    g2 = jnp.concatenate([
        jnp.pad(state.hands[order], ((0, pad), (0, 0))).reshape(-1).astype(i32),
        jnp.pad(state.tiles[order], ((0, pad), (0, 0))).reshape(-1).astype(i32),
        hot(jnp.where(over, -1, state.no_trough), 4), hot(jnp.where(over, -1, state.no_herd), 2),
        hot(pending_slot, 5), hot(jnp.where(over, -1, (state.player - seat) % n), 4),
        hot(jnp.where(at_panic, state.die, -1), len(D.DIE_FACES)), (at_panic & (state.time == 0))[None].astype(i32),
        hot(jnp.where((pending == MOVE) | (pending == TILE), state.card_kind, -1), NUM_KINDS)])
    rest = jnp.concatenate([g1.astype(jnp.float32), scores, g2.astype(jnp.float32), jnp.asarray(self.template[E.PANIC_TRACK:])])
    if barrier:
        rest, squares = jax.lax.optimization_barrier((rest, squares))
    if planes_mode == "scatter":
        base = jnp.concatenate([jnp.zeros(D.SQUARES * squares.shape[0], jnp.float32), rest])
        return base.at[jnp.where(squares < D.SQUARES, jnp.arange(squares.shape[0]) * D.SQUARES + squares, 1 << 20)].set(1.0, mode="drop", unique_indices=True)
    planes = (jnp.arange(D.SQUARES, dtype=i32)[None, :] == squares[:, None]).astype(jnp.float32).reshape(-1)
    return jnp.concatenate([planes, rest])

class Split(M.HasteBockJax):
    def _observe(self, state, player_id): return split_obs(self, state, player_id)
class SplitBarrier(M.HasteBockJax):
    def _observe(self, state, player_id): return split_obs(self, state, player_id, barrier=True)

class Scatter(M.HasteBockJax):
    def _observe(self, state, player_id): return split_obs(self, state, player_id, planes_mode="scatter")

def scatter_obs(self, state, seat):
    n = self.n
    seat = jnp.asarray(seat, i32) % n
    phase = jnp.asarray(T.PHASE_OF)[state.time]
    pending, over = state.pending, state.pending == OVER
    fallback = (pending == CARD) & jnp.any(state.legal_action_mask[NUM_KINDS: 2 * NUM_KINDS])
    pending_slot = jnp.where(pending == CARD, fallback.astype(i32), jnp.where(
        (pending == MOVE) | (pending == TILE), pending + 1, jnp.where(pending == PANIC, i32(4), i32(-1))))
    at_panic = pending == PANIC
    order = jnp.asarray(self.order)[seat]
    size = self.observation_shape[0] if hasattr(self, "observation_shape") else 1036
    OOB = size  # dropped
    idx, val = [], []
    off = 0
    squares = state.pos[jnp.asarray(self.plane_sheep)[seat]]
    planes = squares.shape[0]
    idx.append(jnp.where(squares < D.SQUARES, jnp.arange(planes, dtype=i32) * D.SQUARES + squares, OOB)); val.append(jnp.ones(planes, jnp.float32)); off += planes * D.SQUARES
    def hot(value, width):
        nonlocal off
        idx.append(jnp.where((value >= 0) & (value < width), off + value, OOB)[None].astype(i32)); val.append(jnp.ones(1, jnp.float32)); off += width
    def flag(cond):
        hot(jnp.where(cond, 0, -1), 1)
    def dense(values):
        nonlocal off
        values = values.reshape(-1)
        idx.append(off + jnp.arange(values.shape[0], dtype=i32)); val.append(values.astype(jnp.float32)); off += values.shape[0]
    hot(state.facing, 4); flag(phase == 2); flag(phase == 4); hot(state.time, D.TRACK_END + 1); hot(phase, 5)
    dense(jnp.asarray(M.SCORE_FEATURE)[jnp.clip(state.scores[order], -M.SCORE_BOUND, M.SCORE_BOUND) + M.SCORE_BOUND]); off += 4 - n
    h = state.hands[order]; dense(h); off += (4 - n) * h.shape[1]
    t = state.tiles[order]; dense(t); off += (4 - n) * t.shape[1]
    hot(jnp.where(over, -1, state.no_trough), 4); hot(jnp.where(over, -1, state.no_herd), 2)
    hot(pending_slot, 5); hot(jnp.where(over, -1, (state.player - seat) % n), 4)
    hot(jnp.where(at_panic, state.die, -1), len(D.DIE_FACES)); flag(at_panic & (state.time == 0))
    hot(jnp.where((pending == MOVE) | (pending == TILE), state.card_kind, -1), NUM_KINDS)
    tail = np.asarray(self.template[E.PANIC_TRACK:], np.float32)
    base = np.concatenate([np.zeros(off, np.float32), tail])
    return jnp.asarray(base).at[jnp.concatenate(idx)].set(jnp.concatenate(val), mode="drop", unique_indices=True, indices_are_sorted=True)

class AllScatter(M.HasteBockJax):
    def _observe(self, state, player_id): return scatter_obs(self, state, player_id)

if __name__ == "__main__":
    n = int(sys.argv[1])
    envs = {"v1": M.HasteBockJax(num_players=n), "scatter": Scatter(num_players=n), "allscatter": AllScatter(num_players=n)}
    # same observation on random states
    import meadowzoo.jax as mjax
    ab2dev.compare(envs, calls=100)
