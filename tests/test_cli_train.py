"""``coronas train``: a small seeded refit writes model files that load back, the policy
seats play the prior named (or none) and the files say which, and bad options and a bad
prior file are refused as usage mistakes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

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


def test_train_at_another_table_writes_that_tables_value_model(tmp_path, capsys):
    argv = ["train", "hierro", "--players", "4", "--games", "6", "--seed", "0"]
    assert main([*argv, "--out", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "4 players" in out and "the move prior fitted at 3" in out
    assert "the shipped value model fitted at 3 players, on the same positions" in out
    assert [p.name for p in tmp_path.iterdir()] == ["value_model-4-players.json"]
    spec = learning_of(available_games()["hierro"])
    assert spec.value_model(tmp_path / "value_model-4-players.json").fitted["players"] == 4


def test_train_refuses_bad_options(capsys):
    assert main(["train", "batalla", "--games", "4"]) == 2
    assert main(["train", "batalla", "--rate", "0"]) == 2
    assert main(["train", "nosuchgame"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["train", "batalla", "--no-policy", "--policy-prior", "p.json"]) == 2
    assert "not allowed with" in capsys.readouterr().err


def _train(tmp_path, *options):
    out = tmp_path / "out"
    argv = ["train", "batalla", "--games", "8", "--seed", "0", "--out", str(out)]
    return main([*argv, "--no-progress", *options]), out


def test_train_plays_the_policy_prior_given_or_none(tmp_path, capsys):
    spec = learning_of(available_games()["batalla"])
    prior = tmp_path / "prior.json"
    prior.write_bytes(spec.path("prior").read_bytes())
    status, out = _train(tmp_path, "--policy-prior", str(prior))
    assert status == 0
    digest = hashlib.sha256(prior.read_bytes()).hexdigest()
    assert f"SHA-256 {digest}" in capsys.readouterr().out
    fitted = spec.move_prior(out / "move_prior.json").fitted
    assert fitted["bots"] == ["greedy", "light", "policy"]
    assert fitted["policy_prior_sha256"] == digest
    status, out = _train(tmp_path, "--no-policy")
    assert status == 0
    fitted = spec.value_model(out / "value_model.json").fitted
    assert fitted["bots"] == ["greedy", "light"] and fitted["policy_prior_sha256"] is None


def test_train_refuses_a_bad_policy_prior_naming_file_and_field(tmp_path, capsys):
    prior = tmp_path / "prior.json"
    data = json.loads(learning_of(available_games()["batalla"]).path("prior").read_text())
    data["weights"][0] = "heavy"
    prior.write_text(json.dumps(data))
    status, out = _train(tmp_path, "--policy-prior", str(prior))
    assert status == 2 and not out.exists()
    assert f"{prior}: weights[0]: expected a number" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")
def test_one_ctrl_c_stops_training_on_two_workers_at_once(tmp_path):
    # Ctrl-C at a terminal reaches the command and its workers (one process group): training
    # ends within 2 s with exit 130, no traceback from any worker, no process left, and no
    # model file half written.
    import sys
    import time

    from tests.test_cli import _group_members, ctrl_c_to_group, kill_group, start_at_a_terminal

    args = ["train", "batalla", "--games", "5000", "--jobs", "2", "--no-progress"]
    args += ["--out", str(tmp_path)]
    proc = start_at_a_terminal([sys.executable, "-m", "coronas.cli", *args], group=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_group_members(proc.pid)) < 3:
            time.sleep(0.05)
        time.sleep(1.0)  # the workers are playing games
        assert proc.poll() is None
    except BaseException:
        kill_group(proc)
        raise
    err = ctrl_c_to_group(proc)
    assert "interrupted" in err
    assert list(tmp_path.iterdir()) == []


def test_train_fits_the_prior_to_a_teachers_visits_or_refuses_the_teacher(tmp_path, capsys):
    status, out = _train(tmp_path, "--no-policy", "--teacher", "mcts:10")
    assert status == 0
    assert "the move prior's targets: mcts:10's visit shares" in capsys.readouterr().out
    spec = learning_of(available_games()["batalla"])
    assert spec.move_prior(out / "move_prior.json").fitted["teacher"] == "mcts:10"
    assert "teacher" not in spec.value_model(out / "value_model.json").fitted
    assert _train(tmp_path, "--teacher", "greedy")[0] == 2
    assert "--teacher: 'greedy' is not a search bot" in capsys.readouterr().err
