"""What a decision of the learned player (``policy``) costs next to one of the light playout
policy, and what an evaluation by the value model costs next to the hand-set one.

Positions: every decision of a few seeded games of light players. Each bot chooses at each
of them in turn (the same positions for both), timed over all; the figure is the mean time a
decision and the ratio policy / light (the aim: at most 3).

    python benchmarks/bench_policy.py            # all three games
    python benchmarks/bench_policy.py carolus
    python benchmarks/bench_policy.py --quick    # 2 games of positions
"""

from __future__ import annotations

import argparse
import random
import time

import _machine


def decisions(game: object, players: int, n_games: int) -> list:
    """Copies of every decision position of ``n_games`` seeded games of light players."""
    from coronas.engine import available_games

    cls = available_games()[game]
    found = []
    for seed in range(n_games):
        rng = random.Random(seed)
        state = cls(players=players, seed=seed).new_initial_state()
        light = cls.bot("light")
        steps = 0
        while not state.is_terminal() and steps < 3000:
            steps += 1
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            found.append(state.clone())
            state.apply(light.choose(state, rng))
    return found


def per_call(fn, states: list, repeat: int = 3) -> float:
    """The best of ``repeat`` mean times of ``fn(state)`` over ``states``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for s in states:
            fn(s)
        best = min(best, (time.perf_counter() - start) / len(states))
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=["batalla", "carolus", "hierro"])
    parser.add_argument("--n", type=int, default=10, help="seeded games of positions (10)")
    parser.add_argument("--quick", action="store_true", help="2 games of positions")
    args = parser.parse_args(argv)
    if args.quick:
        args.n = 2
    _machine.ensure_importable()
    from coronas.engine import available_games
    from coronas.engine.learning import learning_of

    rows = []
    for name in args.games:
        cls = available_games()[name]
        spec = learning_of(cls)
        states = decisions(name, spec.players, args.n)
        rng = random.Random(0)
        light, policy = cls.bot("light"), cls.bot("policy")
        policy.choose(states[0], rng)  # the prior is read once, before the clock
        t_light = per_call(lambda s, b=light, r=rng: b.choose(s, r), states)
        t_policy = per_call(lambda s, b=policy, r=rng: b.choose(s, r), states)
        model = spec.value_model()
        t_base = per_call(spec.baseline, states)
        t_value = per_call(model.evaluate, states)
        rows.append(
            [
                name,
                str(len(states)),
                f"{t_light * 1e6:.0f}",
                f"{t_policy * 1e6:.0f}",
                f"{t_policy / t_light:.2f}",
                f"{t_base * 1e6:.1f}",
                f"{t_value * 1e6:.1f}",
                "model"
                if cls.spec().evaluate(states[-1]) == model.evaluate(states[-1])
                else "hand-set",
            ]
        )
    print(f"The learned player's cost ({_machine.machine_line()})")
    print()
    print(
        _machine.table(
            [
                "game",
                "positions",
                "light (us)",
                "policy (us)",
                "policy/light",
                "hand-set eval (us)",
                "value model (us)",
                "evaluate uses",
            ],
            rows,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
