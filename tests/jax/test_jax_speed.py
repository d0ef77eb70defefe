"""The JAX speed benchmark's own pieces: the random legal action it plays and how it splits a
batch over devices (its figures are recorded by running it, not asserted here)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402

from benchmarks.jax_speed import kth_set_bit, pack_mask, split_count, uniform_legal  # noqa: E402


def test_random_action_is_always_legal_and_covers_every_legal_action():
    rng = np.random.default_rng(0)
    mask = rng.random((64, 1000)) < 0.01  # Haste Bock?-sized, a few legal actions per row
    mask[:, 999] = True  # the last action of the last (partial) block of 32
    mask[0] = False
    mask[0, 0] = True  # a single legal action
    picks = np.stack([np.asarray(uniform_legal(jax.random.PRNGKey(k), jnp.asarray(mask))) for k in range(200)])
    assert mask[np.arange(64)[None, :], picks].all()
    assert (picks[:, 0] == 0).all()
    for row in (1, 17, 63):
        assert set(picks[:, row]) == set(np.flatnonzero(mask[row]))


@pytest.mark.parametrize("actions", [1, 7, 32, 33, 67, 996])
def test_pack_mask_puts_action_32w_plus_i_on_bit_i_of_word_w(actions):
    rng = np.random.default_rng(actions)
    mask = rng.random((128, actions)) < 0.5
    mask[0] = True  # every bit of every word, the last partial word included
    words = np.asarray(pack_mask(jnp.asarray(mask)))
    assert words.dtype == np.uint32 and words.shape == (128, -(-actions // 32))
    unpacked = (words[:, :, None] >> np.arange(32, dtype=np.uint32)) & 1
    np.testing.assert_array_equal(unpacked.reshape(128, -1)[:, :actions], mask)
    assert not unpacked.reshape(128, -1)[:, actions:].any()


@pytest.mark.parametrize(("actions", "density"), [(7, 0.5), (27, 0.3), (64, 0.5), (996, 0.01), (1000, 0.2)])
def test_random_action_is_the_kth_legal_action_counted_one_by_one(actions, density):
    """The packed-word picker picks what counting through the mask action by action picks: the
    legal action number k = (u·count) >> 24, u the draw's top 24 bits."""
    rng = np.random.default_rng(actions)
    mask = rng.random((256, actions)) < density
    mask[np.arange(256), rng.integers(0, actions, 256)] = True
    for seed in range(5):
        key = jax.random.PRNGKey(seed)
        u = np.asarray(jax.random.bits(key, (256,), jnp.uint32)).astype(np.int64) >> 8
        count = mask.sum(1)
        k = (u * count) >> 24
        expected = [np.flatnonzero(row)[i] for row, i in zip(mask, k)]
        assert np.asarray(uniform_legal(key, jnp.asarray(mask))).tolist() == expected


def test_kth_set_bit_finds_each_set_bit():
    for word in (0b1011001, 0xFFFFFFFF, 0x80000001, 1 << 31):
        bits = [i for i in range(32) if word >> i & 1]
        found = kth_set_bit(jnp.full(len(bits), word, jnp.uint32), jnp.arange(len(bits), dtype=jnp.int32))
        assert np.asarray(found).tolist() == bits


@pytest.mark.parametrize(("batch", "devices", "split"), [(1024, 2, 2), (1, 2, 1), (64, 1, 1), (6, 4, 1), (4096, 16, 16)])
def test_batch_splits_only_evenly_over_devices(batch, devices, split):
    assert split_count(batch, devices) == split


def test_kernel_profile_counts_the_kernels_of_a_step():
    from benchmarks.jax_kernels import kernel_kind, profile
    import meadowzoo.jax as mjax

    assert kernel_kind("select_select_fusion.45") == "select_select_fusion"
    assert kernel_kind("copy") == "copy" and kernel_kind("wrapped_reduce-window") == "wrapped_reduce-window"
    result = profile(mjax.make("volle_wolle", num_players=2), batch=8, unroll=2, calls=2)
    assert result["launches_per_step"] > 10  # a step of a real game is many kernels, not one
    assert result["kernel_us_per_step"] == pytest.approx(sum(result["by_kind"].values()))
    assert all(kind == kernel_kind(kind) for kind in result["by_kind"])
    # the same kernels grouped by the JAX operation they came from
    assert result["launches_per_step"] == pytest.approx(sum(result["launches_by_kind"].values()))
    assert result["launches_per_step"] == pytest.approx(sum(result["launches_by_op"].values()))
    assert result["kernel_us_per_step"] == pytest.approx(sum(result["by_op"].values()))
    assert any("select_n" in op for op in result["by_op"])  # the engine's jnp.where, named
    # and by the source line that made them: the engine's own lines among them
    assert result["launches_per_step"] == pytest.approx(sum(result["launches_by_line"].values()))
    assert result["kernel_us_per_step"] == pytest.approx(sum(result["by_line"].values()))
    assert any(line.startswith("jax_engine.py:") for line in result["by_line"])


def test_kernel_profile_command_lists_source_lines(capsys):
    """``python -m benchmarks.jax_kernels --by-line`` prints the kernel time by source line, the
    engine's lines among them, and refuses two groupings at once."""
    from benchmarks import jax_kernels

    jax_kernels.main(["--game", "volle_wolle", "--players", "2", "--batch", "8", "--unroll", "2", "--calls", "2",
                      "--by-line", "--top", "50"])
    out = capsys.readouterr().out
    assert "source line" in out and "jax_engine.py:" in out
    with pytest.raises(SystemExit):
        jax_kernels.main(["--by-op", "--by-line"])


def test_kernels_are_grouped_by_the_jax_operation_they_came_from():
    """op_names reads compiled HLO text: an instruction's own op_name (without the program's
    jit(...)), else the op_name inside the computation a fusion calls; a copy with none is one XLA
    inserted; tuple-shaped instructions count too."""
    from benchmarks.jax_kernels import INSERTED_COPY, NO_OP_NAME, hlo_origins, op_names

    text = """
%fused_computation.7 (param_0.1: s32[8]) -> s32[8] {
  %param_0.1 = s32[8]{0} parameter(0)
  ROOT %add.3 = s32[8]{0} add(%param_0.1, %param_0.1), metadata={op_name="jit(step)/vmap()/add" stack_frame_id=4}
}

ENTRY %main.9 (p: s32[8]) -> (s32[8], s32[8]) {
  %p = s32[8]{0} parameter(0)
  %copy.2 = s32[8]{0} copy(%p)
  %copy.5 = s32[8]{0} copy(%p), metadata={op_name="jit(step)/transpose"}
  %add_fusion = s32[8]{0} fusion(%copy.2), kind=kLoop, calls=%fused_computation.7
  %select_fusion.1 = s32[8]{0} fusion(%p), kind=kLoop, calls=%fused_computation.7, metadata={op_name="jit(step)/vmap()/select_n"}
  %sort.4 = (s32[8]{0}, s32[8]{0}) sort(%p, %p), dimensions={0}
  %cond.3 = (s32[8]{0}) conditional(%p), branch_computations={%fused_computation.7}, metadata={op_name="jit(step)/cond" stack_frame_id=2}
  ROOT %tuple.1 = (s32[8]{0}, s32[8]{0}) tuple(%add_fusion, %select_fusion.1)
}

FileNames
1 "/work/main/envs/volle_wolle/jax_engine.py"
2 "/work/main/envs/core/jax_core.py"

FunctionNames
1 "VolleWolleJax._step"
2 "when"

FileLocations
1 {file_name_id=1 function_name_id=1 line=120 end_line=120 column=4 end_column=9}
2 {file_name_id=2 function_name_id=2 line=88 end_line=88 column=11 end_column=40}

StackFrames
1 {file_location_id=2 parent_frame_id=1}
2 {file_location_id=1 parent_frame_id=2}
4 {file_location_id=2 parent_frame_id=1}
"""
    names = op_names(text)
    assert names["add_fusion"] == "vmap()/add"  # from the computation it calls
    assert names["select_fusion.1"] == "vmap()/select_n"  # its own
    assert names["copy.2"] == INSERTED_COPY and names["copy.5"] == "transpose"
    assert names["sort.4"] == NO_OP_NAME and names["p"] == NO_OP_NAME
    # the source line of each (the innermost frame of its stack_frame_id), and its opcode, by which
    # control flow is told from kernels whatever its name
    origins = hlo_origins(text)
    assert origins["add_fusion"]["line"] == "jax_core.py:88 when"  # frame 4, from the computation it calls
    assert origins["cond.3"] == {"opcode": "conditional", "op": "cond", "line": "jax_engine.py:120 VolleWolleJax._step"}
    assert origins["copy.2"]["line"] == INSERTED_COPY and origins["sort.4"]["opcode"] == "sort"
