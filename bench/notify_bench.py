"""Attention spent per turn: pings, DMs and new thread messages, for every game, through the real bot and the
loopback server.

Three people play (the built-in player chooses their moves, submitted through the service like a click would be);
after every move the real publisher shows it. We count what Discord users would notice: mentions that notify,
new direct messages, and new messages in the game's thread (edits notify nobody and are not counted).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

GAMES = ("druids", "roll_player", "roll_for_the_galaxy", "talisman")
PLAYERS = ("alice", "bob", "dave")  # Carol's DMs are closed in the harness; these three all get DMs


@dataclass
class Step:
    """What one move made Discord do."""

    acting_before: dict[int, str]  # who must act (and is told), with the mark of their wait
    acting_after: dict[int, str]
    round: int | None
    new_stretch: bool  # the game moved into a new stretch of play (Roll for the Galaxy: a round's phases)
    thread_posts: int
    pings: Counter = field(default_factory=Counter)  # seat -> notifying mentions
    dms: Counter = field(default_factory=Counter)  # seat -> new direct messages
    alerts: Counter = field(default_factory=Counter)  # seat -> pings and DMs that set off a notification

    def newly(self) -> set[int]:
        """Seats that began a new wait with this move."""
        return {s for s, mark in self.acting_after.items() if self.acting_before.get(s) != mark}


@dataclass
class Playthrough:
    game: str
    steps: list[Step]
    start: Step

    def turn_changes(self) -> int:
        return sum(1 for s in self.steps if s.newly() or s.new_stretch)

    def per_turn(self, what: str) -> float:
        total = sum(
            sum(getattr(s, what).values()) if what != "thread_posts" else s.thread_posts for s in self.steps
        )
        return total / max(1, self.turn_changes())

    def per_round(self) -> dict[int, dict[str, Counter | int]]:
        """Roll for the Galaxy: each round's pings and DMs per seat and its new thread messages."""
        rounds: dict[int, dict] = {}
        for step in self.steps:
            if step.round is None:
                continue
            entry = rounds.setdefault(step.round, {"pings": Counter(), "dms": Counter(), "posts": 0})
            entry["pings"].update(step.pings)
            entry["dms"].update(step.dms)
            entry["posts"] += step.thread_posts
        return rounds


async def play(h, game: str, seed: int, moves: int) -> Playthrough:
    """Open, start and play `moves` moves of `game` with the harness's people; count what each move sent."""
    sb = h.sb
    users = [h.users[name] for name in PLAYERS]
    lobby = (await h.slash(users[0], h.games, "play new", {"game": game})).message
    game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
    for user in users[1:]:
        await h.click(user, lobby, f"lobby:join:{game_id}")
    seat_of = {u.id: n for n, u in enumerate(users)}
    before = _snapshot(sb, users)
    await h.click(users[0], lobby, f"lobby:start:{game_id}")
    table = await h.table(game_id)
    thread = h.thread(table)
    start = _step(sb, users, seat_of, thread, before, {}, table.acting, _round(table), True)
    steps = []
    for number in range(moves):
        if table.status != "active":
            break
        seat = table.to_act()[0]
        action = table.engine.bot_action(table.state, seat, seed + number)
        before = _snapshot(sb, users, thread)
        acting_before = table.acting
        stretch = table.engine.notice_stretch(table.state)
        result = await h.service.act(game_id, int(users[seat].id), action)
        await h.bot.host.after_commit(game_id)
        table = result.table
        new_stretch = stretch is not None and table.engine.notice_stretch(table.state) != stretch
        after = table.acting
        steps.append(
            _step(sb, users, seat_of, thread, before, acting_before, after, _round(table), new_stretch)
        )
    return Playthrough(game, steps, start)


def _round(table) -> int | None:
    return table.state.get("round") if table.engine.name == "roll_for_the_galaxy" else None


def _snapshot(sb, users, thread=None) -> tuple[set[str], dict[str, int]]:
    posts = {m.id for m in sb.messages(thread)} if thread is not None else set()
    return posts, {u.id: len(sb.dms_sent(u)) for u in users}


def _step(sb, users, seat_of, thread, before, acting_before, acting_after, round_, new_stretch) -> Step:
    posts, dms = before
    new_posts = [m for m in sb.messages(thread) if m.id not in posts and m.audience.kind == "public"]
    step = Step(acting_before, acting_after, round_, new_stretch, len(new_posts))
    for message in new_posts:
        for user_id in message.pinged_ids:
            if user_id in seat_of:
                step.pings[seat_of[user_id]] += 1
                step.alerts[seat_of[user_id]] += 1
    for user in users:
        received = sb.dms_sent(user)
        grown = len(received) - dms[user.id]
        if grown:
            step.dms[seat_of[user.id]] += grown
            step.alerts[seat_of[user.id]] += sum(not m.silent for m in received[-grown:])
    return step


async def measure(folder: Path, moves: int, seed: int = 1) -> list[Playthrough]:
    from tests.e2e.harness import harness

    out = []
    for game in GAMES:
        async with harness(folder / game) as h:
            out.append(await play(h, game, seed, moves))
    return out


def run(moves: int = 150) -> list[Playthrough]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for game in GAMES:
            (root / game).mkdir()
        results = asyncio.run(measure(root, moves))
    print("\n## Attention per turn (3 people, built-in choices, real publisher)")
    print(
        "| game | moves | turn changes | pings / turn | DMs / turn | notifications / turn (pings and DMs not "
        "silent) | new thread messages / turn |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for p in results:
        print(
            f"| {p.game} | {len(p.steps)} | {p.turn_changes()} | {p.per_turn('pings'):.2f} | "
            f"{p.per_turn('dms'):.2f} | {p.per_turn('alerts'):.2f} | {p.per_turn('thread_posts'):.2f} |"
        )
    galaxy = next(p for p in results if p.game == "roll_for_the_galaxy")
    everything = galaxy.per_round()
    rounds = {
        n: everything[n] for n in sorted(everything)[1:-1]
    }  # whole rounds: not the set-up's, not the last
    if rounds:
        most_pings = [max(r["pings"].values(), default=0) for r in rounds.values()]
        most_dms = [max(r["dms"].values(), default=0) for r in rounds.values()]
        posts = [r["posts"] for r in rounds.values()]
        print(
            f"Roll for the Galaxy, {len(rounds)} whole rounds: most pings one player got in a round "
            f"{max(most_pings)} (median {statistics.median(most_pings):g}; goal ≤ 2), most DMs {max(most_dms)} "
            f"(median {statistics.median(most_dms):g}; goal ≤ 4), new thread messages per round at most "
            f"{max(posts)} (median {statistics.median(posts):g}; goal ≤ 3)"
        )
    return results
