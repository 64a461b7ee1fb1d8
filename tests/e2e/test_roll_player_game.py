"""Whole Roll Player games through the real bot and the loopback Discord-compatible server: a 4-player game
with two people and two built-in players, and a solo game.

Moves are the engine's built-in player's choices, made by the people through the picker and /play move.
Everything is real: the bot, its picture workers, the database, the sandbox and every message.
"""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.games import presenter
from bot.service import choices
from sandbox.model import Message, User
from tests.e2e.harness import Harness, harness

pytestmark = pytest.mark.e2e

GAME = "roll_player"


async def open_table(h: Harness, host: str, people: list[str], bots: int, options: str | None = None) -> int:
    args = {"game": GAME} | ({"options": options} if options else {})
    lobby = (await h.slash(h.users[host], h.games, "play new", args)).message
    assert lobby is not None and lobby.audience.kind == "public" and "Roll Player" in lobby.text
    game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
    for name in people:
        await h.click(h.users[name], lobby, f"lobby:join:{game_id}")
    for _ in range(bots):
        await h.click(h.users[host], lobby, f"lobby:bot:{game_id}")
    await h.click(h.users[host], lobby, f"lobby:start:{game_id}")
    return game_id


def user_at(h: Harness, table, seat: int) -> User | None:
    user_id = table.user_at(seat)
    return next((u for u in h.users.values() if int(u.id) == user_id), None)


async def human_move(h: Harness, game_id: int, move: int) -> tuple[User, Message | None, int]:
    """The first person who may act makes the built-in player's choice: by the picker, or every third move by
    /play move. Returns who moved, the picker used (if any) and the version before the move."""
    table = await h.table(game_id)
    seat = next(s for s in table.to_act() if table.user_at(s) is not None)
    user = user_at(h, table, seat)
    assert user is not None
    actions = table.engine.legal_actions(table.state, seat)
    action = table.engine.bot_action(table.state, seat, table.version)
    picker = None
    if move % 3 == 2:
        index = actions.index(action)
        result = await h.slash(
            user, h.thread(table), "play move", {"action": f"{h.token(table, user)}:{index}"}
        )
        assert result.message.audience.kind == "ephemeral" and result.message.audience.user_id == user.id
    else:
        picker = await h.play_through_chooser(user, game_id, action)
        assert picker.audience.kind == "ephemeral" and not picker.attachments  # nothing private to show
    assert (await h.table(game_id)).version > table.version
    return user, picker, table.version


def assert_nothing_private_in_public(h: Harness, people: list[User], dm_users: list[User]) -> None:
    channels = [h.games, *h.sb.threads(h.games)]
    for channel in channels:
        for message in h.sb.messages(channel):
            if message.audience.kind != "public":
                continue
            assert all(a.filename in ("board.png", "results.png") for a in message.attachments), message.text
            for old in message.history:
                assert all(name == "board.png" for name in old.get("attachments", [])), old
    for user in people:
        for message in h.sb.dms(user):
            assert message.audience.user_id == user.id
            assert (
                not message.attachments
            )  # Roll Player has no private picture: the DM only says it is your turn
    assert any(h.sb.dms(user) for user in dm_users)


async def test_a_whole_four_player_game_with_people_and_bots(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob, dave = h.users["alice"], h.users["bob"], h.users["dave"]
        game_id = await open_table(h, "alice", ["bob"], bots=2)
        table = await h.table(game_id)
        assert table.status == "active" and len(table.seats) == 4
        assert [s.is_bot for s in table.seats] == [False, False, True, True]
        thread = h.thread(table)
        board = h.board_message(table)
        assert board.attachments[0].filename == "board.png"
        assert f"table:hand:{game_id}" not in {c["custom_id"] for c in board.interactive()}  # nothing private
        first = table.to_act()[0]
        assert "Set-up" in board.text  # the status line, in the server's language

        # A non-player is turned away, privately, from the picker and from /play move.
        outsider = await h.click(dave, board, f"table:turn:{game_id}")
        assert outsider.message.audience.user_id == dave.id and "not playing" in outsider.message.text
        typed = await h.slash(dave, thread, "play move", {"action": f"{h.token(table, dave)}:0"})
        assert typed.message.audience.user_id == dave.id and "not playing" in typed.message.text
        assert (await h.table(game_id)).version == table.version

        # The list for /play move is in the reader's language (Bob reads Korean) and within Discord's limits.
        waiting = next(u for u in (alice, bob) if int(u.id) == table.user_at(first))
        listed = await h.sb.autocomplete(waiting, thread, "play move", {"action": ""}, focused="action")
        assert 0 < len(listed) <= 25 and all(len(c["name"]) <= 100 for c in listed)
        if waiting is bob:
            assert any("캐릭터 시트" in c["name"] for c in listed)

        movers: set[str] = set()
        stale: tuple[Message, int] | None = None
        stale_checked = told_waiting = False
        moves = 0
        while (table := await h.table(game_id)).status == "active":
            user, picker, version = await human_move(h, game_id, moves)
            movers.add(user.id)
            if picker is not None and stale is None and moves > 3:
                stale = (picker, version)
            moves += 1
            table = await h.table(game_id)
            idle = [u for u in (alice, bob) if not choices(table, table.seat_of(int(u.id)))]
            if idle and not told_waiting and table.status == "active":
                # With nothing to do, /play move's list is not empty: it says whom the game waits for.
                offered = await h.sb.autocomplete(
                    idle[0], thread, "play move", {"action": ""}, focused="action"
                )
                [hint] = offered
                assert "waiting for" in hint["name"] or "기다리는 중" in hint["name"], hint
                sent = await h.slash(idle[0], thread, "play move", {"action": hint["value"]})
                assert sent.message.text == hint["name"] and (await h.table(game_id)).version == table.version
                told_waiting = True
            if moves == 40:
                await h.restart_bot()
                table = await h.table(game_id)
                now = next(s for s in table.to_act() if table.user_at(s) is not None)
                reopened = await h.click(
                    user_at(h, table, now), h.board_message(table), f"table:turn:{game_id}"
                )
                assert reopened.message.audience.kind == "ephemeral" and reopened.message.components
            if moves == 45 and stale is not None:
                # A picker from an earlier moment of the game is refused as out of date, and nothing changes.
                picker, _ = stale
                before = (await h.table(game_id)).version
                old = [c["custom_id"] for c in picker.buttons() if c["custom_id"].startswith("mv:")]
                menus = [c for c in picker.selects() if c["custom_id"].startswith("mvs:")]
                assert old or menus  # a step's choices are buttons, or a menu where they are long
                owner = alice if picker.audience.user_id == alice.id else bob
                if old:
                    clicked = await h.click(owner, picker, old[0])
                else:
                    menu = menus[0]
                    clicked = await h.sb.select(
                        owner, picker, menu["custom_id"], [menu["options"][0]["value"]]
                    )
                    await h.idle()
                assert (await h.table(game_id)).version == before
                assert clicked.message is picker and ("out of date" in picker.text or "오래된" in picker.text)
                stale_checked = True
            assert moves < 400

        assert movers == {alice.id, bob.id} and stale_checked and told_waiting
        assert h.restarts == 1
        table = await h.table(game_id)
        outcome = table.engine.outcome(table.state)
        final = h.board_message(table)
        assert "🏆" in final.text and all(name in final.text for name in table.names)
        # no turn or hand any more; the players' sheets stay, to read how each scored
        assert [c["custom_id"] for c in final.interactive()] == [f"sheet:{game_id}"] and outcome.winners
        assert "The game is over" in final.text
        assert_nothing_private_in_public(h, [alice, bob], [alice, bob])
        assert h.sb.violations == []


async def test_a_whole_solo_game(tmp_path):
    async with harness(tmp_path) as h:
        bob = h.users["bob"]
        game_id = await open_table(h, "bob", [], bots=0)
        table = await h.table(game_id)
        assert table.status == "active" and len(table.seats) == 1 and table.state["solo"]
        thread = h.thread(table)
        board = h.board_message(table)
        assert "Set-up: Bob chooses a character sheet" in board.text  # public posts: the server's language
        moves = 0
        while (await h.table(game_id)).status == "active":
            _, picker, _ = await human_move(h, game_id, moves)
            if moves == 0:  # Bob's own picker speaks his language
                assert picker is not None
                shown = [old["content"] for old in picker.history] + [picker.text]
                assert any("캐릭터 시트" in text for text in shown)
            moves += 1
            assert moves < 200
        table = await h.table(game_id)
        final = h.board_message(table)
        assert "🏆" in final.text and "Bob" in final.text and "Rating:" in final.text
        assert table.engine.outcome(table.state).details["rating"]
        log = await h.slash(bob, thread, "play log")
        assert log.message.audience.kind == "ephemeral" and "Bob" in log.message.text
        assert_nothing_private_in_public(h, [bob], [bob])
        assert h.sb.violations == []


async def choose_sheet(h: Harness, user: User, message: Message, game_id: int, seat: int) -> Message:
    result = await h.sb.select(user, message, f"sheet:{game_id}", [str(seat)])
    await h.idle()
    assert result.message is not None
    return result.message


def plant_sheet_menu(message: Message, game_id: int) -> None:
    """A player menu for `game_id` on `message`, as a board drawn earlier would carry."""
    menu = {"type": 3, "custom_id": f"sheet:{game_id}", "options": [{"label": "·", "value": "0"}]}
    message.components = [*message.components[:4], {"type": 1, "components": [menu]}]


async def test_each_players_whole_sheet_is_one_choice_away_for_the_asker_alone(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob, dave = h.users["alice"], h.users["bob"], h.users["dave"]
        game_id = await open_table(h, "alice", ["bob"], bots=1)
        for move in range(6):  # some dice on the sheets
            await human_move(h, game_id, move)
        table = await h.table(game_id)
        board = h.board_message(table)
        menu = board.component(f"sheet:{game_id}")
        assert menu is not None and [o["label"] for o in menu["options"]] == table.names
        public = [m.id for m in h.sb.messages(h.thread(table)) if m.audience.kind == "public"]

        # Anyone may look, a player or not; the answer is theirs alone and in their language.
        for user, locale in ((dave, "en"), (bob, "ko")):
            answer = await choose_sheet(h, user, board, game_id, 1)
            assert answer.audience.kind == "ephemeral" and answer.audience.user_id == user.id
            assert table.names[1] in answer.text
            [sheet] = answer.attachments
            image = Image.open(io.BytesIO(sheet.data))
            assert sheet.filename == "sheet.png" and image.format == "PNG" and image.width > image.height
            # drawn from what everyone sees of the game, nothing more
            drawn = presenter("roll_player").render_sheet(table.view(None), 1, table.names, locale)
            assert sheet.data == drawn
        now = [m.id for m in h.sb.messages(h.thread(table)) if m.audience.kind == "public"]
        assert now == public  # nothing said in public

        # An ended game's board loses the menu; one left on an older board, or naming a game that no longer
        # exists, is answered with what happened.
        await h.abandon(alice, h.thread(table), game_id)
        board = h.board_message(await h.table(game_id))
        assert board.component(f"sheet:{game_id}") is None
        plant_sheet_menu(board, game_id)
        ended = await choose_sheet(h, dave, board, game_id, 0)
        assert ended.audience.user_id == dave.id and "not running" in ended.text and not ended.attachments
        plant_sheet_menu(board, 999_999)
        missing = await choose_sheet(h, dave, board, 999_999, 0)
        assert missing.audience.user_id == dave.id and "There's no game #999999." in missing.text
        assert h.sb.violations == []


async def test_rules_and_card_lookup_in_the_readers_language(tmp_path):
    async with harness(tmp_path) as h:
        bob, alice, carol = h.users["bob"], h.users["alice"], h.users["carol"]
        card = await h.slash(bob, h.games, "rules", {"game": GAME, "topic": "장검"})
        assert card.message.audience.kind == "ephemeral" and "무기" in card.message.text
        solo = await h.slash(alice, h.games, "rules", {"game": GAME, "topic": "solo"})
        assert "adventurer die" in solo.message.text
        spanish = await h.slash(carol, h.games, "rules", {"game": GAME, "topic": "Ladrón"})
        assert "Clase" in spanish.message.text
        topics = await h.sb.autocomplete(
            bob, h.games, "rules", {"game": GAME, "topic": "변형"}, focused="topic"
        )
        assert topics and all(len(c["name"]) <= 100 for c in topics)
        assert h.sb.violations == []


async def expire_at(h: Harness, hold) -> None:
    """When the held request arrives, every interaction token expires; then the request goes on."""
    await hold.arrived.wait()
    h.sb.token_lifetime = 0.0
    hold.release.set()


async def test_a_picker_waiting_for_a_built_in_player_carries_on_instead_of_a_ping(tmp_path):
    """A review's player was told "waiting for Bot 1 — I'll ping you", then pinged and sent a DM a second later,
    and had to click "Take my turn" again. The answer now carries on to their next choice, saying what the
    built-in player did; only if that answer cannot be edited (its token expired) are they pinged as before."""
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        game_id = await open_table(h, "alice", [], bots=1)
        thread = h.thread(await h.table(game_id))
        carried = failed = implied = 0
        while carried < 2 or not failed:
            table = await h.table(game_id)
            assert table.status == "active", (carried, failed)
            seat = table.seat_of(int(alice.id))
            action = table.engine.bot_action(table.state, seat, table.version)
            after, _ = table.engine.apply(table.state, seat, action)
            to_bot = table.engine.to_act(after) == [1 - seat]
            pings = sum(alice.id in m.pinged_ids for m in h.sb.messages(thread))
            dms = {m.id for m in h.sb.dms(alice)}
            expire = to_bot and carried >= 2
            if expire:  # the answer's token expires once it is given, before the built-in player has moved
                hold = h.sb.hold("PATCH", rf"/channels/{thread.id}/messages/\d+$")
                expiring = asyncio.create_task(expire_at(h, hold))
            answer = await h.play_through_chooser(alice, game_id, action)
            await h.idle()
            if expire:
                await expiring
            now = await h.table(game_id)
            h.sb.token_lifetime = 15 * 60.0
            if not to_bot or seat not in now.to_act():
                continue
            bot_moves = [m for m in await h.service.moves(game_id) if m.version > table.version + 1]
            assert bot_moves and all(m.seat == 1 - seat for m in bot_moves)
            pinged = sum(alice.id in m.pinged_ids for m in h.sb.messages(thread)) - pings
            told_again = pinged, len({m.id for m in h.sb.dms(alice)} - dms)
            if expire:
                assert told_again == (1, 1) and "Your move again" not in answer.text
                failed += 1
                continue
            assert told_again == (0, 0), answer.text
            first, *rest = answer.text.split("\n")
            assert first.startswith("↪️ Your move again. Meanwhile: Bot 1 ") and answer.interactive(), (
                answer.text
            )
            # what she is offered is her choices now, as "Take my turn" would show them
            opened = await h.click(alice, h.board_message(now), f"table:turn:{game_id}")
            assert opened.message.text.split("\n") == rest
            # nothing clicked yet, so nothing is "chosen so far" (a kind every choice shares is not a choice)
            assert "Your move so far" not in opened.message.text
            implied += "Which card?" in opened.message.text and "initiative" in opened.message.text
            carried += 1
        assert implied  # a step whose kind every choice shares came up
        # Discord refused only the one edit of the expired answer
        assert [(v.method, v.code) for v in h.sb.violations] == [("PATCH", 50027)]
