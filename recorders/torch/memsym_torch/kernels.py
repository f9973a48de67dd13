"""Meta kernels for ATen operations that this torch cannot run on the meta
device: each makes outputs of the right shapes and types, with no values,
as the operation would."""

import torch
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten


def _convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                          transposed, output_padding, groups, output_mask):
    grad_input = torch.empty_like(input) if output_mask[0] else None
    grad_weight = torch.empty_like(weight) if output_mask[1] else None
    grad_bias = None
    if output_mask[2]:
        grad_bias = torch.empty(list(bias_sizes) if bias_sizes is not None else [weight.shape[0]],
                                dtype=grad_output.dtype, device=grad_output.device)
    return grad_input, grad_weight, grad_bias


# ATen operation → its meta kernel, used when its arguments are meta tensors.
META = {
    aten.convolution_backward.default: _convolution_backward,
}


def run(func, args, kwargs):
    """Runs func, through its meta kernel here when it has one and its
    tensors are on the meta device."""
    kernel = META.get(func)
    if kernel is not None and any(isinstance(a, torch.Tensor) and a.is_meta for a in args):
        return kernel(*args, **kwargs)
    return func(*args, **kwargs)


class MetaKernels(TorchDispatchMode):
    """Runs every ATen operation as run does, recording nothing: for what
    runs on the meta device outside the recording."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return run(func, args, kwargs or {})
