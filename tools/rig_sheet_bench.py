#!/usr/bin/env python3
"""The selling numbers of issue 26: a rigged .riv against the sprite sheet of the same clips.

    rig_sheet_bench.py --re2d target/release/re2d --build DIR [--build DIR ...] [--out DIR]

Each DIR is a `re2d rig build` folder (model.json, character.riv, report.json). For each clip of
the model made from a motion capture (not the generated `idle`, a held pose), every frame at the
clip's fps (the build's export fps, 60) is
rendered by `re2d riv render-ref` at the game frame size (576x624: the model scaled to fit, centred)
and the frames are laid out in one sprite sheet PNG (Pillow, optimize). The table gives the sheet's
PNG bytes and decoded RGBA bytes beside the .riv's bytes, objects and texture memory (the decoded
RGBA bytes of every embedded image, from the file's own ImageAsset sizes via `re2d riv check
--json`). Targets (issue 26 at 1696x2528): biped <= 9000 objects, <= 0.5 MB, <= 3 MiB texture
memory; quadruped <= 15000 objects, <= 0.8 MB. Exit 1 when a target is missed.
"""
import argparse
import io
import json
import math
import os
import subprocess
import sys
import tempfile

from PIL import Image

FRAME_W, FRAME_H = 576, 624
TARGETS = {
    "biped": {"objects": 9000, "bytes": 500_000, "tex_mib": 3.0},
    "quadruped": {"objects": 15000, "bytes": 800_000},
}


def riv_numbers(re2d, riv):
    out = subprocess.run([re2d, "riv", "check", riv, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"rig_sheet_bench: re2d riv check {riv}: {out.stderr.strip()}")
    j = json.loads(out.stdout)
    return j


def texture_bytes(re2d, build):
    """Decoded RGBA bytes of every embedded image: the images the model embeds (the same PNGs)."""
    model = json.load(open(os.path.join(build, "model.json")))
    total = 0
    for f in set(model["textures"].values()):
        with Image.open(os.path.join(build, f)) as im:
            total += im.width * im.height * 4
    return total


def sheet(re2d, build, tmp):
    model_path = os.path.join(build, "model.json")
    model = json.load(open(model_path))
    report = json.load(open(os.path.join(build, "report.json")))
    fps = 60
    w, h = report["drawing"]["width"], report["drawing"]["height"]
    s = min(FRAME_W / w, FRAME_H / h)
    # the model in game-frame units (positions x s; angles, UVs, weights, textures unchanged)
    for b in model["skeleton"].values():
        for k in ("x", "y", "length"):
            if isinstance(b.get(k), (int, float)):
                b[k] *= s
    for p in model["parts"]:
        p["verts"] = [v * s for v in p["verts"]]
    for c in model.get("clips", {}).values():
        for keys in c.get("translations", {}).values():
            for k in keys:
                k[1] *= s
                k[2] *= s
    for f in set(model["textures"].values()):
        os.symlink(os.path.abspath(os.path.join(build, f)), os.path.join(tmp, f))
    scaled = os.path.join(tmp, "model.json")
    json.dump(model, open(scaled, "w"))
    ox, oy = (FRAME_W - w * s) / 2, (FRAME_H - h * s) / 2
    frames = []
    motions = set(report.get("motions", {}).keys())
    for name, c in sorted(model.get("clips", {}).items()):
        if name not in motions:
            continue  # the generated `idle` holds the drawn pose: a sheet needs no frames for it
        n = max(1, round(c["duration"] * fps))
        for i in range(n):
            png = os.path.join(tmp, "f.png")
            r = subprocess.run([re2d, "riv", "render-ref", scaled, "--clip", name, "--time", f"{i / fps:.6f}",
                                "--fps", str(fps), "--artboard", f"{FRAME_W},{FRAME_H}",
                                "--offset", f"{ox:.4f},{oy:.4f}", "-o", png], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"rig_sheet_bench: render-ref {name} t={i / fps}: {r.stderr.strip()}")
            with Image.open(png) as im:
                frames.append(im.convert("RGBA").copy())
    cols = math.ceil(math.sqrt(len(frames)))
    rows = math.ceil(len(frames) / cols)
    img = Image.new("RGBA", (cols * FRAME_W, rows * FRAME_H), (0, 0, 0, 0))
    for i, f in enumerate(frames):
        img.paste(f, ((i % cols) * FRAME_W, (i // cols) * FRAME_H))
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return len(frames), len(buf.getvalue()), len(frames) * FRAME_W * FRAME_H * 4


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--re2d", required=True)
    ap.add_argument("--build", action="append", required=True)
    a = ap.parse_args()
    rows = []
    missed = []
    for b in a.build:
        name = os.path.basename(os.path.normpath(b))
        riv = os.path.join(b, "character.riv")
        chk = riv_numbers(a.re2d, riv)
        objects = chk.get("objects")
        nbytes = os.path.getsize(riv)
        tex = texture_bytes(a.re2d, b)
        rep = json.load(open(os.path.join(b, "report.json")))
        with tempfile.TemporaryDirectory() as tmp:
            nf, sheet_bytes, sheet_rgba = sheet(a.re2d, b, tmp)
        dev = rep.get("grid", {}).get("max_deviation_px")
        rows.append((name, objects, nbytes, tex, nf, sheet_bytes, sheet_rgba, dev))
        t = TARGETS.get(name, {})
        if "objects" in t and objects > t["objects"]:
            missed.append(f"{name}: {objects} objects > {t['objects']}")
        if "bytes" in t and nbytes > t["bytes"]:
            missed.append(f"{name}: {nbytes} bytes > {t['bytes']}")
        if "tex_mib" in t and tex / 2**20 > t["tex_mib"]:
            missed.append(f"{name}: {tex / 2**20:.2f} MiB texture memory > {t['tex_mib']}")
    print("| character | .riv MB | objects | texture MiB | max deviation px | frames | sheet PNG MB | sheet RGBA MiB | sheet / .riv bytes | sheet / .riv memory | targets |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (name, objects, nbytes, tex, nf, sb, sr, dev) in rows:
        t = TARGETS.get(name, {})
        tt = ", ".join(x for x in [
            f"<= {t['objects']} obj" if "objects" in t else "",
            f"<= {t['bytes'] / 1e6:g} MB" if "bytes" in t else "",
            f"<= {t['tex_mib']:g} MiB" if "tex_mib" in t else ""] if x) or "-"
        print(f"| {name} | {nbytes / 1e6:.3f} | {objects} | {tex / 2**20:.2f} | {dev:.3f} | {nf} | {sb / 1e6:.2f} | "
              f"{sr / 2**20:.1f} | {sb / nbytes:.1f}x | {sr / max(tex, 1):.1f}x | {tt} |")
    for m in missed:
        print(f"MISSED: {m}")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
