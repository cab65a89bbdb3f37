"""The Monkey dynasty (seed 000, BlogNomic Ruleset 48): the Monkey Line, the Dance, hammers, hats, items.

A dynastic module: a game lists it after its core rules (``modules:
[blognomic, monkey]``). Its documents:

* ``monkey_line``: the positions and who stands in each, and the barrel;
* ``monkey_dance``: the move list, every Monkey's section, the dances so far
  and the last one step by step;
* ``monkey_kit``: the hammer list, the Hat List and which NPC behaves how;
* ``monkey_items``: every item, where it is and its status;
* ``monkey_awesomeness``: Awesomeness Posts and their votes.

Stats on the roster (the GNDT): bananas, dance_moves, hammer, hat, status,
awesomeness. See docs/modules/monkey.md.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import Ctx, DocKind, Event, Module, Problem, State, repealed, ruled
from ...timeutil import next_weekly
from ..blognomic.due import fresh_list
from . import awesomeness, dance, fresh, hammers, items, line, moves, sections
from .common import RULE_NPCS
from .options import OPTIONS_SCHEMA, options
from .pages import dance_action_page
from .pages import pages as draw_pages
from .rename import rename as rename_documents


def _invariants(state: State) -> Iterator[Problem]:
    """The module's checks of a whole state. The options and the shape of the Line belong to no one rule; the
    parts that do are skipped while their rule is repealed (``line.invariants`` asks about each, and the move
    list is the move list of "Dance Moves")."""
    try:
        options(state.config)
    except ValueError as e:
        yield Problem(str(e), field="options.monkey", file="game")
    yield from line.invariants(state)
    # seed 000, "Doing the Dance" (the moves, 2.3 Dance Moves in the example): a move names the positions it acts
    # on; with the move list's rule repealed, nothing checks its names
    if not repealed(state, moves.RULE_MOVES):
        yield from moves.invariants(state)


@ruled(RULE_NPCS)
def _npc_gate(ctx: Ctx) -> Iterator[str]:
    """Seed 000, NPCs: they take no game actions except as a Dance makes them (nor vote on proposals). Tied to
    that rule: once it is repealed, an NPC may act as any Monkey."""
    me = ctx.player()
    if me is not None and me.get("kind") == "npc":
        yield f"{ctx.actor} is a non-player character and takes no actions of eir own"


MODULE = Module(
    name="monkey",
    title="The Monkey dynasty",
    words={"player": "Monkey", "players": "Monkeys", "leader": "Top Banana"},
    docs=[
        DocKind("monkey_line", "monkey_line.schema.json", "The Monkey Line and the barrel"),
        DocKind("monkey_dance", "monkey_dance.schema.json", "The Dance: moves, sections, dances", fresh.fresh_dance),
        DocKind("monkey_kit", "monkey_kit.schema.json", "Hammers, hats and NPCs"),
        DocKind("monkey_items", "monkey_items.schema.json", "Items"),
        DocKind("monkey_awesomeness", "monkey_awesomeness.schema.json", "Awesomeness Posts",
                fresh_list("posts")),
    ],
    actions=(line.ACTIONS + sections.ACTIONS + dance.ACTIONS + hammers.ACTIONS + items.ACTIONS
             + awesomeness.ACTIONS),
    events=[
        # Seed 000, "Items": at the start of each week, 00:00 Sunday morning, deactivated items are activated.
        Event("monkey.items-reactivate", items.RULE, lambda t: next_weekly(t, 6, 0, 0, 0), items.reactivate,
              summary="Every item is activated again; the Banana Fountain is full"),
        # Seed 000, "All Danced Out": the stay ends when the date has changed and twelve hours have passed;
        # the event fires at the moment the first stay is over (held_until), read from the barrel.
        Event("monkey.danced-out-ends", dance.RULE_DANCED_OUT, None, dance.end_holds_event,
              summary="All Danced Out Monkeys whose stay is over get three Dance Moves",
              next_due=dance.next_hold_end),
        # Seed 000, "Awesomeness": a post's result is fixed when its 48 hours end; the count is taken then.
        Event("monkey.awesomeness-tally", awesomeness.RULE, None, awesomeness.tally_event,
              summary="Awesomeness Posts whose 48 hours are over are counted", next_due=awesomeness.next_tally),
    ],
    # After every action: who joined or left takes or leaves a place (a newcomer a proposal's patch added first gets
    # the starting values it did not write: seed 000, Bananas, Hammers, Hats, NPCs ...); a hammer or hat a proposal's
    # patch wrote in another case is written as its list spells it (seed 000, Hammers, Hats; each part asks its
    # rule); a Monkey a proposal's patch moved in the Line leaves eir large and massive items (and small ones, into
    # the barrel) in the square e left (seed 000, "Items"; before the status rule, so that a patch moving em and
    # setting eir status leaves them where e stood first); a Monkey whose status a proposal's patch changed goes where
    # it puts em (seed 000, the status rule: out of the Line, or back at its end); one whose hat a patch made Bare
    # loses a banana (seed 000, Hats, "Bare Head"); an item a proposal's patch added without saying where goes to the
    # Monkey in position 1, and one left lying where a Monkey stands goes to em (seed 000, "Items"); then a stay whose
    # end an action (a proposal's patch) has just put at or before its own time ends at once (seed 000, "All Danced
    # Out"); a Top Banana who starts to lead (an Ascension Address, a patch naming another leader) has ten Dance Moves
    # (seed 000, "Doing the Dance"); the awesomeness votes of Monkeys who went idle or left lapse (seed 001, 1.4). All
    # but the roster sync and the spelling are tied to their rule (engine.ruled): the status rule, Hats, Items, All
    # Danced Out, Doing the Dance, Awesomeness; a repealed one is not run.
    consequences=[line.sync_roster, line.spell_as_listed, line.leave_items_behind, line.follow_status,
                  line.bare_costs_a_banana, line.give_new_items, line.settle_lying_items, dance.end_past_holds,
                  dance.top_banana_starts_with_ten, awesomeness.drop_lapsed_votes],
    gates=[_npc_gate],
    # A Monkey's change of name (seed 001 1.2, a proposal's patch; or core.rename): eir place, section, items and
    # posts follow (rename.py)
    rename=rename_documents,
    invariants=[_invariants],
    options_schema=OPTIONS_SCHEMA,
    pages=draw_pages,
    action_page=dance_action_page,
    doc=__doc__ or "",
)
