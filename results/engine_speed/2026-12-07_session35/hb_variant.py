"""Shared by this folder's Haste Bock? A/Bs: an engine class whose methods between two markers of
``envs/haste_bock/jax_engine.py`` (the working tree's, or the file at commit ``rev``) are the
engine's text with some lines replaced."""
import subprocess

import meadowzoo.envs.haste_bock.jax_engine as J

PATH = "envs/haste_bock/jax_engine.py"


def method_variant(start: str, end: str, replacements=(), rev: str | None = None):
    source = open(PATH).read() if rev is None else subprocess.run(
        ["git", "show", f"{rev}:{PATH}"], capture_output=True, text=True, check=True).stdout
    text = source[source.index(start):source.index(end)]
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    namespace = dict(J.__dict__)
    exec(compile("class Variant(HasteBockJax):\n" + text, "method_variant", "exec"), namespace)
    return namespace["Variant"]
