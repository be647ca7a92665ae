"""The table view's words for a chip out of place: never "seen at off the board"."""

from __future__ import annotations

from controller.service.camera.reconciler_view import Misplaced


def test_a_chip_seen_elsewhere_names_both_places() -> None:
    chip = Misplaced("G1", "walker-1", "Walker G1", ("K5", "N"), ("K4", "W"))
    assert chip.to_dict()["text"] == "Walker G1 is seen at K5, facing north; the game has it at K4, facing west"


def test_a_chip_the_camera_does_not_see_says_so() -> None:
    chip = Misplaced("nano", "nano", "Nano", None, ("H3", None))
    assert chip.to_dict()["text"] == "Nano is not seen on the board; the game has it at H3"


def test_a_chip_the_game_took_off_the_board_says_so() -> None:
    chip = Misplaced("G2", "walker-2", "Walker G2", ("B7", "S"), None)
    assert chip.to_dict()["text"] == "Walker G2 is seen at B7, facing south, but the game has it off the board"


def test_a_chip_not_in_this_game_says_so() -> None:
    chip = Misplaced(None, "hound-2", "hound-2", ("C3", "E"), None)
    assert chip.to_dict()["text"] == "hound-2 is seen at C3, facing east, but it is not in this game"
