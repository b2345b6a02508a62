#!/usr/bin/env python3
"""A strip of N frames of one clip of a `rig build` folder, drawn by the reference renderer
(`re2d riv render-ref` of its model.json), side by side, scaled to a height.

Usage: rig_strip.py --re2d BIN --build DIR --clip NAME --out STRIP.png [--frames 8] [--height 300]
Until `re2d rig render` (issue 47) lands, `make demo` makes its strips with this.
"""
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image


def main(argv):
    a = {"--frames": "8", "--height": "300"}
    i = 0
    while i < len(argv):
        a[argv[i]] = argv[i + 1]
        i += 2
    build, clip = a["--build"], a["--clip"]
    model = json.load(open(os.path.join(build, "model.json")))
    dur = float(model["clips"][clip]["duration"])
    n = int(a["--frames"])
    looped = bool(model["clips"][clip].get("loop"))
    frames = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(n):
            t = dur * k / (n if looped else max(n - 1, 1))
            out = os.path.join(tmp, f"f{k}.png")
            subprocess.run([a["--re2d"], "riv", "render-ref", os.path.join(build, "model.json"),
                            "--clip", clip, "--time", f"{t:.4f}", "-o", out], check=True)
            frames.append(Image.open(out).convert("RGBA"))
    h = int(a["--height"])
    scaled = [f.resize((max(1, f.width * h // f.height), h), Image.LANCZOS) for f in frames]
    strip = Image.new("RGBA", (sum(f.width for f in scaled), h), (255, 255, 255, 255))
    x = 0
    for f in scaled:
        strip.alpha_composite(f, (x, 0))
        x += f.width
    strip.convert("RGB").save(a["--out"])
    print(f"{a['--out']}: {n} frames of {clip} ({dur:.2f} s)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
