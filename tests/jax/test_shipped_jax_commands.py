"""The commands that agents/trained/README.md gives for the shipped compiled-PPO agents reproduce
their runs: today's trainer reads each command into the settings the agent's record holds (as
recorded: fields added since filled in as they were then). A default changed since (a game's
settings, a new field) must be pinned in the command by a flag, or this fails."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("flax")
pytest.importorskip("optax")

from meadowzoo.training import train_jax  # noqa: E402
from meadowzoo.training.jax_config import as_recorded  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def shipped_jax_commands() -> list[tuple[list[str], str]]:
    """(train_jax arguments, shipped agent name) of each code block that trains and ships one."""
    text = (ROOT / "agents/trained/README.md").read_text().replace("\\\n", " ")
    found = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("python -m meadowzoo.training.train_jax "):
                continue
            args = shlex.split(line)[3:]
            out = args[args.index("--out") + 1]
            ship = next((shlex.split(later) for later in lines[i + 1:]
                         if later.startswith(f"python -m meadowzoo.training.ship {out} ")), None)
            if ship:  # (a block may train without shipping: an unshipped run's record is elsewhere)
                found.append((args, Path(ship[4]).name))
    return found


def test_each_shipped_jax_command_gives_its_records_settings(tmp_path):
    commands = shipped_jax_commands()
    assert {name for _, name in commands} >= {"volle_wolle_2p_scratch", "volle_wolle_4p_scratch",
                                               "hase_und_igel_4p_scratch"}
    for args, name in commands:
        record = json.loads((ROOT / "agents/trained" / f"{name}.json").read_text())
        # --devices asks JAX for CPU devices, which only a fresh process can get: set after parsing
        devices = int(args[args.index("--devices") + 1]) if "--devices" in args else None
        if devices is not None:
            at = args.index("--devices")
            args = args[:at] + args[at + 2:]
        out = args.index("--out")
        args = args[:out + 1] + [str(tmp_path / name)] + args[out + 2:]
        parsed = train_jax.parse_args(args)
        parsed.devices = devices
        settings = train_jax.settings(parsed).as_dict()
        recorded = as_recorded(record["config"])
        differing = {field: (settings[field], value) for field, value in recorded.items() if settings[field] != value}
        assert not differing, f"{name}: the README's command gives other settings (today's, recorded): {differing}"
