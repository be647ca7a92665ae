"""Changing the game from the dashboard: the legal actions, applying one, "next", the corporation's turn,
undo and redo, dice typed in at the table, and corrections. Every change goes through the table service's
verbs (its session behind them is the one writer), needs `Player`, and answers with the change it made; a
refusal changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from controller.rules import AnyAction, Direction, FacingWord
from controller.service.table import ChangeKind, DiceMode, TableService
from controller.service.views import Answered, Changed, DiceKinds, LegalList
from web.auth import Player
from web.contract import Responses, ViewResponse, checked_beyond_the_schema, refuses, returns, union_schema
from web.deps import Service

if TYPE_CHECKING:
    from controller.service.game.session import Change

router = APIRouter(prefix="/api", tags=["play"])
REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "no session: log in with the table's PIN (POST /api/session)"},
    403: {"description": "another site's Origin (bad_origin), or a read-only table (read_only)"},
    404: {"description": "there is no game yet (no_game)"},
    409: {"description": "the rules refuse it now (illegal_action, with the rule), or nothing to do (refused)"},
    422: {"description": "a malformed body (bad_request)"},
}
BAD_FACE: Responses = {422: {"description": "a malformed body (bad_request), or a face that is not on its die or more "
                                            "faces than are still needed (bad_face, naming the die and its faces); "
                                            "the request stays"}}
# which dice an action rolls, and so which faces it takes, is the game's as it stands: no schema can list them
FACES_CHECKED = checked_beyond_the_schema(
    bad_face="a face that is not on the die the game rolls, or more faces than it still needs: the message names "
             "the die and its faces")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionBody(Strict):
    """One of `GET /api/legal`'s actions, posted back with the fields its `choose` names filled in."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"action": {"action": "begin_actions"}},
        {"action": {"action": "step", "bot": "casing", "to": "I4"}, "faces": ["2", "1"]},
    ]})
    action: dict[str, Any] = Field(description="the encoded action: its `action` tag and its fields",
                                   json_schema_extra=union_schema(AnyAction))
    faces: list[str] | None = Field(None, max_length=64, description="dice rolled at the table, in order")


class FacesBody(Strict):
    """Faces rolled at the table for the dice the game asks for (status.pending_dice), in order."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"faces": ["2", "blank", "1"]}]})
    faces: list[str] = Field(min_length=1, max_length=64, description="each face as printed on its die "
                             "(a card or chip by the name status.pending_dice lists), in the order it lists the dice")


class DiceModeBody(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"mode": "physical"}]})
    mode: DiceMode = Field(description="virtual: the service rolls; physical: the players")


class CorrectionBody(Strict):
    """Where a unit really stands (it wins over the camera); a guard's facing too."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"unit": "casing", "space": "J3", "facing": None}, {"unit": "G1", "space": "H4", "facing": "west"}]})
    unit: str = Field(min_length=1, max_length=64, description="a bot's id or a security unit's id")
    space: str = Field(min_length=1, max_length=16, description="the space, as on the mat: column letter, row")
    facing: FacingWord | Direction | None = Field(None, description="a guard's facing: a compass word or letter")


class AnswerBody(Strict):
    """The option chosen for a question of the table view (`GET /api/table`): its number or its text."""
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"option": 0}]})
    option: int | str = Field(description="the option's number in the question's `options` (from 0), or its text")


def changed(service: TableService, change: Change) -> ViewResponse:
    """The answer of every change: the change as the live feed sends it; 202 while it waits for dice."""
    status = 202 if change.kind is ChangeKind.DICE_REQUESTED else 200
    return ViewResponse(Changed(change=service.change_view(change)), status_code=status)


def changes(also: Responses, *, dice: bool = False) -> dict[str, Any]:
    """The decorator's arguments of a route that answers with the change it made (`dice`: or 202, when the action
    waits for dice rolled at the table: the dice_requested change)."""
    return returns(Changed, "the change made (202: the action waits for dice rolled at the table)" if dice else
                   "the change made", statuses=(200, 202) if dice else (200,), also=also)


@router.get("/legal", summary="The active player's legal actions, each with the action to post back",
            **returns(LegalList, also=refuses(404)))
def legal(service: Service) -> ViewResponse:
    return ViewResponse(service.legal())


@router.post("/actions", summary="Apply one action for the active player",
             **changes({**REFUSALS, **BAD_FACE}, dice=True), openapi_extra=FACES_CHECKED)
def apply_action(body: ActionBody, service: Service, _: Player) -> ViewResponse:
    return changed(service, service.apply_json(body.action, body.faces))


@router.post("/next", summary='The "next" step of the game\'s flow (a new game once one is over)',
             **changes(REFUSALS, dice=True))
def next_step(service: Service, _: Player) -> ViewResponse:
    return changed(service, service.next_step())


@router.post("/corporation-turn", summary="The corporation's turn", **changes(REFUSALS, dice=True))
def corporation_turn(service: Service, _: Player) -> ViewResponse:
    return changed(service, service.corporation_turn())


@router.post("/undo", summary="Take back the last action", **changes(REFUSALS))
def undo(service: Service, _: Player) -> ViewResponse:
    return changed(service, service.undo())


@router.post("/redo", summary="Do the action taken back again", **changes(REFUSALS))
def redo(service: Service, _: Player) -> ViewResponse:
    return changed(service, service.redo())


@router.post("/dice", summary="Faces rolled at the table for the pending dice request",
             **changes({**REFUSALS, **BAD_FACE}, dice=True), openapi_extra=FACES_CHECKED)
def supply_faces(body: FacesBody, service: Service, _: Player) -> ViewResponse:
    return changed(service, service.supply_faces(body.faces))


@router.delete("/dice", summary="Give up the action that waits for dice", **changes(REFUSALS))
def cancel_dice(service: Service, _: Player) -> ViewResponse:
    return changed(service, service.cancel_dice())


@router.put("/dice/mode", summary="Who rolls from now on: the service (virtual) or the players (physical)",
            **changes(REFUSALS))
def dice_mode(body: DiceModeBody, service: Service, _: Player) -> ViewResponse:
    return changed(service, service.set_dice_mode(body.mode))


@router.get("/dice/kinds", summary="Every die of the game with its faces as printed", **returns(DiceKinds))
def dice_kinds(service: Service) -> ViewResponse:
    return ViewResponse(service.dice_kinds())


@router.post("/corrections", summary="Correct where a unit stands (and a guard's facing)", **changes(REFUSALS))
def correct(body: CorrectionBody, service: Service, _: Player) -> ViewResponse:
    return changed(service, service.correct(body.unit, body.space, body.facing))


@router.post("/questions/{question:path}/answer", summary="Answer one of the table view's questions (which way a bot "
             "went, or that the chip is right)", **returns(Answered, "the table view after the answer", also=REFUSALS))
def answer(question: str, body: AnswerBody, service: Service, _: Player) -> ViewResponse:
    return ViewResponse(Answered(table=service.answer(question, body.option)))
