"""Built-in player strength: hard against easy in every game, over seeded games.

For each game: 2 players (one hard, one easy, seats alternating) and 4 players (one hard against three easy, the
hard seat rotating), win rates with 95 % Wilson intervals (a shared win counts as a share), and the hard player's
thinking time per decision (p50/p99: the deciding thread's CPU time, which is its wall time on a core of its own
and is not inflated by whatever else shares the machine). Roll Player solo: the hard and the easy player's mean
final score on the same seeds, and the paired difference with its 95 % interval. Talisman: four easy players with
the default options, median and p90 game length in rounds, how often a character reaches the Crown, and how games
end (at the Crown, another ending, or the round cap); `python -m bench.strength_bench --game talisman --race-only`
prints just that (seeds 5000 onwards; `--first-seed` picks another set).

`python -m bench.strength_bench --games 200` is the full bench (the issue's sample size); the hard player's
budget (simulated moves per decision) defaults to each engine's `search_budget`, which keeps a decision within
about 2 s on one core of the machine it was measured on.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from bench.common import percentile
from engines import all_engines, get_engine
from engines.base import Engine, State

TALISMAN_ROUND_CAP = 200  # a bot game still going after this many rounds is stopped and counted as capped
Z95 = 1.959964


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (wins may be fractional: shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % normal interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("-inf"), float("inf")
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def play(
    engine: Engine,
    players: int,
    levels: list[str],
    seed: int,
    budget: int | None,
    think: list[float],
    round_cap: int | None = None,
    watch: Callable[[State], None] | None = None,
) -> State:
    """One seeded game with a level per seat; appends the hard seats' decision CPU times to `think`, and shows
    `watch` the state before every move."""
    state = engine.new_game(players, engine.validate_options({}), seed)
    moves = 0
    while engine.outcome(state) is None:
        if round_cap is not None and state.get("round", 0) > round_cap:
            break
        if watch is not None:
            watch(state)
        seat = engine.to_act(state)[0]
        decision_seed = seed * 100_003 + moves
        if levels[seat] == "hard" and len(engine.legal_actions(state, seat)) > 1:
            start = time.thread_time()
            action = engine.bot_action(state, seat, decision_seed, level="hard", budget=budget)
            think.append(time.thread_time() - start)
        else:
            action = engine.bot_action(state, seat, decision_seed)
        state, _ = engine.apply(state, seat, action)
        moves += 1
    return state


def _share(engine: Engine, state: State, seat: int) -> float:
    outcome = engine.outcome(state)
    if outcome is None or seat not in outcome.winners:
        return 0.0
    return 1 / len(outcome.winners)


def head_to_head_game(engine_name: str, players: int, game: int, budget: int | None) -> dict[str, Any]:
    """Game number `game` of the head-to-head: the hard seat (rotating) against easy ones, on the game's own
    seed. Its hard seat's share of the win, whether it ended before the round cap, and the hard decisions' CPU
    times."""
    engine = get_engine(engine_name)
    cap = TALISMAN_ROUND_CAP if engine.name == "talisman" else None
    hard = game % players
    levels = ["hard" if s == hard else "easy" for s in range(players)]
    think: list[float] = []
    state = play(engine, players, levels, 1000 * players + game, budget, think, round_cap=cap)
    finished = engine.outcome(state) is not None
    return {"share": _share(engine, state, hard), "finished": finished, "think": [round(t, 4) for t in think]}


class Record:
    """Head-to-head games played so far, one JSON line each, so a long run can stop and go on later (or on other
    machines, their files put together): a game already in the file is not played again. Keyed by game, player
    count and budget (None: the engine's default); the file is only valid for the players that played it (start a
    new one when they change)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._games: dict[tuple[str, int, int | None, int], dict[str, Any]] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                if line.strip():
                    entry = json.loads(line)
                    self._games[entry["engine"], entry["players"], entry["budget"], entry["game"]] = entry

    def get(self, engine: str, players: int, budget: int | None, game: int) -> dict[str, Any] | None:
        return self._games.get((engine, players, budget, game))

    def add(self, engine: str, players: int, budget: int | None, game: int, result: dict[str, Any]) -> None:
        entry = {"engine": engine, "players": players, "budget": budget, "game": game, **result}
        self._games[engine, players, budget, game] = entry
        with self.path.open("a") as out:
            out.write(json.dumps(entry) + "\n")


def head_to_head(
    engine: Engine,
    players: int,
    games: int,
    budget: int | None,
    think: list[float],
    record: Record | None = None,
    jobs: int = 1,
) -> str:
    results: dict[int, dict[str, Any]] = {}
    for game in range(games):
        kept = record.get(engine.name, players, budget, game) if record else None
        if kept is not None:
            results[game] = kept
    missing = [game for game in range(games) if game not in results]
    for game, result in _played(engine.name, players, missing, budget, jobs):  # each kept as soon as it ends
        results[game] = result
        if record:
            record.add(engine.name, players, budget, game, result)
    wins = sum(result["share"] for result in results.values())
    unfinished = sum(not result["finished"] for result in results.values())
    for game in range(games):
        think += results[game]["think"]
    low, high = wilson(wins, games)
    parity = 1 / players
    capped = f", {unfinished} stopped at the round cap" if unfinished else ""
    return f"hard wins {wins / games:6.1%} [{low:.1%}, {high:.1%}] (parity {parity:.0%}, n={games}{capped})"


def _played(
    engine_name: str, players: int, games: list[int], budget: int | None, jobs: int
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each of `games` with its result as it ends: here, or in `jobs` worker processes."""
    if jobs <= 1 or len(games) <= 1:
        for game in games:
            yield game, head_to_head_game(engine_name, players, game, budget)
        return
    with ProcessPoolExecutor(jobs) as pool:
        futures = {pool.submit(head_to_head_game, engine_name, players, game, budget): game for game in games}
        for done in as_completed(futures):
            yield futures[done], done.result()


def solo(engine: Engine, games: int, budget: int | None, think: list[float]) -> str:
    easy, hard = [], []
    for game in range(games):
        seed = 9000 + game
        easy.append(engine.outcome(play(engine, 1, ["easy"], seed, budget, think)).scores[0])
        hard.append(engine.outcome(play(engine, 1, ["hard"], seed, budget, think)).scores[0])
    diff, low, high = mean_interval([h - e for h, e in zip(hard, easy, strict=True)])
    return (
        f"solo mean score: hard {statistics.fmean(hard):.1f}, easy {statistics.fmean(easy):.1f}; "
        f"hard - easy {diff:+.1f} [{low:+.1f}, {high:+.1f}] (same seeds, n={games})"
    )


TALISMAN_GOAL_ROUNDS = 60  # the goal: the median 4-bot game ends within this many rounds


def talisman_race(engine: Engine, games: int, round_cap: int, first_seed: int = 5000) -> str:
    """Four easy players with the default options: game length in rounds, how often a character reaches the
    Crown (whatever happens after), and how games end, over seeds first_seed onwards."""
    rounds, endings, crowned = [], {"crown": 0, "other": 0, "capped": 0}, 0
    for game in range(games):
        state = play(engine, 4, ["easy"] * 4, first_seed + game, None, [], round_cap=round_cap)
        rounds.append(state["round"])
        crowned += bool(state["crown"])
        if engine.outcome(state) is None:
            endings["capped"] += 1
        elif state["crown"]:
            endings["crown"] += 1
        else:
            endings["other"] += 1
    low, high = wilson(crowned, games)
    median = statistics.median(rounds)
    verdict = "met" if median <= TALISMAN_GOAL_ROUNDS and crowned * 2 > games else "NOT MET"
    return (
        f"seeds {first_seed}-{first_seed + games - 1}, 4 easy bots, default options: median {median:.0f} rounds (p90 {percentile(rounds, 90):.0f}); "
        f"a character reached the Crown in {crowned}/{games} [{low:.0%}, {high:.0%}]; ended at the Crown "
        f"{endings['crown']}, other ending {endings['other']}, stopped at {round_cap} rounds {endings['capped']} "
        f"(goal: the Crown in most games, median <= {TALISMAN_GOAL_ROUNDS} rounds: {verdict})"
    )


def run(
    games: int = 200,
    budget: int | None = None,
    only: list[str] | None = None,
    round_cap: int = TALISMAN_ROUND_CAP,
    race_only: bool = False,
    first_seed: int = 5000,
    record: str | None = None,
    jobs: int = 1,
) -> None:
    if race_only:
        print(f"talisman race: {talisman_race(get_engine('talisman'), games, round_cap, first_seed)}")
        return
    kept = Record(record) if record else None
    print("\n## Built-in players: hard against easy")
    print(
        f"(hard budget: {budget if budget is not None else 'each engine default'} simulated moves per decision)"
    )
    for engine in all_engines():
        if only and engine.name not in only:
            continue
        think: list[float] = []
        lines = []
        if engine.min_players == 1:
            lines.append(solo(engine, games, budget, think))
        for players in (2, 4):
            if engine.min_players <= players <= engine.max_players:
                outcome = head_to_head(engine, players, games, budget, think, kept, jobs)
                lines.append(f"{players} players: {outcome}")
        if engine.name == "talisman":
            lines.append(talisman_race(engine, games, round_cap))
        default = engine.search_budget if budget is None else budget
        if think:
            timing = (
                f"thinking p50 {statistics.median(think):.3f} s  p99 {percentile(think, 99):.3f} s "
                f"(n={len(think)} decisions, budget {default})"
            )
        else:
            timing = "thinking: no hard decisions"
        print(f"{engine.name}: {timing}")
        for line in lines:
            print(f"  {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="seeded games per setting")
    parser.add_argument("--budget", type=int, default=None, help="hard player's simulated moves per decision")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--round-cap", type=int, default=TALISMAN_ROUND_CAP, help="Talisman rounds before stop"
    )
    parser.add_argument(
        "--race-only", action="store_true", help="only the Talisman 4-easy-bot race figures (no hard player)"
    )
    parser.add_argument("--first-seed", type=int, default=5000, help="first seed of the race-only games")
    parser.add_argument(
        "--record",
        help="JSON-lines file of head-to-head games: those in it are not played again, new ones added",
    )
    parser.add_argument("--jobs", type=int, default=1, help="head-to-head games played at once, in processes")
    args = parser.parse_args()
    run(
        games=args.games,
        budget=args.budget,
        only=args.game,
        round_cap=args.round_cap,
        race_only=args.race_only,
        first_seed=args.first_seed,
        record=args.record,
        jobs=args.jobs,
    )


if __name__ == "__main__":
    main()
