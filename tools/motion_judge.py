#!/usr/bin/env python3
"""An independent judge of `re2d rig build` motion clips (issue 25).

It does not trust the code under test: it parses the BVH itself, runs its own
forward kinematics (numpy), finds the capture's up axis and forward direction
itself, projects every mapped bone's capture segment on the drawing's plane and
compares that with the clip's world angle per bone, read from `model.json`
(the bones' rest angles plus the clip's keys, summed down the bone tree).

What it takes from the build: which joint drives which bone and which rule it
follows, and which bones it mirrored for a `"bend": "reversed"` (`report.json`:
the mapping is a declaration, not a result), the cut or excerpt (frames) and the
seam width it claims (checked: at most 15 % of the cycle), and for a one-shot the stance ease
at each end (checked: at most 15 % of the clip). What it computes:
everything else. What it expects of the anatomy comes from the declaration
given with --skeleton (its `facing` and each bone's `bend`), not from the build.

Checks, per clip:
  fit        per bone, RMS of clip − capture over the keys outside the seam
             (and outside keys clamped at the ±90° working-pose limit) <= 1°.
             Long limbs and trunk pieces are compared as they are; end segments
             (feet, toes, hands, head: the drawn pose plus the capture's change)
             after removing one constant offset per bone. A bone the build
             mirrored (`reversed` in the report) is compared with the capture
             mirrored about its parent: 2 · parent − capture (the parent's own
             capture direction when it is a long limb or a trunk piece, else
             the clip's parent).
  loop       a looped clip's first and last keys are equal.
  plausible  walks (looped clips): the knees bend the anatomical way for the
             drawing's facing (the shin turns back from the thigh: never more
             than 10° the other way, at least 20° the right way), the elbows
             too (never more than 10° backwards), a quadruped's legs likewise
             (fore_upper → fore_lower like a knee: the fore knee; hind_upper →
             hind_lower: the hock), each pair the other way when the
             declaration gives its lower bone `"bend": "reversed"` (a hock
             turns forward from the upper bone), and the trunk stays within
             12° of upright (+1° slack) at every key where the capture's
             hips → neck line does.

Frontal figures (`"facing": "front"`, or --facing front): the arm bones (mapped to a shoulder,
arm, elbow, hand or wrist joint) are compared with the capture seen from the front (its left,
up x forward, on the drawing's +x; up on -y), every other bone from the side as facing right;
the elbows are not checked for a side (they bend toward the viewer).

Usage:
  motion_judge.py judge --build DIR --skeleton SKEL.json --bvh NAME=FILE.bvh ...
                        [--facing right|left|front]
  motion_judge.py variant IN.bvh OUT.bvh     (a Z-up, MotionBuilder-named copy)

Exit: 0 every check passed, 1 a check failed (each failure is one `FAIL` line),
2 bad usage or unreadable input.
"""

import json
import math
import sys

import numpy as np

FIT_MAX_DEG = 1.0
SEAM_MAX = 0.15
CLAMP = math.pi / 2


# ---- BVH ---------------------------------------------------------------------------------------

class Joint:
    def __init__(self, name, parent):
        self.name = name
        self.parent = parent
        self.offset = np.zeros(3)
        self.channels = []
        self.col = 0
        self.children = []
        self.sites = []


def read_bvh(path):
    toks = open(path, encoding="utf-8", errors="replace").read().split()
    i = 0
    joints = []
    stack = []
    ncol = 0
    site = False
    assert toks[0].upper() == "HIERARCHY"
    i = 1
    while True:
        t = toks[i]
        if t in ("ROOT", "JOINT"):
            name = toks[i + 1]
            parent = stack[-1] if stack else None
            j = Joint(name, parent)
            joints.append(j)
            if parent is not None:
                joints[parent].children.append(len(joints) - 1)
            stack.append(len(joints) - 1)
            i += 3  # name, {
        elif t == "End":
            site = True
            i += 3  # Site {
        elif t == "OFFSET":
            v = np.array([float(x) for x in toks[i + 1:i + 4]])
            if site:
                joints[stack[-1]].sites.append(v)
            else:
                joints[stack[-1]].offset = v
            i += 4
        elif t == "CHANNELS":
            n = int(toks[i + 1])
            j = joints[stack[-1]]
            j.channels = [c.lower() for c in toks[i + 2:i + 2 + n]]
            j.col = ncol
            ncol += n
            i += 2 + n
        elif t == "}":
            if site:
                site = False
            else:
                stack.pop()
            i += 1
        elif t == "MOTION":
            break
        else:
            raise ValueError(f"{path}: unexpected token {t}")
    frames = int(toks[i + 2])
    ft = float(toks[i + 5])
    vals = np.array([float(x) for x in toks[i + 6:i + 6 + frames * ncol]]).reshape(frames, ncol)
    return joints, vals, ft


def rot(axis, deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    if axis == 0:
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == 1:
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def fk(joints, row):
    """World rotation and position of every joint for one motion row."""
    R = [None] * len(joints)
    P = [None] * len(joints)
    for k, j in enumerate(joints):
        t = j.offset.copy()
        r = np.eye(3)
        for c, ch in enumerate(j.channels):
            v = row[j.col + c]
            axis = "xyz".index(ch[0])
            if ch.endswith("position"):
                t[axis] += v
            else:
                r = r @ rot(axis, v)
        if j.parent is None:
            R[k], P[k] = r, t
        else:
            R[k] = R[j.parent] @ r
            P[k] = P[j.parent] + R[j.parent] @ t
    return R, P


def rest_positions(joints):
    p = []
    for j in joints:
        p.append(j.offset.copy() if j.parent is None else p[j.parent] + j.offset)
    return np.array(p)


def base(name):
    return name.split(":")[-1]


def find(joints, name):
    hits = [k for k, j in enumerate(joints) if j.name == name]
    if not hits:
        hits = [k for k, j in enumerate(joints) if base(j.name) == base(name)]
    if len(hits) != 1:
        raise KeyError(name)
    return hits[0]


def detect_up(joints):
    """The up axis: the signed axis nearest the rest pose's feet → head line."""
    p = rest_positions(joints)
    head = [k for k, j in enumerate(joints) if "head" in base(j.name).lower()]
    feet = [k for k, j in enumerate(joints)
            if any(w in base(j.name).lower() for w in ("foot", "ankle", "toe"))]
    v = p[head].mean(axis=0) - p[feet].mean(axis=0)
    ax = int(np.argmax(np.abs(v)))
    u = np.zeros(3)
    u[ax] = 1.0 if v[ax] > 0 else -1.0
    return u


def segment_end(joints, j):
    """(kind, index) of the end of joint j's segment: its child on the limb's
    chain (the child whose rest direction is closest to the way into j),
    passing through children at offset 0."""
    into = joints[j].offset
    cur = j
    for _ in range(len(joints) + 1):
        jt = joints[cur]
        cands = [("j", c, joints[c].offset) for c in jt.children]
        cands += [("s", (cur, k), o) for k, o in enumerate(jt.sites)]
        if not cands:
            raise ValueError(f"joint {jt.name} has no child")

        def reach(c):
            kind, idx, o = c
            while np.linalg.norm(o) == 0 and kind == "j":
                cj = joints[idx]
                if cj.children:
                    idx = cj.children[0]
                    o = joints[idx].offset
                elif cj.sites:
                    kind, o = "s", cj.sites[0]
                else:
                    break
            return o

        def score(c):
            o = reach(c)
            n = np.linalg.norm(o) * np.linalg.norm(into)
            return -2.0 if n == 0 else float(o @ into) / n

        pick = cands[0] if len(cands) == 1 or np.linalg.norm(into) == 0 else max(cands, key=score)
        if np.linalg.norm(pick[2]) > 0:
            return pick[0], pick[1]
        if pick[0] == "s":
            raise ValueError("zero end site")
        cur = pick[1]
    raise ValueError("no segment")


def seg_points(joints, R, P, j, end):
    kind, idx = end
    if kind == "j":
        return P[j], P[idx]
    jj, k = idx
    return P[j], P[jj] + R[jj] @ joints[jj].sites[k]


def chain_points(P, path, a, b):
    pts = np.array([P[k] for k in path])
    lens = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    cum = np.concatenate([[0.0], np.cumsum(lens)])
    tot = cum[-1]

    def at(f):
        s = f * tot
        i = min(int(np.searchsorted(cum, s, side="right")) - 1, len(lens) - 1)
        i = max(i, 0)
        t = 0.0 if lens[i] == 0 else (s - cum[i]) / lens[i]
        return pts[i] + (pts[i + 1] - pts[i]) * min(max(t, 0.0), 1.0)
    return at(a), at(b)


def wrap(a):
    return (a + math.pi) % (2 * math.pi) - math.pi


# ---- the drawing -------------------------------------------------------------------------------

def world_angles(model, clip):
    """Per bone of model.json: world angle at each key of `clip` (the keys of
    all tracks share times)."""
    sk = model["skeleton"]
    c = model["clips"][clip]
    tracks = c["tracks"]
    times = None
    for keys in tracks.values():
        times = [k[0] for k in keys]
        break
    n = len(times)
    out = {}

    def angle(name):
        if name in out:
            return out[name]
        b = sk[name]
        own = np.full(n, b["angle"])
        if name in tracks:
            own = own + np.array([k[1] for k in tracks[name]])
        if "parent" in b:
            own = own + angle(b["parent"])
        out[name] = own
        return own
    for name in sk:
        angle(name)
    deltas = {name: np.array([k[1] for k in keys]) for name, keys in tracks.items()}
    return out, deltas, times


# ---- judging -----------------------------------------------------------------------------------

def judge_clip(name, bvh_path, model, report, skel, facing_right, fails, frontal=False):
    joints, vals, ft = read_bvh(bvh_path)
    m = report["motions"][name]
    clip = model["clips"][name]
    world, deltas, times = world_angles(model, name)
    K = len(times) - 1
    s0, s1 = m["cycle_start"], m["cycle_end"]
    looped = bool(clip["loop"])
    up = detect_up(joints)
    # sample positions at the key times (positions interpolated between frames)
    samples = []
    for k in range(K + 1):
        t = s0 + (s1 - s0) * k / K
        f0 = min(int(math.floor(t)), len(vals) - 1)
        f1 = min(f0 + 1, len(vals) - 1)
        a = t - f0
        R0, P0 = fk(joints, vals[f0])
        R1, P1 = fk(joints, vals[f1])
        samples.append((R0, P0, R1, P1, a))
    # forward: the root's horizontal travel, else the toes
    r0, r1 = samples[0][1][0], samples[-1][1][0]
    travel = (r1 - r0) - up * ((r1 - r0) @ up)
    hips = [k for k, j in enumerate(joints) if any(w in base(j.name).lower() for w in ("upleg", "hip"))]
    ank = [k for k, j in enumerate(joints) if any(w in base(j.name).lower() for w in ("ankle", "foot"))]
    rest = rest_positions(joints)
    leg = np.linalg.norm(rest[ank[0]] - rest[hips[-1]]) if hips and ank else 1.0
    if np.linalg.norm(travel) > 0.25 * leg:
        fwd = travel / np.linalg.norm(travel)
    else:
        acc = np.zeros(3)
        for (R0, P0, _, _, _) in samples:
            for k, j in enumerate(joints):
                if "toe" in base(j.name).lower() and j.parent is not None:
                    acc += P0[k] - P0[j.parent]
        acc -= up * (acc @ up)
        fwd = acc / np.linalg.norm(acc)
    side = 1.0 if facing_right else -1.0
    # a frontal figure: the arms seen from the front (the capture's left, up x forward, on the
    # drawing's +x), everything else from the side as a figure facing right
    left = np.cross(up, fwd)

    def project(v, arm=False):
        if frontal and arm:
            return math.atan2(-(v @ up), v @ left)
        return math.atan2(-(v @ up), side * (v @ fwd))

    def is_arm(joint):
        n = base(joint).lower()
        return "collar" not in n and any(w in n for w in ("shoulder", "arm", "elbow", "hand", "wrist"))

    # trunk fractions from the drawing: the trunk bones' drawn lengths
    rules = dict(m["rules"])
    jmap = dict(m["joints"])
    bones = {b["name"]: b for b in skel["bones"]}
    trunk = [b["name"] for b in skel["bones"] if rules.get(b["name"], "").startswith("trunk")]

    def blen(b):
        p = bones[b]["points"]
        return math.hypot(p[-1][0] - p[0][0], p[-1][1] - p[0][1])
    tot = sum(blen(b) for b in trunk)
    frac, acc_len = {}, 0.0
    for b in trunk:
        frac[b] = (acc_len / tot, (acc_len + blen(b)) / tot)
        acc_len += blen(b)
    # a cyclic clip's seam blend, or a one-shot's ease into the drawn stance at each end (issue
    # 42: the first and last 0.15 s, at most 15 % of the clip each): those keys leave the
    # capture on purpose and are not judged, so their claimed width is checked
    seam = m["seam_keys"]
    if looped and 2 * seam > SEAM_MAX * K:
        fails.append(f"{name}: the seam blend spans {2 * seam} of {K} keys, more than 15 %")
    if not looped and seam > max(1, math.floor(SEAM_MAX * K)):
        fails.append(f"{name}: the stance ease spans {seam} of {K} keys at each end, more than 15 %")
    rows = []
    capture_angle = {}
    # the capture's direction of every mapped bone, then the fit
    for bname, joint in jmap.items():
        if joint is None:
            continue
        rule = rules[bname]
        if rule.startswith("trunk"):
            a_name, b_name = joint.split("→")
            # the chain: from the root down to the neck joint
            path = [find(joints, b_name)]
            while joints[path[-1]].parent is not None:
                path.append(joints[path[-1]].parent)
            path.reverse()
            fa, fb = frac[bname]
        else:
            j = find(joints, joint)
            end = segment_end(joints, j)
        cap = []
        for (R0, P0, R1, P1, a) in samples:
            if rule.startswith("trunk"):
                p0, q0 = chain_points(P0, path, fa, fb)
                p1, q1 = chain_points(P1, path, fa, fb)
            else:
                p0, q0 = seg_points(joints, R0, P0, j, end)
                p1, q1 = seg_points(joints, R1, P1, j, end)
            p, q = p0 + (p1 - p0) * a, q0 + (q1 - q0) * a
            cap.append(project(q - p, not rule.startswith("trunk") and is_arm(joint)))
        capture_angle[bname] = np.array(cap)
    mirrored = set(m.get("reversed", []))
    for bname, joint in jmap.items():
        if joint is None:
            continue
        rule = rules[bname]
        cap = capture_angle[bname]
        keep = np.ones(K + 1, bool)
        keep[:seam] = False
        if seam:
            keep[K - seam + 1:] = False
        if bname in deltas:
            keep &= np.abs(deltas[bname]) < CLAMP - 1e-9
        if bname in mirrored:
            parent = bones[bname]["parent"]
            prule = rules.get(parent, "drawn")
            if prule == "limb" or prule.startswith("trunk"):
                pw = capture_angle[parent]
            else:
                pw = world[parent]
                if parent in deltas:
                    keep &= np.abs(deltas[parent]) < CLAMP - 1e-9
            cap = 2.0 * pw - cap
        d = np.array([wrap(x) for x in world[bname] - cap])
        if rule == "end" and keep.any():
            off = math.atan2(np.sin(d[keep]).mean(), np.cos(d[keep]).mean())
            d = np.array([wrap(x - off) for x in d])
        dd = np.degrees(np.abs(d[keep])) if keep.any() else np.zeros(1)
        rms = float(np.sqrt((dd ** 2).mean()))
        mx = float(dd.max())
        rows.append((bname, rule + (" mirrored" if bname in mirrored else ""), rms, mx,
                     int((~keep).sum())))
        if rms > FIT_MAX_DEG:
            fails.append(f"{name}: {bname} follows the capture at RMS {rms:.3f}° > {FIT_MAX_DEG}°")
    print(f"clip {name} ({'looped' if looped else 'one-shot'}, {K + 1} keys, cut {s0:.2f}..{s1:.2f}, "
          f"seam {seam} keys each end, up {up.tolist()}, forward {np.round(fwd, 3).tolist()})")
    print(f"  {'bone':16} {'rule':16} {'RMS°':>7} {'max°':>7} excluded-keys")
    for r in rows:
        print(f"  {r[0]:16} {r[1]:16} {r[2]:7.3f} {r[3]:7.3f} {r[4]}")
    if looped:
        for bname, keys in clip["tracks"].items():
            if keys[0][1] != keys[-1][1]:
                fails.append(f"{name}: {bname}'s loop does not close")
        plausible(name, world, capture_angle, jmap, rules, bones, facing_right, fails, frontal)


def plausible(name, world, capture, jmap, rules, bones, facing_right, fails, frontal=False):
    s = 1.0 if facing_right else -1.0
    names = list(world)

    def pick(*words):
        return [n for n in names if all(w in n.lower() for w in words) and not n.endswith(".connector")]
    # (what, upper bone, lower bone, +1: the lower turns back from the upper like a knee, -1:
    # forward like an elbow, whether it must flex at least 20°)
    pairs = []
    for side in ("near", "far", "left", "right"):
        th, sh = pick("thigh", side), pick("shin", side)
        if th and sh:
            pairs.append(("knee " + side, th[0], sh[0], +1, True))
        ua, fa = pick("upper", "arm", side), pick("forearm", side)
        # a frontal figure's elbows bend toward the viewer: no side to check in the frontal plane
        if ua and fa and not frontal:
            pairs.append(("elbow " + side, ua[0], fa[0], -1, False))
        # a quadruped: the fore knee (the carpus) folds back like a human knee; the hind leg's
        # lower joint is the hock, which the declaration says bends the other way
        fu, fl = pick("fore", "upper", side), pick("fore", "lower", side)
        if fu and fl:
            pairs.append(("fore knee " + side, fu[0], fl[0], +1, True))
        hu, hl = pick("hind", "upper", side), pick("hind", "lower", side)
        if hu and hl:
            pairs.append(("hock " + side, hu[0], hl[0], +1, True))
    if not pairs:
        fails.append(f"{name}: plausibility: no thigh/shin, upper arm/forearm or fore/hind "
                     "upper/lower leg bones to judge")
    for what, a, b, sign, must_flex in pairs:
        reversed_ = bones.get(b, {}).get("bend") == "reversed"
        if reversed_:
            sign = -sign
        flex = np.degrees([wrap(x) for x in (world[b] - world[a])]) * s * sign
        lo, hi = float(flex.min()), float(flex.max())
        how = ", declared \"bend\": \"reversed\"" if reversed_ else ""
        print(f"  plausibility: {what}: flexion {lo:.1f}°..{hi:.1f}° "
              f"(facing {'right' if facing_right else 'left'}{how})")
        if lo < -10.0:
            fails.append(f"{name}: plausibility: {what} bends {-lo:.1f}° the wrong way{how.replace(',', ' for', 1)}")
        if must_flex and hi < 20.0:
            fails.append(f"{name}: plausibility: {what} never flexes 20° (max {hi:.1f}°)")
    trunk = [n for n in names if rules.get(n, "").startswith("trunk")]
    for t in trunk:
        lean = np.degrees([wrap(x + math.pi / 2) for x in world[t]])
        cap = np.degrees([wrap(x + math.pi / 2) for x in capture[t]])
        bad = [k for k in range(len(lean)) if abs(cap[k]) <= 12.0 and abs(lean[k]) > 13.0]
        print(f"  plausibility: trunk {t}: lean {lean.min():.1f}°..{lean.max():.1f}° "
              f"(capture {cap.min():.1f}°..{cap.max():.1f}°)")
        if bad:
            fails.append(f"{name}: plausibility: trunk {t} leans more than 12° at {len(bad)} keys where the capture is upright")


def judge(args):
    opts = {"--bvh": []}
    i = 0
    while i < len(args):
        k = args[i]
        if k not in ("--build", "--skeleton", "--bvh", "--facing") or i + 1 >= len(args):
            print(f"motion_judge: bad argument {k}", file=sys.stderr)
            return 2
        if k == "--bvh":
            opts[k].append(args[i + 1])
        else:
            opts[k] = args[i + 1]
        i += 2
    try:
        model = json.load(open(f"{opts['--build']}/model.json"))
        report = json.load(open(f"{opts['--build']}/report.json"))
        skel = json.load(open(opts["--skeleton"]))
    except (OSError, KeyError, ValueError) as e:
        print(f"motion_judge: {e}", file=sys.stderr)
        return 2
    facing = opts.get("--facing", skel.get("facing", "right"))
    frontal = facing == "front"
    fails = []
    if not opts["--bvh"]:
        print("motion_judge: give --bvh NAME=FILE.bvh", file=sys.stderr)
        return 2
    for spec in opts["--bvh"]:
        name, path = spec.split("=", 1)
        if name not in report.get("motions", {}):
            fails.append(f"{name}: not in the build's report")
            continue
        judge_clip(name, path, model, report, skel, facing in ("right", "front"), fails, frontal)
    for f in fails:
        print(f"FAIL {f}")
    print(f"motion judge: {len(opts['--bvh'])} clip(s), {len(fails)} failure(s)")
    return 1 if fails else 0


MB = {"LeftHip": "LeftUpLeg", "LeftKnee": "LeftLeg", "LeftAnkle": "LeftFoot", "LeftToe": "LeftToeBase",
      "RightHip": "RightUpLeg", "RightKnee": "RightLeg", "RightAnkle": "RightFoot",
      "RightToe": "RightToeBase", "lowerback": "Spine", "Chest": "Spine1", "Chest2": "Spine2",
      "lowerneck": "Neck", "Neck": "Neck1", "LeftCollar": "LeftShoulder", "LeftShoulder": "LeftArm",
      "LeftElbow": "LeftForeArm", "LeftWrist": "LeftHand", "lhand": "LeftHandIndex1",
      "LFingers": "LeftHandIndex2", "LThumb": "LeftHandThumb1", "RightCollar": "RightShoulder",
      "RightShoulder": "RightArm", "RightElbow": "RightForeArm", "RightWrist": "RightHand",
      "rhand": "RightHandIndex1", "RFingers": "RightHandIndex2", "RThumb": "RightHandThumb1"}


def variant(src, dst):
    """A Z-up, MotionBuilder-named copy of a Y-up CMU capture: turned +90°
    about X ((x, y, z) → (x, −z, y)) and renamed."""
    out, neg, motion, head = [], [], False, 0
    flip = lambda v: v[1:] if v.startswith("-") else "-" + v  # noqa: E731
    for line in open(src).read().splitlines():
        t = line.strip()
        ind = line[:len(line) - len(line.lstrip())]
        if motion:
            if head < 2:
                head += 1
                out.append(line)
            else:
                out.append(" ".join(flip(v) if neg[i] else v for i, v in enumerate(line.split())))
        elif t.startswith(("ROOT ", "JOINT ")):
            kw, n = t.split(None, 1)
            out.append(f"{ind}{kw} {MB.get(n, n)}")
        elif t.startswith("OFFSET "):
            x, y, z = t.split()[1:4]
            out.append(f"{ind}OFFSET {x} {flip(z)} {y}")
        elif t.startswith("CHANNELS "):
            parts = t.split()
            m = {"Yposition": ("Zposition", False), "Zposition": ("Yposition", True),
                 "Yrotation": ("Zrotation", False), "Zrotation": ("Yrotation", True)}
            names = []
            for c in parts[2:]:
                nn, ng = m.get(c, (c, False))
                names.append(nn)
                neg.append(ng)
            out.append(f"{ind}CHANNELS {parts[1]} {' '.join(names)}")
        else:
            motion = motion or t.startswith("MOTION")
            out.append(line)
    open(dst, "w").write("\n".join(out) + "\n")
    return 0


def main():
    a = sys.argv[1:]
    if a[:1] == ["judge"]:
        return judge(a[1:])
    if a[:1] == ["variant"] and len(a) == 3:
        return variant(a[1], a[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
