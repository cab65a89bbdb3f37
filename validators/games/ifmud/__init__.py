"""ifMUD Nomic (seed 002, rules 1-160): unanimous consent, a map of rooms, turns by surname,
tokens, servants, tolls, time bombs, the monkey, the pieman, quests and Dark Gifts.

No dynasty and no leader. See docs/modules/ifmud.md.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import DocKind, Module, Problem, State
from . import bombs, consent, extras, fresh, gifts, movement, pieman, quests, rename, robot, tokens, turns
from . import world as w
from .consequences import consequence
from .pages import open_votes, pages


def _invariants(state: State) -> Iterator[Problem]:
    names = set(w.room_names(state))
    if len(names) != len(w.rooms(state)):
        yield Problem("two rooms have the same name", file="map", field="rooms")
    first: dict[frozenset[str], int] = {}
    # seed 002 Rule 25: two rooms are joined or not, so a pair is listed once; repealed, twice is no fault
    once = not w.repealed(state, "r25")
    for i, c in enumerate(state.doc("map")["connections"]):
        for r in c["between"]:
            if r not in names:
                yield Problem(f"connection to a room that is not on the map: {r!r}", file="map",
                              field=f"connections[{i}]")
        # ifMUD seed, Rules 25 and 39: two rooms are connected (both ways) or not; the map lists each pair once.
        pair = frozenset(c["between"])
        if pair in first and once:
            a, b = c["between"]
            yield Problem(f"{a} and {b} are connected twice: connections[{first[pair]}] joins them already",
                          file="map", field=f"connections[{i}]", rule="r25")
        else:
            first[pair] = i
    players = set(w.player_names(state))
    for i, p in enumerate(state.doc("roster")["players"]):
        # a location of another type than declared (check_roster says so) is no room either
        if not isinstance(p["stats"].get(w.LOCATION), str) or p["stats"].get(w.LOCATION) not in names:
            yield Problem(f"{p['name']} is in {p['stats'].get(w.LOCATION)!r}, which is not a room", file="roster",
                          field=f"players[{i}].stats.location")
    owned: dict[str, int] = {}
    for i, s in enumerate(state.doc("entities")["servants"]):
        if s["owner"] not in players:
            yield Problem(f"servant of {s['owner']!r}, who is not a player", file="entities", field=f"servants[{i}]")
        # ifMUD seed, Rule 44: each player has a servant, one (a token's {servant: owner} names it by its player)
        elif s["owner"] in owned:
            yield Problem(f"{s['owner']} has a second servant: servants[{owned[s['owner']]}] is theirs already, and a "
                          "player has one (Rule 44)", file="entities", field=f"servants[{i}]")
        else:
            owned[s["owner"]] = i
    for which in w.ENTITIES:
        if w.entity_location(state, which) not in names:
            yield Problem(f"the {which} is in {w.entity_location(state, which)!r}, which is not a room",
                          file="entities", field=f"{which}.location")
    for i, s in enumerate(state.doc("entities")["servants"]):
        if s["location"] not in names:
            yield Problem(f"{s['owner']}'s servant is in {s['location']!r}, which is not a room", file="entities",
                          field=f"servants[{i}].location")
    for i, t in enumerate(w.tokens(state)):
        kind, where = w.carrier(t["location"])
        if (kind == "room" and where not in names) or (kind in ("player", "servant") and where not in players):
            yield Problem(f"token {t['name']!r} is at {t['location']}, which does not exist", file="tokens",
                          field=f"tokens[{i}].location", rule="r54")
        if w.is_prize(t) and t["destination"] not in names:
            yield Problem(f"token {t['name']!r} is bound for {t['destination']!r}, not a room", file="tokens",
                          field=f"tokens[{i}].destination", rule="r57")
    # seed 002 Rule 139: a quest's three rooms are different rooms of the map; repealed, they need not differ (a room
    # that leaves the map still ends the quest, Rule 151)
    distinct = 1 if w.repealed(state, "r139") else 3
    for i, q in enumerate(state.doc("quests")["quests"]):
        rooms = [q["home"], q["locate"], q["goal"]]
        if len(set(rooms)) < distinct or not set(rooms) <= names:
            yield Problem("a quest needs three different rooms of the map", file="quests", field=f"quests[{i}]",
                          rule="r139")
    ids = [t["id"] for t in w.tokens(state)]
    if len(ids) != len(set(ids)):
        yield Problem("token ids must be unique", file="tokens", field="tokens")
    if ids and state.doc("tokens")["next"] <= max(ids):
        yield Problem("next must exceed every token id", file="tokens", field="next")
    # seed 002 Rule 100: the monkey carries one token at most; repealed, it may carry more
    if len([t for t in w.tokens(state) if t["location"] == {"monkey": True}]) > 1 and not w.repealed(state, "r100"):
        yield Problem("the monkey carries more than one token (Rule 100)", file="tokens", field="tokens", rule="r100")
    active = state.doc("turn").get("active")
    if active is not None and active not in players and not state.doc("turn").get("over"):
        yield Problem(f"the active player {active!r} is not a player", file="turn", field="active")


MODULE = Module(
    name="ifmud",
    title="ifMUD Nomic",
    docs=[
        DocKind("map", "ifmud_map.schema.json", "Rooms, connections, tolls, visits and damage",
                fresh_founding=fresh.fresh_map, limits=w.map_limits),
        DocKind("entities", "ifmud_entities.schema.json",
                "Servants, the monkey, the pieman, the Omnibus, the robot, the kitten",
                fresh_founding=fresh.fresh_entities),
        DocKind("tokens", "ifmud_tokens.schema.json", "Tokens and where they are", fresh_founding=fresh.fresh_tokens),
        DocKind("quests", "ifmud_quests.schema.json", "The Roster of Quests", fresh_founding=fresh.fresh_quests),
        DocKind("turn", "ifmud_turn.schema.json", "Whose turn it is and what was done in it", fresh.fresh_turn),
        DocKind("consent", "ifmud_consent.schema.json", "Proposals, the Passive Voters list, donations",
                fresh.fresh_consent),
        DocKind("tables", "ifmud_tables.schema.json", "Synonyms, Dark Gifts, available dice"),
    ],
    actions=(turns.ACTIONS + movement.ACTIONS + tokens.ACTIONS + bombs.ACTIONS + quests.ACTIONS
             + consent.ACTIONS + pieman.ACTIONS + robot.ACTIONS + gifts.ACTIONS + extras.ACTIONS),
    gates=[turns.settle],
    consequences=[consequence],
    invariants=[_invariants],
    options_schema=w.OPTIONS_SCHEMA,
    leader=lambda state: None,
    pages=pages,
    open_votes=open_votes,
    # a ratified proposal's effects may rename a player (Rules 7, 10, 12): the module's documents follow
    rename=rename.rename,
    # Rules 10, 12: a player is added by a ratified proposal, and joins when it takes effect (``consent._joined_now``)
    newcomer_hint=("a ratified proposal whose effects add them to the roster (`{op: add, path: /roster/players/-, "
                   "value: {name: NAME, account: LOGIN, stats: {}}}`); their `joined` is set to the moment the "
                   "proposal takes effect (Rules 10, 12), whatever time the effects write"),
    doc=__doc__ or "",
)
