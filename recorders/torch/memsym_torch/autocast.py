"""Refusing autocast, which the meta device ignores.

torch.autocast casts an operation's inputs to a lower precision for tensors
of its device (the CPU, CUDA); a meta tensor is of neither, so on the meta
device every operation runs in the types it is given: a model whose forward
runs under autocast would be recorded with float32 activations and none of
autocast's casts, its bytes wrong. The recorder refuses it instead: when an
ATen call is made under autocast (checked as it is recorded), when autocast
is on as a point's run begins, and, on a machine without CUDA, where
torch.autocast("cuda") is made (torch turns it off with a warning).
"""

import contextlib
import warnings

import torch

from .errors import NotRecordable, UserError

# What torch warns, disabling torch.autocast("cuda") on a machine without
# CUDA: made an error, so that the model's autocast is refused where it is
# made, as it would be on a machine with CUDA.
_NO_CUDA = "User provided device_type of 'cuda', but CUDA is not available"

# The end of every refusal: why, and what to do instead.
_WHY = ("and autocast is not recorded: on the meta device it casts nothing, so the bytes would be wrong; "
        "cast the model and its inputs explicitly instead, such as model.to({dtype})")

try:
    from torch.overrides import enable_reentrant_dispatch as _where_called
except ImportError:  # a torch without it: the state below dispatch is read as it is
    _where_called = contextlib.nullcontext


def refuse_disabled_cuda():
    """Makes torch's warning that it disables torch.autocast("cuda") an
    error, for the rest of the process."""
    warnings.filterwarnings("error", message=_NO_CUDA, category=UserWarning)


def _enabled():
    """Returns the autocast on now, as (device, dtype), or None."""
    if torch.is_autocast_enabled():
        return "cuda", torch.get_autocast_gpu_dtype()
    if torch.is_autocast_cpu_enabled():
        return "cpu", torch.get_autocast_cpu_dtype()
    xpu = getattr(torch, "xpu", None)
    if xpu is not None and getattr(xpu, "is_autocast_xpu_enabled", lambda: False)():
        return "xpu", xpu.get_autocast_xpu_dtype()
    return None


def check_call():
    """Raises NotRecordable when the ATen call being dispatched was made
    under autocast. Below the Python dispatch key torch leaves the autocast
    keys out of the state, so that is read as it was where the call was
    made."""
    with _where_called():
        on = _enabled()
    if on is not None:
        raise NotRecordable(f"runs under torch.autocast ({on[0]}, {on[1]}), " + _WHY.format(dtype=on[1]))


def check_start(spec, what):
    """Refuses autocast on as what (such as "the forward at B = 2") begins:
    turned on by the model's file or its build function, and left on."""
    on = _enabled()
    if on is not None:
        fn = spec.rpartition(":")[2]
        raise UserError(f"{spec}: torch.autocast ({on[0]}, {on[1]}) is on as {what} begins, turned on by the file or by {fn}, "
                        + _WHY.format(dtype=on[1]))


def disabled_cuda(exc):
    """Returns, for torch's warning that it disables torch.autocast("cuda")
    made an error, what the model did and why it is refused; else None."""
    if not isinstance(exc, UserWarning) or not str(exc).startswith(_NO_CUDA):
        return None
    dtype = _asked_dtype(exc) or torch.get_autocast_gpu_dtype()
    return f"uses torch.autocast (cuda, {dtype}), which torch turns off without CUDA, " + _WHY.format(dtype=dtype)


def _asked_dtype(exc):
    """Returns the dtype the torch.autocast refused was made with, read from
    its constructor's frame, or None."""
    tb = exc.__traceback__
    dtype = None
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name == "__init__" and isinstance(frame.f_locals.get("self"), torch.autocast):
            d = frame.f_locals.get("dtype")
            if isinstance(d, torch.dtype):
                dtype = d
        tb = tb.tb_next
    return dtype
