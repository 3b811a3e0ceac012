"""The package and a real pips server agree: the same seed and moves give
the same state JSON, events, score changes, views, suggestions and match
digest; states and tokens cross both ways; refusals carry the same code,
reason and field."""

from __future__ import annotations

import json
import random

import pytest

import pips
from conftest import STATE_KEY, b64, unb64

# Every preset at its smallest and largest table.
TABLES = sorted(
    {(v["id"], n) for v in pips.variants() for n in (min(v["players"]), max(v["players"]))}
)


def state_of(game: pips.Game) -> dict:
    return json.loads(game.to_json())


@pytest.mark.parametrize("variant,players", TABLES)
def test_same_seed_and_moves_same_match(server, variant, players):
    seed = 1000 + players
    dealt = server.call("NewGame", {"variant": variant, "players": players, "seed": str(seed)})
    game = pips.Game(variant, players=players, seed=seed)
    assert state_of(game) == dealt["state"]
    assert game.match_digest == unb64(dealt["matchDigest"])
    state = dealt["state"]
    assert [m.to_dict() for m in game.legal_moves()] == [m for m in dealt["legalMoves"]]
    chooser = random.Random(seed)
    for _ in range(80):
        if game.is_over:
            break
        legal = game.legal_moves()
        move = chooser.choice(legal)
        answer = server.call("Play", {"state": state, "move": move.to_dict()})
        assert "error" not in answer, answer
        update = game.play(move)
        assert update.events == answer["events"]
        assert update.score_change == answer["scoreChange"]
        assert state_of(game) == answer["state"]
        assert game.match_digest == unb64(answer["matchDigest"])
        for seat in range(players):
            assert game.view(seat) == server.call("View", {"state": answer["state"], "seat": seat})
        state = answer["state"]


def test_legal_moves_match_the_server(server):
    game = pips.Game("mexican_train", players=4, seed=3)
    for _ in range(40):
        answer = server.call("LegalMoves", {"state": state_of(game)})
        assert [m.to_dict() for m in game.legal_moves()] == answer["legalMoves"]
        game.apply_action(game.legal_actions()[0])


def test_a_state_crosses_both_ways(server):
    game = pips.Game("all_fives", players=3, seed=12)
    for _ in range(10):
        game.apply_action(game.legal_actions()[-1])
    # In-process → server, played there, → in-process again.
    answer = server.call("Play", {"state": state_of(game), "move": game.legal_moves()[0].to_dict()})
    back = pips.Game.from_json(answer["state"])
    game.play(game.legal_moves()[0])
    assert back == game
    assert back.match_digest == game.match_digest


def test_tokens_cross_both_ways(server):
    dealt = server.call("NewGame", {"variant": "cuban", "players": 4, "seed": "77", "asToken": True})
    game = pips.Game.from_token(unb64(dealt["stateToken"]))
    assert game == pips.Game("cuban", players=4, seed=77)
    answer = server.call("LegalMoves", {"stateToken": b64(game.to_token())})
    assert answer["legalMoves"] == [m.to_dict() for m in game.legal_moves()]


def test_signed_states_and_sealed_tokens_under_the_servers_key(keyed_server):
    dealt = keyed_server.call("NewGame", {"variant": "block", "players": 2, "seed": "5"})
    game = pips.Game.from_json(dealt["state"], state_key=STATE_KEY)
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game.from_json(dealt["state"])
    assert refused.value.reason == "ERROR_REASON_STATE_TAG_INVALID"
    move = game.legal_moves()[0]
    game.play(move)
    signed = json.loads(game.to_json(state_key=STATE_KEY))
    answer = keyed_server.call("LegalMoves", {"state": signed})
    assert answer["legalMoves"] == [m.to_dict() for m in game.legal_moves()]
    # An unsigned state is refused by the keyed server.
    unsigned = keyed_server.call("LegalMoves", {"state": state_of(game)})
    assert unsigned["error"]["reason"] == "ERROR_REASON_STATE_TAG_MISSING"
    # Sealed tokens: the server's opens here, ours opens there.
    sealed = keyed_server.call(
        "NewGame", {"variant": "block", "players": 2, "seed": "5", "asToken": True}
    )
    opened = pips.Game.from_token(unb64(sealed["stateToken"]), state_key=STATE_KEY)
    assert opened.legal_moves() == pips.Game.from_json(dealt["state"], state_key=STATE_KEY).legal_moves()
    answer = keyed_server.call("LegalMoves", {"stateToken": b64(game.to_token(state_key=STATE_KEY))})
    assert answer["legalMoves"] == [m.to_dict() for m in game.legal_moves()]
    # A seat token speaks for one seat: an in-process game needs it all.
    with pytest.raises(pips.PermissionDenied) as refused:
        pips.Game.from_token(unb64(sealed["seatTokens"][0]), state_key=STATE_KEY)
    assert refused.value.reason == "ERROR_REASON_SEAT_NOT_PERMITTED"


@pytest.mark.parametrize("level,wire", [("random", "BOT_LEVEL_RANDOM"), ("greedy", "BOT_LEVEL_GREEDY"), ("expert", "BOT_LEVEL_EXPERT")])
def test_suggestions_match_the_server(server, level, wire):
    game = pips.Game("muggins", players=2, seed=21)
    chooser = random.Random(4)
    for step in range(12):
        seat = game.to_act
        asked = {"state": state_of(game), "seat": seat, "level": wire, "playouts": 300}
        if step % 2:
            asked["seed"] = str(step)
        answer = server.call("SuggestMove", asked)
        ours = game.suggest(level, playouts=300, seed=step if step % 2 else None)
        assert ours.to_dict() == answer["move"]
        game.play(chooser.choice(game.legal_moves()))


def test_refusals_match_the_server(server):
    game = pips.Game("draw", players=2, seed=8)
    state = state_of(game)
    other = 1 - game.to_act
    wrong_seat = {"seat": other, "draw": {}}
    answer = server.call("Play", {"state": state, "move": wrong_seat})["error"]
    with pytest.raises(pips.IllegalMove) as refused:
        game.play(wrong_seat)
    assert (refused.value.code, refused.value.reason, refused.value.field) == (
        answer["code"],
        answer["reason"],
        answer["field"],
    )
    # A state with a tile twice.
    broken = json.loads(json.dumps(state))
    broken["hands"][1]["tiles"][0] = broken["hands"][0]["tiles"][0]
    answer = server.call("LegalMoves", {"state": broken})["error"]
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game.from_json(broken)
    assert (refused.value.code, refused.value.reason, refused.value.field) == (
        answer["code"],
        answer["reason"],
        answer["field"],
    )
    # Rules that cannot be played.
    answer = server.call(
        "NewGame", {"variant": "block", "players": 4, "rules": {"handSize": 9}}
    )["error"]
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.Game("block", players=4, rules={"handSize": 9})
    assert (refused.value.reason, refused.value.field) == (answer["reason"], answer["field"])


def test_a_whole_match_replays_to_the_same_digest(server):
    game = pips.Game("fives_and_threes", players=2, seed=31)
    start = state_of(game)
    moves = []
    chooser = random.Random(2)
    while not game.is_over:
        move = chooser.choice(game.legal_moves())
        moves.append(move.to_dict())
        game.play(move)
    answer = server.call("Replay", {"state": start, "moves": moves})
    assert "error" not in answer, answer["error"] if "error" in answer else None
    assert unb64(answer["matchDigest"]) == game.match_digest
    assert answer["state"] == state_of(game)
