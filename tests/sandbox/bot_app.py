"""A small but real discord.py bot that exercises what the game bot will use, for the sandbox's own tests."""

from __future__ import annotations

import asyncio
import io
import re

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

GAMES = ["druids", "roll_player", "roll_for_the_galaxy", "talisman"]


def png(size: int, colour: tuple[int, int, int] = (40, 120, 200)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (size, size), colour).save(buf, "PNG")
    return buf.getvalue()


class MoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"move:(?P<game>\d+):(?P<step>\d+)"):
    """A persistent button: its state lives in the custom_id, so it works after a restart."""

    def __init__(self, game: int, step: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Move {step}", style=discord.ButtonStyle.primary, custom_id=f"move:{game}:{step}"
            )
        )
        self.game = game
        self.step = step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["game"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(MoveButton(self.game, self.step + 1))
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} made move {self.step}", view=view
        )


class JoinView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.joined: list[str] = []

    @discord.ui.button(label="Join", style=discord.ButtonStyle.success, custom_id="join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.joined.append(interaction.user.display_name)
        if len(self.joined) >= 2:
            button.disabled = True
        await interaction.response.edit_message(content=f"Players: {', '.join(self.joined)}", view=self)

    @discord.ui.select(
        custom_id="colour",
        placeholder="Colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You chose {select.values[0]}", ephemeral=True)


class DmView(discord.ui.View):
    @discord.ui.button(label="Got it", custom_id="dm_ok")
    async def ok(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        where = "dm" if interaction.guild is None else "guild"
        await interaction.response.edit_message(
            content=f"Read by {interaction.user.display_name} in {where}", view=None
        )


class FlipView(discord.ui.View):
    @discord.ui.button(label="Flip", custom_id="flip")
    async def flip(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        new = discord.File(io.BytesIO(png(24, (0, 160, 0))), "back.png")
        await interaction.response.edit_message(content="Back", attachments=[new], view=self)

    @discord.ui.button(label="Slow flip", custom_id="slow_flip")
    async def slow_flip(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        data = await asyncio.to_thread(png, 28)
        await interaction.edit_original_response(
            content="Slow back", attachments=[discord.File(io.BytesIO(data), "slow.png")], view=None
        )
        await interaction.followup.send("Only for you", ephemeral=True)


class BoardLayout(discord.ui.LayoutView):
    """A components-v2 message: a container with text, the board image and a button row."""

    def __init__(self, turn: int) -> None:
        super().__init__(timeout=60)
        button: discord.ui.Button = discord.ui.Button(label="End turn", custom_id="v2_end")
        button.callback = self.end_turn  # type: ignore[method-assign]
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay(f"## Turn {turn}"),
                discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
                discord.ui.ActionRow(button),
                accent_colour=0x2E86C1,
            )
        )
        self.turn = turn

    async def end_turn(self, interaction: discord.Interaction) -> None:
        board = discord.File(io.BytesIO(png(36)), "board.png")
        await interaction.response.edit_message(view=BoardLayout(self.turn + 1), attachments=[board])


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput = discord.ui.TextInput(label="Name", custom_id="name_field", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}")


class SandboxTestBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.errors: list[BaseException] = []
        self.dm_results: list[str] = []
        self.seen_messages: list[str] = []
        self.seen_interactions: list[int] = []  # ids, in the order the gateway delivered them

    async def setup_hook(self) -> None:
        self.add_dynamic_items(MoveButton)
        self.tree.on_error = self.on_tree_error
        guild = discord.Object(self.guild_id)
        self.tree.add_command(play, guild=guild)
        for cmd in (settings, hand, render, dm, thread, attach, card, layout, name, slow, long):
            self.tree.add_command(cmd, guild=guild)
        self.tree.add_command(ping)  # one global command
        await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before every re-IDENTIFY (Discord's identify limit); the sandbox has none.
        return None

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            self.seen_messages.append(message.content)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # discord.py hands a click to its view (or drops it) before this event, so a click seen here was handled.
        self.seen_interactions.append(interaction.id)

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.errors.append(error)


play = app_commands.Group(name="play", description="Play games")
admin = app_commands.Group(name="admin", description="Game admin", parent=play)


@play.command(name="new", description="Start a game")
@app_commands.describe(game="Which game")
async def play_new(
    interaction: discord.Interaction, game: str, seats: app_commands.Range[int, 2, 5] = 2
) -> None:
    view = JoinView()
    view.add_item(MoveButton(interaction.id % 100000, 1))
    await interaction.response.send_message(f"New {game} for {seats} by <@{interaction.user.id}>", view=view)


@play_new.autocomplete("game")
async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=g.replace("_", " ").title(), value=g) for g in GAMES if current in g]


@admin.command(name="reset", description="Reset a game")
async def admin_reset(interaction: discord.Interaction, confirm: bool) -> None:
    manager = interaction.permissions.manage_guild
    await interaction.response.send_message(f"reset confirm={confirm} manager={manager}", ephemeral=True)


@app_commands.command(name="settings", description="Server settings (managers only)")
@app_commands.default_permissions(manage_guild=True)
async def settings(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("settings", ephemeral=True)


@app_commands.command(name="hand", description="See your hand")
async def hand(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(
        f"Your hand, {interaction.user.display_name} ({interaction.locale.value})", ephemeral=True
    )


@app_commands.command(name="render", description="Deferred PNG")
async def render(interaction: discord.Interaction, size: app_commands.Range[int, 16, 256] = 64) -> None:
    await interaction.response.defer(thinking=True)
    data = await asyncio.to_thread(png, size)
    await interaction.followup.send("Board", file=discord.File(io.BytesIO(data), "board.png"))


@app_commands.command(name="dm", description="DM a user")
async def dm(interaction: discord.Interaction, who: discord.User) -> None:
    try:
        await who.send(
            f"Psst {who.display_name}", file=discord.File(io.BytesIO(png(32)), "hand.png"), view=DmView()
        )
        result = "sent"
    except discord.Forbidden as err:
        result = f"forbidden {err.code}"
    interaction.client.dm_results.append(result)  # type: ignore[attr-defined]
    await interaction.response.send_message(result, ephemeral=True)


@app_commands.command(name="thread", description="Open a game thread")
async def thread(interaction: discord.Interaction, title: str) -> None:
    await interaction.response.send_message(f"Opening {title}")
    starter = await interaction.original_response()
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    from_message = await starter.create_thread(name=f"{title} chat")
    standalone = await channel.create_thread(name=title, type=discord.ChannelType.public_thread)
    await standalone.add_user(interaction.user)
    await standalone.send(f"Welcome <@{interaction.user.id}>")
    await from_message.send("Chat here")
    await standalone.edit(name=f"{title} (renamed)", archived=True)


@app_commands.command(name="attach", description="Message then edit with a new attachment")
async def attach(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send("v1", file=discord.File(io.BytesIO(png(20)), "v1.png"))
    await msg.edit(content="v2", attachments=[discord.File(io.BytesIO(png(30, (200, 0, 0))), "v2.png")])
    await interaction.edit_original_response(content="edited")


@app_commands.command(name="card", description="Reply with an image and a button")
async def card(interaction: discord.Interaction) -> None:
    face = discord.File(io.BytesIO(png(16)), "face.png")
    embed = discord.Embed(title="Card").set_thumbnail(url="attachment://face.png")
    await interaction.response.send_message("Face", file=face, embed=embed, view=FlipView())


@app_commands.command(name="layout", description="A components v2 board")
async def layout(interaction: discord.Interaction) -> None:
    board = discord.File(io.BytesIO(png(32)), "board.png")
    await interaction.response.send_message(view=BoardLayout(1), file=board)


@app_commands.command(name="name", description="Open a modal")
async def name(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@app_commands.command(name="slow", description="Acknowledge late")
async def slow(interaction: discord.Interaction, delay: float) -> None:
    await asyncio.sleep(delay)
    await interaction.response.send_message("late")


@app_commands.command(name="long", description="Too long a message")
async def long(interaction: discord.Interaction, length: int) -> None:
    await interaction.response.send_message("x" * length)


@app_commands.command(name="ping", description="Global ping")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong")
