import subprocess
import sys

import coronas


def test_version_flag_prints_the_package_version():
    out = subprocess.run(
        [sys.executable, "-m", "coronas.cli", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0
    assert out.stdout.strip() == f"coronas {coronas.__version__}"
