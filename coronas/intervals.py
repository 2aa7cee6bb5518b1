"""The old import path of :mod:`coronas.manygames.intervals`, kept working: this name is the very
same module object (so that a patched attribute is patched for everyone)."""

import sys

from coronas.manygames import intervals as _module

sys.modules[__name__] = _module
