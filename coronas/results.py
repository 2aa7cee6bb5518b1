"""The old import path of :mod:`coronas.manygames.results`, kept working: this name is the very
same module object (so that a patched attribute is patched for everyone)."""

import sys

from coronas.manygames import results as _module

sys.modules[__name__] = _module
