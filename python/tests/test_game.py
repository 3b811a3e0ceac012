"""The in-process API: dealing, moves and actions, refusals, copies,
determinism, the bots, and what a seat may see."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from tables import EVERY_TABLE

import pips

@pytest.mark.parametrize("variant,players", EVERY_TABLE)
def test_actions_name_the_legal_moves(variant, players):
    game = pips.Game(variant, players=players, seed=players)
    chooser = random.Random(7)
    steps = 0
    while not game.is_over and steps < 400:
        moves = game.legal_moves()
        actions = game.legal_actions()
        assert actions == sorted(game.move_to_action(m) for m in moves)
        assert all(0 <= a < game.num_actions for a in actions)
        assert {game.action_to_move(a) for a in actions} == set(moves)
        assert all(m.seat == game.to_act for m in moves)
        game.apply_action(chooser.choice(actions))
        steps += 1
    assert steps > 0


def test_the_action_space_is_documented_arithmetic():
    game = pips.Game("block", players=2, seed=1)
    assert (game.num_places, game.num_actions) == (5, 28 * 5 + 3)
    lead = game.legal_moves()[0]
    high, low = lead.tile
    index = high * (high + 1) // 2 + low
    assert game.move_to_action(lead) == index * 5 + 0
    assert game.action_to_move(game.num_actions - 3).kind == "draw"
    assert game.action_to_move(game.num_actions - 2).kind == "pass"
    assert game.action_to_move(game.num_actions - 1).kind == "end_turn"
    trains = pips.Game("mexican_train", players=4, seed=1)
    assert trains.num_places == 5  # four seats' trains and the Mexican train
    foot = pips.Game("chicken_foot", players=4, seed=1)
    # A new arm, the hub's arms, three toes for each other double.
    assert foot.num_places == 1 + foot.rules["hubArms"] + 3 * foot.rules["maxPip"]


def test_actions_outside_the_space_or_illegal_now_are_refused():
    game = pips.Game("block", players=2, seed=1)
    for bad in (-1, game.num_actions, 2**40):
        with pytest.raises(pips.InvalidArgument) as refused:
            game.apply_action(bad)
        assert (refused.value.reason, refused.value.field) == ("ERROR_REASON_MALFORMED_MOVE", "action")
    legal = set(game.legal_actions())
    illegal = next(a for a in range(game.num_actions) if a not in legal)
    before = game.to_json()
    with pytest.raises(pips.IllegalMove) as refused:
        game.apply_action(illegal)
    assert refused.value.code == "FAILED_PRECONDITION"
    assert game.to_json() == before, "a refused move changes nothing"


def test_moves_read_and_write_the_services_json():
    game = pips.Game("all_fives", players=2, seed=3)
    for move in game.legal_moves():
        assert pips.Move.from_dict(move.to_dict()) == move
        assert pips.Move.from_dict(json.dumps(move.to_dict())) == move
        assert eval(repr(move), {"Move": pips.Move}) == move
        assert move.kind == "play" and move.place in ("lead", "left", "right", "up", "down")
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Move.from_dict({"seat": 0})
    assert refused.value.reason == "ERROR_REASON_MALFORMED_MOVE"
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Move.from_dict({"seat": 0, "play": {"tile": {"a": 13, "b": 0}}})
    assert (refused.value.reason, refused.value.field) == ("ERROR_REASON_INVALID_TILE", "move.play.tile")


def test_a_trick_games_moves_read_and_are_refused_at_a_line():
    game = pips.Game("block", players=2, seed=3)
    seat = game.to_act
    for wire, kind, tile in [
        ({"bid": {"points": 30}}, "bid", None),
        ({"contract": {"followMe": True}}, "contract", None),
        ({"discard": {"a": 6, "b": 4}}, "discard", (6, 4)),
        ({"trick": {"a": 5, "b": 5}}, "trick", (5, 5)),
    ]:
        move = pips.Move.from_dict({"seat": seat, **wire})
        assert (move.kind, move.tile, move.place) == (kind, tile, None)
        assert move.to_dict() == {"seat": seat, **wire}
        before = game.to_json()
        with pytest.raises(pips.IllegalMove) as refused:
            game.play(move)
        assert refused.value.reason == "ERROR_REASON_NOT_A_MOVE_OF_THIS_GAME"
        assert refused.value.field == f"move.{kind}"
        assert game.to_json() == before


def test_play_reports_events_and_score_changes():
    game = pips.Game("muggins", players=2, seed=5)
    total = [0, 0]
    while not game.is_over:
        update = game.play(game.suggest("greedy"))
        assert isinstance(update.events, list) and update.events
        total = [a + b for a, b in zip(total, update.score_change)]
    assert total == game.scores
    assert game.winner in (0, 1)
    assert game.legal_moves() == [] and game.legal_actions() == []
    with pytest.raises(pips.IllegalMove) as refused:
        game.suggest("greedy")
    assert refused.value.reason == "ERROR_REASON_MATCH_OVER"


def test_a_match_is_reproducible_from_its_seed_and_moves():
    def play(seed: int) -> pips.Game:
        game = pips.Game("fives_and_threes", players=3, seed=seed)
        chooser = random.Random(1)
        for _ in range(60):
            game.apply_action(chooser.choice(game.legal_actions()))
        return game

    assert play(9) == play(9)
    assert play(9).match_digest == play(9).match_digest
    assert play(9).match_digest != play(10).match_digest


def test_copies_are_independent():
    game = pips.Game("draw", players=2, seed=4)
    for twin in (game.clone(), copy.copy(game), copy.deepcopy(game)):
        assert twin == game
        twin.apply_action(twin.legal_actions()[0])
        assert twin != game
        assert game.hand_number == 1 and len(game.view(0)["history"]) == 0


def test_states_and_tokens_round_trip_and_refusals_name_the_field():
    game = pips.Game("dominican", players=4, seed=2)
    for _ in range(9):
        game.apply_action(game.legal_actions()[0])
    assert pips.Game.from_json(game.to_json()) == game
    assert pips.Game.from_json(json.loads(game.to_json())) == game
    assert pips.Game.from_token(game.to_token()) == game
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game.from_token(b"\xff\x00 not a token")
    assert refused.value.reason == "ERROR_REASON_STATE_TOKEN_INVALID"
    state = json.loads(game.to_json())
    state["scores"] = "many"
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game.from_json(state)
    assert (refused.value.reason, refused.value.field) == ("ERROR_REASON_MALFORMED_JSON", "state.scores")
    with pytest.raises(ValueError):
        game.to_json(state_key="not hex")


def test_bad_deals_are_refused_with_the_field():
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game("no such game")
    assert (refused.value.reason, refused.value.field) == ("ERROR_REASON_UNKNOWN_VARIANT", "variant")
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game("block", players=9)
    assert (refused.value.reason, refused.value.field) == ("ERROR_REASON_PLAYERS_NOT_ALLOWED", "players")
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game("block", rules={"maxPip": 40})
    assert refused.value.field.startswith("rules")
    house = pips.Game("block", players=2, seed=1, rules={"handSize": 5})
    assert len(house.view(0)["hand"]) == 5 and house.rules["handSize"] == 5


def test_bad_arguments_are_refused_naming_the_argument():
    # Integers out of range: a ValueError naming the argument and its range.
    for kwargs, words in [
        ({"players": -1}, "players must be a number of seats, 2 to 8, not -1"),
        ({"seed": -1}, "seed must be from 0 to 2**64 - 1, not -1"),
        ({"seed": 2**64}, "seed must be from 0 to 2**64 - 1, not 18446744073709551616"),
    ]:
        with pytest.raises(ValueError, match=words.replace("*", r"\*")):
            pips.Game("block", **kwargs)
    with pytest.raises(TypeError, match="seed must be an integer"):
        pips.Game("block", seed="7")
    with pytest.raises(ValueError, match="size must be from 1 to 1048576 games, not -3"):
        pips.Batch("block", size=-3)
    # A number the rules' field cannot hold: the field, in the API's words.
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game("block", rules={"target": 2**40})
    assert refused.value.field == "rules.target"
    assert "cannot hold this value" in refused.value.message and "untagged" not in refused.value.message
    # Text that is not JSON names the argument, not a field inside it.
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game("block", seed=1).play("{not json")
    assert refused.value.field == "move"


def test_seats_default_to_the_games_own_count():
    assert pips.Game("texas42", seed=1).players == 4
    assert pips.Game("moon", seed=1).players == 3
    assert pips.Game("muggins", seed=1).players == 2
    assert pips.Game("mexican_train", seed=1).players == 2
    assert len(pips.Batch("texas42", size=2).to_act) == 2  # dealt for 4 seats
    # A count the preset does not seat is still refused, in its words.
    with pytest.raises(pips.InvalidArgument, match="texas42 is played by 4 to 4"):
        pips.Game("texas42", players=2)


def test_a_move_without_a_seat_is_the_seat_to_acts():
    game = pips.Game("texas42", seed=5)
    seat = game.to_act
    update = game.play({"bid": {"points": 30}})
    assert update.events[0]["bidMade"].get("seat", 0) == seat
    # Its text too, and a pass.
    seat = game.to_act
    game.play('{"pass": {}}')
    assert game.view(seat)["tricks"]["auction"][-1].get("seat", 0) == seat
    assert "bid" not in game.view(seat)["tricks"]["auction"][-1]
    # A seat given is still the seat that moves.
    with pytest.raises(pips.IllegalMove) as refused:
        game.play({"seat": (game.to_act + 1) % 4, "pass": {}})
    assert refused.value.reason == "ERROR_REASON_NOT_YOUR_TURN"


def test_text_that_is_no_move_is_told_what_a_move_looks_like():
    game = pips.Game("texas42", seed=5)
    for given in ["bid 30", "30", "[1, 2]", "{not json"]:
        with pytest.raises(pips.InvalidArgument) as refused:
            game.play(given)
        assert refused.value.field == "move"
        assert refused.value.reason == "ERROR_REASON_MALFORMED_JSON"
        assert "is not a move" in refused.value.message
        assert '{"bid": {"points": 30}}' in refused.value.message


def test_the_seat_to_act_is_none_once_the_match_is_over():
    game = pips.Game("draw", players=2, seed=3)
    while not game.is_over:
        assert game.to_act in (0, 1)
        game.play(game.suggest("random", seed=1))
    assert game.to_act is None


def test_refusals_pickle_with_their_details():
    try:
        pips.Game("nope")
    except pips.PipsError as refusal:
        again = pickle.loads(pickle.dumps(refusal))
        assert (type(again), again.reason, again.field) == (type(refusal), refusal.reason, refusal.field)


def test_bots_are_reproducible_and_do_not_peek():
    game = pips.Game("block", players=4, seed=6)
    for _ in range(5):
        game.apply_action(game.legal_actions()[0])
    seat = game.to_act
    assert game.suggest("expert", playouts=400, seed=3) == game.suggest("expert", playouts=400, seed=3)
    with pytest.raises(ValueError):
        game.suggest("grandmaster")
    # Two other seats swap one tile each: the seat to act cannot tell, and
    # neither can its view nor any bot.
    state = json.loads(game.to_json())
    a, b = [s for s in range(4) if s != seat][:2]
    hands = state["hands"]
    hands[a]["tiles"][0], hands[b]["tiles"][0] = hands[b]["tiles"][0], hands[a]["tiles"][0]
    swapped = pips.Game.from_json(state)
    assert swapped != game
    assert swapped.view(seat) == game.view(seat)
    for level in ("random", "greedy", "expert"):
        assert swapped.suggest(level, playouts=400, seed=3) == game.suggest(level, playouts=400, seed=3)


def test_the_view_shows_a_seat_its_own_hand_only():
    game = pips.Game("cuban", players=4, seed=8)
    state = json.loads(game.to_json())
    for seat in range(4):
        view = game.view(seat)
        assert view["hand"] == state["hands"][seat]["tiles"]
        assert "hands" not in view
    with pytest.raises(pips.InvalidArgument) as refused:
        game.view(4)
    assert refused.value.reason == "ERROR_REASON_SEAT_OUT_OF_RANGE"


def test_observations_and_masks():
    import numpy as np

    game = pips.Game("block", players=4, seed=6)
    for _ in range(6):
        game.apply_action(game.legal_actions()[0])
    mask = game.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
    assert list(np.flatnonzero(mask)) == game.legal_actions()
    seat = game.to_act
    seen = game.observation(seat)
    assert seen.dtype == np.float32 and seen.shape == (game.observation_size,)
    hand = [t["a"] * (t["a"] + 1) // 2 + t["b"] for t in game.view(seat)["hand"]]
    assert sorted(np.flatnonzero(seen[:28])) == sorted(hand)
    # Hidden tiles moved between two other seats: the same observation.
    state = json.loads(game.to_json())
    a, b = [s for s in range(4) if s != seat][:2]
    hands = state["hands"]
    hands[a]["tiles"][0], hands[b]["tiles"][0] = hands[b]["tiles"][0], hands[a]["tiles"][0]
    swapped = pips.Game.from_json(state)
    assert np.array_equal(swapped.observation(seat), seen)
    assert not np.array_equal(swapped.observation(a), game.observation(a))
    with pytest.raises(pips.InvalidArgument):
        game.observation(4)


def test_a_restart_is_a_new_match():
    game = pips.Game("muggins", players=3, seed=1, rules={"target": 100})
    for _ in range(30):
        game.apply_action(game.legal_actions()[-1])
    game.restart(77)
    fresh = pips.Game("muggins", players=3, seed=77, rules={"target": 100})
    assert game == fresh
    assert game.match_digest == fresh.match_digest
    assert game.rules["target"] == 100
