"""Writing one recording in memsym's format (docs/recording-format.md).

The writer numbers buffers and views from 1 in the order they are declared
and keeps the lines in memory, so that a recording that fails halfway leaves
nothing behind. Lines are in memsym's canonical form: keys in the format's
order, ", " and ": " as separators, default values left out.
"""

import json

import torch

# The format's named dtypes; any other type is written as {"bits": N}.
_DTYPE_NAMES = {
    torch.float64: "f64",
    torch.float32: "f32",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.int64: "i64",
    torch.int32: "i32",
    torch.int16: "i16",
    torch.int8: "i8",
    torch.uint8: "u8",
    torch.bool: "bool",
}


def dtype_name(dtype):
    """Returns dtype as the format writes it: a name such as "f32", or
    {"bits": N} for a type the format does not name (complex, quantized)."""
    name = _DTYPE_NAMES.get(dtype)
    if name is not None:
        return name
    return {"bits": torch.empty((), dtype=dtype, device="meta").element_size() * 8}


def _line(record):
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))


class Writer:
    """Collects the lines of one recording."""

    def __init__(self):
        self._lines = []
        self._next_id = 1

    def header(self, version, entry, dims, consts, realization, meta=None):
        """Writes the header: version 1 for one call, 2 for a training step
        (phases and states). dims is a list of (name, int); consts a list of
        (name, text), each text a JSON number kept as the user wrote it."""
        parts = [f'"memsym": {version}']
        if entry:
            parts.append('"entry": ' + json.dumps(entry, ensure_ascii=False))
        parts.append('"dims": {' + ", ".join(f"{json.dumps(n)}: {v}" for n, v in dims) + "}")
        if consts:
            parts.append('"consts": {' + ", ".join(f"{json.dumps(n)}: {t}" for n, t in consts) + "}")
        if realization:
            parts.append('"realization": ' + json.dumps(realization))
        if meta:
            parts.append('"meta": ' + _line(meta))
        self._lines.append("{" + ", ".join(parts) + "}")

    def buffer(self, name, role="temp", group="", dtype=None, shape=None, nbytes=None):
        """Declares a buffer, sized by dtype and shape or by nbytes, and
        returns its id."""
        bid = self._take_id()
        rec = {"buffer": bid}
        if nbytes is None:
            rec["dtype"] = dtype_name(dtype)
            rec["shape"] = list(shape)
        else:
            rec["bytes"] = nbytes
        if role != "temp":
            rec["role"] = role
        if name:
            rec["name"] = name
        if group:
            rec["group"] = group
        self._lines.append(_line(rec))
        return bid

    def view(self, of, name, shape, dtype=None):
        """Declares a view of the buffer or view of, and returns its id."""
        vid = self._take_id()
        rec = {"view": vid, "of": of}
        if dtype is not None:
            rec["dtype"] = dtype_name(dtype)
        rec["shape"] = list(shape)
        if name:
            rec["name"] = name
        self._lines.append(_line(rec))
        return vid

    def op(self, label, path, reads, writes, launch=True, phase=""):
        """Writes an operation."""
        rec = {"op": label}
        if path:
            rec["path"] = path
        rec["reads"] = list(reads)
        rec["writes"] = list(writes)
        if not launch:
            rec["launch"] = False
        if phase:
            rec["phase"] = phase
        self._lines.append(_line(rec))

    def result(self, ids):
        """Writes the result, the last line."""
        self._lines.append(_line({"result": list(ids)}))

    def text(self):
        """Returns the whole recording."""
        return "\n".join(self._lines) + "\n"

    def _take_id(self):
        i = self._next_id
        self._next_id += 1
        return i
