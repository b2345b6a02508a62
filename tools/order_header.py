#!/usr/bin/env python3
# re2d — puts cbindgen's rotsprite_math.h into the declaration order of c-abi.md §1.
#
# cbindgen always emits constants, then every type, then every function; the
# existing header interleaves them (each type right before its first use).
# This step only reorders whole declarations cbindgen produced; it fails when
# cbindgen emits an item the order below does not know, or misses one.
import re
import sys

ORDER = [
    "R2D_ROTSPRITE_SIZE",
    "r2d_rotsprite_layout", "r2d_rotsprite_angles", "r2d_rotsprite_raster",
    "R2DRotPoint", "R2DRotAtlas",
    "r2d_rotsprite_v2_header", "r2d_rotsprite_v2_decode", "r2d_rotsprite_v2_free",
    "r2d_rotsprite_v2_raster",
    "R2DRotPartPose", "R2DRotModelPose", "R2DRotRig",
    "r2d_rotsprite_v2_draw", "r2d_rotsprite_v2_joint",
    "r2d_rotsprite_v2_decode_anime", "r2d_rotsprite_v2_anime",
    "R2DRotAnimeWorkspace",
    "r2d_rotsprite_anime_workspace_free", "r2d_rotsprite_v2_anime_workspace",
    "r2d_rotsprite_v2_anime_sized",
]

def main(src, dst):
    text = open(src).read()
    items = {}
    for m in re.finditer(r"^#define (\w+) .*$", text, re.M):
        items[m.group(1)] = m.group(0)
    for m in re.finditer(r"^typedef struct (\w+) \{.*?^\} \1;$", text, re.M | re.S):
        items[m.group(1)] = m.group(0)
    for m in re.finditer(r"^(?:bool|void) (r2d_\w+)\(.*?\);$", text, re.M | re.S):
        items[m.group(1)] = m.group(0)
    if sorted(items) != sorted(ORDER):
        sys.exit(f"order_header: cbindgen items {sorted(items)} differ from the known order")
    head = text[: text.index("#define ")]
    body = "\n\n".join(items[name] if i == 0 else items[name] for i, name in enumerate(ORDER[1:], 1))
    out = (
        head
        + items["R2D_ROTSPRITE_SIZE"]
        + "\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif  // __cplusplus\n\n"
        + body
        + "\n\n#ifdef __cplusplus\n}  // extern \"C\"\n#endif  // __cplusplus\n"
    )
    open(dst, "w").write(out)

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
