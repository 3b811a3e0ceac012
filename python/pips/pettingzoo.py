"""A PettingZoo (AEC) environment over pips's rules: any preset, any table.

    from pips.pettingzoo import env

    environment = env(variant="muggins", players=2, reward="hand")
    environment.reset(seed=7)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = int(mask.nonzero()[0][0])      # a policy goes here
        environment.step(action)

- **Agents** are ``player_0`` ... ``player_{n-1}``, one per seat; the agent
  to act is the seat to act (a seat may act several times in a row).
- **Actions** are ``Discrete(game.num_actions)``, pips's action space: a
  placement is ``tile_index * num_places + place``, then draw, pass and
  end-turn, then a trick game's bids, contracts, discards and tricks
  (the package's README numbers them and lists the places).
- **Observations** are dicts: ``observation``, the seat's float32 vector
  (``pips.Game.observation``, computed from its view alone), and
  ``action_mask``, an int8 vector over the actions (all zeros for an agent
  not to act).
- **Rewards**: ``reward="hand"`` (default) pays each hand's points as it is
  settled: the seat's side's points of the hand less the mean of the other
  sides' (zero-sum; negated where the lowest score wins);
  ``reward="match"`` pays only at the match's end: 1 to the winning side's
  seats, ``-1 / (sides - 1)`` to the others', 0 to all on a draw.
- An episode is a match. ``reset(seed=...)`` deals it from the seed (the
  same seed and actions give the same match); without one, from the
  environment's generator.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._pips import Game, hand_rewards, match_rewards


def env(**kwargs: Any) -> AECEnv:
    """The environment in PettingZoo's usual wrappers (an illegal action
    ends the episode with a penalty; order enforced)."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming)
    """A match of a pips preset; see the module's documentation."""

    metadata = {"name": "pips_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "block",
        players: Optional[int] = None,
        rules: Optional[dict[str, Any]] = None,
        reward: str = "hand",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if reward not in ("hand", "match"):
            raise ValueError(f"reward must be 'hand' or 'match', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self._variant = variant
        self._rules = rules
        self._reward = reward
        self.render_mode = render_mode
        # Deals once to learn the sizes (and to refuse bad options at once).
        probe = Game(variant, players=players, seed=0, rules=rules)
        # (Absent, the preset's own count: 4 at texas42, 3 at moon, else 2.)
        self._players = players = probe.players
        self.game = probe
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = []
        self.action_spaces = {a: spaces.Discrete(probe.num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=-np.inf, high=np.inf, shape=(probe.observation_size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(probe.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**63))
        self.game = Game(self._variant, players=self._players, seed=seed, rules=self._rules)
        self.agents = list(self.possible_agents)
        # The scores when the current hand began.
        self._hand_scores = self.game.scores
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        if seat == self.game.to_act and not self.game.is_over:
            mask = self.game.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        before_hand = self.game.hand_number
        self.game.apply_action(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self._reward == "hand" and (self.game.hand_number != before_hand or self.game.is_over):
            # The hand's points: in-play points scored during it included.
            gains = [after - then for after, then in zip(self.game.scores, self._hand_scores)]
            self._hand_scores = self.game.scores
            for a, value in zip(self.possible_agents, hand_rewards(self.game, gains)):
                self.rewards[a] = value
        if self.game.is_over:
            if self._reward == "match":
                for a, value in zip(self.possible_agents, match_rewards(self.game)):
                    self.rewards[a] = value
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.game.to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        text = repr(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
