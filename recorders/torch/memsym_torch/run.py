"""Running a model under the recorder: its forward, or a training step.

A forward runs the model in eval mode without gradients. A training step
runs, in train mode, the forward and the loss, the backward and the
optimizer's step, each operation tagged with its phase. The optimizer is
stepped once before recording, unrecorded, so that its state exists before
the step recorded, as it does in every step of a training loop but the
first; the gradients are set to None, as zero_grad(set_to_none=True) leaves
them, so that the backward makes them.
"""

import gc

import torch
from torch.utils._pytree import tree_flatten

from .autocast import check_start
from .dispatch import Recorder, Tensors
from .errors import UserError, a_value, raised
from .kernels import MetaKernels
from .paths import GradPaths, ModuleHooks, owner_path
from .recording import Writer, dtype_name

# The optimizers of --step (cli.STEPS), one operation per parameter
# (foreach=False).
OPTIMIZERS = {
    "adamw": lambda params: torch.optim.AdamW(params, lr=1e-3, foreach=False),
    "sgd": lambda params: torch.optim.SGD(params, lr=1e-3, momentum=0.9, foreach=False),
}


def record(program, where, dims, consts, step=None, free="last-use"):
    """Records program at the point dims, a forward or (step names an
    optimizer) a training step, and returns the recording's text. where
    places errors: (the build's spec, its file, the point as text, the
    constants given as non-integers). free is when a temp stops counting:
    "last-use", after the last operation that uses it (the format's rule),
    or "release", not before PyTorch releases it, its last tensor object
    gone (an operation memsym_torch.release reads it there)."""
    model = program.model
    check_start(where[0], f"{'the training step' if step else 'the forward'} at {where[2]}")
    w = Writer()
    entry = f"{type(model).__name__}.{'step(' + step + ')' if step else 'forward'}"
    w.header(2 if step else 1, entry, dims, consts, _realization(model), {"recorder": "memsym_torch", "torch": torch.__version__})
    optimizer = None
    if step:
        if not any(True for _ in model.parameters()):
            raise UserError(f"{where[0]}: the model, {type(model).__name__}, has no parameters to train: "
                            f"record its forward, without --step {step}")
        optimizer = OPTIMIZERS[step](model.parameters())
        _warm_up(program, optimizer, where)
    tensors = Tensors(w, release=free == "release")
    recorder = Recorder(tensors, w)
    recorder.owners = _declare_held(program, optimizer, tensors)
    hooks = ModuleHooks(model, recorder)
    # With --free release, what releases a tensor must be the program's
    # references alone, at the same moments at every point: Python's cycle
    # collector, whose runs depend on what the process did before (the
    # points recorded before this one), is held off while recording.
    collecting = free == "release" and gc.isenabled()
    if collecting:
        gc.collect()
        gc.disable()
    try:
        if step:
            result = _train(program, optimizer, recorder, where)
        else:
            result = _forward(program, recorder, where)
    finally:
        hooks.remove()
        if collecting:
            gc.enable()
    recorder.flush(final=True)  # the forward's locals, released as it returned, and what is still held
    w.result(result)
    return w.text()


def _forward(program, recorder, where):
    program.model.eval()
    with torch.no_grad(), recorder:
        out = _attempt(where, "the forward", lambda: program.model(*program.args, **program.kwargs))
    ids = []
    for t in tree_flatten(out)[0]:
        if isinstance(t, torch.Tensor):
            mid = recorder.tensors.read(t, "output")
            if mid not in ids:
                ids.append(mid)
    return ids


def _train(program, optimizer, recorder, where):
    model = program.model
    model.train()
    with recorder:
        recorder.phase = "forward"
        with GradPaths(recorder) as grads:
            loss = _loss(program, where)
        recorder.phase, recorder.path = "backward", ""
        handles = grads.hook(loss)
        _attempt(where, "the backward", loss.backward)
        for h in handles:
            h.remove()
        recorder.phase, recorder.path = "optimizer", ""
        for name, p in model.named_parameters():
            if p.grad is not None:
                recorder.owners[recorder.tensors.storage_key(p.grad)] = owner_path(model, name)
        _attempt(where, "the optimizer's step", optimizer.step)
    # The loop holds the loss and every parameter's gradient after the
    # step, until zero_grad: the gradients are the result too, live through
    # the whole optimizer phase, not freed at their last read.
    result = [recorder.tensors.find(loss)]
    for p in model.parameters():
        if p.grad is not None:
            mid = recorder.tensors.find(p.grad)
            if mid is not None and mid not in result:
                result.append(mid)
    return result


def _warm_up(program, optimizer, where):
    """Steps the optimizer once, unrecorded, so that its state exists."""
    program.model.train()
    with MetaKernels():
        loss = _loss(program, where)
        _attempt(where, "the backward", loss.backward)
        _attempt(where, "the optimizer's step", optimizer.step)
    optimizer.zero_grad(set_to_none=True)
    # An input that requires a gradient is a leaf too: its gradient is made
    # by the step recorded, not added to the warm-up's.
    for _, t in _input_names(program):
        if t.is_leaf:
            t.grad = None


def _loss(program, where):
    """Runs the forward and the loss, and checks that the loss is a scalar
    that has a gradient."""
    out = _attempt(where, "the forward", lambda: program.model(*program.args, **program.kwargs))
    loss = _attempt(where, "the loss", lambda: program.loss(out)) if program.loss else out
    spec, _, point, _ = where
    if not isinstance(loss, torch.Tensor) or loss.numel() != 1:
        got = f"a tensor of shape {list(loss.shape)}" if isinstance(loss, torch.Tensor) else a_value(loss)
        how = "" if program.loss else ": return (model, inputs, loss) from the build, loss a function of the model's output"
        raise UserError(f"{spec}: the loss at {point} is {got}, not a scalar tensor{how}")
    if loss.grad_fn is None:
        if not any(p.requires_grad for p in program.model.parameters()):
            raise UserError(f"{spec}: the loss at {point} has no gradient: no parameter requires one")
        raise UserError(f"{spec}: the loss at {point} has no gradient: it does not depend on any parameter "
                        f"through a differentiable path (as when it comes from argmax or .detach())")
    return loss


def _attempt(where, what, fn):
    spec, file, point, floats = where
    try:
        return fn()
    except UserError:
        raise
    except Exception as e:
        raise raised(e, f"{what} at {point}", file, floats) from None


def _declare_held(program, optimizer, tensors):
    """Declares what the caller holds: the parameters and the module
    buffers (running statistics, masks, tables), which the module holds
    alike, through a whole step, as parameters; the inputs; and the
    optimizer's state, which the training loop holds. Returns the paths of
    the parameters and their state by storage, for the optimizer's
    operations."""
    model = program.model
    owners = {}
    for name, p in model.named_parameters():
        path = owner_path(model, name)
        tensors.held(p, "param", name, path)
        owners[tensors.storage_key(p)] = path
    for name, b in model.named_buffers():
        tensors.held(b, "param", name, owner_path(model, name))
    for name, t in _input_names(program):
        tensors.held(t, "input", name, "")
    if optimizer is not None:
        for name, p in model.named_parameters():
            path = owner_path(model, name)
            for key, v in optimizer.state[p].items():
                if isinstance(v, torch.Tensor):
                    tensors.held(v, "state", f"{name}.{key}", path)
                    owners[tensors.storage_key(v)] = path
    return owners


def _input_names(program):
    """Returns the inputs' tensors with their names: "input" for a model
    of one tensor argument, else "input0", "input1", ... and the keywords;
    a tensor inside a structure adds its place, "input1.0"."""
    args = program.args
    named = [("input" if len(args) == 1 and not program.kwargs else f"input{i}", a) for i, a in enumerate(args)]
    named += list(program.kwargs.items())
    out = []
    for name, value in named:
        ts = [t for t in tree_flatten(value)[0] if isinstance(t, torch.Tensor)]
        if isinstance(value, torch.Tensor):
            out.append((name, value))
        else:
            out.extend((f"{name}.{j}", t) for j, t in enumerate(ts))
    return out


def _realization(model):
    """Returns the parameters' types, such as "f32", or "bf16+f32"."""
    names = set()
    for p in model.parameters():
        d = dtype_name(p.dtype)
        names.add(d if isinstance(d, str) else f"{d['bits']}-bit")
    return "+".join(sorted(names))
