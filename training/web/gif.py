"""Animated GIF of a replay, one frame per move, drawn by the same scenes as the browser page."""

from __future__ import annotations

import io
from pathlib import Path

from meadowzoo.training.web import views
from meadowzoo.training.web.replay import Replay


def replay_gif(replay: Replay, frame_ms: int = 600, first: int = 0, last: int | None = None) -> bytes:
    """The moves ``first..last`` (positions after that many moves; default all) as GIF bytes; the
    last frame stays three times as long."""
    last = len(replay) if last is None else last
    if not 0 <= first <= last <= len(replay):
        raise ValueError(f"frames must satisfy 0 <= first <= last <= {len(replay)}, got {first}..{last}")
    if frame_ms < 20:
        raise ValueError(f"frame_ms must be at least 20, got {frame_ms}")
    images = [views.frame_image(replay.frames[k]) for k in range(first, last + 1)]
    # one shared palette keeps the colours steady from frame to frame
    palette = images[0].quantize(colors=255)
    frames = [image.quantize(palette=palette, dither=0) for image in images]
    durations = [frame_ms] * (len(frames) - 1) + [3 * frame_ms]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False)
    return out.getvalue()


def write_gif(replay: Replay, path: str | Path, **kwargs) -> Path:
    path = Path(path)
    path.write_bytes(replay_gif(replay, **kwargs))
    return path
