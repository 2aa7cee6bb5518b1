#!/usr/bin/env bash
# Build the Binder environment the way mybinder.org does, in a fresh virtual environment in a
# temporary folder: install binder/requirements.txt, run binder/postBuild in a copy of the
# repository, import coronas, then run notebooks/00-start-here.ipynb top to bottom.
# Any failure stops the script with a non-zero status and says which step failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { echo "-- check_binder: $*"; }
fail() { echo "check_binder: FAILED: $*" >&2; exit 1; }

want=$(sed -n 's/^python-\([0-9]*\.[0-9]*\).*/\1/p' "$root/binder/runtime.txt")
have=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) \
  || fail "cannot run Python as '$python' (set PYTHON to a Python $want interpreter)"
if [ "$want" != "$have" ]; then
  echo "check_binder: note: Binder uses Python $want, this check runs Python $have" >&2
fi

step "copy the repository (tracked and new files, as a clone would have them)"
mkdir "$tmp/repo"
(cd "$root" && git ls-files -z --cached --others --exclude-standard \
  | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$tmp/repo" \
  || fail "could not copy the repository"

step "create a fresh venv and install binder/requirements.txt"
"$python" -m venv "$tmp/venv" || fail "could not create a venv with $python"
export PATH="$tmp/venv/bin:$PATH"
export PIP_DISABLE_PIP_VERSION_CHECK=1
python -m pip install -r "$tmp/repo/binder/requirements.txt" >"$tmp/pip.log" 2>&1 \
  || { tail -n 40 "$tmp/pip.log" >&2; fail "pip could not install binder/requirements.txt"; }

step "run binder/postBuild"
(cd "$tmp/repo" && bash binder/postBuild) >"$tmp/postBuild.log" 2>&1 \
  || { cat "$tmp/postBuild.log" >&2; fail "binder/postBuild"; }
python -m pip check || fail "the installed packages have broken requirements"
python - "$tmp/repo/binder/requirements.txt" <<'PY' || fail "binder/requirements.txt is not complete"
import importlib.metadata as md
import re
import sys

norm = lambda name: re.sub(r"[-_.]+", "-", name).lower()  # noqa: E731
pinned = {}
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, _, version = line.partition("==")
        pinned[norm(name)] = version
base = {"pip", "setuptools", "wheel", "coronas"}
loose = sorted(
    f"{d.metadata['Name']}=={d.version}"
    for d in md.distributions()
    if norm(d.metadata["Name"]) not in base and pinned.get(norm(d.metadata["Name"])) != d.version
)
if loose:
    sys.exit("installed but not pinned (add them to binder/requirements.txt): " + ", ".join(loose))
PY

step "import coronas from the installed package"
(cd "$tmp" && python -c "
import coronas, coronas.dice, coronas.engine, coronas.widgets, ipywidgets, matplotlib
print('coronas', coronas.__version__, 'from', coronas.__file__)
assert '$tmp/venv' in coronas.__file__, 'coronas was not imported from the Binder venv'
") || fail "importing coronas"

step "execute notebooks/00-start-here.ipynb"
export JUPYTER_CONFIG_DIR="$tmp/jupyter/config" JUPYTER_DATA_DIR="$tmp/jupyter/data"
export JUPYTER_RUNTIME_DIR="$tmp/jupyter/runtime" IPYTHONDIR="$tmp/ipython"
(cd "$tmp/repo/notebooks" && jupyter nbconvert --to notebook --execute \
  --ExecutePreprocessor.timeout=120 --ExecutePreprocessor.kernel_name=python3 \
  --output "$tmp/executed.ipynb" 00-start-here.ipynb) >"$tmp/nbconvert.log" 2>&1 \
  || { cat "$tmp/nbconvert.log" >&2; fail "00-start-here.ipynb did not run top to bottom"; }
python - "$tmp/executed.ipynb" <<'PY' || fail "00-start-here.ipynb ran in the wrong kernel"
import json, sys
nb = json.load(open(sys.argv[1]))
code = [c for c in nb["cells"] if c["cell_type"] == "code"]
assert code and all(c.get("execution_count") for c in code), "some cells did not run"
PY
step "OK: the Binder environment builds and runs the first notebook"
