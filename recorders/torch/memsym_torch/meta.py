"""Building a model on the meta device, where tensors have shapes and types
but no memory, so that a model of any width builds in milliseconds."""

import torch
from torch.overrides import TorchFunctionMode

# The functions that make a tensor from nothing: under OnMeta they make it on
# the meta device, whatever device they were asked for.
_FACTORIES = frozenset(
    f
    for f in (
        getattr(torch, name, None)
        for name in (
            "arange", "as_tensor", "bartlett_window", "blackman_window", "empty",
            "empty_strided", "eye", "full", "hamming_window", "hann_window",
            "kaiser_window", "linspace", "logspace", "ones", "rand", "randint",
            "randn", "randperm", "range", "scalar_tensor", "tensor", "tril_indices",
            "triu_indices", "zeros",
        )
    )
    if f is not None
)

# Moving a tensor to a device keeps it where it is.
_STAYS = frozenset({torch.Tensor.cuda, torch.Tensor.cpu, torch.Tensor.pin_memory})


def _is_device(x):
    return isinstance(x, (torch.device, str))


class OnMeta(TorchFunctionMode):
    """Makes every tensor that a model's construction creates a meta tensor:
    its parameters, buffers and inputs. Initializers such as
    torch.nn.init.normal_ then do nothing, and .cuda() or .to("cuda") keep
    a tensor on the meta device."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func in _FACTORIES:
            kwargs["device"] = "meta"
        elif func in _STAYS:
            return args[0]
        elif func is torch.Tensor.to:
            args = tuple("meta" if _is_device(a) else a for a in args)
            if "device" in kwargs:
                kwargs["device"] = "meta"
        return func(*args, **kwargs)


def to_meta(tensor):
    """Returns tensor on the meta device (itself when it is there)."""
    return tensor if tensor.device.type == "meta" else tensor.to("meta")
