"""``coronas train``: a small seeded refit writes model files that load back, and bad options
are refused as usage mistakes."""

from __future__ import annotations

import json

from coronas.cli import main
from coronas.engine import available_games
from coronas.engine.learning import learning_of


def test_train_writes_model_files_that_load(tmp_path, capsys):
    status = main(
        [
            "train",
            "batalla",
            "--games",
            "10",
            "--seed",
            "3",
            "--out",
            str(tmp_path),
            "--no-progress",
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "held-out log-loss" in out and "calibration" in out
    spec = learning_of(available_games()["batalla"])
    value = spec.value_model(tmp_path / "value_model.json")
    prior = spec.move_prior(tmp_path / "move_prior.json")
    assert value.fitted["games"] == 10 and value.fitted["seed"] == 3
    assert prior.fitted["baseline"].startswith("a uniform choice")
    data = json.loads((tmp_path / "value_model.json").read_text())
    assert data["features"] == list(spec.value_names)


def test_train_refuses_bad_options(capsys):
    assert main(["train", "batalla", "--games", "4"]) == 2
    assert main(["train", "batalla", "--rate", "0"]) == 2
    assert main(["train", "nosuchgame"]) == 2
    assert "unknown game" in capsys.readouterr().err
