"""Random input sent to the real bot through the loopback server, and the properties every answer must keep.

Shared by the fuzz test (`tests/e2e/test_fuzz.py`, thousands of cases) and `bench/fuzz_bench.py` (a long run).
Cases are symbolic (which user, which of the prepared games, "the clicker's own token" ...) and resolved against
the world when run, so one world serves every case. Every case here is refused by a correct bot, except the
`/play new` and `/play demo` ones, whose options may happen to be valid: those may open a game, publicly."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from sandbox.interactions import InteractionResult
from sandbox.model import Channel, Message
from sandbox.validate import ActionRejected
from tests.e2e.harness import Harness, picker_token

GAMES = ("druids", "roll_player", "roll_for_the_galaxy", "talisman")
USERS = ("alice", "bob", "carol", "dave", "erin")  # alice hosts and bob joins; erin is a manager
TARGETS = ("lobby", "active", "abandoned", "finished", "missing")
HOSTS = TARGETS[:-1]  # the messages a forged component may sit on: each game's lobby message or board
ECHO_LIMIT = 60  # longest run of a user's own text a reply may repeat (the bot clips at about 50)
MARKDOWN = set("*_~|`")  # (a quote mark ">" is markdown only at the start of a line)
URL = re.compile(r"https?://[^\s<]+")
MAX_ID = 999_999_999  # the largest game id the component patterns allow (9 digits)

# Text a person might paste: markdown, mentions, option syntax, scripts and emoji, control characters.
PIECES = st.sampled_from(
    [
        "=",
        ",",
        ";",
        " ",
        "**",
        "__",
        "~~",
        "`",
        "```",
        "||",
        "> ",
        "# ",
        "@everyone",
        "<@1>",
        "<#2>",
        "\n",
        "players",
        "expansion",
        "true",
        "false",
        "yes",
        "0",
        "-1",
        "9" * 30,
        "é",
        "한국어",
        "ñ",
        "🎲",
        "\u200b",
        "\u202e",
        "\x00",
        "\\",
        "[x](http://e.x)",
        "<t:0>",
        ":",
        ".",
    ]
)
TEXT = st.one_of(
    st.text(max_size=80),
    st.lists(st.one_of(PIECES, st.text(max_size=12)), max_size=40).map("".join),
    st.builds(
        lambda piece, count: (piece * count)[:6000], st.text(min_size=1, max_size=40), st.integers(1, 400)
    ),
)


@dataclass(frozen=True)
class Case:
    kind: str  # new | demo | move | autocomplete | click | select
    user: str
    target: str  # which prepared game (or message) the case is about
    payload: tuple  # kind-specific, symbolic


def _number(small: int = 30) -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, small), st.integers(0, MAX_ID), st.just(MAX_ID))


LOBBY_ACTIONS = ("start", "join", "bot", "leave", "abandon")  # only "start" is refused everywhere here
TOKENS = st.one_of(st.just("own"), st.just("actor"), st.just("0"), st.integers(0, 9_999_999_999).map(str))
# A path no step of any game can take: its first choice is out of range (or the path is malformed).
BAD_PATHS = st.one_of(
    st.integers(10_000, 10**12).map(str),
    st.builds(
        lambda a, rest: ".".join([str(a), *map(str, rest)]),
        st.integers(10_000, 10**9),
        st.lists(st.integers(0, 10**6), max_size=5),
    ),
    st.sampled_from([".", "..", ".0", "...."]),
)
ANY_PATHS = st.one_of(
    BAD_PATHS, st.lists(st.integers(0, 40), max_size=6).map(lambda p: ".".join(map(str, p)))
)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    kind = draw(st.sampled_from(("new", "demo", "move", "autocomplete", "click", "click", "click", "select")))
    user = draw(st.sampled_from(USERS))
    target = draw(st.sampled_from(TARGETS))
    if target == "missing":
        target = f"missing:{draw(st.one_of(st.integers(100_000, MAX_ID), st.just(MAX_ID)))}"
    if kind in ("new", "demo"):
        players = draw(st.one_of(st.none(), st.integers(1, 5))) if kind == "demo" else None
        return Case(kind, user, "games", (draw(st.sampled_from(GAMES)), draw(TEXT), players))
    if kind == "move":
        value = draw(
            st.one_of(
                TEXT,
                st.builds(lambda t, i: (t, i), TOKENS, st.integers(10_000, 10**15)),  # an index out of range
                st.builds(lambda t, i: (t, i), TOKENS.filter(lambda t: t not in ("own", "actor")), _number()),
            )
        )
        return Case(kind, user, target, (value, draw(st.booleans())))
    if kind == "autocomplete":
        command = draw(st.sampled_from(("play new", "play demo", "play move")))
        return Case(kind, user, target, (command, draw(st.sampled_from(GAMES)), draw(TEXT)))
    on = draw(st.sampled_from(HOSTS))  # the message carrying the component
    if kind == "select":
        token = draw(TOKENS)
        path = draw(BAD_PATHS if token in ("own", "actor") else ANY_PATHS)
        value = draw(st.one_of(st.integers(10_000, 10**9).map(str), st.text(min_size=1, max_size=20)))
        if draw(st.integers(0, 2)) == 0:  # the board's player menu (these Druids games have no sheets)
            return Case(
                kind, user, target, ("sheet", on, draw(st.one_of(_number(9).map(str), st.just(value))))
            )
        return Case(kind, user, target, ("mvs", on, token, path, draw(st.integers(0, 9999)), value))
    family = draw(st.sampled_from(("lobby", "table", "mv", "undo")))
    if family == "lobby":
        action = draw(
            st.one_of(st.sampled_from(LOBBY_ACTIONS), st.from_regex(r"[a-z]{1,12}", fullmatch=True))
        )
        if action in LOBBY_ACTIONS[1:] and target in ("lobby", "active"):  # where they may be done
            target = draw(st.sampled_from(("abandoned", "finished", f"missing:{MAX_ID}")))
        return Case(kind, user, target, ("lobby", on, action))
    if family == "table":
        action = draw(
            st.one_of(st.sampled_from(("turn", "hand")), st.from_regex(r"[a-z]{1,12}", fullmatch=True))
        )
        return Case(kind, user, target, ("table", on, action))
    if family == "mv":
        token = draw(TOKENS)
        return Case(
            kind, user, target, ("mv", on, token, draw(BAD_PATHS if token in ("own", "actor") else ANY_PATHS))
        )
    return Case(kind, user, target, ("undo", on, draw(st.sampled_from(("yes", "no"))), draw(_number(60))))


@dataclass
class Outcome:
    sent: bool  # False when the Discord client itself would not send it (e.g. an option over its length)
    harms: list[str]


class FuzzWorld:
    """A lobby, a running game, an abandoned one and a finished one, all Druids, on one harness; runs cases
    against them."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.ids: dict[str, int] = {"games": MAX_ID}
        self.messages: dict[str, Message] = {}
        self._restore: tuple[Message, list] | None = None
        self._edits = 0
        self.database = h.database_url.split(":///", 1)[1]

    async def prepare(self) -> None:
        h, alice, bob = self.h, self.h.users["alice"], self.h.users["bob"]
        for name in HOSTS:
            lobby = (await h.slash(alice, h.games, "play new", {"game": "druids"})).message
            self.ids[name] = game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
            self.messages[name] = lobby
            if name == "lobby":
                continue
            await h.click(bob, lobby, f"lobby:join:{game_id}")
            await h.click(alice, lobby, f"lobby:start:{game_id}")
            self.messages[name] = h.board_message(await h.table(game_id))
        table = await h.table(self.ids["abandoned"])
        await h.abandon(alice, h.thread(table), table.id)
        await self._finish(self.ids["finished"])
        assert (await h.table(self.ids["abandoned"])).status == "abandoned"
        assert (await h.table(self.ids["active"])).status == "active" and not self.h.sb.violations

    async def _finish(self, game_id: int) -> None:
        """Play the game out quickly (the built-in player's moves straight through the service), then show the
        final board."""
        for step in range(5_000):
            table = await self.h.table(game_id)
            if table.status != "active":
                break
            seat = table.to_act()[0]
            action = table.engine.bot_action(table.state, seat, step)
            await self.h.service.act(game_id, table.user_at(seat), action)
        await self.h.bot.host.after_commit(game_id)
        await self.h.idle()
        table = await self.h.table(game_id)
        assert table.status == "finished" and table.record.shown_version == table.version
        self.messages["finished"] = self.h.board_message(table)

    async def fingerprint(self) -> tuple:
        """Each prepared game's status, version, state and seats, and how many games there are, read straight from
        the database file (what is committed)."""
        ids = ",".join(str(self.ids[name]) for name in HOSTS)
        with sqlite3.connect(self.database) as db:
            games = db.execute(
                f"SELECT id, status, version, state FROM games WHERE id IN ({ids}) ORDER BY id"
            )
            seats = db.execute(
                f"SELECT game_id, seat, user_id FROM seats WHERE game_id IN ({ids}) ORDER BY id"
            )
            count = db.execute("SELECT count(*) FROM games").fetchone()[0]
            return tuple(games.fetchall()), tuple(seats.fetchall()), count

    async def _token(self, case: Case, spec: str) -> str:
        if spec not in ("own", "actor"):
            return spec
        if case.target not in self.ids:
            return "0"
        table = await self.h.table(self.ids[case.target])
        seat = table.seat_of(int(self.h.users[case.user].id))
        if spec == "actor":
            seat = (table.to_act() or [None])[0]
        return "0" if seat is None else str(picker_token(table, seat))

    def _channel(self, case: Case) -> Channel:
        if case.target in ("active", "abandoned", "finished"):
            return self.h.sb.world.channels[self.messages[case.target].channel_id]
        return self.h.games

    async def send(self, case: Case) -> tuple[InteractionResult | None, list[str]]:
        """Send the case as its user; the result and the user's own text it carried."""
        sb, user = self.h.sb, self.h.users[case.user]
        game_id = self.ids.get(case.target) or int(case.target.split(":")[1])  # "missing:<id>": no such game
        if case.kind in ("new", "demo"):
            game, text, players = case.payload
            options: dict[str, Any] = {"game": game, "options": text}
            if players is not None:
                options["players"] = players
            return await sb.slash(user, self.h.games, f"play {case.kind}", options, wait=False), [text]
        if case.kind == "move":
            value, with_game = case.payload
            if isinstance(value, tuple):
                value = f"{await self._token(case, value[0])}:{value[1]}"
            options = {"action": value} | ({"game": game_id} if with_game else {})
            channel = self.h.games if with_game else self._channel(case)
            return await sb.slash(user, channel, "play move", options, wait=False), [value]
        if case.kind == "autocomplete":
            command, game, text = case.payload
            channel = self._channel(case)
            if command == "play move":
                await sb.autocomplete(user, channel, command, {"action": text}, focused="action")
            else:
                await sb.autocomplete(
                    user, channel, command, {"game": game, "options": text}, focused="options"
                )
            return None, [text]
        family, on = case.payload[:2]
        if family == "lobby":
            custom_id, data = f"lobby:{case.payload[2]}:{game_id}", {}
        elif family == "table":
            custom_id, data = f"table:{case.payload[2]}:{game_id}", {}
        elif family == "mv":
            custom_id, data = f"mv:{game_id}:{await self._token(case, case.payload[2])}:{case.payload[3]}", {}
        elif family == "undo":
            custom_id, data = f"undo:{case.payload[2]}:{game_id}:{case.payload[3]}", {}
        elif family == "sheet":
            custom_id, data = f"sheet:{game_id}", {"values": [case.payload[2]]}
        else:
            _, _, token, path, offset, value = case.payload
            custom_id = f"mvs:{game_id}:{await self._token(case, token)}:{path}:{offset}"
            data = {"values": [value]}
        message = self.messages[on]
        # The component sits on a message of the bot's (as on a message drawn by an older version of the bot, or by
        # a client that made it up): discord.py only dispatches components that are on the clicked message.
        if family in ("mvs", "sheet"):
            component = {
                "type": 3,
                "custom_id": custom_id,
                "options": [{"label": "·", "value": data["values"][0]}],
            }
        else:
            component = {"type": 2, "style": 1, "label": "·", "custom_id": custom_id}
        self._restore = (message, message.components)
        message.components = [*message.components[:4], {"type": 1, "components": [component]}]
        if family in ("mvs", "sheet"):
            return await sb.select(user, message, custom_id, data["values"], wait=False), []
        return await sb.click(user, message, custom_id, wait=False), []

    async def run(self, case: Case) -> Outcome:
        before, violations = await self.fingerprint(), len(self.h.sb.bot_violations())
        harms: list[str] = []
        self._edits = sum(m.edit_count for m in self.messages.values())
        try:
            result, typed = await self.send(case)
        except ActionRejected:
            return Outcome(False, [])
        except TimeoutError as error:  # an autocomplete left unanswered
            result, typed = None, []
            harms.append(f"no answer: {error}")
        if result is not None:
            try:
                await result.wait(5)
            except TimeoutError as error:
                harms.append(f"no answer: {error}")
        await self.h.idle()
        if self._restore is not None:
            message, components = self._restore
            # Put the message back unless the bot edited it (which is judged below).
            if sum(m.edit_count for m in self.messages.values()) == self._edits:
                message.components = components
            self._restore = None
        harms += [f"bot request rejected: {v}" for v in self.h.sb.bot_violations()[violations:]]
        replies = [] if result is None else result.messages
        for message in replies + ([] if result is None else result.edited):
            if len(message.content) > 2000:
                harms.append(f"a reply of {len(message.content)} characters")
            for text in typed:
                if _echoes(text, message.content):
                    harms.append("a reply repeats more than 60 characters of the user's text")
                if _unescaped(text, message.content):
                    harms.append(f"a reply repeats the user's markdown unescaped: {message.content[:120]!r}")
        after = await self.fingerprint()
        public = [m for m in replies if m.audience.kind != "ephemeral"]
        if case.kind in ("new", "demo") and public:
            if after[-1] == before[-1]:
                harms.append("a public reply without a new game")
        else:
            if public:
                harms.append(f"a refusal shown to everyone: {public[0].content[:80]!r}")
            if after != before:
                harms.append("refused input changed a game")
            edited_public = [
                m for m in ([] if result is None else result.edited) if m.audience.kind != "ephemeral"
            ]
            if edited_public:
                harms.append(f"refused input edited a public message: {edited_public[0].content[:80]!r}")
        return Outcome(True, harms)


def _unescaped(text: str, reply: str) -> bool:
    """Some 8 characters of the user's text, with markdown in them, appear in the reply with that markdown live:
    not preceded by a backslash, and not inside a link (Discord shows a link's characters as they are)."""
    links = [range(*m.span()) for m in URL.finditer(reply)]
    for start in range(len(text) - 7):
        window = text[start : start + 8]
        marks = [n for n, c in enumerate(window) if c in MARKDOWN]
        if not marks or sum(c.isalnum() for c in window) < 3:
            continue
        at = reply.find(window)
        while at >= 0:
            live = [n for n in marks if not any(at + n in link for link in links)]
            if live and all(at + n == 0 or reply[at + n - 1] != "\\" for n in live):
                return True
            at = reply.find(window, at + 1)
    return False


def _echoes(text: str, reply: str) -> bool:
    if len(text) <= ECHO_LIMIT or not reply:
        return False
    reply = re.sub(r"\\(.)", r"\1", reply)  # the user's text, as far as it appears, appears escaped
    return any(text[start : start + ECHO_LIMIT + 1] in reply for start in range(len(text) - ECHO_LIMIT))
