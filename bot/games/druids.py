"""Words and pictures for Druids."""

from __future__ import annotations

from typing import Any

from bot.chooser import ENDING, JOIN, joint_values
from bot.games.base import GamePresenter, bare_key
from engines.base import Event, View
from engines.druids.engine import card_number, gem_kind, is_follower
from render import druids as druids_render

# The happenings of a refill, and the lines `joined` folds them into.
_REFILL = frozenset({"FollowerTaken", "GemDrawn", "Refilled", "FollowersTaken", "GemsDrawn"})


class DruidsPresenter(GamePresenter):
    engine_name = "druids"
    render_table_fn = druids_render.render_table
    render_private_fn = druids_render.render_private
    private_shows_fn = druids_render.private_shows
    private_twins = {
        "CardPlayed": "OwnCardPlayed",
        "GemDiscarded": "OwnGemDiscarded",
        "FollowerTaken": "OwnFollowerTaken",
        "GemDrawn": "OwnGemDrawn",
    }

    def kind_name(self, kind: str | None, locale: str) -> str:
        return "—" if kind is None else druids_render.kind_name(kind, locale)

    def card_name(self, card: str, locale: str) -> str:
        if is_follower(card):
            return self.t("follower", locale, number=card_number(card))
        return self.t("gem", locale, kind=self.kind_name(gem_kind(card), locale), value=card_number(card))

    def place_name(self, index: int, view: View, locale: str, kind: str | None = None) -> str:
        if kind is None and index < len(view["places"]):
            kind = view["places"][index]["kind"]
        return self.t("place", locale, number=index + 1, kind=self.kind_name(kind, locale))

    def prompt_text(
        self, key: str, locale: str, chosen: dict[str, Any] | None = None, view: View | None = None
    ) -> str:
        """Two cards asked at once are asked as a pair; a place is asked for the card it is for (a joint step asks
        its first part's question, as every game's does)."""
        parts = key.split(JOIN)
        if [bare_key(p) for p in parts[:2]] == ["card", "card"]:
            return self.t("prompt.cards", locale)
        first = bare_key(parts[0])
        kind = (chosen or {}).get(parts[0].removesuffix(first) + "type")
        if (first, kind) == ("card", "discard_gem"):
            return self.t("prompt.discard", locale)
        if (first, kind) == ("place", "request_scoring"):
            return self.t("prompt.score_place", locale)
        card = (chosen or {}).get(parts[0].removesuffix("place") + "card")
        if bare_key(parts[0]) != "place" or card is None or view is None:
            return super().prompt_text(key, locale, chosen, view)
        return self.t("prompt.place_of", locale, card=self.card_name(card, locale))

    def label_text(
        self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str, with_types: bool
    ) -> str:
        # The two cards asked as a pair are played in either order to the same end: "Ruby 8 + Onyx 1", not an
        # arrow that reads as one turning into the other.
        params = [(bare_key(part), v) for part, v in joint_values(key, value).items()]
        cards = [v for part, v in params if part == "card"]
        kinds = {v for part, v in params if part == "type"}
        if len(cards) == 2 and all(part in ("card", "type") for part, _ in params) and kinds <= {"play_card"}:
            return " + ".join(self.card_name(card, locale) for card in cards)
        return super().label_text(key, value, chosen, view, locale, with_types)

    def part_label(self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str) -> str:
        if key == "card":
            return self.card_name(value, locale)
        if key == "place":
            return self.place_name(value, view, locale)
        if key == "number":
            return self.t("follower", locale, number=value)
        if (key, value) == ("type", "request_scoring") and "place" not in chosen:
            # with one place to score, nothing asks which: the choice names it
            scorable = [entry["place"] for entry in view.get("places", []) if entry.get("scorable")]
            if len(scorable) == 1:
                return self.t(
                    "action.request_scoring", locale, place=self.place_name(scorable[0], view, locale)
                )
        return super().part_label(key, value, chosen, view, locale)

    def is_own_event(self, event: Event, seat: int) -> bool:
        """A scoring the mover set off is what their move did: its revealed cards and shared amulets are told
        with it (a review's player who asked for one was told only that they had)."""
        return super().is_own_event(event, seat) or event["type"] in ("PlaceRevealed", "AmuletsDistributed")

    def joined(self, before: Event, event: Event) -> Event | None:
        """A turn's refill in one line: the followers taken and the gems drawn, in whatever order."""
        if not {before["type"], event["type"]} <= _REFILL or before["seat"] != event["seat"]:
            return None
        followers = sum(e.get("followers", e["type"] == "FollowerTaken") for e in (before, event))
        gems = sum(e.get("gems", e["type"] == "GemDrawn") for e in (before, event))
        kind = "Refilled" if followers and gems else "FollowersTaken" if followers else "GemsDrawn"
        return {"type": kind, "seat": event["seat"], "followers": followers, "gems": gems}

    def event_params(
        self, event: Event, params: dict[str, Any], names: list[str], view: View, locale: str
    ) -> dict[str, Any]:
        if "followers" in event:  # the refills `joined` made
            params["followers"] = self.t("followers_n", locale, count=event["followers"])
            params["gems"] = self.t("gems_n", locale, count=event["gems"])
        if "place" in params:
            params["place"] = self.place_name(params["place"], view, locale, kind=event.get("kind"))
            params["number"] = event["place"] + 1
        if "kind" in params:
            params["kind_name"] = self.kind_name(params["kind"], locale)
        if "card" in event:
            params["card_name"] = self.card_name(event["card"], locale)
        if "card_kind" in event:
            params["card_kind_name"] = self.t(f"card_kind.{event['card_kind']}", locale)
        if event["type"] == "PlaceRevealed":
            params["cards"] = ", ".join(
                f"{self.card_name(c['card'], locale)} ({names[c['seat']]})" for c in event["cards"]
            )
        if event["type"] == "GemDeckReshuffled":
            params["count"] = event["size"]
        if event["type"] == "AmuletsDistributed":
            params["count"] = event["amulets"]
            shares = [
                self.t("share", locale, player=names[s["seat"]], follower=s["follower"], amulets=s["amulets"])
                for s in event["shares"]
            ]
            params["shares"] = ", ".join(shares) or self.t("no_followers", locale)
        return params

    def choice_facts(
        self, key: str, values: list[Any], chosen: dict[str, Any], view: View, locale: str
    ) -> list[str]:
        """Where a step asks for a place, how many cards lie at each and how many of them are the mover's (a
        review's player had to read both pictures for it); where it offers both one blind draw and several, what
        the lone one does (look, then draw on); where it offers a place both alone and with the rest of the turn,
        what that rest is."""
        draws, endings, ended = set(), set(), set()
        facts = []
        if any(bare_key(part) == "place" for part in joint_values(key, values[0])) and view is not None:
            facts.append(self.t("places_fact", locale, places=" · ".join(self._place_cards(view, locale))))
        for value in values:
            params = joint_values(key, value)
            draws.add(sum(bare_key(part) == "type" and kind == "draw_gem" for part, kind in params.items()))
            endings.add(params.get(ENDING) is not None)
            ended.update(move["type"] for move in params.get(ENDING) or ())
        if 1 in draws and max(draws) > 1:
            facts.append(self.t("draw_one_fact", locale))
        if endings != {True, False}:
            return facts
        # the discard already chosen, an ending is the refill alone
        discards = bool(ended & {"discard_gem", "skip_discard"})
        return [*facts, self.t("ending_fact" if discards else "ending_fact_refill", locale)]

    def _place_cards(self, view: View, locale: str) -> list[str]:
        """Each place's cards (face-down gems and followers), and how many of them are the viewer's."""
        told = []
        for entry in view["places"]:
            place = self.place_name(entry["place"], view, locale)
            cards = self.t("place_cards", locale, place=place, count=entry["gems"] + len(entry["followers"]))
            mine = len(entry.get("mine") or [])
            told.append(self.t("place_mine", locale, cards=cards, mine=mine) if mine else cards)
        return told

    def status_text(self, view: View, names: list[str], locale: str) -> str:
        if view["finished"]:
            return self.t(f"end.{view['finished']['reason']}", locale)
        phase = view["phase"]
        if phase == "start" and not any(place["scorable"] for place in view["places"]):
            phase = "play"  # no scoring to ask for: the turn is its plays
        step = self.t(f"step.{phase}", locale, left=view["plays_left"])
        return self.t("status", locale, player=names[view["current"]], step=step)
