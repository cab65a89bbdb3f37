"""A Monkey's change of name (the core's: seed 001 1.2, by an enacted proposal; ``core.rename`` where the core
variant lets a player do it): the Monkey module's documents follow, so the Monkey keeps eir place and all
that is eirs.

Seed 000 keeps a Monkey's things under eir name: eir place in the Monkey Line or the barrel ("The Monkey
Line", the status rule, "All Danced Out"), eir section of the Dance ("Doing the Dance"), the items e holds
("Items"), the Awesomeness Posts e wrote, is named in or voted on ("Awesomeness"), and, for an NPC, which of
the seed's behaviours e has ("NPCs"). Without this hook the engine refuses every change of name (the module
keeps names it cannot rename), and a proposal's patch that renames a Monkey on the roster alone would have
the Line take em for one who left and a newcomer: eir section emptied, eir items dropped.

Renamed: ``monkey_line`` (the positions and the barrel), ``monkey_dance`` (the Monkey's section, and who
conducted each dance in the history and the last dance, which the 48-hour wait between dances reads),
``monkey_items`` (``held_by``), ``monkey_awesomeness`` (authors, the Monkey each post names, votes, in their
places) and ``monkey_kit`` (an NPC's behaviour). The hammer, hat and the other stats are on the roster, which
the engine renames. Kept as written: the last dance's steps (the record of what happened, as the dance's
action file keeps it) and the posts' titles and texts, as the core keeps texts and titles.

An NPC's behaviour follows eir new name in the kit; a Monkey who is not an NPC leaves the kit alone, whatever
names it keeps. Seed 000, NPCs gives the behaviours to NPCs only (``World.load`` matches the kit's names against
roster entries that are NPCs), so a player may take a name the kit keeps for an NPC who has left, as a player
may join under it, and takes on no behaviour. A proposal's patch that renames an NPC both on the roster and in
the kit is applied as written.
"""

from __future__ import annotations

from ...engine import Ctx, peek
from ...roster import rename_in_list, rename_key


def rename(ctx: Ctx, old: str, new: str) -> None:
    docs = ctx.state.docs
    if "monkey_kit" in docs:
        _kit(ctx, old, new)
    if "monkey_line" in docs:
        _line(ctx, old, new)
    if "monkey_dance" in docs:
        _dance(ctx, old, new)
    if "monkey_items" in docs:
        _items(ctx, old, new)
    if "monkey_awesomeness" in docs:
        _awesomeness(ctx, old, new)


def _kit(ctx: Ctx, old: str, new: str) -> None:
    npcs = ctx.doc("monkey_kit").get("npcs") or {}
    me = ctx.player(new)  # the engine has renamed the roster entry already
    if old in npcs and me is not None and me.get("kind"):
        # Seed 000, "NPCs": the behaviour is the NPC's own and goes with em. A player under a name the kit keeps
        # (one who joined under a departed NPC's name) has no behaviour to take along.
        rename_key(ctx, ctx.edit("monkey_kit")["npcs"], old, new, "the NPCs' behaviours")


def _line(ctx: Ctx, old: str, new: str) -> None:
    line = ctx.doc("monkey_line")
    spots = [i for i, e in enumerate(peek(line.get("positions", []))) if old in peek(e.get("monkeys", []))]
    barrel = [i for i, b in enumerate(peek(line.get("barrel", []))) if b.get("name") == old]
    if not (spots or barrel):
        return
    edited = ctx.edit("monkey_line")
    for i in spots:
        rename_in_list(edited["positions"][i]["monkeys"], old, new)
    for i in barrel:
        edited["barrel"][i]["name"] = new


def _dance(ctx: Ctx, old: str, new: str) -> None:
    dance = ctx.doc("monkey_dance")
    sections = [i for i, s in enumerate(peek(dance.get("sections", []))) if s.get("monkey") == old]
    history = [i for i, d in enumerate(peek(dance.get("history", []))) if d.get("by") == old]
    last = (dance.get("last_dance") or {}).get("by") == old
    if not (sections or history or last):
        return
    edited = ctx.edit("monkey_dance")
    for i in sections:
        edited["sections"][i]["monkey"] = new
    for i in history:
        # seed 000, "Doing the Dance": the wait of 48 hours reads who conducted (option dance_cooldown: others)
        edited["history"][i]["by"] = new
    if last:
        edited["last_dance"]["by"] = new


def _items(ctx: Ctx, old: str, new: str) -> None:
    hits = [i for i, item in enumerate(peek(ctx.doc("monkey_items").get("items", []))) if item.get("held_by") == old]
    if hits:
        items = ctx.edit("monkey_items")["items"]
        for i in hits:
            items[i]["held_by"] = new


def _awesomeness(ctx: Ctx, old: str, new: str) -> None:
    posts = ctx.doc("monkey_awesomeness").get("posts", [])
    hits = [i for i, p in enumerate(peek(posts))
            if old in (p.get("author"), p.get("about")) or old in (p.get("votes") or {})]
    if not hits:
        return
    edited = ctx.edit("monkey_awesomeness")["posts"]
    for i in hits:
        post = edited[i]
        for key in ("author", "about"):
            if post.get(key) == old:
                post[key] = new
        if old in (post.get("votes") or {}):
            rename_key(ctx, post["votes"], old, new, f"the votes on Awesomeness Post {post['id']}")
