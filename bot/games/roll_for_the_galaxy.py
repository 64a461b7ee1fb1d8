"""Words and pictures for Roll for the Galaxy.

Tile, faction and home-world names come from the engine's data (English, Korean and Spanish); /rules finds them
by their name in any of these. Dice, phases, places and powers are worded here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from bot import i18n
from bot.chooser import joint_values
from bot.games.base import GamePresenter, bare_key
from engines.base import Action, Event, View
from engines.roll_for_the_galaxy import data as D
from engines.roll_for_the_galaxy import rules as R
from render import roll_for_the_galaxy as rftg_render

# Keys whose value is a die colour, and keys whose value is a phase.
DIE_KEYS = frozenset({"color", "color2", "shipper"})
PHASE_KEYS = frozenset({"phase", "to", "from"})
# Every side /rules can look up, in the order the card list shows them.
CARD_SIDES = (
    [tile[kind]["id"] for tile in D.TILES for kind in ("development", "world")]
    + [half["id"] for faction in D.FACTIONS for half in faction["halves"]]
    + D.HOME_IDS
)
FACTION_NUMBER = {faction["id"]: faction["number"] for faction in D.FACTIONS}
FACTS_ROOM = 1400  # of a picker message's 2,000 characters, what the lines under its question may take


class RollForTheGalaxyPresenter(GamePresenter):
    engine_name = "roll_for_the_galaxy"
    said_by = {"tile": "side"}  # "World: Alpha Centauri" names the tile already
    names_shared_kinds = True  # "→ Genes die" alone: recruited or produced with?
    render_table_fn = rftg_render.render_table
    render_private_fn = rftg_render.render_private
    private_shows_fn = rftg_render.private_shows

    # --- names of things ------------------------------------------------------------------------------------

    def side_name(self, side_id: str, locale: str) -> str:
        names = D.side(side_id)["name"]
        return names.get(locale[:2], names["en"])

    def die_name(self, color: str, locale: str) -> str:
        return self.t(f"die.{color}", locale)

    def dice_list(self, colors: list[str], locale: str) -> str:
        """ "Military, Novelty ×3": each colour once, in the order it first came, with how many."""
        counted = Counter(colors)
        return self.t("list_sep", locale).join(
            self.die_name(c, locale) + (f" ×{n}" if n > 1 else "") for c, n in counted.items()
        )

    def phase_name(self, phase: str | None, locale: str) -> str:
        if phase is None or phase == "unassigned":
            return self.t("from.unassigned", locale)
        return self.t(f"phase.{phase}", locale)

    def stage_name(self, stage: str, locale: str) -> str:
        return self.t(f"stage.{stage}", locale)

    def world_color(self, color: str, locale: str) -> str:
        return self.t(f"world_color.{color}", locale)

    def tile_both(self, tile: str, locale: str) -> str:
        """A tile not yet placed: both of its faces."""
        sides = D.TILE_SIDES[tile]
        return self.t(
            "tile_both",
            locale,
            dev=self.side_name(sides["development"], locale),
            world=self.side_name(sides["world"], locale),
        )

    def suggestion_label(self, events: list[Event], locale: str) -> str:
        """Explored tiles placed at once, by the face each goes on: "Suggested: developments Galactic Investors,
        Executive Powers · worlds Trading World" (was "3 moves at once", a blind commit)."""
        stacks: dict[str, list[str]] = {"development": [], "world": []}
        for event in events:
            if event["type"] == "TilePlaced" and event.get("side") in stacks:
                side = D.TILE_SIDES[event["tile"]][event["side"]]
                stacks[event["side"]].append(self.side_name(side, locale))
        placed = [
            self.t(f"suggested_{stack}", locale, tiles=self.t("list_sep", locale).join(names))
            for stack, names in stacks.items()
            if names
        ]
        if not placed:
            return super().suggestion_label(events, locale)
        return self.t("suggested_tiles", locale, placed=" · ".join(placed))

    def tile_label(self, tile: str, view: View | None, locale: str) -> str:
        """A tile as its owner sees it: the face it shows in a construction stack, else both faces."""
        me = _my_seat(view)
        if me is not None:
            for key, kind in (("dev_stack", "development"), ("world_stack", "world")):
                if tile in me.get(key, []):
                    return self.t(
                        f"tile_in.{kind}", locale, name=self.side_name(D.TILE_SIDES[tile][kind], locale)
                    )
        return self.tile_both(tile, locale)

    def where_name(self, where: str, locale: str) -> str:
        if where.startswith("good:"):
            return self.t("where.good", locale, world=self.side_name(where[5:], locale))
        if where.startswith("row:"):
            return self.t("where.row", locale, phase=self.phase_name(where[4:], locale))
        return self.t(f"where.{where}", locale)

    def reason_name(self, reason: str, locale: str) -> str:
        if reason in D.SIDES:
            return self.side_name(reason, locale)
        return self.t(f"reason.{reason}", locale)

    # --- choosing actions -----------------------------------------------------------------------------------

    def part_label(self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str) -> str:
        if key == "type":
            return self.t(f"type.{value}", locale)
        if key in DIE_KEYS:
            label = self.t("die_label", locale, die=self.die_name(value, locale))
            if "from" in chosen:  # the row it stands in tells it apart
                return label
            faces = self.faces_of(value, view, locale)
            return f"{label} ({faces})" if faces else label
        if key == "from" and value not in (None, "unassigned"):  # the row a die stands in, not a phase chosen
            return self.t("from.row", locale, phase=self.phase_name(value, locale))
        if key in PHASE_KEYS:
            return self.phase_name(value, locale)
        if key == "good":
            return self.t("good_label", locale, die=self.die_name(value, locale))
        if key == "development":
            return self.start_label(value, view, locale)
        if key == "power":
            return self.t("dictate", locale) if value == "dictate" else self.side_name(value, locale)
        if key == "tile":
            return self.tile_label(value, view, locale)
        if key == "side":
            # One tile drawn is never asked for, but its side is: the button names the face it would show.
            tile = chosen.get("tile") or _lone_drawn(view)
            if tile:
                name = self.side_name(D.TILE_SIDES[tile][value], locale)
                return self.t(f"as.{value}", locale, name=name)
            return self.t(f"kind.{value}", locale)
        if key == "position":
            return self.t(f"position.{value}", locale)
        if key == "where":
            return self.where_name(value, locale)
        if key == "world":
            return self.side_name(value, locale)
        if key == "buy_vp":
            return self.t(f"buy_vp.{'yes' if value else 'no'}", locale)
        return super().part_label(key, value, chosen, view, locale)

    def faces_of(self, color: str, view: View, locale: str) -> str:
        """The faces the viewer's rolled dice of a colour show: a die is chosen for what it shows."""
        me = _my_seat(view) or {}
        faces = [d["f"] for d in me.get("dice", []) if d.get("c") == color and d.get("f")]
        names = [self.t(f"face.{f}", locale) for f in dict.fromkeys(faces) if self.has(f"face.{f}")]
        return " / ".join(names)

    def start_label(self, tile: str, view: View | None, locale: str) -> str:
        dev = self.side_name(D.TILE_SIDES[tile]["development"], locale)
        me = _my_seat(view)
        others = [t for t in (me or {}).get("start_tiles", []) if t != tile]
        if not others:
            return self.t("start_dev_only", locale, dev=dev)
        world = self.side_name(D.TILE_SIDES[others[0]]["world"], locale)
        return self.t("start_pair", locale, dev=dev, world=world)

    def label_text(
        self, key: str, value: Any, chosen: dict[str, Any], view: View, locale: str, with_types: bool
    ) -> str:
        # A die moved in the assignment, said as the sentence it is ("Choose Develop with a Home die (from
        # Explore)"): its parts in a row ("Choose a phase · Home die · from Explore · Develop") read as a code to
        # a review's Korean players.
        params = joint_values(key, value)
        action = {k: v for k, v in {**chosen, **params}.items() if v is not None}
        said = _SENTENCES.get(action.get("type"))
        whole = said and said <= action.keys() and action.keys() <= said | {"type", "color2"}
        if with_types and "type" in params and whole:  # the step asks the move itself, not one of its parts
            return self.single_action_text(action, view, locale)
        return super().label_text(key, value, chosen, view, locale, with_types)

    def single_action_text(self, action: Action, view: View, locale: str) -> str:
        kind = action["type"]
        params = {k: self.value_label(k, v, action, view, locale) for k, v in action.items() if k != "type"}
        if kind == "reassign":
            if action["power"] == "dictate":
                return self.t("action.reassign_dictate", locale, **params)
            if "color2" in action:
                return self.t("action.reassign_pair", locale, **params)
        if kind == "trade" and "buy_vp" in action:
            return self.t("action.trade_buy" if action["buy_vp"] else "action.trade", locale, **params)
        if kind in ("place_tile", "move_tile"):
            params["tile"] = self.tile_label(action["tile"], view, locale)
            params["side"] = self.t(f"stack.{action['side']}", locale)
        if self.has(f"action.{kind}"):
            return self.t(f"action.{kind}", locale, **params)
        return " · ".join([self.t(f"type.{kind}", locale), *params.values()])

    # --- telling what happened ------------------------------------------------------------------------------

    def joined(self, before: Event, event: Event) -> Event | None:
        """One line for what a player did one step at a time: dice recruited (with the fall back to the credit
        floor if it follows), explorers stocked (with the credits they brought) or sent scouting (with the tiles
        drawn), a good shipped with what it brought; one line for everyone who got ready in a row; a phase in which
        nothing was told named in the next one's line; a run of tiles discarded. A ready taken back is not told at
        all (a review's board filled with a player's ready, not ready, ready)."""
        seat, kind, was = event.get("seat"), event["type"], before["type"]
        if was in ("PlayerReady", "PlayersReady"):
            ready = before.get("ready", [before.get("seat")])
            if kind == "PlayerReady":
                return {"type": "PlayersReady", "ready": [*ready, seat]}
            if kind == "PlayerUnready" and seat in ready:
                still = [s for s in ready if s != seat]
                return {"type": "PlayersReady", "ready": still} if len(still) > 1 else _ready(still)
        if before.get("seat") != seat:
            return None
        if kind == "PhaseStarted" and was == "PhaseStarted":  # nothing was told in the earlier phase: say so
            return {**event, "quiet": [*before.get("quiet", []), before["phase"]]}
        if kind == "WorkerRecruited" and was in ("WorkerRecruited", "WorkersRecruited"):
            return _longer(_recruits(before), _recruits(event))
        if kind == "CreditsFloored" and was in ("WorkerRecruited", "WorkersRecruited"):
            return {**_recruits(before), "type": "WorkersRecruitedFloored", "credits": event["credits"]}
        if kind == "CreditsGained" and event["reason"] == "stock" and was == "Stocked":
            run = {"type": "ExplorersStocked", "seat": seat, "colors": [before["color"]]}
            return {**run, "amount": event["amount"], "credits": event["credits"]}
        if kind == "TilesScouted" and was == "ScoutStarted":
            return {
                "type": "ExplorersScouted",
                "seat": seat,
                "colors": [before["color"]],
                "drawn": event["count"],
            }
        if kind == was and kind in ("ExplorersStocked", "ExplorersScouted"):
            return _longer(before, event)
        if kind == was == "TilesDiscarded":  # scouting's discards, one at a time: "discards 4 tiles"
            return {**before, "count": before["count"] + event["count"]}
        if kind == "VpGained" and event["reason"] == "consume" and was == "GoodConsumed":
            return {**before, "type": "GoodConsumedForVp", "amount": event["amount"], "pool": event["pool"]}
        if kind == "CreditsGained" and event["reason"] == "trade" and was == "GoodTraded":
            return {
                **before,
                "type": "GoodTradedForCredits",
                "amount": event["amount"],
                "credits": event["credits"],
            }
        return None

    def event_params(
        self, event: Event, params: dict[str, Any], names: list[str], view: View, locale: str
    ) -> dict[str, Any]:
        kind = event["type"]
        if "color" in event:
            params["color"] = self.die_name(event["color"], locale)
        if "colors" in event:  # the runs `condensed` made
            params["dice"] = self.dice_list(event["colors"], locale)
            params["count"] = len(event["colors"])
        # "Ana, Bo and Cy"; a plain list where no "and" is put in, so Korean gives each its honorific ("Ana님, Bo님이")
        if kind == "PlayersReady":
            ready = [names[s] for s in event["ready"]]
            if self.t("last_sep", locale) == self.t("list_sep", locale):
                params["players"] = ready
            else:
                *first, last = ready
                params["players"] = self.t("list_sep", locale).join(first) + self.t("last_sep", locale) + last
        if "drawn" in event:
            params["tiles"] = self.t("tiles_drawn", locale, count=event["drawn"])
        for key in ("good", "shipper"):
            if key in event:
                params[key] = self.die_name(event[key], locale)
        if "world" in event:
            params["world"] = self.side_name(event["world"], locale)
        if "where" in event:
            params["where"] = self.where_name(event["where"], locale)
        if "reason" in event:
            params["reason"] = self.reason_name(event["reason"], locale)
        if "phase" in event:
            params["phase"] = self.stage_name(event["phase"], locale)
        if "quiet" in event:
            params["quiet"] = self.t("list_sep", locale).join(
                self.stage_name(p, locale) for p in event["quiet"]
            )
        if kind == "StartTilesPlaced":
            params["development"] = self.side_name(D.TILE_SIDES[event["development"]]["development"], locale)
        if kind in ("TileDiscarded", "TileReturned"):
            params["tile"] = self.tile_both(event["tile"], locale)
        # a tile in a stack by the face it now shows (both faces, "A / B", read as two tiles)
        if kind in ("TilePlaced", "TileMoved"):
            params["tile"] = self.side_name(D.TILE_SIDES[event["tile"]][event["side"]], locale)
            params["side"] = self.t(f"stack.{event['side']}", locale)
            params["position"] = self.t(f"position.{event['position']}", locale)
        if kind == "TilesDrawn":
            tiles = [self.tile_both(t, locale) for t in event["tiles"]]
            params["tiles"] = self.t("list_sep", locale).join(tiles) or self.t("nothing", locale)
        if kind in ("TileCompleted", "TileProgressed"):
            params["name"] = self.side_name(event["side"], locale)
            params["kind"] = self.t(f"kind.{event['kind']}", locale)
        if kind == "TileCompleted":
            params["to_cup"] = self.dice_list(event["to_cup"], locale) if event["to_cup"] else ""
        if kind == "TileProgressed":
            params["dice"] = self.dice_list(event["dice"], locale)
        if kind == "DiceGained":
            params["to"] = self.t(f"where.{event['to']}", locale)
        if kind == "DiceRolled":
            faces = [
                self.t("face", locale, die=self.die_name(c, locale), face=self.t(f"face.{f}", locale))
                for c, f in event["faces"]
            ]
            params["faces"] = self.t("list_sep", locale).join(faces) or self.t("nothing", locale)
        if kind == "AssignmentChanged":
            params["action"] = self.action_text(event["action"], view, locale)
        if kind == "AssignmentsRevealed":
            params["phases"] = self.phase_list(event["phases"], locale)
            chosen = [
                self.t("chose", locale, player=names[s], phase=self.phase_name(r["chosen"], locale))
                for s, r in enumerate(event["seats"])
                if r["chosen"]
            ]
            params["choices"] = self.t("list_sep", locale).join(chosen) or self.t("nothing", locale)
            params["extra_die"] = self.phase_name(event["extra_die"], locale) if event["extra_die"] else ""
        if kind == "TileShortage":
            params["scout"] = names[event["scout"]]
            # a list: Korean gives each name its honorific ("Ana님, Bo님은"), not the last one only
            params["waiting"] = [names[s] for s in event["waiting"]] or self.t("nobody", locale)
        if kind == "GameEnded":
            reasons = []
            if event["vp_pool_empty"]:
                reasons.append(self.t("end.vp_pool", locale))
            if event["full_tableaus"]:
                who = self.t("list_sep", locale).join(names[s] for s in event["full_tableaus"])
                reasons.append(self.t("end.tableau", locale, players=who))
            if not reasons:
                reasons.append(self.t("end.stalled", locale))
            params["why"] = self.t("list_sep", locale).join(reasons)
            params["scores"] = self.t("list_sep", locale).join(
                f"{names[s]} {score}" for s, score in enumerate(event["scores"])
            )
        return params

    def event_text(self, event: Event, names: list[str], view: View, locale: str) -> str | None:
        # A few events read differently depending on their contents; the rest use event.<type>.
        kind = event["type"]
        variant = None
        if kind == "TileCompleted" and event["to_cup"]:
            variant = "TileCompleted_cup"
        elif kind == "AssignmentsRevealed" and event["extra_die"]:
            variant = "AssignmentsRevealed_extra"
        elif kind == "PhaseStarted" and event.get("quiet"):  # the round's phases named, none left unaccounted
            variant = "PhaseStarted_after_quiet"
        if variant is None:
            return super().event_text(event, names, view, locale)
        params = {k: v for k, v in event.items() if k not in ("type", "private")}
        if "seat" in params:
            params["player"] = names[params["seat"]]
        return self.t(f"event.{variant}", locale, **self.event_params(event, params, names, view, locale))

    def phase_list(self, phases: list[str], locale: str) -> str:
        return self.t("list_sep", locale).join(self.phase_name(p, locale) for p in phases) or self.t(
            "no_phases", locale
        )

    def error_text(self, code: str, params: dict[str, Any], locale: str) -> str:
        shown = dict(params)
        if "power" in shown:
            power = shown["power"]
            shown["power"] = (
                self.t("dictate", locale)
                if power == "dictate" or power not in D.SIDES
                else self.side_name(power, locale)
            )
        if "stage" in shown:
            shown["stage"] = (
                self.stage_name(str(shown["stage"]), locale) if self.has(f"stage.{shown['stage']}") else ""
            )
        if "action" in shown:
            shown["action"] = (
                self.t(f"type.{shown['action']}", locale) if self.has(f"type.{shown['action']}") else ""
            )
        if "tile" in shown:
            shown["tile"] = self.tile_both(shown["tile"], locale) if shown["tile"] in D.TILE_SIDES else ""
        if "color" in shown:
            shown["color"] = (
                self.die_name(shown["color"], locale) if self.has(f"die.{shown['color']}") else ""
            )
        return super().error_text(code, shown, locale)

    def status_text(self, view: View, names: list[str], locale: str) -> str:
        stage = view["stage"]
        if stage == "over":
            return self.t("status.over", locale)
        # a list: Korean gives each name its honorific
        waiting = [names[s] for s in view["to_act"] if s < len(names)]
        if stage == "setup":
            return self.t("status.setup", locale, waiting=waiting)
        if view.get("shortage"):
            return self.t("status.shortage", locale, round=view["round"], waiting=waiting)
        if stage == "assign":
            return self.t("status.assign", locale, round=view["round"], waiting=waiting)
        return self.t(
            "status.phase",
            locale,
            round=view["round"],
            stage=self.stage_name(stage, locale),
            phases=self.phase_list(view["phases"], locale),
            waiting=waiting,
        )

    # --- card lookup for /rules -----------------------------------------------------------------------------

    def choice_facts(
        self, key: str, values: list[Any], chosen: dict[str, Any], view: View, locale: str
    ) -> list[str]:
        """What the buttons can only name: what each side of the starting or scouted tiles does, what each good
        trades or consumes for, the credits and dice a manager has, what dictating does."""
        if view.get("stage") == "setup":
            if key != "development":
                return []
            sides = [D.TILE_SIDES[tile][kind] for kind in ("development", "world") for tile in values]
            return [f"• **{self.side_name(side, locale)}** {self.side_text(side, locale)}" for side in sides]
        me = _my_seat(view)
        if me is None:
            return []
        types, powers = _offered(key, values, chosen)
        lines: list[str] = []
        drawn = [] if view.get("shortage") else _drawn(me)
        for tile in [chosen["tile"]] if chosen.get("tile") in drawn else drawn:
            lines += [self.side_fact(D.TILE_SIDES[tile][kind], locale) for kind in ("development", "world")]
        # Shipping's payoffs once its shippers are out; a chain reaching it from Produce is told at its step.
        if types & {"trade", "consume"} and "shippers" in me["task"]:
            lines += self.ship_facts(me, types, locale)
        explorers = [color for color, _ in (me.get("task") or {}).get("explorers", [])]
        if types & {"scout", "stock"} and explorers:  # how many are still to send, the menu's chains aside
            lines.append(
                self.t("fact.explorers", locale, count=len(explorers), dice=self.dice_list(explorers, locale))
            )
        if "produce" in types and "producers" in me["task"]:  # as for shipping: once its producers are out
            lines += self.produce_facts(me, chosen, locale)
        if types & {"recruit", "reclaim"}:
            lines.append(self.manage_fact(me, locale))
        if "dictate" in types or "dictate" in powers:
            lines.append(self.dictate_fact(me, locale))
        return _within(lines, FACTS_ROOM, lambda untold: self.t("fact.more", locale, count=untold))

    def side_fact(self, side_id: str, locale: str) -> str:
        """A side as a scout weighs it: what it costs and does, and the VP it brings: its cost, and more at the
        game's end for a 6-cost development with an end-game power ("6+")."""
        cost = D.side(side_id)["cost"]
        text = self.side_text(side_id, locale)
        more = any(power["when"] == "end_game" for power in D.powers(side_id))
        vp = f"{cost}+" if more else cost
        return self.t("fact.side", locale, name=self.side_name(side_id, locale), text=text, vp=vp)

    def ship_facts(self, me: dict[str, Any], types: set[str], locale: str) -> list[str]:
        """Each good on the mover's worlds with what trading it pays and what consuming it scores with each of
        their shippers, powers included, as the engine pays them."""
        shippers = R.sort_colors({color for color, _ in me["task"]["shippers"]})
        lines = []
        for entry in R.worlds(me):
            world_color = D.side(entry["id"])["color"]
            for good in R.sort_colors(set(entry["goods"])):
                payoffs = []
                if "trade" in types:
                    payoffs.append(self.trade_fact(me, world_color, locale))
                if "consume" in types:
                    payoffs.append(self.consume_fact(me, shippers, good, world_color, locale))
                lines.append(
                    self.t(
                        "fact.good",
                        locale,
                        good=self.t("good_label", locale, die=self.die_name(good, locale)),
                        world=self.side_name(entry["id"], locale),
                        payoffs=" · ".join(payoffs),
                    )
                )
        return lines

    def produce_facts(self, me: dict[str, Any], chosen: dict[str, Any], locale: str) -> list[str]:
        """What a good on each world with room for one will be worth: its trade price, and which of the dice to
        produce with (the one chosen, once it is) make a good of the world's own colour, which consumes for 1 VP
        more."""
        dice = me["task"]["producers"]
        if chosen.get("type") == "produce" and "color" in chosen:
            dice = [chosen["color"]]
        lines = []
        for world in R.free_slots(me):
            world_color = D.side(world)["color"]
            trade = self.trade_fact(me, world_color, locale)
            name, colour = self.side_name(world, locale), self.die_name(world_color, locale)
            matching = R.sort_colors({c for c in dice if c in (world_color, "purple")})
            if matching:
                labels = [self.t("die_label", locale, die=self.die_name(c, locale)) for c in matching]
                dice_text = self.t("or_sep", locale).join(labels)
                lines.append(
                    self.t(
                        "fact.produce_match", locale, world=name, color=colour, trade=trade, dice=dice_text
                    )
                )
            else:
                lines.append(self.t("fact.produce", locale, world=name, color=colour, trade=trade))
        return lines

    def trade_fact(self, me: dict[str, Any], world_color: str, locale: str) -> str:
        price = R.trade_price(me, world_color)
        cap = D.RULES["credit_cap"]
        if me["credits"] + price > cap:  # the engine stops credits at the cap
            return self.t("fact.trade_capped", locale, amount=price, cap=cap)
        return self.t("fact.trade", locale, amount=price)

    def consume_fact(
        self, me: dict[str, Any], shippers: list[str], good: str, world_color: str, locale: str
    ) -> str:
        """What consuming scores, by the shippers that score alike: a matching shipper scores more."""
        by_gain: dict[str, list[str]] = {}
        for shipper in shippers:
            vp, credits = R.consume_gain(me, shipper, good, world_color)
            gains = [self.t("gain.vp", locale, n=vp)]
            if credits:
                gains.append(self.t("gain.credits", locale, n=credits))
            gain = self.t("and_sep", locale).join(gains)
            by_gain.setdefault(gain, []).append(
                self.t("die_label", locale, die=self.die_name(shipper, locale))
            )
        if len(by_gain) == 1:
            return self.t("fact.consume", locale, gains=next(iter(by_gain)))
        return " / ".join(
            self.t("fact.consume_by", locale, gains=gain, dice=self.t("or_sep", locale).join(dice))
            for gain, dice in by_gain.items()
        )

    def manage_fact(self, me: dict[str, Any], locale: str) -> str:
        nothing = self.t("nothing", locale)
        key = "fact.recruiting" if me["task"].get("recruiting") else "fact.reclaiming"
        return self.t(
            key,
            locale,
            credits=me["credits"],
            citizenry=self.dice_list(me["citizenry"], locale) or nothing,
            cup=self.dice_list(me["cup"], locale) or nothing,
        )

    def dictate_fact(self, me: dict[str, Any], locale: str) -> str:
        """Dictating, as the rulebook has it: one worker on Dictate moves another (Galactic Mandate: three)."""
        return self.t("fact.dictate", locale, count=R.dictate_count(me))

    def cards(self, locale: str) -> list[tuple[str, str]]:
        return [self.card(side_id, locale) for side_id in CARD_SIDES]

    def card(self, side_id: str, locale: str) -> tuple[str, str]:
        data = D.side(side_id)
        text = self.side_text(side_id, locale)
        if "tile" in data:
            other = next(s for s in D.TILE_SIDES[data["tile"]].values() if s != side_id)
            text = f"{text} {self.t('other_side', locale, name=self.side_name(other, locale))}"
        elif "faction" in data:
            text = f"{self.t('faction_half', locale, number=FACTION_NUMBER[data['faction']])} {text}"
        else:
            text = f"{self.t('home_world', locale)} {text}"
        return self.side_name(side_id, locale), text

    def lookup_card(self, name: str, locale: str) -> tuple[str, str] | None:
        """A side by its name in any language, told in the reader's."""
        wanted = name.casefold().strip()
        for lang in dict.fromkeys((i18n.norm(locale), *i18n.LOCALES)):  # the reader's language first
            for side_id in CARD_SIDES:
                if self.side_name(side_id, lang).casefold() == wanted:
                    return self.card(side_id, locale)
        return None

    def suggest_cards(self, typed: str, locale: str) -> list[tuple[str, str]]:
        """Sides whose name in any language contains what was typed; the label adds the name typed if it is
        another language's."""
        wanted = typed.casefold().strip()
        langs = dict.fromkeys((i18n.norm(locale), *i18n.LOCALES))
        out = []
        for side_id in CARD_SIDES:
            own = self.side_name(side_id, locale)
            names = (self.side_name(side_id, lang) for lang in langs)
            typed_as = next((n for n in names if wanted in n.casefold()), None)
            if typed_as is not None:
                out.append((own if typed_as == own else f"{own} ({typed_as})", own))
        return out[:25]

    def side_text(self, side_id: str, locale: str) -> str:
        data = D.side(side_id)
        if data["kind"] == "development":
            head = self.t("card.development", locale, cost=data["cost"])
        else:
            head = self.t(
                "card.world", locale, cost=data["cost"], color=self.world_color(data["color"], locale)
            )
        parts = [head]
        parts += [self.power_text(p, locale) for p in data.get("powers", [])]
        effects = data.get("on_complete" if data["kind"] == "development" else "on_place", [])
        if effects:
            lead = self.t(f"card.on_{data['kind']}", locale)
            parts.append(lead + " " + " ".join(self.effect_text(e, locale) for e in effects))
        if not data.get("powers") and not effects:
            parts.append(self.t("card.no_power", locale))
        return " ".join(parts)

    def colors_text(self, colors: list[str], locale: str, worlds: bool = False) -> str:
        name = self.world_color if worlds else self.die_name
        return self.t("or_sep", locale).join(name(c, locale) for c in colors)

    def power_text(self, power: dict[str, Any], locale: str) -> str:
        effect = power["effect"]
        when = power["when"]
        p: dict[str, Any] = {k: v for k, v in power.items() if k not in ("when", "effect")}
        p["phase"] = self.phase_name(when, locale) if when in D.PHASES else ""
        if effect == "extra_workers":
            p["colors"] = self.t("and_sep", locale).join(self.die_name(c, locale) for c in power["colors"])
        elif "colors" in power:
            p["colors"] = self.colors_text(power["colors"], locale, worlds=True)
        if "world_colors" in power:
            p["world_colors"] = self.colors_text(power["world_colors"], locale, worlds=True)
        if "good_colors" in power:
            p["good_colors"] = self.colors_text(power["good_colors"], locale)
        if "color" in power:
            p["color"] = self.die_name(power["color"], locale)
        if effect == "reassign":
            return self.reassign_text(power, locale)
        if effect == "cost_reduction":
            target = power["target"]
            key = "world_colors" if target == "world" and "colors" in power else target
            return self.t(f"power.cost_reduction.{key}", locale, **p)
        if effect == "credits_per_completion":
            key = "/".join(power["kinds"])
            text = self.t(
                "power.credits_per_completion",
                locale,
                kinds=self.t(f"kinds.{key}", locale),
                **_drop(p, "kinds"),
            )
            if power.get("bonus"):
                text += " " + self.t(
                    "power.completion_bonus",
                    locale,
                    bonus=power["bonus"],
                    colors=self.colors_text(power["bonus_colors"], locale, worlds=True),
                )
            return text
        if effect == "workers_to_cup":
            kind = "development" if when == "develop" else "world"
            key = "color" if "color" in power else "max"
            return self.t(
                f"power.workers_to_cup.{key}", locale, kind=self.t(f"kind.{kind}", locale), **_drop(p, "kind")
            )
        if effect == "vp_fraction":
            of = power["of"]
            key = "world_cost_colors" if of == "world_cost" and "colors" in power else of
            return self.t(f"power.vp_fraction.{key}", locale, **p)
        if effect == "vp_per":
            what = power["what"]
            key = "worlds_colors" if what == "worlds" and "colors" in power else what
            return self.t(f"power.vp_per.{key}", locale, **p)
        if effect in ("consume_bonus", "trade_bonus"):
            where = "colors" if "world_colors" in power else "any"
            gains = []
            if power.get("vp"):
                gains.append(self.t("gain.vp", locale, n=power["vp"]))
            if power.get("credits"):
                gains.append(self.t("gain.credits", locale, n=power["credits"]))
            p["gains"] = self.t("and_sep", locale).join(gains)
            return self.t(f"power.{effect}.{where}", locale, **p)
        if effect == "credits_per_good":
            key = "good_colors" if "good_colors" in power else "world_colors"
            return self.t(f"power.credits_per_good.{key}", locale, **p)
        return self.t(f"power.{effect}", locale, **p)

    def reassign_text(self, power: dict[str, Any], locale: str) -> str:
        dice = self.t(f"dice.{power['dice']}", locale)
        source = (
            self.t("any_phase", locale) if power["from"] == "any" else self.phase_name(power["from"], locale)
        )
        if power["to"] == "any":
            target = self.t("any_phase", locale)
        else:
            target = self.t("or_sep", locale).join(self.phase_name(ph, locale) for ph in power["to"])
        key = "power.reassign.exact" if power.get("exact") else "power.reassign"
        text = self.t(key, locale, max=power["max"], dice=dice, source=source, target=target)
        if power.get("same_target") and not power.get("exact"):
            text += " " + self.t("power.reassign.same_target", locale)
        if power.get("condition") == "most_blue_worlds":
            text += " " + self.t("power.reassign.most_blue", locale)
        return text

    def effect_text(self, effect: dict[str, Any], locale: str) -> str:
        kind = effect["effect"]
        p = {k: v for k, v in effect.items() if k != "effect"}
        if "color" in effect:
            p["color"] = self.die_name(effect["color"], locale)
        if kind == "gain_die":
            p["to"] = self.t(f"where.{effect['to']}", locale)
            return self.t("effect.gain_die" if effect["count"] == 1 else "effect.gain_dice", locale, **p)
        return self.t(f"effect.{kind}", locale, **p)


def _my_seat(view: View | None) -> dict[str, Any] | None:
    if not view or view.get("viewer") is None:
        return None
    return view["seats"][view["viewer"]]


def _drawn(me: dict[str, Any]) -> list[str]:
    """The tiles the viewer has drawn scouting and not yet placed (only their own view holds them)."""
    scout = (me.get("task") or {}).get("scout") or {}
    return list(scout.get("drawn", [])) if scout.get("drew") else []


def _lone_drawn(view: View | None) -> str | None:
    drawn = _drawn(_my_seat(view) or {})
    return drawn[0] if len(drawn) == 1 else None


def _offered(key: str, values: list[Any], chosen: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The kinds of move and the reassign powers among a step's choices and what was chosen before them, in
    any move of a chain."""
    types: set[str] = set()
    powers: set[str] = set()
    for value in values:
        for param, part in {**chosen, **joint_values(key, value)}.items():
            found = {"type": types, "power": powers}.get(bare_key(param))
            if found is not None and isinstance(part, str):
                found.add(part)
    return types, powers


def _within(lines: list[str], room: int, more: Callable[[int], str]) -> list[str]:
    """The lines that fit in `room` characters, then a line counting those left out."""
    kept: list[str] = []
    for line in lines:
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    untold = len(lines) - len(kept)
    return kept + [more(untold)] if untold else kept


def _drop(params: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k not in keys}


def _recruits(event: Event) -> Event:
    """A die recruited as a run of one, or a run as it is."""
    if event["type"] == "WorkersRecruited":
        return event
    return {
        "type": "WorkersRecruited",
        "seat": event["seat"],
        "colors": [event["color"]],
        "credits": event["credits"],
    }


# The assignment's moves of a die whose label is their sentence, with what each sentence names.
_SENTENCES = {
    "choose_phase": {"phase", "color", "from"},
    "dictate": {"color", "from"},
    "reassign": {"power", "color", "from", "to"},
}


def _ready(seats: list[int]) -> Event:
    """One player ready, or nothing to tell."""
    return {"type": "PlayerReady", "seat": seats[0]} if seats else {}


def _longer(run: Event, more: Event) -> Event:
    """Two runs of one kind as one: the colours of both, the sums of what they brought, the balance after both."""
    summed = {key: run[key] + more[key] for key in ("amount", "drawn") if key in more}
    return {**more, "colors": run["colors"] + more["colors"], **summed}
