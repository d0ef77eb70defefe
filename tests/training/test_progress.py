"""Progress lines of long steps without a bar (the main job's teacher games and imitation epochs)."""

import io

from meadowzoo.training.progress import Progress, duration


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_lines_show_count_rate_and_eta_and_are_throttled():
    clock, out = Clock(), io.StringIO()
    progress = Progress("collecting strong's games", 10, "games", interval=5.0, stream=out, clock=clock)
    for _ in range(10):
        clock.now += 2.0  # 0.5 games/s
        progress.update()
    lines = out.getvalue().splitlines()
    # the first line at once, then one per 5 s (t = 2, 8, 14, 20 = the last)
    assert lines == [
        "collecting strong's games: 1/10 (10%), 0.5 games/s, ETA 18 s",
        "collecting strong's games: 4/10 (40%), 0.5 games/s, ETA 12 s",
        "collecting strong's games: 7/10 (70%), 0.5 games/s, ETA 6 s",
        "collecting strong's games: 10/10 (100%), 0.5 games/s, 20 s in all",
    ]


def test_notes_and_disabled_progress():
    clock, out = Clock(), io.StringIO()
    Progress("epochs", 2, "epochs", stream=out, clock=clock, enabled=False).update(note="loss 1.0")
    assert out.getvalue() == ""
    progress = Progress("epochs", 1, "epochs", stream=out, clock=clock)
    clock.now = 4.0
    progress.update(note="loss 0.5000")
    assert out.getvalue() == "epochs: 1/1 (100%), 0.25 epochs/s, 4 s in all; loss 0.5000\n"


def test_duration():
    assert [duration(s) for s in (0.4, 42, 185, 4320)] == ["0 s", "42 s", "3 min 5 s", "1 h 12 min"]
