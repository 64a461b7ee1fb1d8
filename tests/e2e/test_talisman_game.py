"""A whole 4-player Talisman game through the real bot and the loopback Discord-compatible server, to a
Command Spell victory.

The game is the faster variant (one Talisman and no second characters, a starting counter for everyone,
trophies at 5) and every seat plays the built-in player's choice, on a seed picked beforehand by simulating
the engine so that the game ends with a Command Spell from the Crown (seed 125 did, at move 497, when this was
written). Every move goes through the Discord UI: the move picker's buttons and menus, and every fourth move
typed as `/play move` (about 0.1 s a move, a little over a minute in all on a quiet machine).
"""

from __future__ import annotations

import pytest

from bot import i18n
from bot.games import presenter
from engines import get_engine
from engines.base import visible_to
from tests.e2e.harness import Harness, harness

pytestmark = pytest.mark.e2e

SEEDS = [125, 127, 130, *range(100, 400)]  # the first whose short game ends by a Command Spell is played
OPTIONS = "bloodbath=true, starting_bonus=true, trophy_rate=5"
OPTION_VALUES = {"bloodbath": True, "starting_bonus": True, "trophy_rate": 5}
MAX_MOVES = 800
TYPED = 4  # every fourth move is typed as `/play move`; the others go through the picker
SUGGESTED = 60  # and every sixtieth, the suggestions `/play move` offers are checked first
RESTART_AT = 12
STALE_AT = 16
PLAYERS = ["alice", "bob", "carol", "dave"]


def command_game() -> tuple[int, int]:
    """(seed, moves) of a 4-player game that the built-in player ends with a Command Spell victory."""
    engine = get_engine("talisman")
    for seed in SEEDS:
        state = engine.new_game(4, OPTION_VALUES, seed)
        events: list = []
        moves = 0
        while engine.outcome(state) is None and moves < MAX_MOVES:
            seat = engine.to_act(state)[0]
            state, events = engine.apply(state, seat, engine.bot_action(state, seat, moves))
            moves += 1
        if engine.outcome(state) is not None and "CommandSpellResolved" in [e["type"] for e in events]:
            return seed, moves
    raise AssertionError("no seed gives a Command Spell victory")


async def open_game(h: Harness, seed: int) -> int:
    alice = h.users["alice"]
    h.service.new_seed = lambda: seed
    created = await h.slash(alice, h.games, "play new", {"game": "talisman", "options": OPTIONS})
    lobby = created.message
    assert lobby is not None and lobby.audience.kind == "public" and "Talisman" in lobby.text
    game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
    for name in PLAYERS[1:]:
        await h.click(h.users[name], lobby, f"lobby:join:{game_id}")
    refused = await h.click(h.users["erin"], lobby, f"lobby:start:{game_id}")
    assert (
        refused.message.audience.kind == "ephemeral"
        and refused.message.audience.user_id == h.users["erin"].id
    )
    await h.click(alice, lobby, f"lobby:start:{game_id}")
    return game_id


async def play_by_picker(h: Harness, user, game_id: int, action: dict):
    """The move picker (a forced move is one direct button; a move the picker only offers chained with the
    next one is played alone by command)."""
    return await h.play_through_chooser(user, game_id, action)


async def test_a_whole_talisman_game_to_a_command_spell_victory(tmp_path):
    async with harness(tmp_path) as h:
        sb = h.sb
        users = [h.users[name] for name in PLAYERS]
        erin = h.users["erin"]
        seed, length = command_game()
        game_id = await open_game(h, seed)
        table = await h.table(game_id)
        assert table.status == "active" and table.record.seed == seed
        thread = h.thread(table)
        board = h.board_message(table)
        assert board.attachments and board.attachments[0].filename == "board.png"
        # Private views go by DM (Carol's DMs are closed: she uses the buttons instead).
        assert sb.dms(users[0]) and sb.dms(users[1]) and not sb.dms(users[2])
        hand = await h.click(users[2], board, f"table:hand:{game_id}")
        assert hand.message.audience.kind == "ephemeral" and hand.message.audience.user_id == users[2].id

        # Someone who is not playing is turned away, privately, and nothing changes.
        outsider = await h.click(erin, board, f"table:turn:{game_id}")
        assert outsider.message.audience.user_id == erin.id and "not playing" in outsider.message.text
        typed = await h.slash(erin, thread, "play move", {"action": f"{h.token(table, erin)}:0"})
        assert typed.message.audience.kind == "ephemeral" and "not playing" in typed.message.text
        assert (await h.table(game_id)).version == table.version

        moves = 0
        stale_picker = None
        crown_seen_publicly = False
        while (table := await h.table(game_id)).status == "active":
            seat = table.to_act()[0]
            user = users[seat]
            actions = table.engine.legal_actions(table.state, seat)
            action = table.engine.bot_action(table.state, seat, moves)
            if moves % TYPED == TYPED - 1:
                if moves % SUGGESTED == TYPED - 1:
                    typing = {"action": ""}
                    choices = await sb.autocomplete(user, thread, "play move", typing, focused="action")
                    assert 0 < len(choices) <= 25 and all(0 < len(c["name"]) <= 100 for c in choices)
                result = await h.slash(
                    user, thread, "play move", {"action": f"{h.token(table, user)}:{actions.index(action)}"}
                )
                assert result.message.audience.kind == "ephemeral"
            else:
                picker = await play_by_picker(h, user, game_id, action)
                assert picker.audience.kind == "ephemeral" and picker.audience.user_id == user.id
                if stale_picker is None and any(c["custom_id"].startswith("mv:") for c in picker.buttons()):
                    stale_picker = (picker, user)
            moves += 1
            assert (await h.table(game_id)).version == table.version + 1
            if moves == RESTART_AT:
                await h.restart_bot()
                # The board's buttons from before the restart still work.
                table = await h.table(game_id)
                current = users[table.to_act()[0]]
                reopened = await h.click(current, h.board_message(table), f"table:turn:{game_id}")
                assert reopened.message.components
            if moves == STALE_AT and stale_picker is not None:
                # A picker button from an earlier moment is refused as out of date; nothing changes.
                picker, owner = stale_picker
                before = (await h.table(game_id)).version
                old = next(c["custom_id"] for c in picker.buttons() if c["custom_id"].startswith("mv:"))
                stale = await h.click(owner, picker, old)
                assert (await h.table(game_id)).version == before
                assert stale.message is picker and "out of date" in picker.text
            if "casts the Command Spell" in h.board_message(await h.table(game_id)).text:
                crown_seen_publicly = True  # the table reads what happens at the Crown
            assert moves <= length  # the game goes as simulated

        table = await h.table(game_id)
        outcome = table.engine.outcome(table.state)
        assert moves == length and outcome.details["reason"] == "last_standing"
        log = await h.service.moves(game_id)
        last_events = [e["type"] for e in log[-1].events]
        # Won by the Command Spell: the last move cast it and ended the game.
        assert "CommandSpellResolved" in last_events and "GameEnded" in last_events
        assert h.restarts == 1 and stale_picker is not None
        assert crown_seen_publicly
        final = h.board_message(table)
        winner = PLAYERS[outcome.winners[0]].capitalize()
        assert "🏆" in final.text and winner in final.text and not final.interactive()

        # Privacy: public messages carry only the board image, and no private event's words (one's own Spells,
        # the cards one has divined) ever appear in public.
        game = presenter("talisman")
        private_texts = set()
        for move in log:
            for event in move.events:
                if not visible_to(event, None):
                    owner = event["private"][0]
                    for locale in i18n.LOCALES:
                        text = game.event_text(event, table.names, table.view(owner), locale)
                        if text:
                            private_texts.add(text)
        assert private_texts  # the Wizard, Druid, … start with Spells
        public = [m for m in sb.messages(thread) + sb.messages(h.games) if m.audience.kind == "public"]
        assert public
        for message in public:
            assert all(a.filename in ("board.png", "results.png") for a in message.attachments)
            assert not any(text in message.text for text in private_texts)
        for user in users:
            assert all(m.audience.user_id == user.id for m in sb.dms(user))
        # The one refusal: the first DM to Carol, whose DMs are closed; she was not tried again.
        assert [(v.status, v.code) for v in sb.violations] == [(403, 50007)]


async def test_talisman_rules_and_cards_in_the_readers_language(tmp_path):
    async with harness(tmp_path) as h:
        bob, carol = h.users["bob"], h.users["carol"]
        choices = await h.sb.autocomplete(
            bob, h.games, "rules", {"game": "talisman", "topic": "지배"}, focused="topic"
        )
        assert choices and all(len(c["name"]) <= 100 for c in choices)
        answer = await h.slash(bob, h.games, "rules", {"game": "talisman", "topic": "command"})
        assert answer.message.audience.kind == "ephemeral" and "지배 주문" in answer.message.text
        spanish = await h.slash(carol, h.games, "rules", {"game": "talisman", "topic": "combat"})
        assert "Fuerza" in spanish.message.text
        assert h.sb.violations == []
