"""The command line: python3 -m memsym_torch FILE.py:FUNCTION --dim B=2 ..."""

import argparse
import itertools
import os
import re
import secrets
import sys
import traceback

from .errors import ArgumentError, UserError, by_memsym, fail, first_line

# The optimizers of --step (run.OPTIMIZERS, which needs torch: the command
# line is checked before torch is imported).
STEPS = ("adamw", "sgd")

# When a temporary stops counting (run.record's free).
FREES = ("last-use", "release")

USAGE = """python3 -m memsym_torch FILE.py:FUNCTION --dim NAME=VALUE ... [--const NAME=VALUE ...]
                           [--step adamw|sgd] [--free last-use|release] [-o FILE | --out-dir DIR]
       python3 -m memsym_torch FILE.py:FUNCTION --at B=2,T=16 --at B=5,T=24 ... --out-dir DIR"""

DESCRIPTION = """Records a PyTorch model for memsym, on the meta device: no memory is
allocated. FUNCTION is called with the dimensions and constants as keyword
arguments and returns (model, inputs) or (model, inputs, loss). The
recording goes to the standard output, or to FILE. A dimension given
several values (--dim B=2,3,4) records every point of the grid, and each
--at one point, each point to DIR/B=2,T=16.jsonl: one process records many
points without importing torch again."""

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z")
_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)\Z")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _parser(memsym=False):
    """Returns the parser; memsym: for memsym's --torch, which gives the
    points and the folder by flags of its own, after the user's."""
    p = _Parser(prog="python3 -m memsym_torch", usage=USAGE, description=DESCRIPTION)
    p.add_argument("spec", metavar="FILE.py:FUNCTION", help="the file and the function that builds the model")
    p.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE", help="a dimension and its value (or values, comma-separated)")
    p.add_argument("--at", action="append", default=[], metavar="NAME=VALUE,...", help="one point, every dimension's value (repeatable)")
    p.add_argument("--const", action="append", default=[], metavar="NAME=VALUE", help="a constant and its value, a number")
    p.add_argument("--step", choices=STEPS, help="record a training step with this optimizer instead of a forward")
    p.add_argument("--free", choices=FREES, default="last-use",
                   help="when a temporary stops counting: after its last use (last-use, as a compiler or a memory planner frees it), "
                        "or not before PyTorch releases it, its last reference gone (release, as eager PyTorch holds memory)")
    # Under memsym the user's output flags are refused (_memsyms), both
    # at once too.
    out = p if memsym else p.add_mutually_exclusive_group()
    out.add_argument("-o", "--out", metavar="FILE", help="write the recording to FILE instead of the standard output")
    out.add_argument("--out-dir", metavar="DIR", help="write one recording per point to DIR")
    if memsym:
        p.add_argument(MEMSYM_AT, action="append", default=[], help=argparse.SUPPRESS)
        p.add_argument(MEMSYM_OUT_DIR, help=argparse.SUPPRESS)
    return p


# memsym's own flags, after the user's, for its points and its folder:
# the user's --at and --out-dir are refused there.
MEMSYM_AT = "--memsym-at"
MEMSYM_OUT_DIR = "--memsym-out-dir"

# What memsym does with the recorder's points and outputs, in refusals.
_MEMSYMS = "memsym chooses the points and where their recordings go"


def _memsyms(args):
    """Refuses, under memsym's --torch, the flags that choose points or
    outputs, memsym's own: returns the points and the folder memsym gives."""
    if args.dim:
        raise _UsageError("--dim goes to memsym as --grid, outside the quotes (--grid B=2,3,4): memsym gives the recorder its points")
    keep = f"to keep one point's recording: memsym record --torch '{args.spec}' --dim B=2,T=16 -o "
    if args.at:
        raise _UsageError(f"--at {args.at[0]} does not go inside the quotes: {_MEMSYMS} "
                          f"(outside the quotes: the grid by --grid, a point off it by --check {args.at[0]}; "
                          f"memsym record records one by --dim {args.at[0]})")
    if args.out is not None:
        raise _UsageError(f"-o/--out {args.out} does not go inside the quotes: {_MEMSYMS} ({keep}{args.out})")
    if args.out_dir is not None:
        raise _UsageError(f"--out-dir {args.out_dir} does not go inside the quotes: {_MEMSYMS} ({keep}FILE)")
    return args.memsym_at, args.memsym_out_dir


def _assignment(flag, text):
    name, sep, value = text.partition("=")
    if not sep or not _NAME.match(name):
        raise _UsageError(f"--{flag} {text}: expected NAME=VALUE, NAME a letter followed by letters, digits and _")
    return name, value


# A dimension has at most 18 digits, as memsym reads a recording's integers.
_MAX_DIGITS = 18


def _dim_value(flag, text, v):
    """Returns a dimension's value v, of --flag text, as an int."""
    if not re.fullmatch(r"[1-9][0-9]*", v):
        raise _UsageError(f"--{flag} {text}: expected integers of at least 1, found {v!r}")
    if len(v) > _MAX_DIGITS:
        raise _UsageError(f"--{flag} {text}: {v} is too large: a dimension is at most {'9' * _MAX_DIGITS} ({_MAX_DIGITS} digits)")
    return int(v)


def _dims(flags):
    """Returns [(name, [values])] in the order given."""
    dims = []
    for text in flags:
        name, value = _assignment("dim", text)
        values = []
        for v in value.split(","):
            values.append(_dim_value("dim", text, v))
        if len(set(values)) != len(values):
            raise _UsageError(f"--dim {text}: a value is given twice")
        dims.append((name, values))
    return dims


def _points(dims, ats):
    """Returns the points to record, each [(name, value)]: the product of
    the --dim values, the first dimension outermost, or the --at points."""
    if dims and ats:
        raise _UsageError("give the points by --dim or by --at, not both")
    if not ats:
        names = [d[0] for d in dims]
        return [list(zip(names, vs)) for vs in itertools.product(*(d[1] for d in dims))]
    points = []
    for text in ats:
        point = []
        for part in text.split(","):
            name, value = _assignment("at", part)
            value = _dim_value("at", text, value)
            if any(name == n for n, _ in point):
                raise _UsageError(f"--at {text}: {name} is given twice")
            point.append((name, value))
        if points and [n for n, _ in point] != [n for n, _ in points[0]]:
            raise _UsageError(f"--at {text}: every point names the same dimensions in the same order as the first, --at {ats[0]}")
        points.append(point)
    return points


def _consts(flags):
    """Returns [(name, text, value)], text the JSON number as given."""
    consts = []
    for text in flags:
        name, value = _assignment("const", text)
        if not _NUMBER.match(value):
            raise _UsageError(f"--const {text}: expected a number such as 64 or 0.5, found {value!r}")
        number = int(value) if _INTEGER.match(value) else float(value)
        consts.append((name, value, number))
    return consts


def _check_names(dims, consts):
    seen = set()
    for name in dims + [c[0] for c in consts]:
        if name in seen:
            raise _UsageError(f"{name} is given twice: a name is one dimension or one constant")
        seen.add(name)


def split_spec(spec):
    """Returns the file and the function's name of FILE.py:FUNCTION."""
    file, sep, name = spec.rpartition(":")
    if not sep or not file or not name.isidentifier():
        raise ArgumentError(f"{spec!r}: expected FILE.py:FUNCTION, such as model.py:build")
    if not os.path.isfile(file):
        raise UserError(f"{file}: no such file: expected the Python file that defines {name}")
    return file, name


def point_text(point):
    """Writes a point as memsym does: "B = 2, T = 16"."""
    return ", ".join(f"{n} = {v}" for n, v in point)


def point_file(point):
    """Names a point's recording in --out-dir: "B=2,T=16.jsonl"."""
    return ",".join(f"{n}={v}" for n, v in point) + ".jsonl"


def _write(path, text):
    """Writes text to path whole or not at all: to a new file beside it,
    renamed to path once written. The file has the mode a new file has,
    0666 less the umask (0644 under umask 022), not mkstemp's 0600."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        tmp = os.path.join(directory, f".memsym_torch-{secrets.token_hex(8)}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _import_torch():
    """Imports torch, or says that this Python does not."""
    try:
        import torch  # noqa: F401
    except (ImportError, OSError) as e:  # OSError: a library of torch's missing
        if by_memsym():
            # Marked, so that memsym names the Python it ran and how to
            # choose another.
            raise UserError(f"{NO_TORCH}{first_line(e)}") from None
        raise UserError(f"this Python, {sys.executable}, does not import torch ({first_line(e)}): "
                        f"run memsym_torch with a Python that does (memsym's --torch runs the one MEMSYM_PYTHON names; docs/torch.md)") from None


# The mark of the line that says, under memsym, that the Python it ran does
# not import torch: memsym_torch: no torch: ModuleNotFoundError: ...
NO_TORCH = "no torch: "


def _main(argv):
    memsym = by_memsym()
    args = _parser(memsym).parse_args(argv)
    ats, out_dir = _memsyms(args) if memsym else (args.at, args.out_dir)
    dims = _dims(args.dim)
    consts = _consts(args.const)
    points = _points(dims, ats)
    names = [n for n, _ in points[0]]
    _check_names(names, consts)
    if len(points) > 1 and not out_dir:
        raise _UsageError("several points need --out-dir DIR, one recording each")
    if out_dir and not os.path.isdir(out_dir):
        raise UserError(f"{out_dir}: no such directory")
    file, function = split_spec(args.spec)
    _import_torch()  # once the command is known to be right
    from . import autocast, program, run

    autocast.refuse_disabled_cuda()

    fn = program.load(file, function)
    program.check_arguments(fn, args.spec, names + [c[0] for c in consts])
    floats = [f"{n}={text}" for n, text, number in consts if type(number) is float]
    header_consts = program.constants(fn, names, {n: text for n, text, _ in consts})
    for point in points:
        values = dict(point)
        values.update((n, number) for n, _, number in consts)
        where = (args.spec, file, point_text(point), floats)
        built = program.build(fn, args.spec, file, values, where[2], floats)
        text = run.record(built, where, point, header_consts, args.step, args.free)
        if out_dir:
            _write(os.path.join(out_dir, point_file(point)), text)
        elif args.out:
            _write(args.out, text)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
    return 0


def main(argv=None):
    """Runs the command; returns its exit status: 0, 1 for an error of the
    model or its files, 2 for a mistake in the command."""
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except (_UsageError, ArgumentError) as e:
        if by_memsym():
            # Marked, so that memsym tells it from a model's code that
            # exits with 2; memsym's own usage fits there, not ours.
            fail(f"command line: {e}")
        elif isinstance(e, _UsageError):
            fail(f"{e} (usage: {USAGE.splitlines()[0]})")
        else:
            fail(str(e))
        return 2
    except UserError as e:
        fail(str(e))
        return 1
    except KeyboardInterrupt:
        fail("interrupted")
        return 130
    except Exception as e:
        if os.environ.get("MEMSYM_TORCH_TRACEBACK"):
            traceback.print_exc()
        frame = traceback.extract_tb(e.__traceback__)[-1]
        fail(f"internal error: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''} "
             f"(at {os.path.basename(frame.filename)}:{frame.lineno}; MEMSYM_TORCH_TRACEBACK=1 shows the traceback)")
        return 1
