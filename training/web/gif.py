"""Animated GIF of a replay, one frame per move, drawn by the same scenes as the browser page."""

from __future__ import annotations

import io
from pathlib import Path

from meadowzoo.training.web import views
from meadowzoo.training.web.replay import Replay


#: the longest frame, in milliseconds (a GIF frame lasts at most 65,535 centiseconds, the last one three frames)
MAX_FRAME_MS = 60_000
#: the most positions in one GIF: each is kept in memory (as palette pixels) until the file is written
MAX_FRAMES = 600


def replay_gif(replay: Replay, frame_ms: int = 600, first: int = 0, last: int | None = None) -> bytes:
    """The moves ``first..last`` (positions after that many moves; default all, at most
    :data:`MAX_FRAMES`) as GIF bytes; the last frame stays three times as long."""
    last = len(replay) if last is None else last
    if not 0 <= first <= last <= len(replay):
        raise ValueError(f"frames must satisfy 0 <= first <= last <= {len(replay)}, got {first}..{last}")
    if not 20 <= frame_ms <= MAX_FRAME_MS:
        raise ValueError(f"frame_ms must lie in 20..{MAX_FRAME_MS}, got {frame_ms}")
    if last - first + 1 > MAX_FRAMES:
        raise ValueError(f"{last - first + 1} positions are more than {MAX_FRAMES} for one GIF: choose first and last "
                         f"(this replay has {len(replay)} moves)")
    # one shared palette keeps the colours steady from frame to frame; each frame is reduced to it
    # as it is drawn, so only palette pixels are kept
    palette = views.frame_image(replay.frames[first]).quantize(colors=255)
    frames = (views.frame_image(replay.frames[k]).quantize(palette=palette, dither=0) for k in range(first, last + 1))
    durations = [frame_ms] * (last - first) + [3 * frame_ms]
    out = io.BytesIO()
    next(frames).save(out, format="GIF", save_all=True, append_images=frames, duration=durations, loop=0,
                      optimize=False)
    return out.getvalue()


def write_gif(replay: Replay, path: str | Path, **kwargs) -> Path:
    path = Path(path)
    path.write_bytes(replay_gif(replay, **kwargs))
    return path
