"""Errors the user can act on, each one line, placed in the user's code."""

import functools
import os
import re
import sys
import sysconfig
import traceback


class UserError(Exception):
    """A mistake in the command, the model file or the model: reported as
    one line, without a traceback."""


class ArgumentError(UserError):
    """A dimension or constant the build function needs and is not given,
    or is given and does not take: a mistake in the command line (exit
    status 2)."""


class NotRecordable(Exception):
    """Raised in the model's run for what cannot be recorded: its message
    says what the model does and why (raised places it in the user's code
    and puts what ran before it)."""


def by_memsym():
    """Reports whether memsym runs the recorder (memsym --torch), whose
    command line gives the dimensions by --grid, not by --dim."""
    return os.environ.get("MEMSYM_TORCH_DRIVER") == "memsym"


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


def a_value(x):
    """Names what x is for a message: "None", or "a value of type int"."""
    return "None" if x is None else f"a value of type {type(x).__name__}"


def first_line(exc):
    """Returns an exception as "Type: its message's first line"."""
    msg = str(exc).strip().splitlines()
    name = type(exc).__name__
    if not msg:
        return name
    return f"{name}: {_DANGLING.sub('', msg[0].strip())}"


def raised(exc, what, fallback, floats=()):
    """Returns a UserError saying that what (such as "the forward at B = 2")
    raised exc, placed at the innermost frame of the user's code, or at
    fallback (a file name) when no frame is the user's. floats are the
    constants given as non-integers, as "D=1.5", named when exc may come
    from one used as a size."""
    place = fallback
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        real = os.path.realpath(frame.filename)
        if not real.startswith(_not_user()) and not frame.filename.startswith("<"):
            place = f"{where(frame.filename)}:{frame.lineno}"
            break
    meta = _on_meta(exc)
    if meta:
        return UserError(f"{place}: {what} {meta}")
    return UserError(f"{place}: {what} raised {first_line(exc)}{_float_hint(exc, floats)}")


# torch's error for an operation without a kernel for the meta device.
_NO_KERNEL = re.compile(r"Could not run '(\w+)::(\w+)' with arguments from the 'Meta' backend")

# What reads a tensor's value, or makes a tensor whose size depends on
# values, by the ATen operation that fails on the meta device.
_READS_VALUES = {
    "_local_scalar_dense": "reads a tensor's value (.item(), or bool(), float() or int() of a tensor: aten._local_scalar_dense)",
    "nonzero": "calls aten.nonzero, whose output's size depends on a tensor's values",
    "masked_select": "calls aten.masked_select, whose output's size depends on a tensor's values",
    "_unique2": "calls aten._unique2 (torch.unique), whose output's size depends on a tensor's values",
    "unique_dim": "calls aten.unique_dim (torch.unique), whose output's size depends on a tensor's values",
    "unique_consecutive": "calls aten.unique_consecutive, whose output's size depends on a tensor's values",
    "bincount": "calls aten.bincount, whose output's size depends on a tensor's values",
}

_NO_VALUES = ": a recording holds no values, so code that depends on a tensor's values cannot be recorded"


def _on_meta(exc):
    """Returns, for the errors a model meets only on the meta device, what
    the model did and why it cannot be recorded, in place of torch's
    message (which lists every dispatch key); else None."""
    if isinstance(exc, NotRecordable):
        return str(exc)
    from .autocast import disabled_cuda

    refused = disabled_cuda(exc)
    if refused:
        return refused
    msg = str(exc)
    m = _NO_KERNEL.search(msg)
    if m:
        doing = _READS_VALUES.get(m.group(2))
        if doing:
            return doing + _NO_VALUES
        return f"calls {m.group(1)}.{m.group(2)}, which has no meta kernel in this torch, so it cannot be recorded without memory"
    if "Cannot copy out of meta tensor" in msg:
        return "reads a tensor's values (.tolist(), .numpy(), or a copy to the CPU)" + _NO_VALUES
    return None


# The end of torch's first line that a list of its overloads follows.
_DANGLING = re.compile(r",? but expected one of:\Z")


# What torch and Python say of a float where an integer is wanted.
_SIZE = re.compile(r"float|int|invalid combination of arguments", re.IGNORECASE)


def _float_hint(exc, floats):
    """Returns advice when a constant given as a non-integer may be what
    torch refused: a size or a count must be an integer."""
    if not floats or not isinstance(exc, TypeError) or not _SIZE.search(str(exc)):
        return ""
    given = " and ".join(f"--const {f}" for f in floats)
    one = len(floats) == 1
    return (f" ({given} {'is not an integer' if one else 'are not integers'}: "
            f"a constant used as a size or a count must be an integer, such as 64)")


def fail(msg):
    """Prints msg as the recorder's one-line error."""
    print(f"memsym_torch: {msg}", file=sys.stderr)
