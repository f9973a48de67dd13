"""The module path each operation runs in, as memsym writes call paths.

A module's path is its name in the model, with the repeated modules of a
list folded into iterations: the block "blocks.0" and its attention
"blocks.0.attn" are "blocks[0]" and "blocks[0].attn", so that memsym counts
the blocks together as "blocks ×L". The model's own operations have the
path "".

In the forward, hooks on every module keep the path of the innermost module
running. The backward runs no module: each autograd node takes the path of
the module whose forward made it, and a hook on the node sets that path
while it runs.
"""

import functools

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten


def _segment(name):
    """Returns a module's name as a path's call: any characters but . [ ]."""
    return name.replace("[", "(").replace("]", ")")


def _is_fold(container):
    """Reports whether a module's children are iterations of one call: all
    numbered, all of one type (a ModuleList of blocks, not a Sequential of a
    Linear and a GELU)."""
    children = container._modules
    if not children or not all(k.isdigit() for k in children):
        return False
    kinds = {type(m) for m in children.values() if m is not None}
    return len(kinds) == 1


def fold(root, qualname):
    """Returns the memsym path of the submodule of root named qualname
    (as named_modules names it)."""
    if not qualname:
        return ""
    calls = []
    parent = root
    for part in qualname.split("."):
        if part.isdigit() and calls and "[" not in calls[-1] and _is_fold(parent):
            calls[-1] += f"[{int(part)}]"
        else:
            calls.append(_segment(part))
        parent = parent._modules[part]
    return ".".join(calls)


def owner_path(root, param_name):
    """Returns the path of the module holding the parameter or buffer named
    param_name ("blocks.0.attn.weight" is held by "blocks[0].attn")."""
    return fold(root, param_name.rpartition(".")[0])


class ModuleHooks:
    """Sets the recorder's path to the innermost module running."""

    def __init__(self, root, recorder):
        self._recorder = recorder
        self._outer = []
        self._handles = []
        for qualname, module in root.named_modules():
            enter = functools.partial(self._enter, fold(root, qualname))
            self._handles.append(module.register_forward_pre_hook(enter))
            self._handles.append(module.register_forward_hook(self._leave))

    def _enter(self, path, module, inputs):
        self._outer.append(self._recorder.path)
        self._recorder.path = path

    def _leave(self, module, inputs, output):
        self._recorder.path = self._outer.pop()

    def remove(self):
        for h in self._handles:
            h.remove()
        self._handles = []


class GradPaths(TorchFunctionMode):
    """Gives each autograd node made in the forward the path of the module
    running when it was made.

    After each torch function it walks back from the function's outputs to
    its inputs; the nodes found between are the function's and take the
    current path. A parameter's gradient accumulator takes the path of the
    first module that uses the parameter.
    """

    def __init__(self, recorder):
        super().__init__()
        self._recorder = recorder
        self._paths = {}  # autograd node → path; holding the nodes keeps them distinct

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if not torch.is_grad_enabled():
            return func(*args, **kwargs)
        before = {
            t.grad_fn
            for t in tree_flatten((args, kwargs))[0]
            if isinstance(t, torch.Tensor) and t.grad_fn is not None
        }
        out = func(*args, **kwargs)
        self._claim(out, before)
        return out

    def _claim(self, out, boundary):
        path = self._recorder.path
        todo = [
            t.grad_fn
            for t in tree_flatten(out)[0]
            if isinstance(t, torch.Tensor) and t.grad_fn is not None
        ]
        while todo:
            node = todo.pop()
            if node is None or node in self._paths or node in boundary:
                continue
            self._paths[node] = path
            todo.extend(n for n, _ in node.next_functions)

    def hook(self, loss):
        """Hooks every node of loss's graph to set the recorder's path when
        it runs; returns the hooks' handles."""
        handles = []
        seen = set()
        todo = [loss.grad_fn]
        while todo:
            node = todo.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            enter = functools.partial(self._enter, self._paths.get(node, ""))
            handles.append(node.register_prehook(enter))
            todo.extend(n for n, _ in node.next_functions)
        return handles

    def _enter(self, path, grad_outputs):
        self._recorder.path = path
