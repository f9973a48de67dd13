"""Prints the bytes a model holds, sum(t.numel() * t.element_size()) over
model.parameters() and model.buffers() (the recorder declares both with the
role "param"), for the tests to compare with memsym's count of the
recording's parameters.

    python3 param_bytes.py FILE.py:FUNCTION NAME=VALUE ...
"""

import sys

from memsym_torch import program
from memsym_torch.cli import split_spec


def main(spec, assignments):
    file, name = split_spec(spec)
    fn = program.load(file, name)
    values = {}
    for a in assignments:
        name, _, value = a.partition("=")
        values[name] = int(value)
    built = program.build(fn, spec, file, values, spec)
    held = list(built.model.parameters()) + list(built.model.buffers())
    print(sum(t.numel() * t.element_size() for t in held))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
