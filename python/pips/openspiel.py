"""pips's games for OpenSpiel: ``python_pips``, one hand of any preset.

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import pips.openspiel  # registers python_pips

    game = pyspiel.load_game("python_pips", {"variant": "block", "players": 2})

Parameters: ``variant`` (a preset id, default ``block``), ``players``
(default 2), ``rules`` (house rules as the service's JSON ``Rules``, default
none) and ``seed`` (decides what the deal leaves to the rules' own
generator: a leader drawn at random; default 0).

An episode is one hand (a round, at a train table) of the preset's rules:

- **Chance** deals the tiles one at a time, each uniformly among those left
  (seat 0's tiles first, then seat 1's, ...), and chooses the tile a draw
  takes, uniformly among the boneyard's: chance outcome ``i`` is the tile of
  index ``i`` (0-0, 1-0, 1-1, 2-0, ...).
- **Actions** are pips's action space (``pips.Game.num_actions``): a
  placement is ``tile_index * num_places + place``, then draw, pass and
  end-turn, then a trick game's bids, contracts, discards and tricks.
  Chance deals a trick game's tiles too (Moon's widow is the tile left).
- **Returns**, at the hand's end: each seat's side's points of the hand
  less the mean of the other sides' (zero-sum; negated where the lowest
  score wins).
- **Observations**: the tensor is ``pips.Game.observation`` (computed from
  the seat's view alone); the information state adds the hand's history, a
  row per move (the seat counted from the observer, the kind, the tile's
  halves where the observer saw them, the place). The strings are the
  seat's view as the service answers it.
- ``resample_from_infostate`` draws the other hands and the boneyard from
  everything the seat has seen (``pips.Game.resample``), for ISMCTS and
  other determinizing searches.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from ._pips import Game, hand_rewards

_SHORT_NAME = "python_pips"
_DEFAULTS = {"variant": "block", "players": 2, "rules": "", "seed": 0}
_KINDS = ("play", "draw", "pass", "endTurn", "bid", "contract", "discard", "trick")

_GAME_TYPE = pyspiel.GameType(
    short_name=_SHORT_NAME,
    long_name="pips dominoes: one hand of any preset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _tile_index(tile) -> int:
    high, low = max(tile), min(tile)
    return high * (high + 1) // 2 + low


def _tile_of_index(index: int) -> tuple[int, int]:
    high = 0
    while (high + 1) * (high + 2) // 2 <= index:
        high += 1
    return high, index - high * (high + 1) // 2


class PipsGame(pyspiel.Game):
    """One hand of a pips preset as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.template = Game(
            str(params["variant"]),
            players=int(params["players"]),
            seed=int(params["seed"]),
            rules=str(params["rules"]) or None,
        )
        template = self.template
        players = template.players
        self.hand_sizes = [len(template.hand(seat)) for seat in range(players)]
        pool = [t for seat in range(players) for t in template.hand(seat)] + template.boneyard
        # Moon's widow is dealt too: the tile left when the hands are.
        widow = json.loads(template.to_json()).get("tricks", {}).get("widow")
        if widow is not None:
            pool.append((widow.get("a", 0), widow.get("b", 0)))
        self.pool = sorted((_tile_index(t) for t in pool))
        # A trick game's rules leave the set out: it is double-six.
        max_pip = template.rules.get("maxPip", 6)
        set_size = (max_pip + 1) * (max_pip + 2) // 2
        # The draw's action: past every placement (a trick game places no
        # tile and never draws).
        self.draw_action = template.num_places * set_size
        # A hand's moves at most: each tile placed once and drawn once, an
        # end of turn after each placement, and between two of those a pass
        # by every seat at most.
        moves = 3 * set_size + players * (2 * set_size + 1)
        self.max_moves = moves
        pip_total = max_pip * (max_pip + 1) * (max_pip + 2) // 2
        bound = float(4 * pip_total + 60 * set_size + 1000)
        info = pyspiel.GameInfo(
            num_distinct_actions=template.num_actions,
            max_chance_outcomes=set_size,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=len(self.pool) + moves,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> "PipsState":
        return PipsState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "PipsObserver":
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return PipsObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class PipsState(pyspiel.State):
    """A hand in progress: the deal so far, then the pips game."""

    def __init__(self, game: PipsGame) -> None:
        super().__init__(game)
        self.pips = game.template.clone()
        self._sizes = game.hand_sizes
        self._draw = game.draw_action
        self.dealt: list[list[tuple[int, int]]] = [[] for _ in self._sizes]
        self._left = list(game.pool)
        self.dealing = True
        self.drawing = False

    # The deal and the draws as chance.

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.dealing or self.drawing:
            return pyspiel.PlayerId.CHANCE
        return self.pips.to_act

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealing:
            left = self._left
        else:
            left = sorted(_tile_index(t) for t in self.pips.boneyard)
        return [(index, 1.0 / len(left)) for index in left]

    def _legal_actions(self, player: int) -> list[int]:
        return self.pips.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self.dealing:
            seat = next(s for s, hand in enumerate(self.dealt) if len(hand) < self._sizes[s])
            self.dealt[seat].append(_tile_of_index(action))
            self._left.remove(action)
            if all(len(h) == n for h, n in zip(self.dealt, self._sizes)):
                self.pips.redeal(self.dealt)
                self.dealing = False
        elif self.drawing:
            self.pips.arrange_next_draw(_tile_of_index(action))
            self.pips.apply_action(self._draw)
            self.drawing = False
        elif action == self._draw:
            self.drawing = True
        else:
            self.pips.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            high, low = _tile_of_index(action)
            return f"{'Deal' if self.dealing else 'Draw'} {high}-{low}"
        if action == self._draw:
            return f"seat {player} draws"
        return str(self.pips.action_to_move(action))

    def is_terminal(self) -> bool:
        return not self.dealing and (self.pips.is_over or self.pips.hand_number > 1)

    def returns(self) -> list[float]:
        players = self.pips.players
        if not self.is_terminal():
            return [0.0] * players
        # The episode is the match's first hand: its scores are the hand's.
        return [float(r) for r in hand_rewards(self.pips, self.pips.scores)]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "PipsState":
        """A state `player_id` cannot tell from this one, the hidden tiles
        drawn from what it has seen."""
        state = self.clone()
        if self.dealing or self.drawing:
            return state
        seed = int(probability_sampler() * 2**53)
        sampled = self.pips.resample(player_id, seed)
        if sampled is not None:
            state.pips = sampled
        return state

    def __str__(self) -> str:
        if self.dealing:
            return f"dealing: {self.dealt}"
        hands = " | ".join(
            " ".join(f"{a}-{b}" for a, b in self.pips.hand(s)) for s in range(self.pips.players)
        )
        return f"{self.pips!r} hands: {hands}{' (drawing)' if self.drawing else ''}"


class PipsObserver:
    """Observations and information states, per OpenSpiel's PyObserver."""

    def __init__(self, game: PipsGame, iig_obs_type) -> None:
        self._players = game.num_players()
        self._perfect_recall = iig_obs_type.perfect_recall
        size = game.template.observation_size
        self._obs_size = size
        self._row = self._players + len(_KINDS) + 4
        self._places = game.template.num_places
        self._max_pip = game.template.rules.get("maxPip", 6)
        if self._perfect_recall:
            size += game.max_moves * self._row
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: self._obs_size]}
        if self._perfect_recall:
            self.dict["history"] = self.tensor[self._obs_size :].reshape(game.max_moves, self._row)

    def set_from(self, state: PipsState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.dealing:
            for tile in state.dealt[player]:
                self.tensor[_tile_index(tile)] = 1.0
            return
        self.tensor[: self._obs_size] = state.pips.observation(player)
        if not self._perfect_recall:
            return
        history = self.dict["history"]
        for row, entry in zip(history, state.pips.view(player)["history"]):
            row[(entry["seat"] - player) % self._players] = 1.0
            kind = next(k for k in _KINDS if k in entry)
            row[self._players + _KINDS.index(kind)] = 1.0
            value = entry.get(kind) or {}
            # A trick's move is its tile; a discard or a play holds one.
            tile = value if kind == "trick" else value.get("tile")
            base = self._players + len(_KINDS)
            if tile is not None:
                row[base] = (tile["a"] + 1) / (self._max_pip + 1)
                row[base + 1] = (tile["b"] + 1) / (self._max_pip + 1)
            if kind == "play":
                action = state.pips.move_to_action(_move_of(entry))
                if action is not None:
                    row[base + 2] = (action % self._places + 1) / self._places
            row[base + 3] = 1.0

    def string_from(self, state: PipsState, player: int) -> str:
        if state.dealing:
            return f"p{player} dealt {state.dealt[player]}"
        view = state.pips.view(player)
        view.pop("legalMoves", None)
        if not self._perfect_recall:
            view.pop("history", None)
        pending = " drawing" if state.drawing else ""
        return f"p{player}{pending} {json.dumps(view, sort_keys=True, separators=(',', ':'))}"


def _move_of(entry: dict):
    from ._pips import Move

    return Move.from_dict({k: v for k, v in entry.items() if k in ("seat", "play")})


pyspiel.register_game(_GAME_TYPE, PipsGame)
