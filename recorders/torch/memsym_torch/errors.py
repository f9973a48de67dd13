"""Errors the user can act on, each one line, placed in the user's code."""

import functools
import os
import sys
import sysconfig
import traceback


class UserError(Exception):
    """A mistake in the command, the model file or the model: reported as
    one line, without a traceback."""


@functools.lru_cache(maxsize=None)
def _not_user():
    """Returns the directories of torch, Python and the recorder: an error
    is placed at the innermost frame outside them, the user's."""
    import torch

    return tuple(
        os.path.realpath(p) + os.sep
        for p in (os.path.dirname(torch.__file__), os.path.dirname(__file__), sysconfig.get_paths()["stdlib"])
    )


def where(path):
    """Returns a file's name for messages: relative to the working directory
    when it is inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def first_line(exc):
    """Returns an exception as "Type: its message's first line"."""
    msg = str(exc).strip().splitlines()
    name = type(exc).__name__
    return f"{name}: {msg[0].strip()}" if msg else name


def raised(exc, what, fallback):
    """Returns a UserError saying that what (such as "the forward at B = 2")
    raised exc, placed at the innermost frame of the user's code, or at
    fallback (a file name) when no frame is the user's."""
    place = fallback
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        real = os.path.realpath(frame.filename)
        if not real.startswith(_not_user()) and not frame.filename.startswith("<"):
            place = f"{where(frame.filename)}:{frame.lineno}"
            break
    hint = _hint(exc)
    return UserError(f"{place}: {what} raised {first_line(exc)}{hint}")


def _hint(exc):
    """Returns advice for the errors a model meets only on the meta device."""
    msg = str(exc)
    if "meta" not in msg.lower():
        return ""
    if "item()" in msg or "_local_scalar_dense" in msg:
        return " (a recording holds no values: control flow that reads a tensor's value cannot be recorded)"
    if "Meta" in msg and "backend" in msg:
        return " (this operation has no meta kernel in this torch, so it cannot be recorded without memory)"
    return ""


def fail(msg):
    """Prints msg as the recorder's one-line error."""
    print(f"memsym_torch: {msg}", file=sys.stderr)
