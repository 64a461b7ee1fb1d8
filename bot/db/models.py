"""Tables: games, their seats, an append-only move log, and per-server settings."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    engine: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), index=True)  # lobby, active, finished, abandoned
    guild_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    channel_id: Mapped[int] = mapped_column(BigInteger, index=True)
    thread_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    lobby_message_id: Mapped[int | None] = mapped_column(BigInteger)
    board_message_id: Mapped[int | None] = mapped_column(BigInteger)
    # The version the board message before this one last showed: this one tells every public happening since.
    board_from: Mapped[int | None] = mapped_column(Integer)
    host_id: Mapped[int] = mapped_column(BigInteger)
    locale: Mapped[str] = mapped_column(String(8))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[str | None] = mapped_column(Text)  # the engine's dump; None while in the lobby
    first_state: Mapped[str | None] = mapped_column(Text)  # as dealt: what undoing the first move restores
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Since when the seats that must act now have been waiting: reminders and deadlines count from here.
    waiting_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Reminder and deadline policy in hours; None takes the server's default.
    remind_after_hours: Mapped[float | None] = mapped_column(Float)
    remind_every_hours: Mapped[float | None] = mapped_column(Float)
    remind_max: Mapped[int | None] = mapped_column(Integer)
    deadline_hours: Mapped[float | None] = mapped_column(Float)
    # A pending undo that needs the other players' approval: {"version", "seat", "approvals": [seats]}.
    undo_request: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Set only for a demo (the built-in player in every seat): when the clock plays its next move.
    demo_move_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Who must act now and since which version ({seat: version}): a seat is told (pinged, DM'd) once per entry.
    acting: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, server_default="{}")
    # The outbox. Every commit records what Discord must come to show; the publisher brings Discord up to the
    # newest version and then notes it here, so a crash or a Discord error in between loses nothing.
    notes: Mapped[list[Any]] = mapped_column(JSON, default=list, server_default="[]")  # happenings to tell
    shown_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    shown_acting: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, server_default="{}")
    publish_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    publish_attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    publish_problem: Mapped[str | None] = mapped_column(String(60))  # a permanent error already explained
    # The next moment the clock must look at this game (reminder, deadline, window, archive, expiry, demo move).
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat", cascade="all, delete-orphan", lazy="selectin"
    )


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"), UniqueConstraint("game_id", "user_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger, index=True)  # None: the built-in bot plays it
    display_name: Mapped[str] = mapped_column(String(100))
    # How strong the built-in player is when it holds this seat: "easy" (heuristics) or "hard" (search).
    bot_level: Mapped[str] = mapped_column(String(8), default="easy", server_default="easy")
    dms_closed: Mapped[bool] = mapped_column(Boolean, default=False)
    pings: Mapped[bool] = mapped_column(Boolean, default=True)
    reminders_sent: Mapped[int] = mapped_column(Integer, default=0)
    kick_votes: Mapped[list[Any]] = mapped_column(JSON, default=list)  # seats voting this seat out
    # Who held the seat before, oldest first: [the last version of theirs, their name, whether a person held it].
    holders: Mapped[list[Any] | None] = mapped_column(JSON, default=list)
    final_score: Mapped[float | None] = mapped_column(Float)
    won: Mapped[bool | None] = mapped_column(Boolean)
    # The seat's private message: edited when the private view changes, replaced when it is their move again.
    dm_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    dm_message_id: Mapped[int | None] = mapped_column(BigInteger)
    dm_view: Mapped[str | None] = mapped_column(String(32))  # digest of the private view that message shows

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    game: Mapped[Game] = relationship(back_populates="seats")


class Move(Base):
    """One applied action: who made it, what it was, what it caused. Never updated, never deleted."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)  # the game's version after this move
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(BigInteger)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[Any]] = mapped_column(JSON)
    # The state after this move, as stored: undo restores it instead of replaying (a later fix to a game's data
    # cannot change or break a running game's past). None for moves logged before snapshots were kept.
    state_after: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Picked in one choice with the move before it (a chain in the move picker): an undo takes the choice back whole.
    chained: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Spectator(Base):
    __tablename__ = "spectators"
    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(BigInteger)


class UserPrefs(Base):
    __tablename__ = "user_prefs"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    vacation: Mapped[bool] = mapped_column(Boolean, default=False)
    # When the vacation began: the waits on the user are paused from then until they are back.
    vacation_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The language of the user's last interaction (en, ko, es): Discord tells it only then; DMs need it later.
    locale: Mapped[str | None] = mapped_column(String(8))
    # Which pings the user wants: "all", "turns" (only when it is their move) or "none".
    pings: Mapped[str] = mapped_column(String(8), default="all", server_default="all")


class GuildSettings(Base):
    __tablename__ = "guild_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    locale: Mapped[str | None] = mapped_column(String(8))
    use_threads: Mapped[bool] = mapped_column(Boolean, default=True)
    host_role_id: Mapped[int | None] = mapped_column(BigInteger)
    game_channel_ids: Mapped[list[Any]] = mapped_column(JSON, default=list)
    remind_after_hours: Mapped[float] = mapped_column(Float, default=24.0)
    remind_every_hours: Mapped[float] = mapped_column(Float, default=24.0)
    remind_max: Mapped[int] = mapped_column(Integer, default=3)
    deadline_hours: Mapped[float | None] = mapped_column(Float)  # None: no deadline
    idle_archive_days: Mapped[float] = mapped_column(Float, default=30.0)
    lobby_expiry_hours: Mapped[float] = mapped_column(Float, default=72.0)
    reaction_window_minutes: Mapped[float] = mapped_column(Float, default=10.0)
    # The built-in player's strength when it moves for someone who missed a deadline or left.
    deadline_level: Mapped[str] = mapped_column(String(8), default="easy", server_default="easy")
