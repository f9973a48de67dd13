"""Loading the user's model: a function of a Python file, called with the
dimensions and constants as keyword arguments, on the meta device.

The function returns (model, inputs) or (model, inputs, loss):

- model, a torch.nn.Module;
- inputs, a tensor, a tuple or list of positional arguments, or a dict of
  keyword arguments, for model(...);
- loss, optional, a function from the model's output to a scalar loss, for
  a training step; without it the output itself must be the loss.
"""

import importlib.util
import inspect
import json
import math
import os
import sys

import torch
from torch.utils._pytree import tree_map

from .errors import ArgumentError, UserError, a_value, by_memsym, raised, where
from .meta import OnMeta, to_meta


class Program:
    """A model built at one point, with its inputs and loss."""

    def __init__(self, model, args, kwargs, loss):
        self.model = model
        self.args = args
        self.kwargs = kwargs
        self.loss = loss


def load(file, name):
    """Imports file and returns its function name."""
    path = os.path.abspath(file)
    sys.path.insert(0, os.path.dirname(path))
    module_name = "memsym_model_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    try:
        loader = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(loader)
        sys.modules[module_name] = module
        loader.loader.exec_module(module)
    except SyntaxError as e:
        raise UserError(f"{where(e.filename or file)}:{e.lineno}: {e.msg}") from None
    except Exception as e:
        raise raised(e, f"importing {file}", file) from None
    fn = getattr(module, name, None)
    if fn is None:
        raise UserError(f"{file}: defines no {name}: expected a function {name}(**dims) returning (model, inputs)")
    if not callable(fn):
        raise UserError(f"{file}: {name} is {a_value(fn)}, not a function")
    return fn


def check_arguments(fn, spec, given):
    """Refuses a dimension or constant fn needs but is not given, and one
    given that fn does not take."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return
    takes_any = any(p.kind == p.VAR_KEYWORD for p in params.values())
    for p in params.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.kind == p.POSITIONAL_ONLY:
            raise UserError(f"{spec}: its parameter {p.name} is positional-only: dimensions and constants are passed by name")
        if p.default is p.empty and p.name not in given:
            if by_memsym():
                raise ArgumentError(f"{spec} needs {p.name}: give it as a dimension (--grid {p.name}=a,b,c; to record one point, "
                                    f"--dim {p.name}=N) or as a constant, inside the quotes: --torch '{spec} --const {p.name}=VALUE'")
            raise ArgumentError(f"{spec} needs {p.name}: give --dim {p.name}=N or --const {p.name}=VALUE")
    if not takes_any:
        for name in given:
            if name not in params:
                names = ", ".join(params) or "none"
                raise ArgumentError(f"{spec} takes no {name}: its parameters are {names}")


def constants(fn, dims, given):
    """Returns the constants to write in the header, [(name, text)]: fn's
    parameters that are not dimensions, in its order, each with the value
    given (given maps names to their text) or else its default when that
    is a number; then any other given, in their order."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    out = []
    for p in params.values():
        if p.name in dims or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in given:
            out.append((p.name, given[p.name]))
        elif _is_number(p.default):
            out.append((p.name, json.dumps(p.default)))
    out += [(n, t) for n, t in given.items() if n not in params]
    return out


def _is_number(x):
    return type(x) is int or (type(x) is float and math.isfinite(x))


def build(fn, spec, file, values, point, floats=()):
    """Calls fn with values on the meta device and returns the Program.
    floats are the constants given as non-integers ("D=1.5"), for errors."""
    torch.manual_seed(0)
    try:
        with OnMeta():
            made = fn(**values)
    except UserError:
        raise
    except Exception as e:
        raise raised(e, f"{spec.rpartition(':')[2]} at {point}", file, floats) from None
    return _program(made, spec)


def _program(made, spec):
    if not isinstance(made, tuple) or len(made) not in (2, 3):
        raise UserError(f"{spec} returned {a_value(made)}: expected (model, inputs) or (model, inputs, loss)")
    model, inputs = made[0], made[1]
    loss = made[2] if len(made) == 3 else None
    if not isinstance(model, torch.nn.Module):
        raise UserError(f"{spec} returned {a_value(model)} as its model: expected a torch.nn.Module")
    if loss is not None and not callable(loss):
        raise UserError(f"{spec} returned {a_value(loss)} as its loss: expected a function of the model's output")
    if isinstance(inputs, torch.Tensor):
        args, kwargs = (inputs,), {}
    elif isinstance(inputs, (tuple, list)):
        args, kwargs = tuple(inputs), {}
    elif isinstance(inputs, dict):
        args, kwargs = (), dict(inputs)
    else:
        raise UserError(f"{spec} returned {a_value(inputs)} as its inputs: expected a tensor, a tuple or a dict")
    if any(t.device.type != "meta" for t in list(model.parameters()) + list(model.buffers())):
        model.to("meta")
    args, kwargs = tree_map(lambda x: to_meta(x) if isinstance(x, torch.Tensor) else x, (args, kwargs))
    return Program(model, args, kwargs, loss)
