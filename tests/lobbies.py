"""A lobby opened through the service, with the details a test does not care about filled in."""

from __future__ import annotations

from typing import Any

from bot.service import GameService, Table


async def open_lobby(
    service: GameService,
    engine_name: str = "druids",
    *,
    host_id: int = 100,
    host_name: str = "Host",
    guild_id: int = 1,
    channel_id: int = 10,
    raw_options: dict[str, Any] | None = None,
) -> Table:
    return await service.create_lobby(
        engine_name=engine_name,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        host_name=host_name,
        locale="en",
        raw_options=raw_options or {},
    )
