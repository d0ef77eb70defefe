"""The heuristic-free lookahead player (``prior=none``) and the self-play rounds that fit its value."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from meadowzoo.agents import make_agent
from meadowzoo.agents.heuristics.haste_bock_lookahead import AfterstateValue, LookaheadAgent
from meadowzoo.envs.haste_bock.afterstate import game_record
from meadowzoo.envs.haste_bock.rules import CARD, MOVE, PANIC, TILE
from meadowzoo.training import afterstate_selfplay
from meadowzoo.training.afterstate_data import generate
from meadowzoo.training.fit_afterstate_value import fit, save_value
from meadowzoo.training.results import _training_lines
from meadowzoo.training.ship import main as ship
from tests.agents.helpers import advance, new_env, play


@pytest.fixture(scope="module")
def value_file(tmp_path_factory):
    """A 2-player value fitted for one epoch on a few random games."""
    records, beats, gains, _ = generate(8, 5, [("random", "random")], "random")
    net, _ = fit(records, beats, gains, 2, [16], epochs=1, batch_size=64, lr=1e-3, holdout=0.2, seed=0,
                 log=lambda *_: None)
    return save_value(net, tmp_path_factory.mktemp("value") / "value.pt", 2, [16], {"test": True})


def _no_heuristic(*args, **kwargs):
    raise AssertionError("the strong heuristic was consulted")


@pytest.mark.parametrize("settings", ["prior=none", "prior=none:reply=2"])
def test_prior_none_never_consults_the_strong_heuristic(value_file, monkeypatch, settings):
    """Every way strong's judgement enters the lookahead player (its plan values, its action values,
    its position value) fails here; a whole game with prior=none still plays legally."""
    for name in ("_plans", "action_values", "position_value", "_finish_value"):
        monkeypatch.setattr(LookaheadAgent, name, _no_heuristic)
    env = new_env("haste_bock", players=2, seed=4, max_turns=200)
    players = [make_agent(f"lookahead:{value_file}:{settings}", "haste_bock", seed=s) for s in (1, 2)]
    actions = play(env, players)
    assert len(actions) > 30


def _plans_through_the_rules(env) -> int:
    """Card × move × tile plans of the player to move at a card decision, counted by playing each
    one on a copy of the env (the rules' own legal actions at every step)."""
    count = 0
    for card in env.legal_actions():
        after_card = env.clone()
        after_card.step(card)
        assert after_card.game.pending == MOVE
        for move in after_card.legal_actions():
            after_move = after_card.clone()
            after_move.step(move)
            assert after_move.game.pending == TILE
            count += len(after_move.legal_actions())
    return count


def test_prior_none_values_every_plan_of_the_turn(value_file, monkeypatch):
    """At a card decision the player rates one afterstate per card × legal move × time tile (HB-9,
    HB-23: two players add a tile to every card), not a pruned list."""
    env = new_env("haste_bock", players=2, seed=11, max_turns=200)
    rng = np.random.default_rng(0)
    while env.game.pending != CARD or env.game.time < 3:  # past the opening panic rams
        env.step(int(rng.choice(env.legal_actions())))
    seen = []
    original = LookaheadAgent._pick

    def counting(self, options, game=None):
        seen.append(len(options))
        return original(self, options, game)

    monkeypatch.setattr(LookaheadAgent, "_pick", counting)
    agent = LookaheadAgent(AfterstateValue.from_file(value_file), prior="none", seed=0)
    agent.act(env, env.agent_selection)
    expected = _plans_through_the_rules(env)
    assert seen == [expected] and expected > 8  # more than strong's default width


def test_explore_draws_uniformly_among_the_options(value_file):
    env = new_env("haste_bock", players=2, seed=11, max_turns=200)
    rng = np.random.default_rng(0)
    while env.game.pending != CARD or env.game.time < 3:
        env.step(int(rng.choice(env.legal_actions())))
    greedy_choice = {LookaheadAgent(AfterstateValue.from_file(value_file), prior="none", seed=s).act(env, "x")
                     for s in range(5)}
    assert len(greedy_choice) == 1  # without exploration the choice is the value's, seed or not
    explorer = make_agent(f"lookahead:{value_file}:prior=none:explore=1", "haste_bock", seed=0)
    picks = [explorer.act(env, env.agent_selection) for _ in range(60)]
    assert set(picks) <= set(env.legal_actions()) and len(set(picks)) > 2


def test_lookahead_settings_are_checked(value_file):
    for bad in ("prior=weak", "explore=1.5", "explore=x", "temperature=1", "reply=-1", "reply=x"):
        with pytest.raises(ValueError, match="unknown lookahead setting"):
            make_agent(f"lookahead:{value_file}:{bad}", "haste_bock")
    with pytest.raises(ValueError, match="prior must be one of"):
        LookaheadAgent(AfterstateValue.from_file(value_file), prior="weak")
    with pytest.raises(ValueError, match="reply must be at least 0"):
        LookaheadAgent(AfterstateValue.from_file(value_file), reply=-1)


# ---- reply=R: the next player's answer -------------------------------------------------------
def _turns(game, seat):
    """Every way ``seat`` can play out its turn from a card decision of ``game``: ``(card, copy)``
    pairs, each copy played through the rules' own legal card, move and tile actions (HB-9/HB-23)."""
    out = []
    for card in game.legal_actions():
        after_card = game.clone()
        after_card.apply(card)
        moves = after_card.legal_actions() if after_card.pending == MOVE else [None]
        for move in moves:
            after_move = after_card.clone()
            if move is not None:
                after_move.apply(move)
            for tile in after_move.legal_actions() if after_move.pending == TILE else [None]:
                done = after_move.clone()
                if tile is not None:
                    done.apply(tile)
                assert done.player != seat or done.pending == PANIC or done.is_over
                out.append((card, done))
    return out


def _worth(value, game, mover, viewer):
    return float(value.worth(game_record(game, mover, viewer)[None])[0])


def _answered(value, game, me):
    """``me``'s worth after the other player plays the turn of its own best value (ties: lower card)."""
    answerer = game.player
    answers = _turns(game, answerer)
    best = max(range(len(answers)), key=lambda i: (_worth(value, answers[i][1], answerer, answerer), -answers[i][0]))
    return _worth(value, answers[best][1], answerer, me)


def _card_decision(seed, until):
    env = new_env("haste_bock", players=2, seed=seed, max_turns=200)
    rng = np.random.default_rng(seed)
    advance(env, rng, lambda e: e.game.pending == CARD and until(e.game.time))
    return env


def test_reply_plays_the_plan_best_after_the_answer(value_file):
    """reply=R: of the R plans of best 1-ply value, the player takes the one whose afterstate is
    best for it after the next player's own best answer. Recomputed here by playing every plan of
    both turns through the rules on copies; positions with the marker on 8..12 cannot end a turn
    on a panic space (2 players: card + tile move it 2..6, HB-7 spaces 7 and 19), so no die is
    rolled. The answer changes the choice in at least one of the positions."""
    value = AfterstateValue.from_file(value_file)
    changed = 0
    for seed in range(4):
        env = _card_decision(seed, lambda t: 8 <= t <= 10)
        game, me = env.game, env.game.player
        plans = _turns(game, me)
        one_ply = [_worth(value, done, me, me) for _, done in plans]
        top = sorted(range(len(plans)), key=lambda i: one_ply[i], reverse=True)[:3]
        best = max(top, key=lambda i: _answered(value, plans[i][1], me))
        agent = LookaheadAgent(value, prior="none", reply=3, seed=0)
        assert agent.act(env, env.agent_selection) == plans[best][0]
        changed += plans[best][0] != plans[top[0]][0]
    assert changed >= 1


def test_reply_weighs_every_face_of_a_panic_roll_and_never_the_real_die(value_file):
    """A plan ending on a panic space (HB-9 (4), HB-7) is worth the mean over the six die faces
    (HB-6) of: the mover's best ram by the 1-ply value (void rolls: none), then the answer. The
    real game's generator is neither read nor advanced: reseeding it changes nothing."""
    value = AfterstateValue.from_file(value_file)
    env = _card_decision(5, lambda t: 1 <= t <= 4)
    game, me = env.game, env.game.player
    agent = LookaheadAgent(value, prior="none", reply=2, seed=0)
    kinds = game.legal_actions()
    options = agent._turn_options(game, agent._every_plan(game, kinds, False), True)
    panic = [o for o in options if o[2] is not None and int(o[2][9]) in game.panic_spaces]
    assert panic
    option = panic[0]
    faces = []
    for face in range(6):
        seed = next(s for s in range(1000) if np.random.default_rng(s).integers(6) == face)
        copy = game.clone()
        copy.rng = np.random.default_rng(seed)  # its first roll shows this face
        for action in option[4][3]:
            copy.apply(action)
        if copy.pending == PANIC:
            assert copy.die == face
            rams = []
            for ram in copy.legal_actions():
                after = copy.clone()
                after.apply(ram)
                rams.append((_worth(value, after, me, me), -ram, ram))
            copy.apply(max(rams)[2])
        faces.append(_answered(value, copy, me))
    assert len(set(faces)) > 1  # the faces matter here
    assert agent._replied_worth(game, option) == pytest.approx(np.mean(faces), abs=1e-6)
    decisions = set()
    for seed in range(4):
        game.rng = np.random.default_rng(seed)
        decisions.add(LookaheadAgent(value, prior="none", reply=4, seed=0).act(env, env.agent_selection))
    assert len(decisions) == 1


SMALL = ["--players", "2", "--first-games", "30", "--games", "3", "--epochs", "1", "--td-rounds", "1",
         "--td-epochs", "1", "--batch-size", "64", "--hidden", "16", "--workers", "1", "--holdout", "0.2"]


def test_selfplay_rounds_write_playable_reproducible_values(tmp_path):
    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        afterstate_selfplay.main(SMALL + ["--rounds", "2", "--seed", "3", "--out", str(out)])
        record = json.loads((out / "value.json").read_text())
        assert [r["round"] for r in record["rounds"]] == [0, 1]
        assert record["rounds"][0]["player"] == "random"
        assert record["rounds"][1]["player"].endswith("round_0.pt:prior=none:explore=0.1")
        assert all(r["samples"] > 0 for r in record["rounds"])
        assert record["kind"] == "afterstate-value" and record["games"] == 33  # 30 random + 3 self-play
        assert record["samples"] == sum(r["samples"] for r in record["rounds"])
        runs.append(torch.load(out / "value.pt", weights_only=True)["state_dict"])
        assert torch.equal(torch.load(out / "round_1.pt", weights_only=True)["state_dict"]["layers.0.weight"],
                           runs[-1]["layers.0.weight"])
    assert all(torch.equal(runs[0][k], runs[1][k]) for k in runs[0])  # same seed, same net
    ship([str(tmp_path / "a"), str(tmp_path / "shipped" / "hb2")])  # ships as a fit_afterstate_value run does
    shipped = tmp_path / "shipped" / "hb2.pt"
    spec = f"lookahead:{shipped}:prior=none"
    line = " ".join(_training_lines([spec]))
    assert "afterstate_selfplay --players 2" in line and "33 recorded games" in line
    env = new_env("haste_bock", players=2, seed=2, max_turns=200)
    assert len(play(env, [make_agent(spec, "haste_bock", seed=0), make_agent("random", "haste_bock", seed=0)])) > 30


def test_selfplay_round_one_learns_from_the_round_zero_player(tmp_path, monkeypatch):
    """Round 0 records random play; round 1 records the round-0 value's own player (both seats)."""
    calls = []
    real = afterstate_selfplay.generate

    def spy(games, seed, pool, viewer, workers=1, **kwargs):
        calls.append((games, seed, pool, viewer))
        return real(games, seed, pool, viewer, workers=workers, **kwargs)

    monkeypatch.setattr(afterstate_selfplay, "generate", spy)
    afterstate_selfplay.main(SMALL + ["--rounds", "2", "--explore", "0", "--out", str(tmp_path)])
    assert calls[0] == (30, 0, [("random", "random")], "random")
    spec = f"lookahead:{tmp_path / 'round_0.pt'}:prior=none"
    assert calls[1] == (3, 1, [(spec, spec)], spec)


def test_selfplay_stops_at_the_budget(tmp_path):
    afterstate_selfplay.main(SMALL + ["--rounds", "5", "--budget-minutes", "0.0001", "--out", str(tmp_path)])
    record = json.loads((tmp_path / "value.json").read_text())
    assert [r["round"] for r in record["rounds"]] == [0]
    assert (tmp_path / "value.pt").exists() and not (tmp_path / "round_1.pt").exists()


@pytest.mark.parametrize("bad", [["--explore", "2"], ["--games", "0"], ["--players", "5"], ["--budget-minutes", "0"],
                                 ["--holdout", "1"]])
def test_selfplay_rejects_bad_settings(tmp_path, bad):
    with pytest.raises(SystemExit):
        afterstate_selfplay.main(SMALL + bad + ["--out", str(tmp_path)])



# ---- keep_best: early stopping on the held-out games -----------------------------------------
def _heldout_bce(net, records, beats, holdout):
    from meadowzoo.training.fit_afterstate_value import predict_beats

    split = int(len(records) * (1 - holdout))
    p = np.clip(predict_beats(net, records[split:], 2)[:, 1], 1e-7, 1 - 1e-7)
    y = beats[split:, 1]
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def test_keep_best_returns_the_epoch_of_lowest_heldout_loss():
    """A wide net trained 6 epochs on 12 games over-fits; with keep_best the net returned has the
    lowest held-out loss of the history (recomputed here from its predictions), the epoch it says
    it kept; without it the last epoch's net is returned."""
    records, beats, gains, _ = generate(12, 9, [("random", "random")], "random")
    settings = dict(epochs=6, batch_size=32, lr=3e-3, holdout=0.3, seed=0, log=lambda *_: None)
    net, history = fit(records, beats, gains, 2, [256], keep_best=True, **settings)
    kept = history[-1]["kept"]
    losses = [h["heldout_bce"] for h in history]
    assert losses[kept - 1] == min(losses) and kept < 6  # it over-fitted: an earlier epoch is kept
    assert _heldout_bce(net, records, beats, 0.3) == pytest.approx(min(losses), rel=1e-4)
    plain, plain_history = fit(records, beats, gains, 2, [256], **settings)
    assert "kept" not in plain_history[-1]
    assert _heldout_bce(plain, records, beats, 0.3) == pytest.approx(plain_history[-1]["heldout_bce"], rel=1e-4)


def test_keep_best_keeps_the_given_net_when_training_only_hurts():
    """Epoch 0 is the net as given: when every epoch is worse (a learning rate far too high), the
    given weights come back unchanged."""
    records, beats, gains, _ = generate(12, 9, [("random", "random")], "random")
    settings = dict(batch_size=32, holdout=0.3, seed=0, log=lambda *_: None)
    net, _ = fit(records, beats, gains, 2, [32], epochs=2, lr=1e-3, **settings)
    before = {k: v.clone() for k, v in net.state_dict().items()}
    net, history = fit(records, beats, gains, 2, [32], epochs=2, lr=50.0, net=net, keep_best=True, **settings)
    assert history[0]["epoch"] == 0 and history[-1]["kept"] == 0
    assert all(torch.equal(before[k], v) for k, v in net.state_dict().items())


def test_selfplay_keep_best_is_passed_to_every_fit(tmp_path, monkeypatch):
    from meadowzoo.training import fit_afterstate_value

    seen = []
    real = fit_afterstate_value.fit

    def spy(*args, **kwargs):
        seen.append(kwargs.get("keep_best"))
        return real(*args, **kwargs)

    monkeypatch.setattr(fit_afterstate_value, "fit", spy)
    afterstate_selfplay.main(SMALL + ["--rounds", "2", "--keep-best", "--out", str(tmp_path)])
    assert seen and all(seen)  # round 0 and 1, outcome fits and TD refits
    record = json.loads((tmp_path / "value.json").read_text())
    assert "--keep-best" in record["command"] and record["rounds"][1]["history"][0]["epoch"] == 0


def test_selfplay_refuses_an_out_with_an_earlier_runs_files_unless_fresh(tmp_path, capsys):
    """A 2-round run into a folder of a 3-round run would leave round_2.pt beside a record of 2 rounds."""
    for name in ("round_0.pt", "round_1.pt", "round_2.pt", "value.json"):
        (tmp_path / name).write_text("earlier run")
    with pytest.raises(SystemExit) as refused:
        afterstate_selfplay.main(SMALL + ["--rounds", "2", "--out", str(tmp_path)])
    assert refused.value.code == 2 and "--fresh" in capsys.readouterr().err
    assert (tmp_path / "round_2.pt").read_text() == "earlier run"  # refused before anything changed
    afterstate_selfplay.main(SMALL + ["--rounds", "2", "--fresh", "--out", str(tmp_path)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["round_0.pt", "round_1.pt", "value.json", "value.pt"]
    assert len(json.loads((tmp_path / "value.json").read_text())["rounds"]) == 2
