"""Random input through the loopback server (see tests/e2e/fuzzing.py): every interaction is answered in time with
a short reply, refusals are ephemeral and change nothing, and the bot's own requests are all accepted."""

from __future__ import annotations

import asyncio
import contextlib
import os

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings

from tests.e2e.fuzzing import Case, FuzzWorld, cases
from tests.e2e.harness import harness

pytestmark = pytest.mark.e2e
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "3000"))  # about a minute; bench/fuzz_bench.py runs longer


def test_random_input_is_answered_briefly_and_privately_and_changes_nothing(tmp_path):
    loop = (
        asyncio.new_event_loop()
    )  # hypothesis drives a sync function; the bot lives in this loop throughout
    stack = contextlib.AsyncExitStack()
    try:
        h = loop.run_until_complete(stack.enter_async_context(harness(tmp_path)))
        world = FuzzWorld(h)
        loop.run_until_complete(world.prepare())
        sent = []

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            phases=(Phase.explicit, Phase.generate, Phase.shrink),
            suppress_health_check=list(HealthCheck),
        )
        @given(cases())
        # What the fuzzer once found: a picker id on a public message edited that message into a refusal.
        @example(Case("click", "alice", "lobby", ("mv", "lobby", "own", "10000")))
        @example(Case("select", "bob", "active", ("mvs", "active", "0", "1.2", 0, "3")))
        # The players' sheet menu with a digit int() does not read, and on a game with no sheets.
        @example(Case("select", "dave", "finished", ("sheet", "finished", "²")))
        @example(Case("select", "bob", "active", ("sheet", "active", "0")))
        @example(Case("new", "alice", "games", ("talisman", "**x**=" + "é" * 2_500, None)))
        @example(Case("new", "alice", "games", ("druids", "[0](00*)", None)))  # a link's markdown, left live
        def check(case: Case) -> None:
            outcome = loop.run_until_complete(world.run(case))
            sent.append(outcome.sent)
            assert outcome.harms == [], case

        check()
        assert sum(sent) > EXAMPLES // 2  # most cases reached the bot (the client refuses only a few)
    finally:
        loop.run_until_complete(stack.aclose())
        loop.close()
