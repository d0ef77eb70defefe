"""Per-seat views and drawings of every game: nothing hidden leaks, every legal move is clickable,
and the two writers of a drawing (SVG, Pillow) agree."""

import io
import json

import numpy as np
import pytest
from PIL import Image

from meadowzoo.envs import GAMES, game_module
from meadowzoo.envs.core.scene import Scene
from meadowzoo.training.web import views

CONFIGS = [("hase_und_igel", {"num_players": 2}), ("hase_und_igel", {"num_players": 4}),
           ("haste_bock", {"num_players": 2}), ("haste_bock", {"num_players": 4}),
           ("volle_wolle", {"num_players": 2}), ("volle_wolle", {"num_players": 5})]


def positions(game, options, seed, count=60):
    """``count`` positions of a seeded random game (the env at each decision)."""
    env = game_module(game).raw_env(**options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        if env.game.is_over or all(env.truncations.values()):
            break
        out.append(env.clone())
        env.step(int(rng.choice(env.legal_actions())))
    return out


@pytest.mark.parametrize("game, options", CONFIGS)
def test_a_seats_page_does_not_change_when_what_it_cannot_see_is_redrawn(game, options):
    # resample_hidden redraws everything a seat cannot know (unseen hare cards, the pile order,
    # other players' unrevealed bids, future dice): the seat's view and drawing must not notice
    rng = np.random.default_rng(1)
    changed = 0
    for env in positions(game, options, seed=7, count=40)[::2]:
        for seat in range(len(env.possible_agents)):
            view, svg = views.picture(env, seat)
            twin = env.clone()
            twin.game.resample_hidden(seat, rng)
            changed += _without_rng(twin.game.to_dict()) != _without_rng(env.game.to_dict())
            assert views.picture(twin, seat) == (view, svg)
            assert views.legal_moves(twin, seat) == views.legal_moves(env, seat)
    # the redraw did change hidden state (Haste Bock? hides only future dice), so the check could fail
    assert changed or game == "haste_bock"


def _without_rng(state: dict) -> dict:
    return {key: value for key, value in state.items() if key != "rng"}


def test_volle_wolle_bids_stay_secret_until_revealed_but_the_bidder_sees_its_own():
    env = game_module("volle_wolle").raw_env(num_players=3)
    env.reset(seed=3)
    env.step(env.string_to_action("bid 19"))  # seat 0 bids; seat 1 is to bid
    own = views.picture(env, 0)[0]["players"][0]
    other = views.picture(env, 1)[0]["players"][0]
    spectator = views.picture(env, None)[0]["players"][0]
    assert own["bid"] == "19" and own["has_bid"]
    assert other["bid"] is None and other["has_bid"] and spectator["bid"] is None
    assert "19" not in json.dumps(views.picture(env, 1)[0]["players"][0])
    assert views.picture(env, None, reveal=True)[0]["players"][0]["bid"] == "19"
    env.step(env.string_to_action("bid 14"))
    env.step(env.string_to_action("bid 15"))  # the last bid reveals them all
    assert [p["bid"] for p in views.picture(env, 2)[0]["players"]] == ["19", "14", "15"]


@pytest.mark.parametrize("game, options", CONFIGS)
def test_every_legal_move_with_an_anchor_is_drawn_on_the_movers_page(game, options):
    for env in positions(game, options, seed=11, count=80)[::4]:
        seat = env.game.current_agent
        drawn = views.view_module(game).draw(views.picture(env, seat)[0]).anchors()
        legal = views.legal_moves(env, seat)
        assert legal and [m["action"] for m in legal] == env.legal_actions()
        for move in legal:
            assert move["anchor"] is None or move["anchor"] in drawn, (move, sorted(drawn))
        for other in range(len(env.possible_agents)):  # nobody else gets moves
            assert other == seat or views.legal_moves(env, other) == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_svg_and_pillow_draw_the_same_scene(game):
    env = positions(game, {"num_players": 2}, seed=5, count=30)[-1]
    scene = views.view_module(game).draw(views.picture(env, 0)[0])
    svg = scene.svg()
    assert svg.startswith("<svg") and f'viewBox="0 0 {scene.width} {scene.height}"' in svg
    assert svg.count("data-anchor=") == sum(1 for s in scene.shapes if s.anchor)
    image = scene.image()
    assert image.size == (scene.width, scene.height)
    assert len(image.getcolors(maxcolors=1 << 16) or ()) > 8  # a picture, not a blank


def test_scene_escapes_text_and_checks_alignment():
    scene = Scene(10, 10)
    scene.text(1, 1, "<b>&", anchor='x"y')
    assert "&lt;b&gt;&amp;" in scene.svg() and 'data-anchor="x&quot;y"' in scene.svg()
    with pytest.raises(ValueError, match="align"):
        scene.text(1, 1, "a", align="left")


def test_hase_und_igel_view_shows_only_the_known_part_of_the_deck():
    env = positions("hase_und_igel", {"num_players": 4}, seed=2, count=200)[-1]
    game = env.game
    view = views.picture(env, 0)[0]
    assert view["deck"]["unseen"] == game.known_from
    assert len(view["deck"]["known"]) == len(game.deck) - game.known_from
    assert game.known_from < len(game.deck)  # some cards have gone under the deck by now
    assert "rng" not in json.dumps(view)


@pytest.mark.parametrize("wool", [0, 15, 16, 31, 45])
def test_volle_wolle_wool_tokens_overlap_no_text_and_stay_in_their_row(wool):
    """Many wool tokens used to wrap onto the "wool N" label and, past 30, into the next player's
    row; the label now states the count and at most two rows of tokens are drawn beside it."""
    from meadowzoo.envs.volle_wolle import drawing

    env = positions("volle_wolle", {"num_players": 3}, seed=2, count=10)[-1]
    view = views.picture(env, 0)[0]
    for player in view["players"]:
        player["wool"] = wool
    scene = drawing.draw(view)

    def box(shape):
        if shape.kind == "ellipse":
            cx, cy, rx, ry = shape.geometry
            return cx - rx, cy - ry, cx + rx, cy + ry
        x, y = shape.geometry  # text: baseline at y, about 0.62 em per character
        return x, y - shape.size, x + 0.62 * shape.size * len(shape.text), y + 2

    def overlap(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    tokens = [box(s) for s in scene.shapes if s.kind == "ellipse" and s.fill == "#f5f5eb"]
    labels = [s for s in scene.shapes if s.kind == "text" and s.text.startswith("wool ")]
    assert [s.text for s in labels] == [f"wool {wool}"] * 3  # the exact count, however many tokens
    assert len(tokens) == 3 * min(wool, 2 * drawing.WOOL_PER_ROW)
    texts = [box(s) for s in scene.shapes if s.kind == "text"]
    assert not any(overlap(t, x) for t in tokens for x in texts)
    # each player's row starts at its name; a token must end before the next player's name
    starts = [box(s)[1] for s in scene.shapes if s.kind == "text" and s.text.startswith("player_")]
    ends = starts[1:] + [scene.height]
    for t in tokens:
        row = max(i for i, top in enumerate(starts) if top <= t[1])
        assert t[3] <= ends[row]
