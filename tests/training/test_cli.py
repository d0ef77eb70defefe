"""One vocabulary across the command lines (issue 15 item 5, issue 16's CLI values): the same names
and defaults, defaults shown in --help, ``prog`` naming the module, every bad value an argparse error
(exit status 2, one line naming the option) and never a traceback; every stored command still parses."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from meadowzoo.training import arguments

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("train", "evaluate", "play", "results", "train_jax", "serve")
#: command lines that make an env: the shared game vocabulary
GAME_COMMANDS = ("train", "evaluate", "play", "train_jax")


def run(module: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", f"meadowzoo.training.{module}", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def helps() -> dict[str, str]:
    out = {}
    for module in COMMANDS:
        done = run(module, "--help")
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stdout + done.stderr
        out[module] = " ".join(done.stdout.split())  # argparse wraps lines: compare whitespace-free
    return out


@pytest.mark.parametrize("module", COMMANDS)
def test_help_names_the_module_and_shows_defaults(helps, module):
    text = helps[module]
    assert text.startswith(f"usage: python -m meadowzoo.training.{module} ")
    assert "(default: " in text


def test_help_shows_the_default_of_an_option_without_help_text():
    parser = arguments.command_parser("train", "d")
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--name", default=None)
    text = " ".join(parser.format_help().split())
    assert "--width WIDTH (default: 4)" in text
    assert "(default: False)" not in text and "(default: None)" not in text


@pytest.mark.parametrize("module", ("afterstate_selfplay", "fit_afterstate_value"))
def test_every_default_of_the_afterstate_commands_is_shown(module):
    """README: "--help shows every default" (these two parsers had options without help text)."""
    done = run(module, "--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert text.startswith(f"usage: python -m meadowzoo.training.{module} ")
    for flag, default in (("--players PLAYERS", "2" if module == "afterstate_selfplay" else "4"),
                          ("--lr LR", "0.001"), ("--holdout HOLDOUT", "0.05"), ("--workers WORKERS", "2")):
        assert re.search(re.escape(flag) + r" [^-]*\(default: " + re.escape(default) + r"\)", text), flag


@pytest.mark.parametrize("module", GAME_COMMANDS)
def test_game_commands_share_names_and_defaults(helps, module):
    text = helps[module]
    for flag in ("--game {hase_und_igel,haste_bock,volle_wolle}", "--seed SEED", "--option KEY=VALUE"):
        assert flag in text, flag
    assert re.search(r"--players PLAYERS number of players \(seats\) \(default: 2\)", text)
    assert re.search(r"--seed SEED [^-]*\(default: 0\)", text)


#: (command line, the option the one-line error names)
BAD = [
    ("train --game hase_und_igel --players 7", "--players"),
    ("train --game volle_wolle --eval-every 0", "--eval-every"),
    ("train --game volle_wolle --checkpoint-every -1", "--checkpoint-every"),
    ("train --game volle_wolle --option nonsense=1", "--option"),
    ("train --game volle_wolle --opponents random,nobody", "--opponents"),
    ("train --game chess", "--game"),
    ("evaluate --game haste_bock --players 5 --agents random", "--players"),
    ("evaluate --game volle_wolle --agents random,random --games 0", "--games"),
    ("evaluate --game volle_wolle --agents random,random --games -3", "--games"),
    ("evaluate --game volle_wolle --agents random,random --option max_turns", "--option"),
    ("evaluate --game volle_wolle --agents random,random --option max_turns=-5", "--option"),
    ("evaluate --game hase_und_igel --agents random,random --option num_players=3", "--option"),
    ("evaluate --game volle_wolle --agents random,random,random", "--agents"),
    ("evaluate --game volle_wolle --agents random,random --workers 0", "--workers"),
    ("play --game volle_wolle --players 7", "--players"),
    ("play --game haste_bock --players 3 --agents random,random", "--agents"),
    ("play --game haste_bock --agents policy:/no/such/file.pt", "--agents"),
    ("play --game haste_bock --option layout=upside-down", "--option"),
    ("train_jax --game volle_wolle --eval-every 0", "--eval-every"),
    ("train_jax --game volle_wolle --checkpoint-every -1", "--checkpoint-every"),
    ("train_jax --game haste_bock --players 5", "--players"),
    ("serve --port 70000", "--port"),
    ("serve --agent-delay -1", "--agent-delay"),
    ("results --readme /no/such/README.md", "--readme"),
    # seeds numpy, torch and SB3 all take: 0..2**32-1
    ("evaluate --game volle_wolle --agents random,random --seed -1", "--seed"),
    ("play --game volle_wolle --seed -1", "--seed"),
    ("train --game volle_wolle --seed 4294967296", "--seed"),
    ("train_jax --game volle_wolle --seed -3", "--seed"),
    # search settings that would make the player pick no action
    ("evaluate --game volle_wolle --agents mcts:8:c=nan,random", "--agents"),
    ("evaluate --game volle_wolle --agents mcts:8:c=-inf,random", "--agents"),
    ("evaluate --game volle_wolle --agents mcts:8:depth=-1,random", "--agents"),
    ("evaluate --game volle_wolle --agents mcts:8:c=1:c=2,random", "--agents"),
    ("evaluate --game hase_und_igel --agents random,random --option truncation_scoring=standing --truncated draw",
     "--truncated"),
]


@pytest.mark.parametrize("line, flag", BAD, ids=[line for line, _ in BAD])
def test_bad_values_are_argparse_errors_not_tracebacks(line, flag):
    module, *args = line.split()
    done = run(module, *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"python -m meadowzoo.training.{module}: error: argument {flag}"), last


def test_console_script_name_is_the_prog(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/venv/bin/meadowzoo-evaluate", "--help"])
    assert arguments.program_name("evaluate") == "meadowzoo-evaluate"
    monkeypatch.setattr(sys, "argv", ["/repo/training/evaluate.py"])
    assert arguments.program_name("evaluate") == "python -m meadowzoo.training.evaluate"


def test_parse_option_values():
    assert arguments.parse_option("two_runners=false") == ("two_runners", False)
    assert arguments.parse_option("max_turns=50") == ("max_turns", 50)
    assert arguments.parse_option("deck=none") == ("deck", None)
    assert arguments.parse_option("layout=fixed") == ("layout", "fixed")
    for bad in ("max_turns", "=3", ""):
        with pytest.raises(Exception, match="key=value"):
            arguments.parse_option(bad)


# ---- every stored command line still parses -------------------------------------------------------
def stored_commands() -> list[tuple[str, list[str]]]:
    """(module, arguments) of every command kept in the repository: the main job, the result and
    shipping scripts, the shipped agents' records and README, the stored tournaments."""
    found = []

    def add(text: str) -> None:
        words = shlex.split(text)
        if len(words) > 2 and words[:2] == ["python", "-m"]:
            found.append((words[2].rsplit(".", 1)[1], words[3:]))

    main_sh = (ROOT / "scripts/main.sh").read_text().replace("\\\n", " ")
    job = re.search(r"-m meadowzoo\.training\.train (.*?) \"\$@\"", main_sh).group(1)
    found.append(("train", shlex.split(job)))
    arrays = {"acceptance.sh": {"RUNS": "evaluate"},
              "shipped.sh": {"TRAIN": "train", "CONTINUE": "train", "FIT": "fit_afterstate_value", "EVAL": "evaluate"}}
    for script, kinds in arrays.items():
        text = (ROOT / "results" / script).read_text()
        for name, module in kinds.items():
            block = re.search(rf"declare -A {name}=\((.*?)\n\)", text, re.S).group(1)
            for args in re.findall(r'\[\w+\]="([^"]*)"', block):
                found.append((module, shlex.split(args)))
    for record in sorted((ROOT / "agents/trained").glob("*.json")):
        data = json.loads(record.read_text())
        for entry in [data] + (data.get("invocations") or []):
            if "command" in entry:
                add(entry["command"])
    readme = (ROOT / "agents/trained/README.md").read_text().replace("\\\n", " ")
    for line in readme.splitlines():  # the commands of its code blocks (prose only paraphrases)
        if line.startswith("python -m meadowzoo.training."):
            add(line)
    for result in sorted((ROOT / "results").glob("*/results.json")):
        add(json.loads(result.read_text())["command"])
    return found


def produced_by_an_earlier_command(args: list[str]) -> bool:
    """An agent file under ``runs/``: written by the training command before it in the same block."""
    return any(":runs/" in a or a.startswith("runs/") and a.endswith((".pt", ".npz")) for a in args)


def check_stored(modules: set[str], monkeypatch) -> int:
    import functools

    import meadowzoo.agents
    from meadowzoo.training import evaluate, fit_afterstate_value, play, train, train_jax

    # the same check of every agent spec, each distinct one built once (shipped policies are slow to
    # load), in this process (nothing forks here)
    monkeypatch.setattr(meadowzoo.agents, "make_agent", functools.lru_cache(maxsize=None)(meadowzoo.agents.make_agent))
    monkeypatch.setattr(arguments, "ISOLATE_BEFORE_FORK", False)
    parsers = {"train": train.parse_args, "evaluate": evaluate.parse_args, "play": play.parse_args,
               "train_jax": train_jax.parse_args, "fit_afterstate_value": fit_afterstate_value.parse_args}
    checked = 0
    for module, args in stored_commands():
        if module not in modules or produced_by_an_earlier_command(args):
            continue
        if module == "evaluate":  # --out is checked by writing: not here
            args = [a for i, a in enumerate(args) if a != "--out" and (i == 0 or args[i - 1] != "--out")]
        if module == "train_jax" and "--devices" in args:
            # --devices asks JAX for CPU devices, which only a process where JAX has not started can
            # get (in a pytest worker an earlier test may have started it): its value is checked
            # here, the rest of the command by the parser
            at = args.index("--devices")
            assert args[at + 1].isdigit() and int(args[at + 1]) >= 1, f"train_jax {shlex.join(args)}"
            args = args[:at] + args[at + 2:]
        try:
            parsers[module](args)
        except SystemExit as stop:
            pytest.fail(f"stored command no longer parses: {module} {shlex.join(args)} (exit {stop.code})")
        checked += 1
    return checked


def test_every_stored_command_still_parses(monkeypatch):
    commands = stored_commands()
    assert {module for module, _ in commands} >= {"train", "evaluate", "play", "fit_afterstate_value", "train_jax"}
    assert check_stored({"train", "evaluate", "play", "fit_afterstate_value"}, monkeypatch) > 30


@pytest.mark.slow
def test_stored_jax_training_commands_still_parse(monkeypatch):
    assert check_stored({"train_jax"}, monkeypatch) >= 1


def test_players_without_parameters_refuse_one():
    from meadowzoo.agents import make_agent

    for spec in ("greedy:3", "strong:x", "random:foo"):
        with pytest.raises(ValueError, match="takes no parameter"):
            make_agent(spec, "volle_wolle", 0)
    with pytest.raises(ValueError, match="unknown game"):
        make_agent("random", "chess", 0)
    with pytest.raises(ValueError, match="agent spec is a string"):
        make_agent(3, "volle_wolle", 0)


def test_a_missing_optional_package_names_its_extra(monkeypatch, capsys):
    """A policy file needs the train extra's sb3-contrib: without it the agent check says so in one
    argparse line; any other missing package a command hits later is one line naming its extra."""
    import subprocess
    import sys
    from pathlib import Path

    from meadowzoo.training import evaluate
    from meadowzoo.training.arguments import missing_extra

    assert "'jax' extra" in missing_extra(ModuleNotFoundError("no", name="pgx"))
    assert "pip install torch" in missing_extra(ModuleNotFoundError("no", name="torch.nn"))
    assert missing_extra(ModuleNotFoundError("no", name="not_an_extra")) is None
    assert missing_extra(ValueError("x")) is None

    for name in ["sb3_contrib", *(m for m in sys.modules if m.startswith("sb3_contrib."))]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed (submodules too: an import
        # of a module already loaded by an earlier test would not look at its parent)
    with pytest.raises(SystemExit) as stopped:
        evaluate.main(["--game", "volle_wolle", "--agents", "policy:agents/trained/volle_wolle_2p.pt,strong",
                       "--workers", "1"])  # the agent check runs here, where sb3_contrib is "missing"
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "'train' extra" in err and "Traceback" not in err

    root = Path(__file__).resolve().parents[2]
    script = ("import sys; sys.modules['openskill'] = None; from meadowzoo.training import evaluate; "
              "evaluate.main(['--game', 'haste_bock', '--agents', 'random,greedy', '--games', '2', '--quiet'])")
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "needs openskill, from meadowzoo's 'train' extra" in done.stderr.strip().splitlines()[-1]
