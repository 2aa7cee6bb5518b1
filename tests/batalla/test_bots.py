"""The bots: names, the registry, and the greedy player's choices in plain positions."""

import json
import random

from coronas.batalla import (
    Attack,
    BatallaState,
    BattleRoll,
    Buy,
    ChooseDie,
    Game,
    Roll,
    Rules,
    SpendSwords,
)
from coronas.batalla.bots import BOTS, GreedyBot, LightBot, MCTSBot, RandomBot
from coronas.batalla.odds import battle_choice
from tests.batalla.helpers import play_out, position

SORCERER_ON_3 = [(None, None, "sorcerer", None, None, None), (None,) * 6]


def test_bots_have_names_and_are_registered():
    assert sorted(BOTS) == ["greedy", "light", "mcts", "mcts-classic", "policy", "random"]
    assert BOTS["greedy"] is GreedyBot and BOTS["policy"]().name == "policy"
    assert BOTS["light"] is LightBot and LightBot().name == "light"
    assert BOTS["mcts"].name == "mcts" and isinstance(BOTS["mcts"](), MCTSBot)
    # the plain search kept beside it is named so in results files, not "mcts 2"
    assert BOTS["mcts-classic"]().name == "mcts-classic"
    assert BOTS["mcts-classic"].from_spec("300").name == "mcts-classic"
    assert GreedyBot().name == "greedy" and RandomBot().name == "random"


def test_greedy_takes_the_dragon_attack():
    state = play_out(position(dragon=[4, 0], chairs=SORCERER_ON_3), [Roll(3, 6)])
    assert GreedyBot().choose(state, random.Random(0)) == ChooseDie(3, 6)
    state = position(phase="buy", dragon=[4, 0], gold=[6, 0])
    assert GreedyBot().choose(state, random.Random(0)) == Buy("dragon")


def test_greedy_battles_optimally_and_spends_every_sword():
    state = play_out(
        position(phase="buy", swords=[4, 2], shields=[2, 3], gold=[0, 2]),
        [Attack(), BattleRoll(5, 2)],
    )
    bot = GreedyBot()
    assert state.current_player == 1
    assert bot.choose(state, random.Random(0)) == battle_choice(state)
    state = play_out(
        position(phase="buy", swords=[4, 2], shields=[2, 3]), [Attack(), BattleRoll(6, 2)]
    )
    assert bot.choose(state, random.Random(0)) == SpendSwords(3)


def test_greedy_attacks_only_with_a_fair_chance():
    bot = GreedyBot()
    # 3 swords against 1 shield: P(gem) = 15/36 > 1/4
    assert (
        bot.choose(position(phase="buy", swords=[3, 2], shields=[2, 1]), random.Random(0))
        == Attack()
    )
    # 1 sword against 3 shields: no gem possible
    assert (
        bot.choose(position(phase="buy", swords=[1, 2], shields=[2, 3]), random.Random(0))
        != Attack()
    )


def test_observation_is_the_open_position_and_bots_decide_on_it():
    """Nothing is hidden in Batalla de Coronas: both players see the same position, and a
    state rebuilt from its save (equal in all a player sees) gets the same choices."""
    state = Game(seed=11).new_initial_state()
    rng = random.Random(11)
    for _ in range(150):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        p = state.current_player
        obs = state.observation(p)
        json.dumps(obs)
        assert obs == state.observation(1 - p) | {"observer": p}
        assert obs["shields"] == list(state.shields) and obs["observer"] == p
        twin = BatallaState.from_json(state.to_json())
        assert twin.observation(p) == obs
        for bot in (GreedyBot(), RandomBot()):
            k = rng.randrange(2**32)
            assert bot.choose(state, random.Random(k)) == bot.choose(twin, random.Random(k))
        state.apply(GreedyBot().choose(state, rng))
    assert "nothing is hidden" in state.observation_text(0)


def test_greedy_counts_the_cross_where_the_odds_do():
    """The bot reads from its observation whether its Cross helps an attack; the odds read
    it from the state (``state_battle``): in positions of random play they agree, under the
    printed reading (the golden square) and under the free-reroll reading."""
    from coronas.batalla.bots import _cross_counts
    from coronas.batalla.odds.position import state_battle
    from coronas.batalla.odds.solver import CROSS, FREE

    for rules, bit in ((Rules(), CROSS), (Rules(cross_effect="reroll"), FREE[0])):
        rng = random.Random(7)
        held = counted = 0
        for game in range(30):
            state = Game(seed=game, rules=rules).new_initial_state()
            for _ in range(300):
                if state.is_terminal():
                    break
                if state.phase == "buy" and state.cross == state.player:
                    p = state.player
                    tokens = state_battle(state)[1][7]
                    mine = _cross_counts(rules, state.observation(p), p)
                    assert mine == bool(tokens & bit)
                    held += 1
                    counted += mine
                if state.is_chance_node():
                    state.apply(state.sample_chance(rng))
                else:
                    state.apply(rng.choice(state.legal_actions()))
        assert held and counted  # both cases were met
