#!/usr/bin/env bash
# Go on with the long benchmark runs listed in benchmarks/results/README.md, one after the
# other, each from a checkout of the commit it was started at (a git worktree made beside
# the repository on first use), its file in benchmarks/results of this checkout. A run whose
# games are all in ends at once and prints its table; Ctrl-C stops the one running (what it
# has played is kept). Commit benchmarks/results afterwards.
#
#   scripts/continue_runs.sh             # every run, in the order below
#   scripts/continue_runs.sh carolus     # the runs whose name holds "carolus"
#   scripts/continue_runs.sh --list      # what it would run, and from where
#
# PYTHON names the interpreter (one with coronas's dependencies installed: .venv/bin/python
# if there is one, else python3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
results="$root/benchmarks/results"
python=${PYTHON:-}
if [ -z "$python" ]; then
  if [ -x "$root/.venv/bin/python" ]; then python="$root/.venv/bin/python"; else python=python3; fi
fi
only=${1:-}
list=
if [ "$only" = "--list" ]; then list=1; only=${2:-}; fi

# name | commit | the benchmark and its arguments (RESULTS: benchmarks/results of this checkout)
runs=(
  "carolus-mcts-vs-mcts-classic|bfd417f|bench_strength.py --game carolus --bots mcts mcts-classic --games 200 --seed 2027 --out RESULTS"
  "batalla-mcts-vs-mcts-classic|bfd417f|bench_strength.py --game batalla --bots mcts mcts-classic --games 200 --seed 2027 --out RESULTS"
  "batalla-mcts-classic-vs-greedy|bfd417f|bench_strength.py --game batalla --bots mcts-classic greedy --games 200 --seed 2027 --out RESULTS"
  "advice-reference|b3b81f2|bench_advice.py --phase reference --results RESULTS/advice-b3b81f2.jsonl"
  "batalla-mcts-vs-mcts-classic-200-games-seed-2029|db1ac13|bench_strength.py --game batalla --bots mcts mcts-classic --games 200 --seed 2029 --out RESULTS"
  "batalla-mcts-vs-greedy-200-games-seed-2029|db1ac13|bench_strength.py --game batalla --bots mcts greedy --games 200 --seed 2029 --out RESULTS"
  "hierro-mcts-vs-mcts-classic|bfd417f|bench_strength.py --game hierro --bots mcts mcts-classic --games 200 --seed 2027 --out RESULTS"
  "advice-fresh-carolus|b0ae35c|bench_advice.py --game carolus --skip 50 --decisions 50 --results RESULTS/advice-fresh-carolus-b0ae35c.jsonl"
  "advice-verify-hierro|1cca5de|bench_advice.py --game hierro --verify RESULTS/advice-light-hierro-d037fe7.jsonl --references RESULTS/advice-b3b81f2.jsonl --results RESULTS/advice-verify-hierro-1cca5de.jsonl"
  "advice-verify-fresh-hierro|1cca5de|bench_advice.py --game hierro --verify RESULTS/advice-light-fresh-hierro-d037fe7.jsonl --references RESULTS/advice-fresh-hierro-e9c24fa.jsonl --results RESULTS/advice-verify-fresh-hierro-1cca5de.jsonl"
  "advice-verify-carolus|1cca5de|bench_advice.py --game carolus --verify RESULTS/advice-exactly-five-fresh-carolus-1a69180.jsonl --references RESULTS/advice-fresh-carolus-b0ae35c.jsonl --results RESULTS/advice-verify-carolus-1cca5de.jsonl"
)

for entry in "${runs[@]}"; do
  IFS='|' read -r name commit command <<<"$entry"
  if [ -n "$only" ] && [[ "$name" != *"$only"* ]]; then continue; fi
  read -ra args <<<"$command"
  for i in "${!args[@]}"; do args[i]=${args[i]/#RESULTS/$results}; done
  checkout="$(dirname "$root")/.coronas-runs-$commit"
  if [ -n "$list" ]; then
    echo "$name: from $commit: python benchmarks/${args[*]}"
    continue
  fi
  if [ ! -d "$checkout" ]; then
    git -C "$root" worktree add --detach "$checkout" "$commit" >/dev/null
  fi
  echo "-- $name, from $commit ($checkout)" >&2
  (cd "$checkout" && "$python" "benchmarks/${args[0]}" "${args[@]:1}")
done
