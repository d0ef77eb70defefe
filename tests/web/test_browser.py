"""The page in a real browser (headless Chromium): a whole game of each game played by clicking,
a replay stepped back and forth, and another seat's hidden betting card never reaching the page.
Screenshots go to a temporary folder (their paths are printed with -s)."""

import json
import urllib.request

import pytest
from PIL import Image

from meadowzoo.agents import make_agent
from meadowzoo.envs.volle_wolle.data import BID_NAMES
from tests.web.browser import chrome, click_move, page_state, start_game_in_lobby, wait, wait_for_decision
from tests.web.support import call, running_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    with running_server() as (app, base):
        yield app, base


@pytest.fixture(scope="module")
def driver():
    browser = chrome()
    yield browser
    browser.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return tmp_path_factory.mktemp("screenshots")


def by_css(driver, selector):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


@pytest.mark.parametrize("game, seed", [("hase_und_igel", 4), ("haste_bock", 2), ("volle_wolle", 6)])
def test_a_whole_game_is_played_through_the_page_against_a_random_agent(server, driver, shots, game, seed):
    app, base = server
    game_id = start_game_in_lobby(driver, base, game, ["human", "random"], seed)
    session = app.games[game_id]
    # the person's choices come from the greedy heuristic (random play rarely ends Hase und Igel);
    # every one of them is made by clicking the page
    chooser = make_agent("greedy", game, seed)
    version, clicks, saw_new = -1, 0, False
    while True:
        state = wait_for_decision(driver, game_id, version)
        if state["over"]:
            break
        assert state["seat"] == 0 and state["to_move"] == 0
        assert [m["action"] for m in state["legal"]] == session.env.legal_actions()
        if not saw_new:  # the opponent's moves since mine are marked
            saw_new = bool(by_css(driver, "#history li.new"))
        legal_on_board = {m["anchor"] for m in state["legal"] if m["anchor"]}
        assert set(state["marked"]) == legal_on_board  # exactly the legal moves are highlighted
        with session.cond:
            twin = session.env.clone()
        action = chooser.act(twin, "player_0")
        click_move(driver, state, action)
        version = state["version"]
        clicks += 1
        if clicks == 6:
            driver.save_screenshot(str(shots / f"{game}-playing.png"))
    assert session.over and session.env.game.is_over  # a whole game, not a truncated one
    print(f"{game}: {clicks} moves clicked, {len(session.moves)} in all")
    assert clicks == sum(1 for m in session.moves if m.seat == 0) >= 5 and saw_new
    result = session._result()
    text = by_css(driver, "#result")[0].text
    assert "Final places" in text
    first = result["places"].index(min(result["places"]))
    assert f"1. player_{first}" in text
    assert by_css(driver, "#replay-this") and by_css(driver, "#links a[download]")
    driver.save_screenshot(str(shots / f"{game}-over.png"))
    assert Image.open(shots / f"{game}-over.png").size[0] >= 1000


def test_a_replay_steps_forward_back_and_jumps(server, driver, shots):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    app, base = server
    driver.get(base + "/#/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results option[value=hb_2p_strong_vs_greedy]"))
    Select(driver.find_element(By.ID, "results")).select_by_value("hb_2p_strong_vs_greedy")
    index = driver.find_element(By.ID, "result-index")
    index.clear()
    index.send_keys("3")
    driver.find_element(By.ID, "open-replay").click()
    wait(driver, lambda d: d.execute_script("return location.hash").startswith("#/replay/"))
    summary = wait(driver, lambda d: d.execute_script("return window.meadowzoo.replay"))
    names = [m["name"] for m in summary["moves"]]
    count = summary["count"]
    record = json.loads((app.results()["hb_2p_strong_vs_greedy"]).read_text())["records"][3]
    assert count == record["decisions"] == len(names)

    def at(k):
        wait(driver, lambda d: d.find_element(By.ID, "position").text == f"{k} / {count}")
        shown = driver.find_element(By.ID, "replay-move").text
        assert shown == "start position" if k == 0 else shown.startswith(f"move {k}: ") and names[k - 1] in shown
        current = by_css(driver, "#replay-moves li.current")
        assert (not current) if k == 0 else current[0].get_attribute("value") == str(k)

    at(0)
    start_svg = driver.find_element(By.ID, "replay-board").get_attribute("innerHTML")
    for k in (1, 2, 3):
        driver.find_element(By.ID, "forward").click()
        at(k)
    driver.find_element(By.ID, "back").click()
    at(2)
    jump = driver.find_element(By.ID, "jump")
    jump.clear()
    jump.send_keys("40", Keys.ENTER)
    at(40)
    driver.save_screenshot(str(shots / "replay.png"))
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    at(39)
    driver.find_element(By.ID, "last").click()
    at(count)
    by_css(driver, '#replay-moves li[value="5"]')[0].click()
    at(5)
    driver.find_element(By.ID, "first").click()
    at(0)
    assert driver.find_element(By.ID, "replay-board").get_attribute("innerHTML") == start_svg
    with urllib.request.urlopen(driver.find_element(By.ID, "gif").get_attribute("href") + "?last=3") as response:
        assert response.headers["Content-Type"] == "image/gif" and response.read(6) == b"GIF89a"


def test_a_saved_game_file_opens_as_a_replay(server, driver, tmp_path):
    from selenium.webdriver.common.by import By

    app, base = server
    seed = 2**62 + 12345  # more than a JavaScript number holds exactly: the page must not round it
    game_id = call(base, "POST", "/api/games", {"game": "haste_bock", "agents": ["random", "greedy"], "seed": seed})[1]["id"]
    app.games[game_id].worker.join(30)
    status, record = call(base, "GET", f"/api/games/{game_id}/record")
    assert status == 200 and record["seed"] == seed
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(record))
    driver.get(base + "/#/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results option"))
    driver.find_element(By.ID, "saved-file").send_keys(str(path))
    summary = wait(driver, lambda d: (r := d.execute_script("return window.meadowzoo.replay")) and r["seed"] == str(seed) and r)
    assert summary["count"] == len(record["actions"]) and summary["moves"][-1]["name"] == app.games[game_id].moves[-1].name
    wait(driver, lambda d: d.find_element(By.ID, "position").text == f"0 / {summary['count']}")


def test_another_seats_hidden_bid_never_reaches_the_page(server, driver, shots):
    app, base = server
    # seat 0 (an agent) bids first; seat 1, a person, decides while that bid is secret
    game_id = start_game_in_lobby(driver, base, "volle_wolle", ["random", "human"], 11)
    session = app.games[game_id]
    wait_for_decision(driver, game_id)
    state = page_state(driver, full=True)
    assert state["view"]["decision"] == "bid" and state["seat"] == 1
    with session.cond:
        secret = BID_NAMES[session.env.game.bids[0]]
        mine = "14" if secret != "14" else "15"
    row = state["view"]["players"][0]
    assert row["has_bid"] and row["bid"] is None
    assert "has bid (secret)" in driver.find_element("id", "board").get_attribute("innerHTML")
    assert "player_0: a secret move" in driver.find_element("id", "history").text
    # what the page received cannot depend on the secret: the server's answer for seat 1 is the same
    # whatever seat 0 bid, and it is what the page holds
    received = [json.loads(text) for text in driver.execute_script("return window.meadowzoo.messages")]
    received = [data for data in received if isinstance(data, dict) and data.get("id") == game_id and "view" in data]
    with session.cond:
        game = session.env.game
        truth = game.bids[0]
        answer = json.dumps(session._state(1), sort_keys=True)
        for other in range(len(BID_NAMES) - (0 if game.wool[0] else 1)):
            game.bids[0] = other
            assert json.dumps(session._state(1), sort_keys=True) == answer
        game.bids[0] = truth
    assert json.dumps(received[-1], sort_keys=True) == answer
    for data in received:  # and no message names it (the seat's own choices aside)
        data.pop("legal")
        assert data["view"]["players"][0]["bid"] is None and f"bid {secret}" not in json.dumps(data)
    driver.save_screenshot(str(shots / "secret-bid.png"))
    action = BID_NAMES.index(mine)
    click_move(driver, state, action)  # our bid reveals both: now the page shows the other bid
    history = driver.find_element("id", "history")
    wait(driver, lambda d: f"player_0: bid {secret}" in history.text)

    def revealed(d) -> bool:
        # the reveal reaches the page in its messages: the other seat's move is named in the history
        # from now on (the agents may have played on to the next round's secret bid before the page's
        # poll returns, so neither the players' rows nor the last move need show it any more)
        # (every message, not those since the click: the page keeps its newest 2,000, so their count
        # stops growing on a long session; none before the click named the bid, as checked above)
        later = [json.loads(text) for text in d.execute_script("return window.meadowzoo.messages")]
        return any(isinstance(data, dict) and data.get("id") == game_id
                   and any(move.get("text") == f"player_0: bid {secret}" for move in data.get("history") or [])
                   for data in later)

    wait(driver, revealed)
