"""Play Druids moves through the move picker, with whatever clicks: the page's or the sandbox's Python API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.chooser import Chosen, narrow, path_to, split
from bot.picker import offered
from bot.service import GameService, Table, choices
from sandbox.model import Message
from sandbox.server import DiscordSandbox
from tests.e2e.harness import picker_token
from tests.e2e.test_druids_game import quick_policy

Click = Callable[[str, str], Awaitable[None]]  # (message id, custom_id)
Select = Callable[[str, str, str], Awaitable[None]]  # (message id, custom_id, value)


def player_to_move(sb: DiscordSandbox, table: Table) -> str:
    return sb.world.users[str(table.users_to_act()[0])].name


async def play_move(
    sb: DiscordSandbox,
    service: GameService,
    game_id: int,
    click: Click,
    select: Select,
    *,
    detour: bool = False,
) -> Table:
    """Whoever must act clicks "Take my turn" on the board, then the picker's buttons and menus that lead to a
    sensible move; returns the table after it. `detour`: after the first choice, go "Back" once and choose
    again."""
    table = await service.get(game_id)
    user = sb.world.user(player_to_move(sb, table))
    seat = table.seat_of(int(user.id))
    assert seat is not None
    # What the picker offers (moves chained with the mover's next ones, a suggestion first): pick among those.
    actions = offered(table, seat, choices(table, seat))
    plain = [a for a in actions if len(split(a)) == 1] or [split(a)[0] for a in actions]
    wanted = quick_policy(plain, table.engine.view(table.state, seat))
    # Two plays are offered as one pair, led by the smaller card: the wanted play may come second.
    action = next(a for a in actions if wanted in split(a))
    thread = str(table.record.thread_id)
    before = {m.id for m in sb.messages(thread, viewer=user)}
    await click(str(table.record.board_message_id), f"table:turn:{game_id}")
    picker = _new_picker(sb, thread, user.id, before)
    path: list[int] = []
    full = path_to(actions, action)
    while not isinstance(narrow(actions, path), Chosen):
        path.append(full[len(path)])
        button = f"mv:{game_id}:{picker_token(table, seat)}:{'.'.join(map(str, path))}"
        if picker.component(button) is not None:
            await click(picker.id, button)
            back = f"mv:{game_id}:{picker_token(table, seat)}:{'.'.join(map(str, path[:-1]))}"
            if detour and len(path) == 1 and picker.component(back) is not None:
                detour = False
                await click(picker.id, back)  # "Back": the first question again, on the same message
                assert picker.component(button) is not None, picker.text
                await click(picker.id, button)
            continue
        parent = ".".join(map(str, path[:-1]))
        menu = next(
            s["custom_id"]
            for s in picker.selects()
            if s["custom_id"].startswith(f"mvs:{game_id}:{picker_token(table, seat)}:{parent}:")
            and any(o["value"] == str(path[-1]) for o in s["options"])
        )
        await select(picker.id, menu, str(path[-1]))
    after = await service.get(game_id)
    # A run of moves picked at once is committed move by move, one version each.
    assert after.version == table.version + len(split(action)), f"the move was not made: {picker.text}"
    return after


def _new_picker(sb: DiscordSandbox, thread: str, user_id: str, before: set[str]) -> Message:
    fresh = [
        m
        for m in sb.messages(thread, viewer=user_id)
        if m.id not in before and m.audience.kind == "ephemeral" and m.interactive()
    ]
    assert fresh, "Take my turn opened no move picker"
    return fresh[-1]
