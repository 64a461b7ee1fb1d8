import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests explore new random cases on every developer run (that is how they find bugs); CI runs the same
# derandomized cases each time, so a submission's result does not depend on luck.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def postgres_server():
    """An admin URL of a test PostgreSQL server (started once per run), or a skip where none is installed."""
    from tests import pg

    if not pg.available():
        pytest.skip("PostgreSQL is not installed here (.ci/run installs it)")
    with pg.server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request, tmp_path):
    """An empty database of every supported kind, one test at a time."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
        return
    from tests.pg import fresh_database

    async with fresh_database(request.getfixturevalue("postgres_server")) as url:
        yield url


def pytest_configure(config):
    os.environ.setdefault("BOT_TESTING", "1")
