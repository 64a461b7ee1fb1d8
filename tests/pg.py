"""A throwaway PostgreSQL server for the storage tests: Debian's server binaries, a temporary cluster on 127.0.0.1.

It runs only where PostgreSQL is installed (`.ci/run` installs it); elsewhere the PostgreSQL variants are skipped.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def available() -> bool:
    return _binary("initdb") is not None and _binary("pg_ctl") is not None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def server() -> Iterator[str]:
    """Start a cluster; yield an admin URL (postgresql+asyncpg://…/postgres); stop and delete it afterwards."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    assert initdb and pg_ctl
    root = tempfile.mkdtemp(prefix="pgtest-")
    data = os.path.join(root, "data")
    port = _free_port()
    # PostgreSQL refuses to run as root, so the cluster belongs to the postgres user when we are root.
    as_user: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    run = dict(check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    subprocess.run([*as_user, initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"], **run)
    options = (
        f"-h 127.0.0.1 -p {port} -k {root} -c fsync=off -c synchronous_commit=off -c max_connections=200"
    )
    subprocess.run(
        [*as_user, pg_ctl, "-D", data, "-o", options, "-w", "-l", os.path.join(root, "log"), "start"], **run
    )
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_user, pg_ctl, "-D", data, "-m", "immediate", "stop"],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)


@contextlib.asynccontextmanager
async def fresh_database(admin_url: str) -> AsyncIterator[str]:
    """A new empty database on the test server, dropped afterwards."""
    import asyncpg

    plain = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    name = f"t_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(plain)
    await connection.execute(f'CREATE DATABASE "{name}"')
    await connection.close()
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        connection = await asyncpg.connect(plain)
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.close()
