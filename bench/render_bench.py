"""Rendering: time and PNG size of every public and private image, from mid-game views; the drawing CPU of a
board and of a private picture, and how much of it is encoding."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
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
        if name == "roll_player":  # each player's full sheet, one click from the table
            from render.roll_player import render_sheet

            times = timed(lambda public=public, names=names: render_sheet(public, 0, names, "en"), repeat)
            size = len(render_sheet(public, 0, names, "ko"))
            print(f"{name:22} sheet    {summary(times)}  {size / 1024:.0f} kB  {_verdict(times, size)}")
    draw_cpu(repeat)
    results(repeat)
    by_player_count(repeat)


@contextmanager
def _encode_clock() -> Iterator[list[float]]:
    """CPU seconds spent encoding inside the block: choosing a palette, mapping to it and writing the PNG."""
    from PIL import Image

    import render.common

    spent = [0.0]
    clocked_calls = [(Image.Image, "save"), (Image.Image, "quantize"), (render.common, "_palette_png")]
    originals = [(owner, name, getattr(owner, name)) for owner, name in clocked_calls]

    def clocked(original):
        def call(*args, **kwargs):
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - start

        return call

    for owner, name, original in originals:
        setattr(owner, name, clocked(original))
    try:
        yield spent
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


def draw_cpu(repeat: int) -> None:
    """What a move costs the picture workers: CPU per board and per private picture (the issue's goal is 10 ms per
    move), over 2–4 players, two seeds and two points of the game, and the share of it spent encoding."""
    print("\n## Drawing CPU (process time, fastest pass; 2-4 players, seeds 3 and 7, after 30 and 80 moves)")
    for name, game in sorted(presenters().items()):
        engine = game.engine
        boards, privates = [], []
        for players in range(max(2, engine.min_players), min(4, engine.max_players) + 1):
            names = [f"Player {i + 1}" for i in range(players)]
            for seed in (3, 7):
                for moves in (30, 80):
                    state = mid_game(engine, players, seed, moves)
                    boards.append(partial(game.render_table, engine.view(state, None), names, "en"))
                    if game.has_private:
                        privates += [
                            partial(game.render_private, engine.view(state, seat), "en")
                            for seat in range(players)
                        ]
        line = f"{name:22}"
        per_picture = {}
        for label, pictures in (("board", boards), ("private", privates)):
            if not pictures:
                continue
            for draw in pictures:
                draw()
            passes = []  # (CPU, of which encoding) of each pass over all the pictures
            for _ in range(max(1, repeat // 4)):
                with _encode_clock() as encoding:
                    start = time.process_time()
                    for draw in pictures:
                        draw()
                    passes.append((time.process_time() - start, encoding[0]))
            # The fastest pass: on a shared machine the others mostly measure other work's interference.
            spent, encoded = min(passes)
            per_picture[label] = spent / len(pictures) * 1000
            line += f"  {label} {per_picture[label]:5.1f} ms (encoding {encoded / spent:.0%})"
        privates_drawn = _private_pictures_per_move(game) if game.has_private else 0.0
        move = per_picture["board"] + privates_drawn * per_picture.get("private", 0.0)
        verdict = "met" if move <= MOVE_BUDGET_MS else "NOT MET"
        print(
            f"{line}  a move: {move:4.1f} ms ({privates_drawn:.2f} private per move; goal <= 10: {verdict})"
        )


MOVE_BUDGET_MS = 10  # the goal: drawing CPU per move, with three people at the table


def _private_pictures_per_move(game, players: int = 3, moves: int = 200, seed: int = 3) -> float:
    """How many seats' private pictures a move redraws (a seat's picture is drawn only when what it shows
    changed), over a seeded random game with three people."""
    engine = game.engine
    state = engine.new_game(players, engine.validate_options({}), seed)
    rng = Rng.from_seed(seed)
    shown = [game.private_shows(engine.view(state, seat)) for seat in range(players)]
    drawn = played = 0
    while played < moves and engine.outcome(state) is None:
        seat = rng.choice(engine.to_act(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        now = [game.private_shows(engine.view(state, s)) for s in range(players)]
        drawn += sum(before != after for before, after in zip(shown, now, strict=True))
        shown, played = now, played + 1
    return drawn / max(played, 1)


def results(repeat: int) -> None:
    """The results picture of a finished game, and the score series computed from its public views."""
    from render.results import game_results, score_series

    print("\n## Results picture (finished 3-player games; series from every public view)")
    for name, game in sorted(presenters().items()):
        engine = game.engine
        players = 1 if name == "roll_player" else 3
        state = engine.new_game(players, engine.validate_options({}), 7)
        rng = Rng.from_seed(7)
        views = [engine.view(state, None)]
        while engine.outcome(state) is None and len(views) < 5000:
            seat = rng.choice(engine.to_act(state))
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            views.append(engine.view(state, None))
        winners = engine.outcome(state).winners if engine.outcome(state) else []
        names = [f"Player {i + 1}" for i in range(players)]
        series_times = timed(lambda views=views: score_series(views), max(1, repeat // 4))
        series = score_series(views)
        times = timed(
            lambda views=views, series=series, names=names, winners=winners, title=name: game_results(
                views[-1], series, names, winners, "en", title
            ),
            repeat,
        )
        size = len(game_results(views[-1], series, names, winners, "ko", name))
        print(f"{name:22} picture  {summary(times)}  {size / 1024:.0f} kB  {_verdict(times, size)}")
        print(f"{name:22} series   {summary(series_times)}  ({len(views)} views)")


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
