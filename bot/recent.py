"""The games this process used lately, kept in memory so autocomplete, the picker and the board answer without a
database round trip.

Discord cannot defer autocomplete: it must be answered within 3 s however busy the database is. Every game the
service reads or commits passes through here (`saw`), so what autocomplete needs — which games are open in a channel
or for a user, their titles and status, and each seat's choices at the game's current version — is at hand.

An answer from here is only a suggestion: the command itself reads the game and validates, and a move picked from it
is committed only over the very version it was picked from (the commit's version guard). Several processes
(shards) may share one database, and a change another process commits (the clock's moves and archiving run in every
process) is not seen here until this process reads that game again. So an entry may be stale, but only harmlessly: a
game shown that has ended or moved on is refused by the command with its usual message ("not running", "out of
date"), and that command's own read brings the entry up to date; a seat shown nothing to do because another
process's clock moved the game on to it still has the board's button, which reads the game whenever the entry gives
the clicker nothing to choose.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.service import Table
    from engines.base import Event

# Where games are listed: ("channel", channel or thread id) or ("user", user id).
Place = tuple[str, int]
# A move as the board tells it: the game's version it made, and its events.
MoveEvents = tuple[int, list["Event"]]

GAMES_KEPT = 256  # a table with its decoded state and views: some 50 KB
PLACES_KEPT = 4096  # a place is a set of a few game ids
TAILS_KEPT = GAMES_KEPT  # a game's last few moves' events: a few KB
MOVES_KEPT = 8  # per game at least: what a board usually tells (publisher.RECENT_MOVES)


def places_of(table: Table) -> list[Place]:
    record = table.record
    places = [("channel", record.channel_id)]
    if record.thread_id:
        places.append(("channel", record.thread_id))
    return places + [("user", seat.user_id) for seat in record.seats if seat.user_id is not None]


class RecentGames:
    def __init__(self, games_kept: int = GAMES_KEPT, places_kept: int = PLACES_KEPT) -> None:
        self.games_kept = games_kept
        self.places_kept = places_kept
        # Each game's newest table (a table stands for one version for good: a commit makes a new one) and the
        # places where it is open.
        self._games: OrderedDict[int, tuple[Table, frozenset[Place]]] = OrderedDict()
        # The ids of every game open at a place when it was last read, plus those seen open there since: a
        # superset, so a game that ended or a player who left needs no bookkeeping (see `games_at`).
        self._places: OrderedDict[Place, set[int]] = OrderedDict()
        # When a game was last newly seen open at each place (a count of `saw`), so that a listing read while a
        # new game was being committed there is not taken for the whole list.
        self._seen = 0
        self._seen_at: OrderedDict[Place, int] = OrderedDict()

    def game(self, game_id: int) -> Table | None:
        kept = self._games.get(game_id)
        if kept is None:
            return None
        self._games.move_to_end(game_id)
        return kept[0]

    def games_at(self, place: Place) -> list[Table] | None:
        """The games that are (or were lately) open at `place`, newest first; None unless the place and each of
        them are kept. The caller filters by status."""
        ids = self._places.get(place)
        if ids is None:
            return None
        tables = [self.game(game_id) for game_id in sorted(ids, reverse=True)]
        if any(table is None for table in tables):
            return None
        self._places.move_to_end(place)
        return [table for table in tables if table is not None and place in places_of(table)]

    def mark(self) -> int:
        """Taken before a listing is read, and handed to `listed` with what it read."""
        return self._seen

    def saw(self, table: Table, is_open: bool) -> None:
        """A game as just read or committed."""
        kept = self._games.get(table.id)
        if kept is not None and kept[0].version > table.version:
            return  # a read that began before a commit of ours and ended after it
        places = places_of(table)
        open_at = frozenset(places if is_open else ())
        self._games[table.id] = (table, open_at)
        self._games.move_to_end(table.id)
        if len(self._games) > self.games_kept:
            self._games.popitem(last=False)
        self._seen += 1
        for place in open_at - (kept[1] if kept is not None else frozenset()):
            self._seen_at[place] = self._seen
            self._seen_at.move_to_end(place)
        for place in places:
            ids = self._places.get(place)
            if ids is None:
                continue  # nobody asked there lately: the first ask reads them all
            if is_open:
                ids.add(table.id)
            else:
                ids.discard(table.id)
        while len(self._seen_at) > self.places_kept:
            self._seen_at.popitem(last=False)

    def listed(self, place: Place, tables: list[Table], mark: int) -> None:
        """Every game open at `place`, as read from the database since `mark`."""
        if self._seen_at.get(place, -1) > mark:
            return  # a game was seen open there meanwhile, maybe after the read: the next ask reads again
        self._places[place] = {table.id for table in tables}
        self._places.move_to_end(place)
        if len(self._places) > self.places_kept:
            self._places.popitem(last=False)

    def forget(self, game_id: int, *places: Place) -> None:
        """A change these entries cannot follow (a thread opened for the game, a commit another process beat)."""
        self._games.pop(game_id, None)
        for place in places:
            self._places.pop(place, None)


@dataclass
class _Tail:
    version: int  # the game's version the tail ends at
    moves: list[MoveEvents]  # its last moves, oldest first
    whole: bool  # whether that is every move of the game
    asked: int  # the most moves the board last asked for


class MoveTails:
    """The events of each game's last few moves, as the board tells them, so that publishing a move this process
    committed needs no read of the move log.

    A game's tail is kept with the version of the game it is the whole tail of. Moves are never changed once
    written, and each is committed over the version before it (the version guard), so a move this process commits
    over the tail's version extends it exactly; anything else (a move another process committed, a version that
    changed without a move) leaves a tail that no longer matches the game's version, and the next ask reads.
    A tail keeps at least `moves_kept` moves, and while a board tells a longer stretch (everything since the board
    before it), as many as it last asked for and the move to come, so that stretch is read once."""

    def __init__(self, games_kept: int = TAILS_KEPT, moves_kept: int = MOVES_KEPT) -> None:
        self.games_kept = games_kept
        self.moves_kept = moves_kept
        self._tails: OrderedDict[int, _Tail] = OrderedDict()

    def tail(self, game_id: int, version: int, limit: int) -> list[MoveEvents] | None:
        """The last `limit` moves up to `version`, if they are known."""
        kept = self._tails.get(game_id)
        if kept is None or kept.version != version or (len(kept.moves) < limit and not kept.whole):
            return None
        kept.asked = limit
        self._tails.move_to_end(game_id)
        return kept.moves[-limit:] if limit else []

    def read(self, game_id: int, version: int, limit: int, moves: list[MoveEvents]) -> None:
        """The last `limit` moves up to `version` as read from the move log (fewer: the game has no more)."""
        self._keep(game_id, _Tail(version, moves, len(moves) < limit, limit))

    def committed(self, game_id: int, version: int, events: list[Event]) -> None:
        """A move this process committed as `version`: the tail over the version before it grows by it."""
        kept = self._tails.pop(game_id, None)
        if kept is not None and kept.version == version - 1:
            size = max(self.moves_kept, kept.asked + 1)
            moves = [*kept.moves, (version, events)]
            self._keep(game_id, _Tail(version, moves[-size:], kept.whole and len(moves) <= size, kept.asked))

    def _keep(self, game_id: int, tail: _Tail) -> None:
        self._tails[game_id] = tail
        self._tails.move_to_end(game_id)
        if len(self._tails) > self.games_kept:
            self._tails.popitem(last=False)
