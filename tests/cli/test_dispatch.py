"""The ``fanscan`` dispatcher: subcommand discovery, lazy loading, exit codes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fanscan.cli import build_parser, main


def test_dispatch_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("score", "read", "waits", "rules", "classify", "serve", "label", "export",
                    "import", "train"):
        assert f"    {command} " in out or f"    {command}\n" in out


def test_dispatch_loads_only_the_chosen_command() -> None:
    parser = build_parser(["import", "x"])
    choices = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert list(choices) == ["import"]


def test_dispatch_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2


def test_dispatch_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["riichi"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_dispatch_score_start_loads_no_vision_stack() -> None:
    code = (
        "import sys; from fanscan.cli import main; main(['rules']); "
        "print(sorted(m for m in ('cv2', 'onnxruntime', 'numpy', 'torch') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("[]")


def test_dispatch_unexpected_error_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fanscan.cli import rules

    def broken(args: object) -> int:
        raise ZeroDivisionError("boom")

    real_register = rules.register

    def register(subparsers):  # the rules command, with a handler that fails unexpectedly
        real_register(subparsers)
        subparsers.choices["rules"].set_defaults(handler=broken)

    monkeypatch.setattr(rules, "register", register)
    assert main(["rules"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error (ZeroDivisionError: boom)" in err
    with pytest.raises(ZeroDivisionError):
        main(["--debug", "rules"])


def test_dispatch_unknown_option_shows_the_commands_own_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["read", "x.jpg", "--bogus"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: fanscan read ")
    assert err.endswith("fanscan read: error: unrecognized arguments: --bogus\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["read", ""],
        ["read", "a.jpg", " "],
        ["classify", ""],
        ["label", "", "--prelabel"],
        ["export", "", "--format", "coco", "--out", "x.json"],
        ["import", "", "--format", "coco"],
        ["import", "x.json", "--format", "coco", "--images", ""],
    ],
)
def test_dispatch_an_empty_name_is_refused_not_the_current_folder(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.chdir(tmp_path)  # Path("") is this folder: nothing here may be read or written
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "an empty name is no file or folder" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_dispatch_an_empty_unknown_argument_is_shown_quoted(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["rules", "mcr", ""])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: ''\n")


@pytest.mark.parametrize("argv", [
    ["score", "--hand", "123m456p789sSSS55m", "--seat", "E", "--seat", "S"],
    ["score", "--hand", "123m456p789sSSS55m", "--base", "2", "--base", "3"],
    ["score", "--hand", "123m456p789sSSS55m", "--rules", "mcr", "--rules", "sichuan"],
    ["score", "--hand", "123m456p789sSSS55m", "--hand", "123m456p789sSSS55m"],
    ["read", "photo.jpg", "--hand", "win", "--hand", "waiting"],
])
def test_dispatch_an_option_of_one_value_given_twice_is_refused_not_the_last_taken(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"fanscan {argv[0]}: error: {argv[-2]} is given twice: give it once" in err


def test_dispatch_options_meant_to_repeat_still_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--hand", "123m456m789s11155s", "--rules", "sichuan", "--option", "dealer=true",
            "--option", "first_turn=false", "--json"]
    assert main(argv) == 0
    assert capsys.readouterr().err == ""
