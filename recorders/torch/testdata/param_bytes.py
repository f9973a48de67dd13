"""Prints a model's parameter bytes, sum(p.numel() * p.element_size()) over
model.parameters(), for the tests to compare with memsym's count of the
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
    print(sum(p.numel() * p.element_size() for p in built.model.parameters()))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
