"""``nomic act``'s writer on a large document: the text patch against ruamel.yaml's round trip.

    .venv/bin/python -m bench.patch FILE.yaml

Applies a few typical changes (a vote, a changed vote, a resolved proposal, a new proposal, a
changed quoted title, an edited nested value, a removed key; or, on a roster, changed stats
and players) and prints, for each, both writers' CPU time and whether their texts are the same.
"""

from __future__ import annotations

import copy
import difflib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validators import yamlio  # noqa: E402


def changes(d: dict, k: int) -> dict:
    d = copy.deepcopy(d)
    if "proposals" in d:
        ps = d["proposals"]
        p = ps[-1]
        if k == 0:
            p["votes"]["P050"] = "FOR"
        if k == 1 and p["votes"]:
            p["votes"].pop(next(iter(p["votes"])))
            p["votes"]["X1"] = "AGAINST"
        if k == 2:
            p["status"] = "enacted"
            p["resolved"] = {"by": "P001", "at": "2026-01-01T00:00:00Z", "tally": {"for": 3, "against": 1}}
        if k == 3:
            ps.append({"id": 999, "title": "New: one", "author": "P003", "votes": {}, "status": "pending"})
            d["next"] = 1000
        if k == 4:
            ps[3]["title"] = "it's: changed"
            d.setdefault("last_vote", {})["P050"] = "2026-01-01T00:00:00Z"
        if k == 5 and ps[0].get("effects"):
            ps[0]["effects"]["gamestate"][0]["value"] = 7
        if k == 6:
            ps[5].pop("text", None)
    elif "players" in d:
        ps = d["players"]
        if k == 0:
            ps[3]["stats"]["score"] = 12345
        if k == 1:
            ps[3]["stats"].setdefault("items", []).append("Rope")
        if k == 2:
            ps.append({"name": "New", "joined": "2026-01-01T00:00:00Z", "stats": {"a": 1}})
        if k == 3:
            ps[7]["admin"] = True
            ps[7]["idle_since"] = "2026-01-01T00:00:00Z"
        if k == 4:
            ps[2]["stats"]["items"] = []
        if k == 5:
            ps[9]["stats"]["rank"] = "yes"
        if k == 6:
            ps[1]["stats"]["flag"] = not ps[1]["stats"].get("flag")
    return d


def main(argv: list[str]) -> int:
    path = argv[0]
    old_text = Path(path).read_text(encoding="utf-8")
    data = yamlio.load(old_text, path)
    print(f"{path}: {len(old_text) // 1024} KiB, {old_text.count(chr(10))} lines\n")
    print("| change | patch CPU s | round trip CPU s | same text |")
    print("|---|---|---|---|")
    for k in range(7):
        new = changes(data, k)
        t = time.process_time()
        a = yamlio.patch_text(old_text, new, path)
        tp = time.process_time() - t
        t = time.process_time()
        b = yamlio.rt_dump(yamlio.sync_into(yamlio.rt_load(old_text, path), new))
        tr = time.process_time() - t
        same = "no patch (round trip used)" if a is None else ("yes" if a == b else "NO")
        print(f"| {k} | {tp:.3f} | {tr:.3f} | {same} |")
        if a is not None and a != b:
            sys.stdout.writelines(list(difflib.unified_diff(b.splitlines(True), a.splitlines(True),
                                                            "round trip", "patch"))[:40])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
