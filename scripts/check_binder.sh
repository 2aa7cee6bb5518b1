#!/usr/bin/env bash
# Build the Binder environment the way mybinder.org does, in a fresh virtual environment in a
# temporary folder: install binder/requirements.txt, run binder/postBuild in a copy of the
# repository, import coronas, then run every notebook top to bottom (its widgets built too).
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

step "execute every notebook in notebooks/ top to bottom"
export JUPYTER_CONFIG_DIR="$tmp/jupyter/config" JUPYTER_DATA_DIR="$tmp/jupyter/data"
export JUPYTER_RUNTIME_DIR="$tmp/jupyter/runtime" IPYTHONDIR="$tmp/ipython"
mkdir "$tmp/executed"
for nb in "$tmp"/repo/notebooks/[0-9][0-9]-*.ipynb; do
  name=$(basename "$nb")
  start=$SECONDS
  (cd "$tmp/repo/notebooks" && jupyter nbconvert --to notebook --execute \
    --ExecutePreprocessor.timeout=300 --ExecutePreprocessor.kernel_name=python3 \
    --output-dir "$tmp/executed" "$name") >"$tmp/nbconvert.log" 2>&1 \
    || { tail -n 60 "$tmp/nbconvert.log" >&2; fail "$name did not run top to bottom"; }
  echo "   $name: $((SECONDS - start)) s"
done
python - "$tmp/executed" <<'PY' || fail "a notebook ran in the wrong kernel or showed a widget wrongly"
import json, pathlib, sys
widget = "application/vnd.jupyter.widget-view+json"
shown = 0
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.ipynb")):
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code and all(c.get("execution_count") for c in code), f"{path.name}: some cells did not run"
    for out in (o for c in code for o in c["outputs"]):
        data = out.get("data", {})
        if widget in data:  # a widget: built, and its text before a run is for a person
            shown += 1
            assert "run this cell" in "".join(data.get("text/plain", "")), (path.name, data)
assert shown >= 10, f"only {shown} widgets were displayed"
print(f"   {shown} widgets displayed, each with its plain-text line")
PY
step "OK: the Binder environment builds and runs every notebook"
