"""Argument types shared by the command lines: a bad value is an argparse error naming the flag
(``--eval-every 0`` must not become a ZeroDivisionError minutes into a run)."""

from __future__ import annotations

import argparse
import copy
import os
import sys


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value}")
    return value


def positive_float(text: str) -> float:
    value = _float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {text!r}")
    return value


def non_negative_float(text: str) -> float:
    value = _float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, got {text!r}")
    return value


def share(text: str) -> float:
    value = _float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share between 0 and 1, got {text!r}")
    return value


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def layer_widths(text: str) -> tuple[int, ...]:
    """Hidden layer widths written ``128,128``: one or more whole numbers of at least 1."""
    parts = [part.strip() for part in text.split(",")]
    try:
        widths = tuple(int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected layer widths such as 128,128, got {text!r}") from None
    if not widths or any(width < 1 for width in widths):
        raise argparse.ArgumentTypeError(f"expected layer widths of at least 1, such as 128,128, got {text!r}")
    return widths


#: seeds lie in 0..2**32-1: what numpy's, torch's and Stable-Baselines3's seeding all take
SEED_LIMIT = 2**32


def seed_value(text: str) -> int:
    """A ``--seed``: a whole number in 0..2**32-1."""
    value = non_negative_int(text)
    if value >= SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"expected a seed below 2**32 = {SEED_LIMIT}, got {value}")
    return value


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, got {value}")
    return value


def port(text: str) -> int:
    value = non_negative_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0..65535, got {value}")
    return value


def parse_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` of ``--option``: ``true``/``false`` are booleans, ``none``/``null`` is None,
    a whole number is an int, anything else stays a string (the env checks it)."""
    key, eq, value = text.partition("=")
    key = key.strip()
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"options look like key=value, got {text!r}")
    lowered = value.lower()
    if lowered in ("true", "false"):
        return key, lowered == "true"
    if lowered in ("none", "null"):
        return key, None
    try:
        return key, int(value)
    except ValueError:
        return key, value


# ---- the shared vocabulary of the command lines ---------------------------------------------------
#: ``--players`` when not given, in every command line
DEFAULT_PLAYERS = 2
#: env options that have their own flag (or are the command's business), never ``--option``
RESERVED_OPTIONS = {"num_players": "--players", "render_mode": None}


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help with the description as written and every default shown (``(default: …)``), except
    where there is none to show (``None``, ``False``, an empty list)."""

    def _format_action(self, action: argparse.Action) -> str:
        # argparse prints no help line at all for an argument without help text, so its default
        # would go unseen: give such an argument a help text of its default alone
        if not action.help and self._shows_default(action):
            action = copy.copy(action)
            action.help = "(default: %(default)s)"
        return super()._format_action(action)

    @staticmethod
    def _shows_default(action: argparse.Action) -> bool:
        default = action.default
        return (bool(action.option_strings) and default is not None and default is not False
                and default is not argparse.SUPPRESS and default != [])

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if "%(default)" in text or default is None or default is False or default is argparse.SUPPRESS or default == []:
            return text
        if action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            text += " (default: %(default)s)"
        return text


def program_name(module: str) -> str:
    """How the user started the command: the console script (``meadowzoo-train``) when that is
    what runs, else ``python -m meadowzoo.training.<module>``."""
    script = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if script.startswith("meadowzoo-"):
        return script
    return f"python -m meadowzoo.training.{module}"


def stops_on_ctrl_c(main):
    """A training command's ``main`` that, on Ctrl-C (in training or in a ladder's games, which raise
    the tournament's ``Interrupted``), says how to go on and exits with status 130, without a traceback."""
    import functools

    @functools.wraps(main)
    def wrapped(*args, **kwargs):
        from meadowzoo.training.tournament import Interrupted

        try:
            return main(*args, **kwargs)
        except (KeyboardInterrupt, Interrupted):
            print("\ninterrupted: the same command resumes the run from its newest checkpoint", file=sys.stderr)
            raise SystemExit(130) from None

    return wrapped


def command_error(module: str, message: str) -> None:
    """Stop a command as argparse stops it for a bad value (one line on stderr, exit status 2), for
    what only shows once the command runs (e.g. an --out that holds another run's checkpoint)."""
    print(f"{program_name(module)}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


#: the extra that installs each optional package a command may import (``pip install -e ".[extra]"``)
EXTRAS = {"tqdm": "train", "openskill": "train", "stable_baselines3": "train", "sb3_contrib": "train",
          "matplotlib": "train", "tensorboard": "train", "jax": "jax", "jaxlib": "jax", "pgx": "jax", "flax": "jax",
          "optax": "jax", "ray": "ray", "tianshou": "examples"}


def missing_extra(error: BaseException) -> str | None:
    """For a missing optional package (a ``ModuleNotFoundError``), one line naming what installs
    it; None for any other error."""
    if not isinstance(error, ModuleNotFoundError) or not error.name:
        return None
    package = error.name.split(".")[0]
    if package == "torch":
        return "this needs PyTorch, which meadowzoo leaves to you: pip install torch (the build for your machine)"
    if package not in EXTRAS:
        return None
    extra = EXTRAS[package]
    return f"this needs {package}, from meadowzoo's {extra!r} extra: pip install \"meadowzoo[{extra}]\" (from a checkout: pip install -e \".[{extra}]\")"


def _report_missing_extras(prog: str) -> None:
    """A command that stops on a missing optional package says which extra installs it, in one line
    (exit status 1), instead of a traceback."""
    previous = sys.excepthook
    if getattr(previous, "meadowzoo_extras", False):
        return

    def hook(kind, error, traceback) -> None:
        message = missing_extra(error)
        if message is None:
            previous(kind, error, traceback)
        else:
            print(f"{prog}: error: {message}", file=sys.stderr)

    hook.meadowzoo_extras = True
    sys.excepthook = hook


def command_parser(module: str, description: str, **kwargs) -> argparse.ArgumentParser:
    """The parser of the command line of ``meadowzoo.training.<module>``: named as it was started,
    defaults shown in ``--help``; a missing optional package later names its extra."""
    prog = program_name(module)
    _report_missing_extras(prog)
    return argparse.ArgumentParser(prog=prog, description=description, formatter_class=HelpFormatter, **kwargs)


def add_game_arguments(parser: argparse.ArgumentParser, *, game_required: bool = True, options: bool = True,
                       seed_help: str = "seed of everything random (same seed, same result)") -> None:
    """``--game``, ``--players``, ``--seed`` and (where an env is made) ``--option KEY=VALUE``."""
    from meadowzoo.envs.registry import GAMES

    games = sorted(GAMES)
    parser.add_argument("--game", choices=games, required=game_required, default=None if game_required else games[0],
                        help="which game")
    parser.add_argument("--players", type=positive_int, default=DEFAULT_PLAYERS, help="number of players (seats)")
    parser.add_argument("--seed", type=seed_value, default=0, help=seed_help)
    if options:
        parser.add_argument("--option", action="append", type=parse_option, default=[], metavar="KEY=VALUE",
                            help="env option (repeatable), e.g. --option max_turns=300 --option two_runners=true; "
                                 "true/false, none and whole numbers are parsed")


def check_game_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict:
    """Check ``--players`` against the game and ``--option`` by building the env once; a bad value
    is an argparse error naming the flag (exit status 2), never a traceback. Returns the env
    options (``--option``s as a dict, without ``num_players``)."""
    from meadowzoo.envs import game_module, plugin

    counts = plugin(args.game).player_counts
    if args.players not in counts:
        parser.error(f"argument --players: {args.game} is for {_counts(counts)} players, not {args.players}")
    options = dict(getattr(args, "option", None) or [])
    for key in options:
        if key in RESERVED_OPTIONS:
            flag = RESERVED_OPTIONS[key]
            parser.error(f"argument --option: {key} is not an env option here" + (f"; use {flag}" if flag else ""))
    try:
        game_module(args.game).raw_env(num_players=args.players, **options)
    except TypeError as error:  # an unknown keyword
        parser.error(f"argument --option: {args.game} has no such option ({error})")
    except ValueError as error:
        parser.error(f"argument --option: {error}")
    return options


def _counts(counts) -> str:
    counts = sorted(counts)
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


#: whether :func:`check_agents` with ``before_fork=True`` builds parameterised agents (policy files …)
#: in a fresh process: loading a network in the parent before a ``fork`` worker pool deadlocks the
#: workers (torch's thread pool does not survive ``fork``)
ISOLATE_BEFORE_FORK = True


def agent_problem(specs, game: str, env_options: dict | None = None) -> str | None:
    """Why one of ``specs`` names no agent of ``game`` (each built once, then dropped), or None.
    With ``env_options`` (``num_players`` and the env options of the games to come), an agent made
    for another configuration (a policy or value file of another player count) is a problem too."""
    from meadowzoo.agents import make_agent
    from meadowzoo.training.runner import check_fit

    env = None
    if env_options is not None:
        from meadowzoo.envs import game_module

        env = game_module(game).raw_env(**env_options)
        env.reset(seed=0)
    for spec in dict.fromkeys(specs):
        try:
            player = make_agent(spec, game, seed=0)
            if env is not None:
                check_fit(player, env, env.agent_selection)
        except (ValueError, OSError) as error:
            return str(error)
        except ModuleNotFoundError as error:  # a policy file needs the train extra's packages
            message = missing_extra(error)
            if message is None:
                raise
            return f"{spec}: {message}"
    return None


def check_agents(parser: argparse.ArgumentParser, flag: str, specs, game: str, before_fork: bool = False,
                 people: bool = True, env_options: dict | None = None) -> None:
    """Every agent spec of ``flag`` names an agent of ``game``; else an argparse error. With
    ``before_fork`` (the caller forks worker processes next) agents with a parameter, such as
    ``policy:<file>``, are built in a fresh process (see :data:`ISOLATE_BEFORE_FORK`). Without
    ``people`` a ``human`` seat is refused: training's opponents, ladders and teachers play alone.
    With ``env_options`` an agent made for another configuration is refused (:func:`agent_problem`)."""
    specs = list(specs)
    if not people and "human" in specs:
        parser.error(f"argument {flag}: 'human' plays at the terminal; {flag} needs agents that play by themselves")
    if before_fork and ISOLATE_BEFORE_FORK and any(":" in spec for spec in specs):
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
            problem = pool.submit(agent_problem, specs, game, env_options).result()
    else:
        problem = agent_problem(specs, game, env_options)
    if problem is not None:
        parser.error(f"argument {flag}: {problem}")


def check_writable(parser: argparse.ArgumentParser, flag: str, folder) -> None:
    """Create ``folder`` and write a file there, so an output folder that cannot be written fails at
    once, not after hours of games."""
    import tempfile
    from pathlib import Path

    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as error:
        parser.error(f"argument {flag}: cannot write to {folder}: {error.strerror or error}")
