"""A strict Discord-compatible server on loopback: the e2e test double and the local sandbox's core.

See sandbox/server.py for the Python API and sandbox/control.py for the JSON control API.
"""

from sandbox.server import DiscordSandbox, Violation, point_discord_at
from sandbox.validate import ActionRejected, DiscordError

__all__ = ["ActionRejected", "DiscordError", "DiscordSandbox", "Violation", "point_discord_at"]
