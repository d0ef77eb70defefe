"""Afterstate input options: ``rule_terms=False`` leaves the inputs the rules compute from the
position at zero (the ablation of ``afterstate_selfplay --no-rule-terms``), and a value file fitted
that way reads its input that way."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meadowzoo.agents.afterstate_value import with_options
from meadowzoo.agents.heuristics.hase_und_igel_lookahead import HaseUndIgelValue
from meadowzoo.agents.heuristics.haste_bock_lookahead import AfterstateValue
from meadowzoo.envs.hase_und_igel import afterstate as hui
from meadowzoo.envs.haste_bock import afterstate as hb
from meadowzoo.training import afterstate_selfplay
from meadowzoo.training.afterstate_data import generate
from meadowzoo.training.fit_afterstate_value import fit, save_value


def _records(encoding, games=2):
    records, beats, gains, _ = generate(games, 3, [("random", "random")], "random", encoding=encoding)
    return records, beats, gains


def test_haste_bock_rule_terms_are_the_last_inputs_and_only_they_go():
    """HB-19..21 scoring terms (the last 4 × SLOTS inputs) are zero without rule terms; every
    other input is unchanged."""
    records, *_ = _records(hb)
    full, bare = hb.dense(records, 2), hb.dense(records, 2, rule_terms=False)
    terms = slice(hb.INPUT_SIZE - 4 * hb.SLOTS, hb.INPUT_SIZE)
    assert np.array_equal(full[:, :terms.start], bare[:, :terms.start])
    assert not bare[:, terms].any() and full[:, terms].any()


def test_hase_und_igel_rule_terms_are_the_goal_terms_of_every_runner():
    records, *_ = _records(hui)
    full, bare = hui.dense(records), hui.dense(records, rule_terms=False)
    terms = [k * hui._RUNNER_INPUTS + hui.data.NUM_POSITIONS + j for k in range(hui.RUNNERS) for j in (9, 10)]
    rest = np.setdiff1d(np.arange(hui.INPUT_SIZE), terms)
    assert np.array_equal(full[:, rest], bare[:, rest])
    assert not bare[:, terms].any() and full[:, terms].any()


@pytest.mark.parametrize("encoding, value_class", [(hb, AfterstateValue), (hui, HaseUndIgelValue)])
def test_a_value_fitted_without_rule_terms_reads_its_input_without_them(tmp_path, encoding, value_class):
    records, beats, gains = _records(encoding)
    bare = with_options(encoding, {"rule_terms": False})
    net, _ = fit(records, beats, gains, 2, [8], epochs=1, batch_size=32, lr=1e-2, holdout=0.2, seed=0,
                 log=lambda *_: None, encoding=bare)
    value = value_class.from_file(save_value(net, tmp_path / "v.pt", 2, [8], {}, bare))
    import torch

    with torch.no_grad():
        expected = torch.sigmoid(net(torch.from_numpy(encoding.dense(records, 2, rule_terms=False)))[:, 0]).numpy()
        with_terms = torch.sigmoid(net(torch.from_numpy(encoding.dense(records, 2)))[:, 0]).numpy()
    got = value.beats(records)[:, 1]
    assert np.allclose(got, expected, atol=1e-5)
    assert not np.allclose(got, with_terms, atol=1e-5)  # the option matters for this net


def test_unknown_options_are_refused():
    with pytest.raises(ValueError, match="no option"):
        with_options(hb, {"planes": False})


def test_selfplay_stores_the_ablation(tmp_path):
    out = tmp_path / "run"
    afterstate_selfplay.main(["--players", "2", "--rounds", "1", "--first-games", "4", "--hidden", "8", "--epochs", "1",
                              "--td-rounds", "0", "--batch-size", "32", "--holdout", "0.2", "--workers", "1",
                              "--no-rule-terms", "--out", str(out)])
    record = json.loads((out / "value.json").read_text())
    assert record["input_options"] == {"rule_terms": False}
    assert AfterstateValue.from_file(out / "value.pt").encoding.options == {"rule_terms": False}
