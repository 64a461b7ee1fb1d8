"""Configuration from the environment or a .env file; .env.example documents every setting."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: str = Field(
        default="", description="Bot token; empty runs the local sandbox instead of Discord"
    )
    database_url: str = "sqlite+aiosqlite:///./boardgames.db"
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this guild only (instant)")
    default_locale: str = "en"
    sandbox_port: int = 8765
    # Where discord.py connects; set only to point the bot at a Discord-compatible server (tests, the sandbox).
    discord_api_base: str = ""
    discord_gateway_url: str = ""
    log_level: str = "INFO"
    # How often the clock looks for due games (seconds): one indexed query, so it can be often; 0 turns the clock
    # off (tests drive it).
    tick_seconds: float = 2.0
    # The pace of demo games (every seat a bot): seconds between their moves, checked by the clock on its own.
    demo_move_seconds: float = Field(default=5.0, gt=0)
    # Sharding across processes: the total shard count and this process's shards ("0,1" or "0-3"). Empty: one
    # process, no sharding.
    shard_count: int | None = None
    shard_ids: str = ""

    def shard_list(self) -> list[int] | None:
        if not self.shard_ids.strip():
            return None
        shards: list[int] = []
        for part in self.shard_ids.split(","):
            low, _, high = part.strip().partition("-")
            shards += range(int(low), int(high or low) + 1)
        return shards
