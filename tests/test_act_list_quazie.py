"""``nomic act quazie --list``: the Quazie module's actions that take parameters are said not to be possible when no
value would do (``Action.ready``, seed 003 rules 11-25): no move to bounce from, a flavour that may not change, no
Banana to swap with, no Robot to turn, nobody to poke or tag, no tie to break, not the Stuff Describer, no role to
give or remove, no notes for a Concerto or a movement. Each "no" is tried against the judge with every value, and
the "yes" comes back once the game allows it."""

from __future__ import annotations

from datetime import timedelta

from tests import listing
from tests.gitgame import make_repo
from validators.timeutil import parse_time

GAME = "quazie"
NOW = parse_time("2026-11-22T12:00:00Z")

_GAME = listing.Game(GAME, NOW)
_listed, _take, _edit = _GAME.listed, _GAME.take, _GAME.edit
_refused_whatever_the_values = _GAME.refused_whatever_the_values


def _stats(name: str, **stats):
    def change(roster):
        next(p for p in roster["players"] if p["name"] == name)["stats"].update(stats)

    return change


def test_bouncing_and_fruity_moves(tmp_path):
    """Seed 003 rules 12 and 13: Quazie has not moved; Simon's move was days ago. Smith, the only Tropical Muffin,
    has no other Fruity or Tropical Muffin either way. Made Fruity (by hand), Simon moves up towards Smith into an
    empty Position 6: nobody to bounce off. Smith then moves down onto Simon and may bounce off him, once."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Quazie")["quazie.bounce"] == [
        "Quazie has not just moved to Position 9; a Muffin bounces right after moving"]
    assert _listed(repo, "Simon")["quazie.bounce"] == [
        "Simon moved to Position 5 on an earlier day; a bounce follows its move"]
    assert _listed(repo, "Simon")["quazie.fruity-move"] == [
        "Simon is Devils Food; only Fruity and Tropical Muffins move this way"]
    assert _listed(repo, "Smith")["quazie.fruity-move"] == [
        "there is no other Fruity or Tropical Muffin up from Position 7, and there is no other Fruity or Tropical "
        "Muffin down from Position 7"]
    for who, action in (("Quazie", "quazie.bounce"), ("Simon", "quazie.bounce"), ("Smith", "quazie.fruity-move")):
        _refused_whatever_the_values(repo, who, action)
    _edit(repo, "roster", _stats("Simon", flavour="Fruity"))
    assert _listed(repo, "Simon")["quazie.fruity-move"] == []
    _take(repo, "quazie.fruity-move", "Simon", {"direction": "up"}, 3)
    simon = _listed(repo, "Simon")
    assert simon["quazie.fruity-move"] == ["Simon has already made their Fruity move today"]
    assert simon["quazie.bounce"] == [
        "nobody who was at Position 6 when Simon moved there is still there and not yet bounced off today"]
    _refused_whatever_the_values(repo, "Simon", "quazie.bounce")
    _take(repo, "quazie.fruity-move", "Smith", {"direction": "down"}, 2)
    assert _listed(repo, "Smith")["quazie.bounce"] == []
    _take(repo, "quazie.bounce", "Smith", {"off": "Simon", "direction": "down"}, 1)
    assert _listed(repo, "Smith")["quazie.bounce"] == [
        "nobody who was at Position 5 when Smith moved there is still there and not yet bounced off today"]


def test_flavours_swaps_and_devils_food(tmp_path):
    """Seed 003 rule 13: Kevan is Robot and keeps the flavour; Quazie changes his once a day. Cayvie's only fellow
    Banana stands at her Position; once Simon is Banana she may swap with him, once a day. Simon's Devils Food
    needs a Robot Muffin, and Kevan, the only one, goes idle."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Kevan")["quazie.flavour"] == [
        "Kevan is Robot; a Robot Muffin may not change its flavour (except at Position X)"]
    assert _listed(repo, "Quazie")["quazie.swap"] == ["Quazie is Plain, not Banana"]
    cayvie = ["no other Banana Muffin is free to swap with Cayvie today (at another Position than Position 9, and "
              "not yet in a swap today)"]
    assert _listed(repo, "Cayvie")["quazie.swap"] == cayvie
    assert _listed(repo, "Quazie")["quazie.devils-food"] == ["Quazie is Plain, not Devils Food"]
    assert _listed(repo, "Simon")["quazie.devils-food"] == []
    for who, action in (("Kevan", "quazie.flavour"), ("Cayvie", "quazie.swap"), ("Quazie", "quazie.devils-food")):
        _refused_whatever_the_values(repo, who, action)
    _take(repo, "quazie.flavour", "Quazie", {"flavour": "Banana"}, 10)
    assert _listed(repo, "Quazie")["quazie.flavour"] == ["Quazie has already changed flavour today"]
    assert _listed(repo, "Quazie", NOW + timedelta(days=1))["quazie.flavour"] == []
    assert _listed(repo, "Cayvie")["quazie.swap"] == cayvie  # Quazie is Banana now, but at Position 9 too
    _take(repo, "quazie.flavour", "Simon", {"flavour": "Banana"}, 9)
    assert _listed(repo, "Cayvie")["quazie.swap"] == []
    _take(repo, "quazie.swap", "Cayvie", {"with": "Simon"}, 8)
    assert _listed(repo, "Cayvie")["quazie.swap"] == ["Cayvie has already been in a swap today"]
    assert _listed(repo, "75thTrombone")["quazie.swap"] == [
        "no other Banana Muffin is free to swap with 75thTrombone today (at another Position than Position 9, and "
        "not yet in a swap today)"]
    _refused_whatever_the_values(repo, "75thTrombone", "quazie.swap")
    _edit(repo, "roster", _stats("Chronos", flavour="Devils Food"))
    _take(repo, "core.idle", "Kevan", {}, 7)
    assert _listed(repo, "Chronos")["quazie.devils-food"] == ["no active Muffin is Robot"]
    _refused_whatever_the_values(repo, "Chronos", "quazie.devils-food")


def test_pokes_tags_and_dance_offs(tmp_path):
    """Seed 003 rules 14, 20 and 25: Kevan stands alone at Position 4, and a Robot is never poked; Quazie pokes
    once a day. No day is a tag day until one is designated (by hand here); then Cayvie, who is It, may tag at her
    Position, and Simon, Not It and alone, may not. A Dance Off is declared once a day."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Kevan")["quazie.poke"] == [
        "every Muffin at Position 4 (Kevan) is Robot, and a Robot Muffin may never be poked"]
    assert _listed(repo, "Quazie")["quazie.poke"] == []
    not_a_tag_day = "2026-11-22 is not a designated tag day (tag days: 2026-11-05)"
    assert _listed(repo, "Cayvie")["quazie.tag"] == [not_a_tag_day]
    for who, action in (("Kevan", "quazie.poke"), ("Cayvie", "quazie.tag")):
        _refused_whatever_the_values(repo, who, action)
    _take(repo, "quazie.poke", "Quazie", {"target": "Quazie"}, 10)
    assert _listed(repo, "Quazie")["quazie.poke"] == ["Quazie has already tried an eye poking today"]
    _edit(repo, "quazie", lambda q: q["tag_days"].append("2026-11-22"))
    assert _listed(repo, "Cayvie")["quazie.tag"] == []
    assert _listed(repo, "Simon")["quazie.tag"] == ["Simon is Not It; only the Muffin who is It may tag",
                                                    "there is no Muffin Simon may tag at Position 5"]
    _refused_whatever_the_values(repo, "Simon", "quazie.tag")
    _take(repo, "quazie.tag", "Cayvie", {"target": "75thTrombone"}, 9)
    assert _listed(repo, "Cayvie")["quazie.tag"] == ["Cayvie is Not It; only the Muffin who is It may tag"]
    assert _listed(repo, "Cayvie")["quazie.dance-off"] == []
    _take(repo, "quazie.dance-off", "Cayvie", {"opponent": "Simon"}, 8)
    assert _listed(repo, "Cayvie")["quazie.dance-off"] == ["Cayvie has already declared a Dance Off today"]
    _refused_whatever_the_values(repo, "Cayvie", "quazie.dance-off")


def test_the_nature_of_stuff_and_roles(tmp_path):
    """Seed 003 rules 11 and 23: no tie for the most Stuffs is there to break until Quazie's Stuffs equal Kevan's
    (by hand) at the next reckoning; only Kevan, the Stuff Describer, says STUFF SHALL BE, once a week. With a
    GRAND POOBAH in office, nobody in Limbo and Kevan Eggman's Minion already, only Quazie may give a role (Writer
    of Awesome), and it may be removed 24 hours later. It is given for a proposal the Muffin wrote (rule 23, seed 003):
    Kevan wrote proposal 0 before the game began; once he is a Writer, no other Muffin who wrote one may take the
    role (Quazie, who wrote proposal 1, is the GRAND POOBAH), so no role may be given at all."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Quazie")["quazie.choose-describer"] == ["there is no tie for the most Stuffs to decide"]
    assert _listed(repo, "Quazie")["quazie.stuff-shall-be"] == ["Quazie is not the Stuff Describer"]
    assert _listed(repo, "Kevan")["quazie.stuff-shall-be"] == []
    assert _listed(repo, "Simon")["quazie.give-role"] == [
        "no role may be given now: there may be only one GRAND POOBAH, and Quazie is; only the GRAND POOBAH may give "
        "the role of Writer of Awesome; the Stuff Describer is not given; no Muffin is alone in Limbo to be Limbo "
        "King; no Muffin who is not Eggman's Minion already has been at Position 4 for more than 48 hours"]
    assert _listed(repo, "Quazie")["quazie.give-role"] == []
    removed = ["no Muffin holds a role that may be removed now"]
    assert _listed(repo, "Simon")["quazie.remove-role"] == removed
    for who, action in (("Quazie", "quazie.choose-describer"), ("Quazie", "quazie.stuff-shall-be"),
                        ("Simon", "quazie.give-role"), ("Simon", "quazie.remove-role")):
        _refused_whatever_the_values(repo, who, action)
    _take(repo, "quazie.stuff-shall-be", "Kevan", {"word": "Marbles"}, 10)
    assert _listed(repo, "Kevan")["quazie.stuff-shall-be"] == ["the nature of Stuff has already been decided this week"]
    _take(repo, "quazie.give-role", "Quazie", {"role": "Writer of Awesome", "to": "Kevan", "proposal": 0}, 9)
    assert _listed(repo, "Quazie")["quazie.give-role"] == [
        "no role may be given now: there may be only one GRAND POOBAH, and Quazie is; no Muffin who may be made "
        "Writer of Awesome has written a proposal; the Stuff Describer is not given; no Muffin is alone in Limbo to "
        "be Limbo King; no Muffin who is not Eggman's Minion already has been at Position 4 for more than 48 hours"]
    _refused_whatever_the_values(repo, "Quazie", "quazie.give-role")
    assert _listed(repo, "Simon")["quazie.remove-role"] == removed
    day_later = NOW + timedelta(hours=25)
    assert _listed(repo, "Simon", day_later)["quazie.remove-role"] == []
    _edit(repo, "roster", _stats("Quazie", stuff=120))
    next_week = parse_time("2026-11-29T12:00:00Z")
    assert _listed(repo, "Quazie", next_week)["quazie.choose-describer"] == []
    _take(repo, "quazie.choose-describer", "Quazie", {"muffin": "Kevan"}, 0, next_week)


def test_concertos_and_movements(tmp_path):
    """Seed 003 rule 24: Quazie has played no note, so he has neither a Concerto nor a movement. Cayvie's unspent
    notes B A B end as 75thTrombone's A B do, a 2-note Concerto; once claimed, both have spent them and 75thTrombone
    holds a share to apply. Chronos's unspent A A (by hand) match nobody's. Quazie's notes
    [] B [] (by hand) form the movement that takes him to Position 1."""
    repo = make_repo(tmp_path, GAME)
    quazie = _listed(repo, "Quazie")
    assert quazie["quazie.concerto"] == [
        "Quazie's notes not yet used in a Concerto (none) end in no run of defined notes as long as a Concerto (2, 3, "
        "5, 8 notes)"]
    assert quazie["quazie.concerto-use"] == ["Quazie has no unused Concerto"]
    assert quazie["quazie.movement"] == [
        "Quazie's most recent notes not yet used in a movement (none) form none of the movements ([]B[], Escape "
        "from the Launch Base Zone, Intricacy)"]
    assert _listed(repo, "Cayvie")["quazie.concerto"] == []
    for action in ("quazie.concerto", "quazie.concerto-use", "quazie.movement"):
        _refused_whatever_the_values(repo, "Quazie", action)
    _take(repo, "quazie.concerto", "Cayvie", {"with": ["75thTrombone"], "notes": 2}, 10)
    assert _listed(repo, "Cayvie")["quazie.concerto"] == [
        "Cayvie's notes not yet used in a Concerto (none) end in no run of defined notes as long as a Concerto (2, 3, "
        "5, 8 notes)"]
    assert _listed(repo, "75thTrombone")["quazie.concerto-use"] == []
    _take(repo, "quazie.concerto-use", "75thTrombone", {"notes": 2}, 9)
    assert _listed(repo, "75thTrombone")["quazie.concerto-use"] == ["75thTrombone has no unused Concerto"]
    _edit(repo, "quazie", lambda q: q["concerto_used"].update({"Chronos": 2}))
    assert _listed(repo, "Chronos")["quazie.concerto"] == [
        "no other Muffin's notes not yet used in a Concerto end as Chronos's do (2 notes)"]
    _refused_whatever_the_values(repo, "Chronos", "quazie.concerto")
    _edit(repo, "roster", _stats("Quazie", notes=["[]", "B", "[]"]))
    assert _listed(repo, "Quazie")["quazie.movement"] == []
    _take(repo, "quazie.movement", "Quazie", {"movement": "[]B[]"}, 8)


def test_the_list_says_the_actions_and_their_refusals_in_the_game_s_words(tmp_path):
    """Seed 003 rule 9: an Ascension Address may replace "Muffin" and "GRAND POOBAH", and game.yaml's keywords hold
    the new terms (set here by hand, as an Address leaves them). ``nomic act --list`` then says each action's
    summary, its parameters' descriptions, its doc and its refusals in those words, as the wiki's Actions page does
    (``_markup.in_words``), with the article the new word takes; a `code span` (what a player types) stays. They
    once kept the seed's words."""
    from validators.act import available

    repo = make_repo(tmp_path, GAME)
    path = repo / "content" / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in (("player: Muffin", "player: Eclair"), ("players: Muffins", "players: Eclairs"),
                     ("leader: GRAND POOBAH", "leader: Head Baker")):
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    listed = {a.name: a for a in available(repo, GAME, "Simon", NOW)}
    assert listed["quazie.dance-off"].summary == "Declare a Dance Off against an Eclair (DICE10, once a day)"
    assert listed["quazie.record-award"].summary == (
        "The Head Baker gives 20 Stuffs to an Eclair whose Dynasty Record it uses")
    give = listed["quazie.give-role"]
    said = give.say(give.action.doc)
    assert "`GRAND POOBAH`: given to another, if there is no Head Baker" in said
    assert "(any Eclair in the founding text; a Hand may change it)" in said
    # seed 003 rules 9 and 23: the role is also taken by its title now, and the parameter says so
    assert give.say(give.action.params["properties"]["role"]["description"]).endswith(
        "in any case; the Head Baker's role also by the title the rules now give it, Head Baker")
    assert listed["quazie.fruity-move"].why_not == [
        "Simon is Devils Food; only Fruity and Tropical Eclairs move this way"]
