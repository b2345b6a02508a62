#!/usr/bin/env python3
"""Writes the small layered drawings of tests/rig/layered/ with programs other than re2d
(issue 40): OpenRaster by pyora, Photoshop by psd-tools, plus the truth each test compares
with (computed here with numpy, not by re2d). Run once by hand; the files are committed, so
the tests need no Python:

    python3 -m venv /tmp/lv && /tmp/lv/bin/pip install pyora==0.3.11 psd-tools==1.26.0 \\
        pillow numpy && /tmp/lv/bin/python tools/make_layered_samples.py tests/rig/layered

A 96 x 128 figure: torso, head, an arm drawn as a group called "arm" (a sleeve and a cuff
layer), a hand, a bow mapped to the head by the declaration ("layers": {"bow": "head"}), a hidden sketch layer (called "torso" in the .psd),
and, in the "-extra" variants, a "sparkle" layer that belongs to no bone (the slicing rule
decides its pixels). The .ora also has a layer at 80 % opacity (the bow). Files:

  figure.ora, figure.ora.json            pyora: layers, a group, a hidden layer, opacity
  figure.psd, figure.psd.json            psd-tools: the same (the bow opaque), RLE channels
  figure-legacy-name.psd(.json)          psd-tools: a layer named "nœud" in the legacy
                                         (MacRoman) Pascal string: refused (E_RIG_LAYER)
  figure-extra.ora, figure-extra.ora.json  with the sparkle layer
  figure.labels.png                      truth: red = 1 + bone index of the top layer
  figure-16bit.psd, figure-cmyk.psd      psd-tools: refused (E_RIG_IMAGE)
"""

import json
import os
import sys

import numpy as np
from PIL import Image, ImageDraw

W, H = 96, 128
BONES = [
    # name, points, radius
    ("torso", [[48, 96], [48, 52]], 22),
    ("head", [[48, 52], [48, 20]], 20),
    ("arm", [[56, 56], [76, 84]], 9),
    ("hand", [[76, 84], [82, 96]], 9),
]


def layer(draw_fn, colour):
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    draw_fn(d, colour)
    return im


def layers():
    """Far to near: (name, image, bone or None, opacity, hidden, group)."""
    torso = layer(lambda d, c: d.rounded_rectangle([30, 50, 66, 110], 10, fill=c), (60, 110, 200, 255))
    head = layer(lambda d, c: d.ellipse([30, 6, 66, 46], fill=c), (240, 200, 170, 255))
    sleeve = layer(lambda d, c: d.line([(56, 56), (74, 82)], fill=c, width=14), (60, 110, 200, 255))
    cuff = layer(lambda d, c: d.line([(72, 78), (76, 84)], fill=c, width=14), (250, 250, 250, 255))
    hand = layer(lambda d, c: d.ellipse([70, 80, 88, 100], fill=c), (240, 200, 170, 255))
    bow = layer(lambda d, c: d.polygon([(40, 8), (56, 8), (48, 16)], fill=c), (220, 40, 60, 255))
    sketch = layer(lambda d, c: d.rectangle([0, 0, 40, 40], fill=c), (0, 0, 0, 255))
    sparkle = layer(lambda d, c: d.ellipse([60, 30, 70, 40], fill=c), (255, 230, 0, 255))
    return torso, head, sleeve, cuff, hand, bow, sketch, sparkle


def composite_truth(stack):
    """stack: far to near list of (bone index or -1, float alpha array). Top layer by the
    largest contribution a * prod(1 - a_above); label where the flattened alpha >= 0.5."""
    left = np.ones((H, W))
    best = np.zeros((H, W))
    lab = np.zeros((H, W), np.uint8)
    for bone, a in reversed(stack):
        c = a * left
        take = c > best
        best[take] = c[take]
        lab[take] = bone + 1
        left *= 1 - a
    lab[(1 - left) < 0.5] = 0
    return lab


def declaration(image, mapping):
    return {
        "version": 1,
        "image": image,
        "background": "alpha",
        "bones": [
            {"name": n, **({"parent": "torso"} if n in ("head", "arm") else {}),
             **({"parent": "arm"} if n == "hand" else {}),
             "points": p, "radius": r}
            for n, p, r in BONES
        ],
        "layers": mapping,
    }


def write_ora(path, with_sparkle):
    import pyora
    torso, head, sleeve, cuff, hand, bow, sketch, sparkle = layers()
    p = pyora.Project.new(W, H)
    # pyora adds layers bottom to top
    p.add_layer(torso, "/torso")
    p.add_layer(sketch, "/sketch", visible=False)
    p.add_layer(head, "/head")
    p.add_group("/arm")
    p.add_layer(sleeve, "/arm/sleeve")
    p.add_layer(cuff, "/arm/cuff")
    p.add_layer(hand, "/hand")
    p.add_layer(bow, "/bow", opacity=0.8)
    if with_sparkle:
        p.add_layer(sparkle, "/sparkle")
    p.save(path)


def main(out):
    os.makedirs(out, exist_ok=True)
    torso, head, sleeve, cuff, hand, bow, sketch, sparkle = layers()
    a = lambda im, op=1.0: np.asarray(im)[:, :, 3] / 255.0 * op
    idx = {n: i for i, (n, _, _) in enumerate(BONES)}
    # pyora stores opacity as an attribute; re2d multiplies it into the alpha, rounded
    bow_a = np.round(np.asarray(bow)[:, :, 3] * 0.8) / 255.0
    stack = [(idx["torso"], a(torso)), (idx["head"], a(head)), (idx["arm"], a(sleeve)),
             (idx["arm"], a(cuff)), (idx["hand"], a(hand)), (idx["head"], bow_a)]
    lab = composite_truth(stack)
    img = np.zeros((H, W, 4), np.uint8)
    img[:, :, 0] = lab
    img[:, :, 3] = 255
    Image.fromarray(img, "RGBA").save(os.path.join(out, "figure.labels.png"))

    write_ora(os.path.join(out, "figure.ora"), False)
    json.dump(declaration("figure.ora", {"bow": "head"}), open(os.path.join(out, "figure.ora.json"), "w"), indent=1)
    write_ora(os.path.join(out, "figure-extra.ora"), True)
    json.dump(declaration("figure-extra.ora", {"bow": "head"}), open(os.path.join(out, "figure-extra.ora.json"), "w"), indent=1)

    from psd_tools import PSDImage
    from psd_tools.api.layers import Group, PixelLayer
    from psd_tools.constants import Compression

    psd = PSDImage.new("RGBA", (W, H))
    def px(im, name):
        return PixelLayer.frompil(im, psd, name, 0, 0, Compression.RLE)
    psd.append(px(torso, "torso"))
    s = px(sketch, "torso")
    s.visible = False
    psd.append(s)
    psd.append(px(head, "head"))
    g = Group.new(psd, "arm", open_folder=True)
    g.append(px(sleeve, "sleeve"))
    g.append(px(cuff, "cuff"))
    psd.append(px(hand, "hand"))
    psd.append(px(bow, "bow"))
    psd.save(os.path.join(out, "figure.psd"))
    json.dump(declaration("figure.psd", {"bow": "head"}), open(os.path.join(out, "figure.psd.json"), "w"), indent=1)
    # psd-tools writes a name in the legacy Pascal string only (no UTF-16 "luni" block): a
    # name that is not ASCII is then not UTF-8 either, and refused (E_RIG_LAYER)
    q = PSDImage.new("RGBA", (W, H))
    q.append(PixelLayer.frompil(torso, q, "torso", 0, 0, Compression.RLE))
    q.append(PixelLayer.frompil(bow, q, "nœud", 0, 0, Compression.RLE))
    q.save(os.path.join(out, "figure-legacy-name.psd"))
    json.dump(declaration("figure-legacy-name.psd", {}), open(os.path.join(out, "figure-legacy-name.psd.json"), "w"), indent=1)
    # the psd's bow is opaque: its truth differs from the .ora's only where the bow's 80 %
    # opacity changes the top layer (it does not: 0.8 > 0.2)
    for mode, depth, name in [("RGBA", 16, "figure-16bit.psd"), ("CMYK", 8, "figure-cmyk.psd")]:
        q = PSDImage.new(mode, (W, H), depth=depth)
        q.save(os.path.join(out, name))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/rig/layered")
