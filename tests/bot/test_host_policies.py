"""Server policies on who may host where, checked on the host directly (the loopback server has no roles)."""

from types import SimpleNamespace

import pytest

from bot.lobby import Refusal, check_hosting_allowed, parse_options


def interaction(roles=(), channel=10, manager=False):
    return SimpleNamespace(
        user=SimpleNamespace(roles=[SimpleNamespace(id=r) for r in roles]),
        channel_id=channel,
        permissions=SimpleNamespace(manage_guild=manager),
    )


def settings(role=None, channels=()):
    return SimpleNamespace(host_role_id=role, game_channel_ids=list(channels))


def test_only_the_host_role_may_open_lobbies():
    check = check_hosting_allowed
    check(interaction(roles=[5]), settings(role=5), "en")
    check(interaction(manager=True), settings(role=5), "en")  # managers always may
    with pytest.raises(Refusal, match="<@&5>"):
        check(interaction(roles=[6]), settings(role=5), "en")


def test_lobbies_only_in_the_chosen_channels():
    check = check_hosting_allowed
    check(interaction(channel=10), settings(channels=[10, 11]), "en")
    with pytest.raises(Refusal, match="<#10>"):
        check(interaction(channel=12), settings(channels=[10, 11]), "ko")


def test_options_are_read_as_name_value_pairs():
    assert parse_options("short_game=true, Seats = 3;x=y", "en") == {
        "short_game": "true",
        "seats": "3",
        "x": "y",
    }
    assert parse_options("  ", "en") == {}
    with pytest.raises(Refusal, match="name=value"):
        parse_options("fast", "en")
