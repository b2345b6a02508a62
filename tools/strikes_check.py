#!/usr/bin/env python3
"""Checks and prints what a `re2d rig build` of the fighter (issue 42) measured and holds.

Usage: strikes_check.py BUILD_DIR RE2D_BIN

- report.json: per clip (walk, punch, kick) the hand and foot path errors against the
  capture (`motions.NAME.paths_px`), the hidden fill each clip uncovers per part and each
  joint's area change (`measures.clips.NAME`); printed as tables.
- model.json: the punch and the kick have draw-order keys, the walk's order is the declared
  one throughout (no keys).
- character.riv (`re2d riv check --json`): a state machine with `speed` and a Trigger per
  strike, draw rules whose targets are keyed by the punch and the kick.
- size: the .riv with its draw rules and keys against the same model exported without its
  `draw_order` keys: at most 5 % more bytes.

Exit 0 when all hold, 1 otherwise (each failure one FAIL line), 2 on bad usage.
"""

import json
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    build, re2d = sys.argv[1], sys.argv[2]
    fails = []
    report = json.load(open(os.path.join(build, "report.json")))
    model = json.load(open(os.path.join(build, "model.json")))
    print("| clip | bone | path RMS (px) | max (px) | mean offset removed (px) |")
    print("|---|---|---|---|---|")
    for clip in ("walk", "punch", "kick"):
        m = report["motions"].get(clip)
        if m is None:
            fails.append(f"report: no motion {clip}")
            continue
        paths = {p["bone"]: p for p in m.get("paths_px", [])}
        for b in ("hand_near", "hand_far", "foot_near", "foot_far"):
            p = paths.get(b)
            if p is None:
                fails.append(f"report: {clip} has no path error for {b}")
                continue
            print(f"| {clip} | {b} | {p['rms']:.1f} | {p['max']:.1f} | {p['offset']:.1f} |")
    meas = report.get("measures", {}).get("clips", {})
    print()
    print("| clip | part | uncovered % of the part |")
    print("|---|---|---|")
    for clip in ("walk", "punch", "kick"):
        c = meas.get(clip)
        if not c:
            fails.append(f"report: no measures for {clip}")
            continue
        if not c["uncovered"]:
            fails.append(f"report: {clip} uncovers no hidden fill")
        for u in sorted(c["uncovered"], key=lambda u: -u["uncovered_pct"])[:6]:
            print(f"| {clip} | {u['part']} | {u['uncovered_pct']:.2f} |")
    print()
    print("| clip | joint (bone) | largest area loss % | largest gain % |")
    print("|---|---|---|---|")
    for clip in ("walk", "punch", "kick"):
        c = meas.get(clip)
        if not c:
            continue
        if not c["volume"]:
            fails.append(f"report: {clip} has no joint volume")
        for v in sorted(c["volume"], key=lambda v: -v["loss_pct"])[:5]:
            print(f"| {clip} | {v['joint']} | {v['loss_pct']:.2f} | {v['gain_pct']:.2f} |")
    for clip in ("punch", "kick"):
        if not model["clips"][clip].get("draw_order"):
            fails.append(f"model: {clip} has no draw-order keys")
    if model["clips"]["walk"].get("draw_order"):
        fails.append("model: the walk changes the draw order (the capture's walk should not)")
    riv = os.path.join(build, "character.riv")
    out = subprocess.run([re2d, "riv", "check", "--json", riv], capture_output=True, text=True)
    if out.returncode != 0:
        fails.append(f"riv check: {out.stderr.strip()}")
    else:
        c = json.loads(out.stdout)
        sms = c.get("stateMachines", [])
        names = {i["name"]: i["type"] for sm in sms for i in sm["inputs"]}
        for n, kind in (("speed", "Number"), ("punch", "Trigger"), ("kick", "Trigger")):
            if names.get(n) != kind:
                fails.append(f"riv check: no {kind} input {n} (inputs {names})")
        keyed = {k["clip"] for r in c.get("drawRules", []) for k in r["keys"]}
        if not c.get("drawRules") or not {"punch", "kick"} <= keyed:
            fails.append(f"riv check: draw rules {c.get('drawRules')}")
        print()
        print(f"draw rules: {len(c['drawRules'])} images, "
              f"{sum(len(r['targets']) for r in c['drawRules'])} targets; "
              f"states: {[len(l['states']) for sm in sms for l in sm['layers']]}")
    # size with and without the draw-order keys
    plain = dict(model)
    plain["clips"] = {n: {k: v for k, v in c.items() if k != "draw_order"} for n, c in model["clips"].items()}
    with tempfile.TemporaryDirectory(dir=build) as tmp:
        p = os.path.join(build, "model-nodraworder.json")
        json.dump(plain, open(p, "w"))
        q = os.path.join(tmp, "plain.riv")
        r = subprocess.run([re2d, "export-riv", p, "--output", q], capture_output=True, text=True)
        os.remove(p)
        if r.returncode != 0:
            fails.append(f"export-riv without keys: {r.stderr.strip()}")
        else:
            a, b = os.path.getsize(riv), os.path.getsize(q)
            print(f".riv: {a} bytes with the draw-order keys, {b} without: +{100 * (a - b) / b:.3f} %")
            if a - b > 0.05 * b:
                fails.append(f"the draw-order keys add {100 * (a - b) / b:.2f} % (> 5 %)")
    for f in fails:
        print(f"FAIL {f}")
    print(f"strikes_check: {'ok' if not fails else f'{len(fails)} failure(s)'}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
