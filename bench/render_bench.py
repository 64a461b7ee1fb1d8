"""Rendering: time and PNG size of every public and private image, from mid-game views."""

from __future__ import annotations

from functools import partial

from bench.common import summary, timed
from bot.games import presenters
from engines.rng import Rng

BUDGET_MS, BUDGET_BYTES = 60, 1_500_000


def mid_game(engine, players: int, seed: int, moves: int = 60):
    state = engine.new_game(players, engine.validate_options({}), seed)
    rng = Rng.from_seed(seed)
    for _ in range(moves):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(engine.to_act(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


def run(repeat: int = 20) -> None:
    print("\n## Rendering (default size, mid-game, warm caches)")
    for name, game in sorted(presenters().items()):
        engine = game.engine
        players = min(4, engine.max_players)
        state = mid_game(engine, players, 7)
        names = [f"Player {i + 1}" for i in range(players)]
        public = engine.view(state, None)
        game.render_table(public, names, "en")
        times = timed(
            lambda game=game, public=public, names=names: game.render_table(public, names, "en"), repeat
        )
        size = len(game.render_table(public, names, "ko"))
        print(f"{name:22} table    {summary(times)}  {size / 1024:.0f} kB  {_verdict(times, size)}")
        if game.has_private:
            own = engine.view(state, 0)
            times = timed(lambda game=game, own=own: game.render_private(own, "en"), repeat)
            size = len(game.render_private(own, "en") or b"")
            print(f"{name:22} private  {summary(times)}  {size / 1024:.0f} kB  {_verdict(times, size)}")
    by_player_count(repeat)


def by_player_count(repeat: int) -> None:
    """The table image at every player count up to four (one player is Roll Player's solo game), after 60
    random moves and after 400 (by then a Roll Player game is over and its image shows the scores)."""
    print("\n## Table image by player count (warm caches; time in English, size in Korean)")
    for name, game in sorted(presenters().items()):
        engine = game.engine
        for players in range(engine.min_players, min(4, engine.max_players) + 1):
            for moves in (60, 400):
                public = engine.view(mid_game(engine, players, 7, moves), None)
                names = [f"Player {i + 1}" for i in range(players)]
                game.render_table(public, names, "en")
                times = timed(partial(game.render_table, public, names, "en"), repeat)
                size = len(game.render_table(public, names, "ko"))
                label = f"{name} {players}p{' solo' if players == 1 else ''} @{moves}"
                print(f"{label:32} {summary(times)}  {size / 1024:.0f} kB  {_verdict(times, size)}")


def _verdict(times: list[float], size: int) -> str:
    import statistics

    fast = statistics.median(times) * 1000 < BUDGET_MS
    small = size < BUDGET_BYTES
    return "meets budget" if fast and small else f"MISSES budget ({BUDGET_MS} ms, 1.5 MB)"
