"""The ``coronas`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from coronas import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="coronas",
        description="Exact odds, games and figures for Corona de Hierro, Carolus Magnus and "
        "Batalla de Coronas.",
    )
    parser.add_argument("--version", action="version", version=f"coronas {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad arguments)."""
    parser = build_parser()
    parser.parse_args(argv)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
