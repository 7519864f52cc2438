"""The shared table view (generators/play/table.py) for every game, no per-game code: plain JSON-ready data;
nothing in it the seat cannot see (a world it cannot tell apart gives the same view, and no
face-down order is told in the log); choices grouped (never more than the legal actions, each one
playable, a lone choice not asked); undo, save and resume replay the same game."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from generators.check.runner import engine_of
from generators.play.table import BACK, Session, choices, leaves, table_view
from generators.rules.chance import Chance
from generators.rules.facts import game_content
from generators.rules.information import plain
from tests.helpers import hidden_orders, real_content, tells_an_order

CONTENT = real_content()
GAMES = {g.id: g for g in CONTENT.games if g.engine}
MOVES = 25  # decisions per seeded game


def _session(game_id: str, seed: int) -> Session:
    game = GAMES[game_id]
    engine = engine_of(game)
    content = game_content(game, engine)
    return Session(engine, content, engine.simulation_setups()[0], seed, frozenset(engine.players_to_act(
        engine.new_game(engine.parse_options(dict(engine.simulation_setups()[0].options)), content,
                        Chance.seeded(seed)))[:1]))


def _walk(session: Session, seed: int, moves: int = MOVES, look: bool = True) -> list[Any]:
    """Play `moves` grouped choices at random; the views of each seat to act, on the way (`look`)."""
    rng = random.Random(seed)
    views = []
    for _ in range(moves):
        if session.over:
            break
        seat = session.to_act()[0]
        if look:
            views.append((seat, session.view(seat), session.state))
        session.take(rng.choice(session.choices(seat)), human=seat in session.humans)
    return views


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_view_is_plain_data_and_shows_nothing_hidden(game_id: str) -> None:
    session = _session(game_id, 11)
    engine, content = session.engine, session.content
    for n, (seat, view, state) in enumerate(_walk(session, 11)):
        assert json.loads(json.dumps(view)) == view, "the view is plain JSON-ready data"
        assert view["seat"] == seat and view["svg"].lstrip().startswith("<") and view["phase"]
        assert {s["seat"] for s in view["seats"]} >= {seat}
        for k in range(2):  # a world the seat cannot tell from the true one looks the same
            world = engine.deal(state, seat, Chance.seeded(100 * n + k))
            other = table_view(engine, content, world, seat, setting=view["setting"], seats=session.seats,
                                  humans=session.humans)
            for key, shown in view.items():
                if key != "log":
                    assert other[key] == shown, f"{key} shows what {seat} cannot see"
        told = "\n".join(line for e in view["log"] for line in (e["said"], *e["then"]))
        assert tells_an_order(told, hidden_orders(engine, state, seat, content)) is None, "a face-down order"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_choices_are_grouped_and_playable(game_id: str) -> None:
    session = _session(game_id, 12)
    engine = session.engine
    for seat, view, state in _walk(session, 12, 15):
        legal = engine.legal_actions(state, seat)
        assert len(view["choices"]) >= 1, "a seat to act has a choice"
        assert [c["n"] for c in view["choices"]] == list(range(1, len(view["choices"]) + 1))
        assert len({c["words"] for c in view["choices"]}) == len(view["choices"]), "every choice reads apart"
        assert all(c["words"] for c in view["choices"]), "every choice has words"
        assert len(view["choices"]) <= len(legal) or engine.table.path is not None, "grouping only merges"
        for choice in leaves(choices(engine, session.content, state, seat)):  # each starts with a legal action
            assert choice.actions[0] in legal
    for entry in session.log:
        assert not re.match(r"^(\S+):? \1:", entry.said), f"a doubled prefix: {entry.said}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_undo_save_and_resume_replay_the_same_game(game_id: str) -> None:
    session = _session(game_id, 13)
    _walk(session, 13, 12)
    saved = json.loads(json.dumps(session.saved()))
    again = Session.resume(session.engine, session.content, saved)
    assert plain(again.state) == plain(session.state) and again.log == session.log
    people = [i for i, (_, human) in enumerate(session.moves) if human]
    if people:
        assert session.undo()
        assert len(session.moves) == people[-1]
        replayed = Session(session.engine, session.content, session.setting, 13, session.humans,
                           list(again.moves[:people[-1]]))
        assert plain(replayed.state) == plain(session.state)


def test_a_lone_choice_is_not_asked() -> None:
    for game_id in sorted(GAMES):
        session = _session(game_id, 14)
        rng = random.Random(14)
        for _ in range(60):
            if session.over:
                break
            seat = session.to_act()[0]
            found = session.choices(seat)
            if len(found) == 1 and seat in session.humans:
                before = len(session.moves)
                assert session.forced() and len(session.moves) > before
                return
            session.take(rng.choice(found), human=seat in session.humans)
    pytest.fail("no game offered a lone choice to a person in 60 decisions")


def test_the_view_gives_the_text_of_the_cards_it_names() -> None:
    """Every card named in the seat's panel comes with its printed text, and no other card does."""
    from generators.play.table import card_texts

    game = GAMES["vampire-chase"]
    session = _session("vampire-chase", 15)
    session.cards = card_texts(game)
    _walk(session, 15, 3)
    view = session.view(session.to_act()[0])
    shown = "\n".join(line for section in view["panel"] for line in section["lines"])
    named = {c["name"] for c in view["cards"]}
    assert named and all(name in shown for name in named)
    assert all(c["text"] == session.cards[c["name"]] for c in view["cards"])
    assert not any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", shown) for n in set(session.cards) - named)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_no_shuffle_is_told_in_an_order_the_seat_does_not_observe(game_id: str) -> None:
    """Every order chance deals at setup (the whole shuffle, cards set aside unseen included, not only
    what the state keeps) is told in the log only where the seat observes it in that order."""
    session = _session(game_id, 5)
    engine, content = session.engine, session.content
    chance = Chance.seeded(5)
    state = engine.new_game(engine.parse_options(dict(session.setting.options)), content, chance)
    for seat in session.seats:
        seen = json.dumps(engine.observe(state, seat), default=str, ensure_ascii=False)
        dealt = [s.value for s in chance.log if isinstance(s.value, list) and all(isinstance(v, str) for v in s.value)]
        runs = [[content.name(str(v)) for v in value[i:i + 3]]
                for value in dealt for i in range(len(value) - 2)
                if len(set(value[i:i + 3])) == 3 and json.dumps(value[i:i + 3], ensure_ascii=False)[1:-1] not in seen]
        told = "\n".join(line for e in session.view(seat)["log"] for line in (e["said"], *e["then"]))
        assert tells_an_order(told, runs) is None, f"{seat} is told an order it does not observe"


def test_a_market_cycle_is_chosen_in_parts_each_order_once() -> None:
    """The vampire chase's cycle (the row's cards under the Market Deck "in any order"): one choice at
    first, then a card at a time; every order the rules allow is reached, each once, and none other."""
    session = _session("vampire-chase", 3)
    rng = random.Random(3)
    for _ in range(80):
        seat = session.to_act()[0]
        found = session.choices(seat)
        parted = [c for c in found if c.more]
        if parted:
            break
        session.take(rng.choice(found), human=True)
    else:
        pytest.fail("no market cycle offered in 80 decisions")
    state, engine = session.state, session.engine
    cycles = {a for a in engine.legal_actions(state, seat) if a.do == "cycle"}
    assert len(parted) == 1 and len(cycles) > 1, "the cycle is one choice at first"
    assert not any(c.actions and c.actions[0] in cycles for c in found), "no order is offered at the top"
    reached = [leaf.actions[0] for leaf in leaves(parted)]
    assert sorted(map(repr, reached)) == sorted(map(repr, cycles)), "every order once, and only those"

    def widest(c: Any) -> int:
        return max([len(c.more), *(widest(m) for m in c.more)])
    assert widest(parted[0]) <= len(state.market_row), "a part offers at most a card of the row each"
    # Through the parts: each step lists the next part and a way back; the view says what was picked.
    session.take(parted[0], seat=seat)
    first = session.choices(seat)
    assert first[-1] == BACK and len(first) == len(set(state.market_row)) + 1
    assert session.view(seat)["choosing"] == [parted[0].words]
    session.take(first[0], seat=seat)
    assert session.view(seat)["choosing"] == [parted[0].words, first[0].words]
    session.take(BACK, seat=seat)
    assert session.choices(seat) == first, "back goes one part back"
    assert session.undo() and session.choices(seat) == found and not session.view(seat)["choosing"]
    assert session.state is state, "moving through the parts plays nothing"
    session.take(parted[0], seat=seat)
    while True:
        step = session.choices(seat)[0]
        session.take(step, seat=seat)
        if step.actions:
            break
    order = step.actions[0].order
    assert session.moves[-1][0] == step.actions[0] and tuple(session.state.market_deck[-len(order):]) == order


@pytest.mark.parametrize("game_id", ["mission-drive", "vampire-chase"])
def test_a_finished_game_resumed_shows_what_the_live_one_did(game_id: str) -> None:
    """A game saved when over and resumed (the Play page's reload, a replay link) gives the same view,
    its seats and log included (a finished game has no seat left to act to find them from)."""
    session = _session(game_id, 16)
    _walk(session, 16, 3000, look=False)
    assert session.over, "the game did not end"
    seat = session.seats[0]
    again = Session.resume(session.engine, session.content, json.loads(json.dumps(session.saved())))
    assert again.seats == session.seats and again.view(seat) == session.view(seat)


SUBJECTLESS = re.compile(r"^(rolls|draws|flips|reveals|takes|moves|loses|gains|discards|shoots|plays)\b", re.I)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_log_says_who_did_each_thing(game_id: str) -> None:
    """A roll or draw told without its doer ("Rolls 4 on a movement die": whose?) is told as the
    acting seat's; no line of the log starts with a verb."""
    session = _session(game_id, 14)
    _walk(session, 14, 30, look=False)
    lines = [line for e in session.log if e.seat for line in (e.said, *e.then)]
    assert lines, "no step was played"
    assert not [line for line in lines if SUBJECTLESS.match(line)]


def test_subjectless_finds_a_line_without_its_doer() -> None:
    assert SUBJECTLESS.match("rolls 4 on a movement die") and not SUBJECTLESS.match("red: rolls 4 on a movement die")


TOLD_SEEDS = range(40)  # whole games per engine, at random: a change told late is a rare path


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_change_of_a_figure_is_told_in_the_step_that_makes_it(game_id: str) -> None:
    """A damage token that goes under a car only after a decision its effect asked for (a skid into a
    slam: the reroll) changed the car's damage in a step whose lines did not say so: each step's own
    lines tell every figure it changes, whole games through, at the table every screen uses."""
    from tests.told_changes import untold

    bad: list[str] = []
    for seed in TOLD_SEEDS:
        session = _session(game_id, seed)
        rng = random.Random(seed)
        before = session.engine.figures(session.state, session.content)
        while not session.over and len(session.moves) < 600:
            _, action = rng.choice(session.offered())
            session.play(action)
            after = session.engine.figures(session.state, session.content)
            entry = session.log[-1]
            bad += [f"seed {seed} move {len(session.moves)}: {u}; the lines: {[entry.said, *entry.then]}"
                    for u in untold(before, after, [entry.said, *entry.then])]
            before = after
    assert not bad, f"{len(bad)} changes untold:\n" + "\n".join(bad[:10])
