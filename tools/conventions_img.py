#!/usr/bin/env python3
"""The pictures of docs/rig.md "Conventions" (issue 47 item 6): which side a bone name means,
and how the capture's axes (--up, --forward) land on the drawing.

    target/venv/bin/python tools/conventions_img.py docs/img    (make docs-conventions)

Writes rig-sides.png and rig-axes.png. Pure drawing (Pillow): the rules drawn are the ones
crates/rig/src/motion/mapping.rs (side words) and axes.rs / mod.rs (forward -> drawing +x when
the figure faces right, -x when it faces left; up -> -y, the image's y grows downwards) state.
"""
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

S = 2  # drawn at twice the size, then reduced: smooth lines
INK = (40, 40, 48)
NEAR = (214, 88, 40)  # the near limbs: drawn in front
FAR = (120, 150, 200)  # the far limbs: drawn behind the body
BODY = (150, 150, 150)
PAPER = (255, 255, 255)
AXIS = {"up": (40, 150, 60), "forward": (200, 40, 120), "side": (90, 90, 90)}


def font(px):
    return ImageFont.load_default(size=px * S)


def canvas(w, h):
    img = Image.new("RGB", (w * S, h * S), PAPER)
    return img, ImageDraw.Draw(img)


def finish(img, path):
    w, h = img.size
    img.resize((w // S, h // S), Image.LANCZOS).save(path, optimize=True)
    print(f"wrote {path}")


def line(d, pts, fill, width):
    pts = [(x * S, y * S) for x, y in pts]
    d.line(pts, fill=fill, width=width * S, joint="curve")
    r = width * S / 2
    for x, y in pts:
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def text(d, xy, s, px=13, fill=INK, anchor="la"):
    d.text((xy[0] * S, xy[1] * S), s, font=font(px), fill=fill, anchor=anchor)


def arrow(d, a, b, fill, width=3, label=None, px=13, off=(6, -6)):
    line(d, [a, b], fill, width)
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    n = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / n, dy / n
    h = 10
    tip = [(bx + ux * 4, by + uy * 4),
           (bx - ux * h + uy * h * 0.5, by - uy * h - ux * h * 0.5),
           (bx - ux * h - uy * h * 0.5, by - uy * h + ux * h * 0.5)]
    d.polygon([(x * S, y * S) for x, y in tip], fill=fill)
    if label:
        text(d, (bx + off[0], by + off[1]), label, px, fill)


def figure(d, cx, cy, facing, scale=1.0):
    """A side-view figure standing at (cx, cy) (the hip), facing +1 (right) or -1 (left).
    Returns the points the labels point at."""
    f = facing

    def p(x, y):
        return (cx + f * x * scale, cy + y * scale)

    hip, shoulder, head = p(0, 0), p(4, -62), p(8, -84)
    # far limbs first (behind the body)
    far_leg = [hip, p(-14, 36), p(-24, 72), p(-8, 76)]
    far_arm = [shoulder, p(16, -32), p(34, -14)]
    line(d, far_leg, FAR, 9)
    line(d, far_arm, FAR, 7)
    line(d, [hip, shoulder], BODY, 16)
    r = 16 * scale
    hx, hy = head
    d.ellipse(((hx - r) * S, (hy - r) * S, (hx + r) * S, (hy + r) * S), fill=BODY)
    nose = [p(20, -90), p(29, -84), p(20, -80)]
    d.polygon([(x * S, y * S) for x, y in nose], fill=BODY)
    near_leg = [hip, p(14, 36), p(8, 72), p(26, 76)]
    near_arm = [shoulder, p(-10, -32), p(-2, -8)]
    line(d, near_leg, NEAR, 9)
    line(d, near_arm, NEAR, 7)
    return {"near_leg": p(12, 34), "far_leg": p(-20, 56), "near_arm": p(-8, -30),
            "far_arm": p(22, -26)}


def sides(out):
    w, h = 900, 410
    img, d = canvas(w, h)
    text(d, (w / 2, 14), "Bone-name sides are the character's own", 17, anchor="ma")
    panels = [(225, 1, "facing right (\"facing\": \"right\")", "LEFT", "RIGHT"),
              (675, -1, "facing left (\"facing\": \"left\")", "RIGHT", "LEFT")]
    for cx, f, title, near_side, far_side in panels:
        text(d, (cx, 44), title, 14, anchor="ma")
        text(d, (cx, 66), f"far (behind the body) = the character's {far_side}", 13, FAR, "ma")
        text(d, (cx, 84), f"upper_arm_far = upper_arm_{far_side.lower()} -> capture {far_side.title()}Shoulder",
             12, FAR, "ma")
        figure(d, cx, 218, f, 1.15)
        text(d, (cx, 316), f"near (in front) = the character's {near_side}", 13, NEAR, "ma")
        text(d, (cx, 334), f"thigh_near = thigh_{near_side.lower()} -> capture {near_side.title()}Hip",
             12, NEAR, "ma")
    line(d, [(w / 2, 40), (w / 2, 345)], (220, 220, 220), 1)
    text(d, (w / 2, 362), "near / far: the limb drawn in front of / behind the body; left / right: the character's own side,",
         13, anchor="ma")
    text(d, (w / 2, 380), "whatever the facing (never the image's left). A limb without a side word is the near one.",
         13, anchor="ma")
    finish(img, out / "rig-sides.png")


def axes(out):
    w, h = 980, 360
    img, d = canvas(w, h)
    text(d, (w / 2, 14), "The capture's axes on the drawing (--up, --forward)", 17, anchor="ma")
    # (a) the capture, oblique view of a right-handed frame
    ox, oy = 160, 190
    text(d, (ox, 44), "the capture (BVH), read with up = +Y", 14, anchor="ma")
    arrow(d, (ox, oy), (ox, oy - 110), AXIS["up"], label="up (+Y)", off=(8, 0))
    arrow(d, (ox, oy), (ox + 118, oy + 34), AXIS["forward"], label="forward", off=(-10, 10))
    arrow(d, (ox, oy), (ox - 90, oy + 40), AXIS["side"], label="side", off=(-20, -30))
    text(d, (ox, 292), "--up: the axis the legs point away from", 12, anchor="ma")
    text(d, (ox, 308), "(detected; +Z for a Z-up capture)", 12, anchor="ma")
    text(d, (ox, 324), "--forward: where it walks (detected: travel,", 12, anchor="ma")
    text(d, (ox, 340), "else the toes); horizontal, never up", 12, anchor="ma")
    # (b) and (c): the drawing
    for cx, f, title, fx in [(500, 1, "drawing facing right", "+x"), (810, -1, "drawing facing left", "-x")]:
        text(d, (cx, 44), title, 14, anchor="ma")
        figure(d, cx, 190, f, 1.0)
        ax, ay = cx - f * 120, 300
        arrow(d, (ax, ay), (ax + f * 90, ay), AXIS["forward"], label=f"forward -> {fx}",
              off=(6 if f > 0 else -110, -20))
        arrow(d, (ax, ay), (ax, ay - 90), AXIS["up"], label="up -> -y", off=(-28 if f > 0 else -30, -20))
        text(d, (cx, 326), "image y grows downwards", 12, anchor="ma")
    finish(img, out / "rig-axes.png")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: conventions_img.py OUT_DIR")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    sides(out)
    axes(out)


if __name__ == "__main__":
    main()
