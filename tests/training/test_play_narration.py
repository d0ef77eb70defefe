"""Terminal play (issue 15 item 6): before each of the person's decisions, every other player's moves
since their last decision are listed in words, the board is shown, and special decisions say what
they are. ``play`` is driven with scripted input; what it should say is derived independently by
replaying the recorded actions in a fresh env."""

from __future__ import annotations

import io
import json
import re

import pytest

from meadowzoo.envs import game_module
from meadowzoo.training import narration, play
from meadowzoo.training.web import views

#: decision kinds (game, DECISIONS name) -> words their explanation must hold
EXPLAINED = {
    ("haste_bock", "panic"): "PANIC RAM",
    ("volle_wolle", "bid"): "BID (VW-7)",
    ("volle_wolle", "roll"): "ROLL, attempt",
    ("volle_wolle", "black"): "BLACK SHEEP (VW-11)",
    ("volle_wolle", "pick"): "PICK (VW-10/14)",
    ("hase_und_igel", "card_carrots"): "HARE CARD '",
    ("hase_und_igel", "extra_move"): "HARE CARD 'move again' (HUI-23)",
}


def play_scripted(monkeypatch, capsys, game: str, agents: str, seed: int, answers: int):
    """Run ``play`` with ``answers`` times "0" typed, then the end of input; the moves made (seat,
    action) and what was printed."""
    moves = []
    advance = play.advance

    def recording(env, players, *, after, **hooks):
        def both(agent, action):
            moves.append((agent, int(action)))
            after(agent, action)
        return advance(env, players, after=both, **hooks)

    monkeypatch.setattr(play, "advance", recording)
    monkeypatch.setattr("sys.stdin", io.StringIO("0\n" * answers))
    try:
        play.main(["--game", game, "--players", str(agents.count(",") + 1), "--agents", agents, "--seed", str(seed),
                   "--show", "none"])
    except SystemExit as stopped:  # the input ended before the game: exit status 1
        assert stopped.code == 1
    return moves, capsys.readouterr().out


def expected_blocks(game: str, players: int, seed: int, moves, human: str):
    """For each decision of ``human``: (decision kind, single legal action?, the other seats' moves
    since its last decision as (agent, action name, decision kind), the board)."""
    env = game_module(game).raw_env(num_players=players)
    env.reset(seed=seed)
    blocks, since = [], []
    for agent, action in moves:
        assert env.agent_selection == agent
        kind = type(env.game).DECISIONS[env.game.pending]
        if agent == human:
            blocks.append((kind, len(env.legal_actions()) == 1, since, env._render_ansi()))
            since = []
        env.step(action)
        if agent != human:  # with what the game did by itself afterwards (cards drawn, payouts)
            since.append((agent, env.action_to_string(action), kind, views.automatic_events(env)))
    if env.agent_selection == human and not env.game.is_over:  # the decision it quit at
        blocks.append((type(env.game).DECISIONS[env.game.pending], len(env.legal_actions()) == 1, since,
                       env._render_ansi()))
    return blocks


@pytest.mark.parametrize("game, agents, seed, answers", [
    ("haste_bock", "human,random", 0, 12),
    ("volle_wolle", "random,human,random", 3, 25),
    ("hase_und_igel", "human,random", 1, 40),
])
def test_play_lists_other_moves_shows_the_board_and_explains(monkeypatch, capsys, game, agents, seed, answers):
    human = f"player_{agents.split(',').index('human')}"
    moves, shown = play_scripted(monkeypatch, capsys, game, agents, seed, answers)
    assert "game stopped: input ended" in shown
    segments = re.split(rf"\n=== {human}(?:: since your last decision)? ===\n", shown)[1:]
    blocks = expected_blocks(game, agents.count(",") + 1, seed, moves, human)
    assert len(segments) == len(blocks) == answers + 1
    explained = events_seen = 0
    secret_seen = False
    for segment, (kind, forced, since, board) in zip(segments, blocks):
        listing = segment.split(f"\n{human}, your move:")[0]
        position = 0
        for agent, name, move_kind, events in since:  # every other seat's move, in order, in words
            if game == "volle_wolle" and move_kind == "bid" and f"  {agent} (random): bid (secret until revealed)" in listing[position:]:
                hidden = f"  {agent} (random): bid (secret until revealed)"
                secret_seen = True
                position = listing.index(hidden, position) + len(hidden)
                continue
            line = f"  {agent} (random): {name}"
            assert line in listing[position:], f"missing {line!r} in\n{listing}"
            position = listing.index(line, position) + len(line)
            for event in events:
                assert f"      {event}\n" in listing[position:], f"missing event {event!r} in\n{listing}"
                position = listing.index(event, position) + len(event)
                events_seen += 1
        assert board in listing  # the board of this very position, before the menu
        words = EXPLAINED.get((game, kind))
        if words:
            assert words in listing, f"{kind} not explained in\n{listing}"
            explained += 1
        if forced:
            assert "FORCED:" in listing
    assert explained > 0  # the run met at least one special decision
    if game == "hase_und_igel":
        assert events_seen > 0  # cards drawn, payouts …
    if game == "volle_wolle":  # a bid made before the person's own is secret until all are revealed
        assert secret_seen


def test_haste_bock_panic_ram_shows_the_die_of_other_players():
    from meadowzoo.training.runner import advance, start

    env, players = start("haste_bock", ["random"], 0, {"num_players": 2})
    log = narration.MoveLog(env, {"player_0": "random", "player_1": "random"})
    advance(env, players, before=log.before, after=log.after, until="player_1")
    first = log.moves[0]  # the opening panic ram of player_0 (HB-8)
    assert first.decision == "panic" and first.context.startswith("die: ")
    lines = log.since_last("player_1")
    assert lines[0].startswith("  player_0 (random): panic ram ") and "(die: " in lines[0]


def test_explanations_of_hare_cards_and_a_forced_move():
    """Every Hase und Igel card decision met in seeded random games is explained with its card."""
    from meadowzoo.envs.hase_und_igel import data
    from meadowzoo.training.runner import start

    met = set()
    for seed in range(6):
        env, players = start("hase_und_igel", ["random"], seed, {"num_players": 2})
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            kind = type(env.game).DECISIONS[env.game.pending]
            text = narration.explain(env) or ""
            if kind in ("card_carrots", "extra_move"):
                assert f"HARE CARD '{data.CARD_KINDS[env.game.last_card].replace('_', ' ')}'" in text
                met.add(kind)
            if len(env.legal_actions()) == 1:
                assert "FORCED:" in text and env.action_to_string(env.legal_actions()[0]) in text
                met.add("forced")
            env.step(players[env.agent_selection].act(env, env.agent_selection))
    assert met == {"card_carrots", "extra_move", "forced"}


def test_play_saves_a_replayable_game(tmp_path, capsys):
    from meadowzoo.training.web import replay

    path = tmp_path / "game.json"
    result = play.play_game("volle_wolle", ["strong", "random"], seed=5, show="none", out=path, num_players=2)
    loaded = replay.load_file(path)
    assert loaded.game == "volle_wolle" and loaded.seed == 5 and len(loaded) > 20
    saved = json.loads(path.read_text())
    assert saved["rewards"] == [result["player_0"], result["player_1"]]
    final = loaded.frame(len(loaded))["view"]  # the replayed end is the played end
    assert final["over"] and [p["points"] for p in final["players"]] == saved["scores"]
