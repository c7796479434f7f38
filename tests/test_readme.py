"""The README stays in step with the CLI: every command and option is documented."""

from __future__ import annotations

import pathlib

import click

from rnwprint.cli import every_command

README = (pathlib.Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_every_command_and_option_is_in_the_readme():
    missing = []
    for name, command in every_command().items():
        if f"rnwprint {name}" not in README:
            missing.append(f"command {name}")
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in param.opts:
                    if opt.startswith("--") and opt not in README and opt != "--help":
                        missing.append(f"{name} {opt}")
    assert missing == []


def test_quick_start_has_the_test_command_ci_runs():
    ci = (pathlib.Path(__file__).parent.parent / ".ci" / "run").read_text()
    assert "python -m pytest -q" in README and "python -m pytest -q" in ci
