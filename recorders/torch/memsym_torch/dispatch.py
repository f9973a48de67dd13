"""Recording ATen calls as memsym operations.

Recorder is a TorchDispatchMode: below autograd, every ATen call of the
forward, the backward and the optimizer passes through it, and it writes one
operation per call, labelled with the ATen name ("aten.mm",
"aten.add.Tensor"). Tensors are told apart by their storage: a tensor whose
storage is new is a new buffer; one that shares an existing storage is a
view, with no bytes of its own.
"""

import weakref

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

from . import autocast, kernels
from .errors import UserError

# Operations that do nothing with memory: the profiler's marks, such as
# those torch.optim puts around a step.
_IGNORED = ("profiler::",)

# The label of the operation that --free release writes where PyTorch
# releases temps: it reads them and launches nothing.
RELEASE = "memsym_torch.release"

# Operations that only allocate: they launch nothing.
_ALLOCATIONS = frozenset(
    {"aten::empty", "aten::empty_like", "aten::empty_strided", "aten::new_empty", "aten::new_empty_strided"}
)


def _storage(t):
    """Returns the storage of t and its key: the address of its StorageImpl,
    unique while the storage lives (Tensors keeps every storage alive)."""
    try:
        s = t.storage()
    except (RuntimeError, NotImplementedError):
        raise UserError(f"a {t.layout} tensor of shape {list(t.shape)} has no storage: memsym_torch records strided tensors") from None
    return s, s._cdata


def _geometry(key, t):
    return (key, t.storage_offset(), tuple(t.shape), tuple(t.stride()), t.dtype)


class Tensors:
    """Knows which buffer or view of the recording each tensor is.

    A tensor is found by its identity first, then by its storage and its
    geometry (offset, shape, strides, type): autograd hands the backward new
    tensor objects for the ones it saved, on the same storage.

    Every storage met is kept, so that no storage's address is reused while
    recording; tensors are held weakly, for a reference held here would
    change what torch does (autograd copies a gradient that something else
    references instead of keeping it).

    With release, it also notes when the last tensor object met on a temp's
    storage goes, as eager PyTorch would then free the storage: released
    returns those temps' ids, for an operation that reads them there.
    """

    def __init__(self, writer, release=False):
        self._w = writer
        self._objects = {}  # id(tensor) → (a weak reference to it, memsym id)
        self._storages = {}  # storage key → (storage, base id, dtype, name, role)
        self._geometries = {}  # geometry → the first memsym id declared with it
        self._release = release
        self._alive = {}  # storage key → ids of the tensor objects met on it, alive
        self._watch = {}  # id(tensor) → a weak reference whose callback notes its going
        self._released = []  # temps whose storage's last tensor object went

    def find(self, t, alike=True):
        """Returns the memsym id of t, or None when t is unknown; alike
        accepts a tensor of the same storage and geometry for t."""
        hit = self._objects.get(id(t))
        if hit is not None and hit[0]() is t:
            return hit[1]
        if not alike:
            return None
        _, key = _storage(t)
        mid = self._geometries.get(_geometry(key, t))
        if mid is not None:
            self._remember(t, key, mid)
        return mid

    def storage_key(self, t):
        return _storage(t)[1]

    def held(self, t, role, name, group):
        """Declares t as held by the caller (a parameter or an input) unless
        it is known, and returns its id."""
        mid = self.find(t)
        if mid is not None:
            return mid
        storage, key = _storage(t)
        if key in self._storages:
            return self._view(t, key, self._storages[key][1], name)
        return self._buffer(t, storage, key, name, role, group)

    def read(self, t, name):
        """Returns the id of a tensor an operation reads; one met for the
        first time is a view of its known storage, or else an input the
        caller holds, named name."""
        mid = self.find(t)
        if mid is not None:
            return mid
        storage, key = _storage(t)
        if key in self._storages:
            base = self._storages[key]
            return self._view(t, key, base[1], base[3] + " (alias)")
        return self._buffer(t, storage, key, name, "input", "")

    def made(self, t, name, of):
        """Returns the id of a tensor an operation returns and what it is:
        "known" (such as the self an in-place operation returns), "view" (a
        new view of the read tensor whose storage it shares; of maps storage
        keys to the ids read) or "new" (a new buffer)."""
        mid = self.find(t, alike=False)
        if mid is not None:
            return mid, "known"
        storage, key = _storage(t)
        if key in self._storages:
            return self._view(t, key, of.get(key, self._storages[key][1]), name), "view"
        return self._buffer(t, storage, key, name, "temp", ""), "new"

    def _buffer(self, t, storage, key, name, role, group):
        nbytes = storage.nbytes()
        if t.numel() * t.element_size() == nbytes:
            mid = self._w.buffer(name, role, group, dtype=t.dtype, shape=t.shape)
        else:
            mid = self._w.buffer(name, role, group, nbytes=nbytes)
        self._storages[key] = (storage, mid, t.dtype, name, role)
        self._remember(t, key, mid)
        return mid

    def _view(self, t, key, of, name):
        base_dtype = self._storages[key][2]
        mid = self._w.view(of, name, t.shape, None if t.dtype == base_dtype else t.dtype)
        self._remember(t, key, mid)
        return mid

    def _remember(self, t, key, mid):
        self._objects[id(t)] = (weakref.ref(t), mid)
        self._geometries.setdefault(_geometry(key, t), mid)
        if self._release and id(t) not in self._watch:
            oid = id(t)
            self._alive.setdefault(key, set()).add(oid)
            self._watch[oid] = weakref.ref(t, lambda _, key=key, oid=oid: self._gone(key, oid))

    def _gone(self, key, oid):
        """Notes that the tensor object oid on storage key went: when it was
        the last met there, a temp's storage is released."""
        self._watch.pop(oid, None)
        alive = self._alive.get(key)
        if alive is None:
            return
        alive.discard(oid)
        if not alive:
            _, base, _, _, role = self._storages[key]
            if role == "temp":
                self._released.append(base)

    def released(self, final=False):
        """Returns, once, the ids of the temps released since it was last
        called, in the order they went; final adds, at the end of the
        recording, the temps still held (a tensor the model keeps on
        itself, self.cache = h), which PyTorch has not released."""
        out, self._released = self._released, []
        if final:
            for key, alive in self._alive.items():
                _, base, _, _, role = self._storages[key]
                if alive and role == "temp":
                    out.append(base)
        return list(dict.fromkeys(out))


def _label(func):
    """Returns an ATen operation's label: "aten.mm", "aten.add.Tensor"."""
    s = str(func)
    return s[: -len(".default")] if s.endswith(".default") else s


class _Schema:
    """What an ATen operation's schema says about its arguments."""

    def __init__(self, func):
        s = func._schema
        self.label = _label(func)
        self.short = self.label.split(".", 1)[1]
        self.allocates = s.name in _ALLOCATIONS
        self.ignored = s.name.startswith(_IGNORED)
        # The arguments it writes: (position, name, written only); an out=
        # argument is written only, an in-place self is read and written.
        self.mutated = [
            (i, a.name, a.kwarg_only)
            for i, a in enumerate(s.arguments)
            if a.alias_info is not None and a.alias_info.is_write
        ]


def _tensors(x):
    return [t for t in tree_flatten(x)[0] if isinstance(t, torch.Tensor)]


class Recorder(TorchDispatchMode):
    """Writes one memsym operation per ATen call while active.

    path and phase are set from outside (module hooks, autograd node hooks,
    the training step); in the optimizer phase an operation takes the path
    of the parameter it works on, found through owners.
    """

    def __init__(self, tensors, writer):
        super().__init__()
        self.tensors = tensors
        self._w = writer
        self._schemas = {}
        self.path = ""
        self.phase = ""
        self.owners = {}  # storage key → the path of the parameter it belongs to

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        schema = self._schemas.get(func)
        if schema is None:
            schema = self._schemas[func] = _Schema(func)
        if schema.ignored:
            return func(*args, **kwargs)
        autocast.check_call()
        self.flush()
        self._follow_owner(args, kwargs)
        reads, writes, of = self._inputs(schema, args, kwargs)
        out = kernels.run(func, args, kwargs)
        outs = _tensors(out)
        made = False
        for k, t in enumerate(outs):
            mid, kind = self.tensors.made(t, self._name(schema.short if k == 0 else f"{schema.short}#{k}"), of)
            made |= kind == "new"
            if kind != "known" and mid not in writes:
                writes.append(mid)
        launch = not schema.allocates and (made or bool(schema.mutated) or not outs)
        self._w.op(schema.label, self.path, reads, writes, launch, self.phase)
        return out

    def flush(self, final=False):
        """Writes the temps released since the last operation (Tensors'
        release; final: and those still held at the end) as one operation
        that reads them and launches nothing, so that each is live until
        then, as eager PyTorch holds it."""
        released = self.tensors.released(final)
        if released:
            self._w.op(RELEASE, self.path, released, [], False, self.phase)

    def _inputs(self, schema, args, kwargs):
        """Returns the ids an operation reads and writes before it runs, and
        the ids of what it reads by storage key."""
        write_only = set()
        writes = []
        for i, name, kwarg_only in schema.mutated:
            value = args[i] if i < len(args) else kwargs.get(name)
            for t in _tensors(value):
                mid = self._id(t)
                if mid not in writes:
                    writes.append(mid)
                if kwarg_only:
                    write_only.add(id(t))
        reads = []
        of = {}
        for t in _tensors((args, kwargs)):
            if id(t) in write_only:
                continue
            mid = self._id(t)
            if mid not in reads:
                reads.append(mid)
            of.setdefault(self.tensors.storage_key(t), mid)
        return reads, writes, of

    def _id(self, t):
        return self.tensors.read(t, self._name("tensor"))

    def _name(self, what):
        """Names a tensor made or first met now: "blocks[0].attn/mm", with
        " (backward)" or " (optimizer)" after it in those phases."""
        name = f"{self.path}/{what}" if self.path else what
        if self.phase in ("backward", "optimizer"):
            name += f" ({self.phase})"
        return name

    def _follow_owner(self, args, kwargs):
        """In the optimizer, takes the path of the first parameter, gradient
        or state the operation touches; otherwise keeps the last one."""
        if self.phase != "optimizer":
            return
        for t in _tensors((args, kwargs)):
            path = self.owners.get(self.tensors.storage_key(t))
            if path is not None:
                self.path = path
                return
