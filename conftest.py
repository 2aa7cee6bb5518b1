"""pytest's collection for the whole repository.

The many-games modules live in :mod:`coronas.manygames`; their old import paths
(``coronas/winchances.py`` and its siblings) are the very same module objects, so their
doctests are collected once, from ``coronas/manygames/``, not again under the old names.
"""

OLD_PATHS = ("intervals", "moves", "ratings", "results", "runner", "simulate", "tournament")

collect_ignore = [f"coronas/{name}.py" for name in (*OLD_PATHS, "winchances")]
