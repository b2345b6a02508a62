#!/usr/bin/env python3
"""Independent judge of `re2d render --apng/--gif`: Pillow decodes the animation.

usage: check_anim.py ANIM FRAMES_DIR FPS PLAYS
  ANIM        an APNG (.png) or GIF (.gif) written by re2d render
  FRAMES_DIR  the same render's frame-NNNN.png files
  FPS         the --fps of the render
  PLAYS       0 (loops forever) or 1 (plays once)
Checks frame count, size, per-frame duration, loop count and pixels (APNG:
equal RGBA; GIF: the alpha mask cut at 128 and RGB within 48 on opaque
pixels). Exit 0 when everything matches, 1 with the first mismatch on stderr
(a rejection). Anything else is exit 2: a missing Pillow, an unreadable file,
bad arguments, any exception — the judge did not judge, and a negative
control must never count that as a rejection (tests/anim/run.sh).
"""
import glob
import os
import sys
import traceback

try:
    from PIL import Image
except Exception as e:  # the judge is missing: not a verdict
    print(f"check_anim: ERROR: Pillow is not importable ({e})", file=sys.stderr)
    sys.exit(2)


class Rejected(Exception):
    pass


def fail(msg):
    raise Rejected(msg)


def main():
    anim, frames_dir, fps, plays = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    paths = sorted(glob.glob(os.path.join(frames_dir, "frame-*.png")))
    if not paths:
        fail(f"no frames in {frames_dir}")
    frames = [Image.open(p).convert("RGBA") for p in paths]
    im = Image.open(anim)
    gif = im.format == "GIF"
    if im.format not in ("PNG", "GIF"):
        fail(f"{anim}: format {im.format}")
    if not gif and not getattr(im, "is_animated", False) and len(frames) > 1:
        fail(f"{anim}: not an animated PNG")
    if im.n_frames != len(frames):
        fail(f"{anim}: {im.n_frames} frames, expected {len(frames)}")
    if im.size != frames[0].size:
        fail(f"{anim}: size {im.size}, expected {frames[0].size}")
    loop = im.info.get("loop")
    # APNG num_plays / GIF NETSCAPE loop count: 0 = forever; no loop entry = once
    if plays == 0 and loop != 0:
        fail(f"{anim}: loop {loop}, expected 0 (forever)")
    if plays == 1 and loop not in (None, 1):
        fail(f"{anim}: loop {loop}, expected to play once")
    want_ms = round(100 / fps) * 10 if gif else 1000 / fps
    for i, ref in enumerate(frames):
        im.seek(i)
        ms = im.info.get("duration")
        if ms is None or abs(ms - want_ms) > 1e-6:
            fail(f"{anim}: frame {i} duration {ms} ms, expected {want_ms}")
        got = im.convert("RGBA")
        if not gif:
            if got.tobytes() != ref.tobytes():
                fail(f"{anim}: frame {i} pixels differ from {paths[i]}")
            continue
        g, r = got.tobytes(), ref.tobytes()
        for p in range(0, len(r), 4):
            opaque = r[p + 3] >= 128
            if (g[p + 3] == 255) != opaque:
                fail(f"{anim}: frame {i} pixel {p // 4} alpha {g[p + 3]} vs {r[p + 3]}")
            if opaque and max(abs(g[p + c] - r[p + c]) for c in range(3)) > 48:
                fail(f"{anim}: frame {i} pixel {p // 4} colour {g[p:p + 3]} vs {r[p:p + 3]}")
    print(f"check_anim: {anim}: {len(frames)} frames ok")


if __name__ == "__main__":
    try:
        main()
    except Rejected as r:
        print(f"check_anim: {r}", file=sys.stderr)
        sys.exit(1)
    except SystemExit:
        raise
    except BaseException:
        print("check_anim: ERROR: the judge failed:", file=sys.stderr)
        traceback.print_exc()
        sys.exit(2)
