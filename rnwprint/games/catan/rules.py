"""Catan's rules on a finished map: who holds each place, whether every player's pieces
are one network that started at the edge, the town halls, and the points.

A typed-in place holds "COLOUR PIECE" (corners: "red village", "red city"; roads and town
halls: the colour alone, or "red road", "red town-hall"), or a list of them when a place
was written on twice (a photo may see two colours in one circle).
"""

from __future__ import annotations

from dataclasses import dataclass

from rnwprint.core.entries import Entries, shown
from rnwprint.core.report import Report, Violation
from rnwprint.core.errors import RnwError
from rnwprint.games.catan import geometry as geo
from rnwprint.games.catan.pencils import COLOUR_FEMININE, COLOUR_LABEL
from rnwprint.locale import t

CORNER_PIECES = ("village", "city")
PIECE_LABEL = {"village": "catan.piece_village", "city": "catan.piece_city", "road": "catan.piece_road",
               "town-hall": "catan.piece_town_hall"}
PIECE_OF_KIND = {"E": "road", "T": "town-hall"}
BAD_VALUE = {"V": "catan.bad_V", "E": "catan.bad_E", "T": "catan.bad_T"}  # a place's kind -> what a bad value is told
COUNTERS = ("knights", "victory_cards", "resources")  # per player: red_knights …


def colours() -> tuple[str, ...]:
    return tuple(geo.data()["players"])


def counters() -> dict[str, str]:
    """Game.counters: each colour's knights, victory cards and resources (the locale keys)."""
    about = {"knights": "catan.counter_knights", "victory_cards": "catan.counter_victory_cards",
             "resources": "catan.counter_resources"}
    return {f"{c}_{k}": about[k] for c in colours() for k in COUNTERS}


def totals() -> dict[str, str]:
    """Game.totals: each player's Total box on their notes sheet."""
    return {c: "catan.total_box" for c in colours()}


def parse_value(value: object) -> tuple[str, ...] | None:
    """A place as typed in -> its pieces as written (single spaces); None: blank. What the
    words mean is the audit's to judge (a `bad-value`), not the file reader's."""
    items = value if isinstance(value, list) else [value]
    words = []
    for item in items:
        if not isinstance(item, str):
            raise ValueError(f"{shown(item)} is not a piece: write its colour and piece, e.g. \"red village\"")
        text = " ".join(item.split())
        if text:
            words.append(text)
    return tuple(words) or None


@dataclass
class Board:
    """Who holds what, checked: owner and piece per place (places written twice left out)."""

    corners: dict[str, tuple[str, str]]  # V.. -> (colour, "village" | "city")
    roads: dict[str, str]  # E.. -> colour
    halls: dict[str, str]  # T.. -> colour


def _read_places(entries: Entries, lang: str, violations: list[Violation]) -> Board:
    board = Board({}, {}, {})
    for cid in sorted(entries.cells):
        pieces = []
        for word in entries.cells[cid]:
            piece = piece_of(cid, word)
            if piece is None:
                violations.append(Violation("bad-value", (cid,), t(lang, BAD_VALUE[cid[0]], cell=cid, value=shown(word),
                                                                      colours=", ".join(colour_name(c, lang) for c in colours()))))
            elif piece not in pieces:
                pieces.append(piece)
        if len({colour for colour, _ in pieces}) == 1 and len(pieces) == 2:
            # one player's village and city: "se rellena todo el círculo en donde se tenga un pueblo"
            pieces = [(pieces[0][0], "city")]
        if len(pieces) > 1:
            said = ", ".join(piece_name(c, p, lang) for c, p in pieces)
            violations.append(Violation("occupied", (cid,), t(lang, "catan.occupied", cell=cid, pieces=said)))
        elif pieces:
            colour, piece = pieces[0]
            if cid[0] == "V":
                board.corners[cid] = (colour, piece)
            else:
                (board.roads if cid[0] == "E" else board.halls)[cid] = colour
    return board


#: the rule text's words (Spanish puts the piece first: "pueblo rojo", "ciudad roja")
SPANISH = {"rojo": "red", "roja": "red", "azul": "blue", "verde": "green", "naranja": "orange",
           "pueblo": "village", "ciudad": "city", "carretera": "road", "ayuntamiento": "town-hall"}


def piece_of(cid: str, word: str) -> tuple[str, str] | None:
    """(colour, piece) for a word that fits the place, else None; in English ("red city")
    or in Spanish ("ciudad roja")."""
    parts = [SPANISH.get(part, part) for part in word.lower().replace("town hall", "town-hall").split(" ")]
    if len(parts) == 2 and parts[1] in colours() and parts[0] not in colours():
        parts.reverse()
    if parts[0] not in colours() or len(parts) > 2:
        return None
    if cid[0] == "V":
        return (parts[0], parts[1]) if len(parts) == 2 and parts[1] in CORNER_PIECES else None
    piece = PIECE_OF_KIND[cid[0]]
    return (parts[0], piece) if len(parts) == 1 or parts[1] == piece else None


def _groups(nodes: set[str], links: dict[str, set[str]]) -> list[list[str]]:
    """Connected groups of `nodes` (each sorted), in order of their first id."""
    seen: set[str] = set()
    groups = []
    for start in sorted(nodes):
        if start in seen:
            continue
        stack, group = [start], []
        seen.add(start)
        while stack:
            node = stack.pop()
            group.append(node)
            for other in links.get(node, ()):
                if other in nodes and other not in seen:
                    seen.add(other)
                    stack.append(other)
        groups.append(sorted(group))
    return groups


def networks(board: Board, colour: str) -> list[list[str]]:
    """A player's villages, cities and roads in groups joined by roads. Another player's
    piece at a corner does not cut a network here: the finished map does not show who came
    first, and a village built later on someone's road is allowed."""
    island = geo.island()
    nodes = {v for v, (c, _) in board.corners.items() if c == colour}
    nodes |= {e for e, c in board.roads.items() if c == colour}
    links: dict[str, set[str]] = {}
    for e in (n for n in nodes if n[0] == "E"):
        for v in island.edge_corners[e]:
            links.setdefault(e, set()).add(v)  # a corner joins the road only if it is in `nodes`
            links.setdefault(v, set()).add(e)
            for other in island.corner_edges[v]:
                links[e].add(other)
    return _groups(nodes, links)


def longest_roads(board: Board, colour: str) -> int:
    """The most roads of one player joined end to end in one group. As with networks, a
    corner joins them whoever holds it: the text names nothing that cuts a road."""
    island = geo.island()
    roads = {e for e, c in board.roads.items() if c == colour}
    links = {e: {o for v in island.edge_corners[e] for o in island.corner_edges[v]} for e in roads}
    return max((len(g) for g in _groups(roads, links)), default=0)


def colour_name(colour: str, lang: str) -> str:
    """A pencil colour as a report names it: "verde" in Spanish for the file's "green"."""
    return t(lang, COLOUR_LABEL[colour]).lower()


def piece_name(colour: str, piece: str, lang: str) -> str:
    """A player's piece as a report names it: "red village", "ciudad roja"."""
    return t(lang, PIECE_LABEL[piece], colour=colour_name(colour, lang), feminine=t(lang, COLOUR_FEMININE[colour]))


def _check_networks(board: Board, colour: str, lang: str, violations: list[Violation]) -> None:
    rim = geo.island().rim
    groups = networks(board, colour)
    started = [g for g in groups if any(n in rim and n in board.corners for n in g)]
    # the first of the largest (groups come sorted); with no start, one holding a town before a
    # lone road, which is told apart as a road (the README's `road`)
    main = max(started or groups, key=lambda g: (any(n[0] == "V" for n in g), len(g)))
    name = colour_name(colour, lang)
    if not started:
        towns = [n for n in main if n[0] == "V"] or main
        violations.append(Violation("start", tuple(towns), t(lang, "catan.start", colour=name,
                                                             cells=", ".join(towns))))
    for g in groups:
        if g is main:
            continue
        if len(g) == 1 and g[0][0] == "E":
            violations.append(Violation("road", tuple(g), t(lang, "catan.road", colour=name, cell=g[0])))
        else:
            key = "catan.disconnected_one" if len(g) == 1 else "catan.disconnected"
            violations.append(Violation("disconnected", tuple(g), t(lang, key, colour=name, cells=", ".join(g),
                                                                     first=main[0])))


def _check_setup(board: Board, entries: Entries, colour: str, lang: str, violations: list[Violation]) -> None:
    """Every player (`score`'s) starts with a village and a road beside it ("adyacente al pueblo
    dibujará 1 carretera"): one with towns and no road, or counted with nothing on the map, did
    not. (Roads without a town are told by `_check_networks`.)"""
    towns = sorted(v for v, (c, _) in board.corners.items() if c == colour)
    if any(c == colour for c in board.roads.values()):
        return
    name = colour_name(colour, lang)
    if towns:
        violations.append(Violation("start", tuple(towns), t(lang, "catan.start_road", colour=name,
                                                              cells=", ".join(towns))))
        return
    named = sorted(tid for tid, c in board.halls.items() if c == colour)
    named += [f"{colour}_{k}" for k in COUNTERS if entries.counters.get(f"{colour}_{k}", 0)]
    violations.append(Violation("start", tuple(named), t(lang, "catan.start_missing", colour=name,
                                                         cells=", ".join(named))))


def _check_halls(board: Board, lang: str, violations: list[Violation]) -> None:
    island = geo.island()
    for tid, colour in sorted(board.halls.items()):
        own = [v for v in island.terrain_corners[tid] if board.corners.get(v, ("",))[0] == colour]
        if len(own) < 2:
            said = t(lang, "catan.town_hall", cell=tid, colour=colour_name(colour, lang), count=len(own))
            violations.append(Violation("town-hall", (tid, *own), said))


def _award(values: dict[str, int], least: int) -> str | None:
    """The one player with the most (at least `least`); a tie gives it to nobody."""
    best = max(values.values(), default=0)
    leaders = [c for c, v in values.items() if v == best]
    return leaders[0] if best >= least and len(leaders) == 1 else None


def score(board: Board, entries: Entries) -> dict:
    """Points per player with every part, the awards and the winner(s) after the tie-breaks."""
    p = geo.data()["points"]
    count = entries.counters
    players = [c for c in colours()
               if c in {o for o, _ in board.corners.values()} | set(board.roads.values()) | set(board.halls.values())
               or any(count.get(f"{c}_{k}", 0) for k in COUNTERS)]
    rows = {}
    for c in players:
        pieces = [piece for owner, piece in board.corners.values() if owner == c]
        rows[c] = {
            "villages": pieces.count("village"), "cities": pieces.count("city"),
            "town_halls": sum(o == c for o in board.halls.values()),
            "victory_cards": count.get(f"{c}_victory_cards", 0), "resources": count.get(f"{c}_resources", 0),
            "knights": count.get(f"{c}_knights", 0), "roads": sum(o == c for o in board.roads.values()),
            "longest_roads": longest_roads(board, c),
        }
    awards = {"most_knights": _award({c: r["knights"] for c, r in rows.items()}, p["least_knights"]),
              "most_roads": _award({c: r["longest_roads"] for c, r in rows.items()}, 1),
              "most_cities": _award({c: r["cities"] for c, r in rows.items()}, 1)}
    for c, r in rows.items():
        r["points"] = {
            "villages": r["villages"] * p["village"], "cities": r["cities"] * p["city"],
            "town_halls": r["town_halls"] * p["town_hall"], "victory_cards": r["victory_cards"] * p["victory_card"],
            "resources": r["resources"] // p["resources_per_point"],
            **{award: p[award] if who == c else 0 for award, who in awards.items()},
        }
        r["total"] = sum(r["points"].values())
    order = sorted(rows, key=lambda c: (-rows[c]["total"], -rows[c]["town_halls"], -rows[c]["cities"]))
    top = order[:1] and (rows[order[0]]["total"], rows[order[0]]["town_halls"], rows[order[0]]["cities"])
    winners = [c for c in order if (rows[c]["total"], rows[c]["town_halls"], rows[c]["cities"]) == top]
    return {"players": rows, "awards": awards, "winners": winners, "ranking": order}


PART_LABEL = {"villages": "catan.part_villages", "cities": "catan.part_cities", "town_halls": "catan.part_town_halls",
              "victory_cards": "catan.part_victory_cards", "resources": "catan.part_resources",
              "most_knights": "catan.part_most_knights", "most_roads": "catan.part_most_roads",
              "most_cities": "catan.part_most_cities"}


class CatanReport(Report):
    """The audit's report, with the points table in its text."""

    def to_text(self, lang: str) -> str:
        lines = [super().to_text(lang)]
        d = self.details
        lines += [f"  {n['rule']}  {n['message']}" for n in d["notices"]]
        for c in d["ranking"]:
            r = d["players"][c]
            parts = ", ".join(f"{t(lang, PART_LABEL[k])} {v}" for k, v in r["points"].items() if v)
            key = "catan.player_points_1" if r["total"] == 1 else "catan.player_points"
            lines.append(t(lang, key, colour=colour_name(c, lang), total=r["total"], parts=parts or "-"))
        names = {a: colour_name(who, lang) if who else t(lang, "catan.nobody") for a, who in d["awards"].items()}
        lines.append(t(lang, "catan.awards", **names))
        if d["winners"]:
            key = "catan.winner" if len(d["winners"]) == 1 else "catan.winners"
            lines.append(t(lang, key, colours=", ".join(colour_name(c, lang) for c in d["winners"])))
        return "\n".join(lines)


def audit(entries: Entries, lang: str) -> Report:
    if not entries.variant.startswith("map"):
        raise RnwError("the notes sheet is not audited: type in the map (variant = \"map\")", f"{entries.source}: variant")
    violations: list[Violation] = []
    board = _read_places(entries, lang, violations)
    deck = geo.data()["deck"]
    limits = {"knights": deck["knight"], "victory_cards": deck["victory_point"]}
    for name, value in entries.counters.items():
        kind = name.split("_", 1)[1]
        if kind in limits and value > limits[kind]:
            violations.append(Violation("bad-value", (name,), t(lang, "catan.bad_counter", name=name, value=value,
                                                                 most=limits[kind])))
    for kind, most in limits.items():  # one deck for everyone: all players together
        names = [f"{c}_{kind}" for c in colours() if entries.counters.get(f"{c}_{kind}", 0)]
        total = sum(entries.counters[n] for n in names)
        if total > most and all(entries.counters[n] <= most for n in names):  # one over it alone is told above
            violations.append(Violation("bad-value", tuple(names), t(lang, "catan.bad_counter_total",
                                                                     names=", ".join(names), value=total, most=most)))
    builders = {o for o, _ in board.corners.values()} | set(board.roads.values())
    details = score(board, entries)
    for colour in colours():
        if colour in builders:
            _check_networks(board, colour, lang, violations)
        if colour in details["players"]:
            _check_setup(board, entries, colour, lang, violations)
    _check_halls(board, lang, violations)
    free = [v for v in geo.island().corners if v not in entries.cells]  # a circle written on is not free
    # not a violation: the game may have been stopped before the last circle was built
    details["notices"] = [{"rule": "unfinished", "cells": free,
                           "message": t(lang, "catan.unfinished", count=len(free), cells=", ".join(free))}] if free else []
    if not details["players"]:
        said = t(lang, "catan.no_player_contested" if entries.cells else "catan.no_player")
        details["notices"].append({"rule": "players", "cells": [], "message": said})
    elif len(details["players"]) == 1:  # "De 2 a 4 jugadores"; a map may be typed in one player at a time
        [alone] = details["players"]
        details["notices"].append({"rule": "players", "cells": [],
                                   "message": t(lang, "catan.one_player", colour=colour_name(alone, lang))})
    for colour, written in entries.totals.items():
        # "cada jugador procederá a contar sus puntos de Victoria": the Total box of its notes sheet
        counted = details["players"].get(colour, {}).get("total", 0)
        if written != counted:
            violations.append(Violation("written-total", (), t(
                lang, "catan.written_total", colour=colour_name(colour, lang), written=written, total=counted)))
    best = details["winners"][0] if details["winners"] else None
    total = details["players"][best]["total"] if best else 0
    return CatanReport("catan", entries.variant, entries.source, total, violations, details)
