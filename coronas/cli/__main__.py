"""``python -m coronas.cli``: the ``coronas`` command."""

import os
import sys

from coronas.cli import main

status = main()
try:
    sys.stdout.flush()
except BrokenPipeError:  # the reader went away (``coronas ... | head``): quietly stop
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = status or 1
sys.exit(status)
