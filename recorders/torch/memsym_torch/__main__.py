"""python3 -m memsym_torch: see cli.py."""

import sys

from .cli import main

sys.exit(main())
