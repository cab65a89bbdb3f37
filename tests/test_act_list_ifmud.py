"""``nomic act ifmud --list``: what an ifMUD player may do now, as the judge finds it (ifMUD seed, 002). An action that
takes parameters is said not to be possible when no value would do (``Action.ready``): not the player's turn
(Rule 27), nothing to act with or on (no token carried, no proposal pending, no uplink held, no gift had)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.gitgame import make_repo
from validators.act import act, available
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T12:00:00Z")


def _at(minutes: int):
    return NOW + timedelta(minutes=minutes)


def _listed(repo: Path, who: str, minutes: int = 0) -> dict[str, list[str]]:
    return {a.name: a.why_not for a in available(repo, "ifmud", who, _at(minutes))}


def _act(repo: Path, action: str, who: str, params: dict, minutes: int, *, legal: bool = True) -> list[str]:
    r = act(repo, "ifmud", action, who, params, _at(minutes), now=_at(minutes))
    why = [p.message for p in r.step.problems]
    assert r.step.legal is legal and bool(r.written) is legal, (action, who, params, why)
    return why


def test_the_list_finds_whose_turn_it_is_as_the_judge_does(tmp_path):
    """Rule 27: a turn ends by itself a day after it began, and the next player's begins then. The example's last
    action was on 2026-11-05; by 2026-11-22 many turns have run out, each at its own time, and it is Zoe
    Abbott's turn. The list once let every overdue turn end at the time asked about, and named Adam Biltcliffe."""
    repo = make_repo(tmp_path, "ifmud")
    assert _listed(repo, "Zoe Abbott")["ifmud.end-turn"] == []
    assert _listed(repo, "Adam Biltcliffe")["ifmud.end-turn"] == ["it is Zoe Abbott's turn, not Adam Biltcliffe's"]
    adam = _listed(repo, "Adam Biltcliffe")
    assert adam["ifmud.xyzzy"] == ["it is Zoe Abbott's turn, not Adam Biltcliffe's (Rule 27)"]
    assert _act(repo, "ifmud.end-turn", "Adam Biltcliffe", {}, 0, legal=False) == [
        "it is Zoe Abbott's turn, not Adam Biltcliffe's"]
    _act(repo, "ifmud.end-turn", "Zoe Abbott", {}, 0)
    assert _listed(repo, "Adam Biltcliffe", 1)["ifmud.end-turn"] == []


TURN = "it is Zoe Abbott's turn, not {}'s (Rule 27)"


def test_the_list_says_no_to_turn_actions_out_of_turn_and_once_done(tmp_path):
    """Rules 27 and 30: only the active player moves, once a turn; the list says so whatever room is named, and the
    judge refuses such a move."""
    repo = make_repo(tmp_path, "ifmud")
    adam = _listed(repo, "Adam Biltcliffe")
    for name in ("ifmud.move", "ifmud.move-servant", "ifmud.omnibus", "ifmud.pick-up", "ifmud.drop", "ifmud.steal",
                 "ifmud.set-destination", "ifmud.create-quest", "ifmud.rename", "ifmud.robot-kitten",
                 "ifmud.metamorphose", "ifmud.spend-damage"):
        assert adam[name] == [TURN.format("Adam Biltcliffe")], name
    assert _act(repo, "ifmud.move", "Adam Biltcliffe", {"to": "Lounge"}, 0, legal=False) == [
        TURN.format("Adam Biltcliffe")]
    assert _listed(repo, "Zoe Abbott")["ifmud.move"] == []
    _act(repo, "ifmud.move", "Zoe Abbott", {"to": "Jaws of Death"}, 1)
    assert _listed(repo, "Zoe Abbott", 2)["ifmud.move"] == [
        "Zoe Abbott has already done this once this turn (move-self)"]


def test_the_list_says_what_there_is_to_pick_up_drop_and_rename(tmp_path):
    """Rules 55-56: a token is picked up where it lies (in the player's room or their servant's) and dropped by
    whoever carries it; Rules 110 and 132-133: a teleporter must be fully charged, a bomb bought may be renamed in
    its turn."""
    repo = make_repo(tmp_path, "ifmud")
    zoe = _listed(repo, "Zoe Abbott")
    # the burned-out teleporter lies in Blasted Heath with her; she carries her bomb
    assert zoe["ifmud.pick-up"] == [] and zoe["ifmud.drop"] == []
    assert zoe["ifmud.teleport"] == ["Zoe Abbott is not carrying the personal teleporter"]
    _act(repo, "ifmud.pick-up", "Zoe Abbott", {"token": "personal teleporter"}, 1)
    assert _listed(repo, "Zoe Abbott", 2)["ifmud.teleport"] == ["the personal teleporter is burned out, not fully "
                                                                  "charged"]
    assert _act(repo, "ifmud.teleport", "Zoe Abbott", {"to": "Lounge"}, 2, legal=False) == [
        "the personal teleporter is burned out, not fully charged"]
    _act(repo, "ifmud.end-turn", "Zoe Abbott", {}, 3)
    adam = _listed(repo, "Adam Biltcliffe", 4)
    assert adam["ifmud.pick-up"] == ["no token lies in Central Park, where Adam Biltcliffe is, nor in Servants' "
                                     "Quarters, where their servant is (Rule 55)"]
    assert adam["ifmud.drop"] == ["neither Adam Biltcliffe nor their servant carries a token (Rule 56)"]
    assert adam["ifmud.rename"] == ["you bought no pie or bomb this turn that is still unnamed (Rules 108, 133)"]
    assert _act(repo, "ifmud.pick-up", "Adam Biltcliffe", {"token": "a banana"}, 4, legal=False) == [
        "a banana is not lying in Central Park (Rule 55)"]
    _act(repo, "ifmud.buy-bomb", "Adam Biltcliffe", {}, 5)  # the pieman is in Central Park
    adam = _listed(repo, "Adam Biltcliffe", 6)
    assert adam["ifmud.drop"] == [] and adam["ifmud.rename"] == []
    _act(repo, "ifmud.rename", "Adam Biltcliffe", {"name": "a ticking bomb"}, 6)
    assert _listed(repo, "Adam Biltcliffe", 7)["ifmud.rename"] == [
        "you bought no pie or bomb this turn that is still unnamed (Rules 108, 133)"]


def test_the_list_says_what_the_monkey_has_in_its_hands(tmp_path):
    """Rules 71, 81, 83, 85, 100: the uplink's holder has the monkey pick up what lies where it is, drop or have
    delayed the token it carries, and steal only while its hands are empty."""
    repo = make_repo(tmp_path, "ifmud")
    for i, who in enumerate(("Zoe Abbott", "Adam Biltcliffe", "Roger Carbol")):
        _act(repo, "ifmud.end-turn", who, {}, i)
    assert _listed(repo, "Zoe Abbott", 3)["ifmud.monkey-drop"] == [
        "it is Admiral Jota's turn, not Zoe Abbott's (Rule 27)",
        "Zoe Abbott is not holding the mind-control satellite uplink"]
    jota = _listed(repo, "Admiral Jota", 3)
    assert jota["ifmud.monkey-drop"] == ["the monkey is not carrying a token (Rule 81)"]
    assert jota["ifmud.monkey-delay"] == ["the monkey is not carrying a time bomb (Rule 83)"]
    assert jota["ifmud.monkey-pick-up"] == [] and jota["ifmud.monkey-steal"] == []
    _act(repo, "ifmud.monkey-pick-up", "Admiral Jota", {"token": "Explorer's Compass"}, 4)  # it lies in the Lounge
    jota = _listed(repo, "Admiral Jota", 5)
    full = ["the monkey already carries a token and may carry only one (Rule 100)"]
    assert jota["ifmud.monkey-pick-up"] == full and jota["ifmud.monkey-steal"] == full
    assert jota["ifmud.monkey-drop"] == []
    assert jota["ifmud.monkey-delay"] == ["the monkey is not carrying a time bomb (Rule 83)"]
    assert _act(repo, "ifmud.monkey-steal", "Admiral Jota", {"token": "Admiral Jota's bomb"}, 5, legal=False) == full


def test_the_list_says_what_is_pending_to_vote_on_declare_dead_and_ratify(tmp_path):
    """Rule 10: votes are cast on a pending proposal; any player but the one voting nay may declare it dead, and
    only its proposer declares it ratified."""
    repo = make_repo(tmp_path, "ifmud")
    zoe = _listed(repo, "Zoe Abbott")
    for name in ("ifmud.vote", "ifmud.declare-dead", "ifmud.ratify"):
        assert zoe[name] == ["no proposal is pending"], name
    assert _act(repo, "ifmud.vote", "Zoe Abbott", {"proposal": 1, "vote": "aye"}, 0, legal=False) == [
        "proposal 1 is ratified; voting on it is complete"]
    _act(repo, "ifmud.propose", "Zoe Abbott", {"name": "Tolls [ZA]", "text": "A toll on the Attic."}, 1)
    zoe, adam = _listed(repo, "Zoe Abbott", 2), _listed(repo, "Adam Biltcliffe", 2)
    assert zoe["ifmud.ratify"] == [] and adam["ifmud.vote"] == []
    assert adam["ifmud.ratify"] == ["no proposal of Adam Biltcliffe's is pending"]
    no_nay = "no pending proposal has a nay from a player who counts, other than {} (Rule 10)"
    assert adam["ifmud.declare-dead"] == [no_nay.format("Adam Biltcliffe")]
    _act(repo, "ifmud.vote", "Adam Biltcliffe", {"proposal": 3, "vote": "nay"}, 3)
    assert _listed(repo, "Adam Biltcliffe", 4)["ifmud.declare-dead"] == [no_nay.format("Adam Biltcliffe")]
    assert _listed(repo, "Roger Carbol", 4)["ifmud.declare-dead"] == []
    _act(repo, "ifmud.declare-dead", "Roger Carbol", {"proposal": 3}, 4)
    assert _listed(repo, "Roger Carbol", 5)["ifmud.vote"] == ["no proposal is pending"]


def test_the_list_says_which_donations_are_open(tmp_path):
    """Rule 113: a donation offered is accepted by its recipient or retracted by its donor."""
    repo = make_repo(tmp_path, "ifmud")
    zoe = _listed(repo, "Zoe Abbott")
    assert zoe["ifmud.accept-donation"] == ["no donation to Zoe Abbott is open"]
    assert zoe["ifmud.retract-donation"] == ["no donation from Zoe Abbott is open"]
    _act(repo, "ifmud.donate", "Adam Biltcliffe", {"to": "Zoe Abbott", "points": 3}, 1)
    zoe, adam = _listed(repo, "Zoe Abbott", 2), _listed(repo, "Adam Biltcliffe", 2)
    assert zoe["ifmud.accept-donation"] == [] and adam["ifmud.retract-donation"] == []
    assert zoe["ifmud.retract-donation"] == ["no donation from Zoe Abbott is open"]
    assert adam["ifmud.accept-donation"] == ["no donation to Adam Biltcliffe is open"]
    assert _act(repo, "ifmud.accept-donation", "Adam Biltcliffe", {"donation": 1}, 2, legal=False) == [
        "donation 1 is not to Adam Biltcliffe"]


def test_the_list_says_no_to_gifts_servants_robots_and_damage_when_none_is_left(tmp_path):
    """Rules 135 and 137: a Dark Gift is obtained first thing in a turn and abandoned by one who has it; Rule 45: a
    servant is named once; Rule 160: the robot and the kitten serve twice a turn; Rules 76 and 121: damage is spent
    while a room has some."""
    repo = make_repo(tmp_path, "ifmud")
    zoe = _listed(repo, "Zoe Abbott")
    assert zoe["ifmud.abandon-gift"] == ["Zoe Abbott has no Dark Gift"] and zoe["ifmud.metamorphose"] == []
    assert zoe["ifmud.name-servant"] == ["Zoe Abbott's servant is already named Jeeves the valet"]
    assert _act(repo, "ifmud.name-servant", "Zoe Abbott", {"name": "Bunter", "species": "valet"}, 0,
                legal=False) == ["Zoe Abbott's servant is already named Jeeves the valet"]
    assert zoe["ifmud.robot-kitten"] == [] and zoe["ifmud.spend-damage"] == []
    _act(repo, "ifmud.robot-kitten", "Zoe Abbott", {"do": "kitten-move"}, 1)
    _act(repo, "ifmud.robot-kitten", "Zoe Abbott", {"do": "kitten-move"}, 2)
    # the damage left: a point in West of House, two in The House of Commons (a bomb went off there)
    _act(repo, "ifmud.spend-damage", "Zoe Abbott", {"room": "West of House", "position": 1}, 3)
    assert _listed(repo, "Zoe Abbott", 4)["ifmud.spend-damage"] == []  # Rule 121 may follow Rule 76's once
    for minutes, position in ((4, 1), (5, 2)):
        _act(repo, "ifmud.spend-damage", "Zoe Abbott", {"room": "The House of Commons", "position": position,
                                                        "letter": "q"}, minutes)
    zoe = _listed(repo, "Zoe Abbott", 6)
    assert zoe["ifmud.robot-kitten"] == ["the robot and the kitten have already been used twice this turn (Rule 160)"]
    assert zoe["ifmud.spend-damage"] == ["no room has damage to spend (Rules 76, 121)"]
    assert _act(repo, "ifmud.spend-damage", "Zoe Abbott", {"room": "West of House", "position": 2, "letter": "q"},
                6, legal=False) == ["West of House has no damage to spend"]
    assert zoe["ifmud.metamorphose"] == ["Zoe Abbott has already acted this turn; metamorphosing must come first "
                                         "(Rule 135)"]
    _act(repo, "ifmud.end-turn", "Zoe Abbott", {}, 7)
    _act(repo, "ifmud.metamorphose", "Adam Biltcliffe", {"gift": "Night Vision"}, 8)
    adam = _listed(repo, "Adam Biltcliffe", 9)
    assert adam["ifmud.abandon-gift"] == []
    assert adam["ifmud.move"] == ["Adam Biltcliffe metamorphosed this turn (Rule 135): no turn actions but ending it "
                                  "or abandoning gifts"]


def test_the_list_says_where_the_omnibus_is(tmp_path):
    """Rules 51 and 80: the Omnibus carries the player or their servant from where it stands, for five brownie
    points; Rule 103: a new destination is chosen only for a prize delivered this turn; Rule 116: a servant throws
    only a pie it carries."""
    repo = make_repo(tmp_path, "ifmud")
    zoe = _listed(repo, "Zoe Abbott")
    assert zoe["ifmud.omnibus"] == ["the Magic Omnibus is at The House of Commons, where neither Zoe Abbott nor "
                                    "their servant is (Rule 80)"]
    assert zoe["ifmud.set-destination"] == ["no prize token was delivered by you this turn, so there is no "
                                            "destination to choose (Rule 103)"]
    assert zoe["ifmud.throw-pie"] == ["the servant carries no pie"]
    assert _act(repo, "ifmud.omnibus", "Zoe Abbott", {"to": "Lounge", "passenger": "servant"}, 0, legal=False) == [
        "the Magic Omnibus is at The House of Commons, not where the passenger is (Servants' Quarters)"]


def test_the_list_says_no_to_a_fourth_quest_and_to_moving_after_the_omnibus(tmp_path):
    """Rule 142: a quest is created while fewer than three are on the roster; Rule 80: once a turn the Omnibus
    carries the player from where it stands, and they may not be moved again in that turn."""
    repo = make_repo(tmp_path, "ifmud")
    for minutes, colour in enumerate(("blue", "green", "yellow")):
        _act(repo, "ifmud.create-quest", "Zoe Abbott", {"colour": colour}, minutes)
    assert _listed(repo, "Zoe Abbott", 3)["ifmud.create-quest"] == [
        "there are already 3 quests on the roster; a new one needs fewer than three"]
    assert _act(repo, "ifmud.create-quest", "Zoe Abbott", {"colour": "red"}, 3, legal=False) == [
        "there are already 3 quests on the roster; a new one needs fewer than three"]
    _act(repo, "ifmud.end-turn", "Zoe Abbott", {}, 4)
    _act(repo, "ifmud.end-turn", "Adam Biltcliffe", {}, 5)
    _act(repo, "ifmud.move", "Roger Carbol", {"to": "The House of Commons"}, 6)  # from Saturn, next door
    for minutes, who in enumerate(("Roger Carbol", "Admiral Jota", "Carl Muckenhoupt", "Zoe Abbott",
                                   "Adam Biltcliffe"), start=7):
        _act(repo, "ifmud.end-turn", who, {}, minutes)
    assert _listed(repo, "Roger Carbol", 12)["ifmud.omnibus"] == []  # the Omnibus is where he is
    _act(repo, "ifmud.omnibus", "Roger Carbol", {"to": "Lounge"}, 12)
    roger = _listed(repo, "Roger Carbol", 13)
    assert roger["ifmud.move"] == ["Roger Carbol rode the Magic Omnibus this turn and may not be moved again "
                                   "(Rule 80)"]
    assert roger["ifmud.omnibus"] == ["Roger Carbol has already done this once this turn (omnibus)"]
    assert _act(repo, "ifmud.move", "Roger Carbol", {"to": "Attic"}, 13, legal=False)[0] == roger["ifmud.move"][0]


def test_the_list_reads_the_ruleset_a_proposal_that_took_effect_since_left(tmp_path):
    """Rule 10: a ratified proposal takes effect an hour after its ratification, whether or not anything is done in
    between. One repealing Rule 32 has taken effect when the list is asked two hours later, with no action since:
    joining the Passive Voters, Rule 32's action, is out of the game, and the list says so as the judge does."""
    repo = make_repo(tmp_path, "ifmud")
    assert _listed(repo, "Zoe Abbott")["ifmud.passive-voter"] == []
    _act(repo, "ifmud.propose", "Roger Carbol", {"name": "No passive voting [RC]",
                                                 "effects": {"rules": [{"op": "repeal", "id": "r32"}]}}, 0)
    for i, who in enumerate(("Zoe Abbott", "Adam Biltcliffe", "Admiral Jota", "Carl Muckenhoupt")):
        _act(repo, "ifmud.vote", who, {"proposal": _pending(repo), "vote": "aye"}, 1 + i)
    _act(repo, "ifmud.ratify", "Roger Carbol", {"proposal": _pending(repo)}, 10)
    gone = ["the rule that makes this action, 32 Joining the Passive Voters, has been repealed: the action is no "
            "longer part of the game [rule: 32 Joining the Passive Voters]"]
    assert _listed(repo, "Zoe Abbott", 30)["ifmud.passive-voter"] == []  # within the hour: not yet
    assert _listed(repo, "Zoe Abbott", 130)["ifmud.passive-voter"] == gone
    why = _act(repo, "ifmud.passive-voter", "Zoe Abbott", {}, 130, legal=False)
    assert why == [gone[0].removesuffix(" [rule: 32 Joining the Passive Voters]")]


def _pending(repo: Path) -> int:
    from validators.content import WorkTree, load_game

    proposals = load_game(WorkTree(repo), "ifmud").state.docs["consent"]["proposals"]
    return max(p["id"] for p in proposals if p["status"] == "pending")
