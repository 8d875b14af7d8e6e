"""Keyword options to the CLI's flags: one spelling for both, checked by the
same code (`chatty run --help` lists them), and the CLI's messages back in
the keywords a Python caller typed."""

import functools
import re

# Set by the package itself, never by a caller.
_RESERVED = {
    "graph": "pass the graph as the first argument",
    "json": "the statistics come back as Result.stats",
    "quiet": "nothing is printed from Python",
    "sources": "call the function once per source",
}


def _reserved(name):
    """Why `name` is not an option, or None."""
    if name == "app":
        from .algorithms import FUNCTIONS

        return f"call the app's function ({', '.join(FUNCTIONS)})"
    return _RESERVED.get(name)


def flags(options):
    """["--name=value", ...] for the options given (None means unset)."""
    out = []
    for name, value in options.items():
        why = _reserved(name)
        if why:
            raise ValueError(f"{name}= is not an option here: {why}")
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        out.append(f"--{name}={value}")
    return out


@functools.lru_cache(maxsize=1)
def _bool_flags():
    from . import _core

    return frozenset(_core.bool_flags())


_FLAG = re.compile(r"(?<![\w-])--(no)?([a-z][a-z0-9_]*)(=(\S*?))?(?=[\s,;:)'\"?!]|\.(\s|$)|$)")
_HELP = re.compile(r"`chatty[ a-z-]*` lists (the commands and )?(its|their) flags")


def python_message(message):
    """A CLI message with each flag as the keyword a Python caller passes:
    --symmetrize is symmetrize=True, --noX X=False, --tolerance=0 tolerance=0."""
    bools = _bool_flags()

    def keyword(m):
        no, name, value = m.group(1), m.group(2), m.group(4)
        if no and name not in bools:  # a flag whose name starts with "no"
            name, no = "no" + name, None
        if value is not None:
            return f"{name}={value}"
        if name in bools:
            return f"{name}={'False' if no else 'True'}"
        return f"{name}="

    message = _HELP.sub("the options are `chatty run`'s flags (`chatty help run` lists them)", message)
    message = message.replace("unknown flag --", "unknown option --")
    return _FLAG.sub(keyword, message)


def python_errors(f):
    """f with the engine's errors' messages in Python's keywords."""
    from . import _core

    @functools.wraps(f)
    def call(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except (_core.UsageError, _core.ChattyError) as e:
            raise type(e)(python_message(str(e))) from None

    return call
