#!/usr/bin/env bash
# re2d ffi-tests: checks the header text (c-abi.md §1 order, includes, macros) and the 14 unmangled exports of libre2d.so.
# usage: check_header_and_exports.sh include/rotsprite_math.h target/release/libre2d.so
set -u
hdr=$1
so=$2
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

names=(r2d_rotsprite_layout r2d_rotsprite_angles r2d_rotsprite_raster r2d_rotsprite_v2_header
       r2d_rotsprite_v2_decode r2d_rotsprite_v2_free r2d_rotsprite_v2_raster r2d_rotsprite_v2_draw
       r2d_rotsprite_v2_joint r2d_rotsprite_v2_decode_anime r2d_rotsprite_v2_anime
       r2d_rotsprite_anime_workspace_free r2d_rotsprite_v2_anime_workspace r2d_rotsprite_v2_anime_sized)

# 1. exports: every name is a defined text symbol of the shared library, unmangled
if [ -f "$so" ]; then
  syms=$(nm -D --defined-only "$so" 2>/dev/null)
  for n in "${names[@]}"; do
    if grep -Eq "^[0-9a-f]+ T ${n}\$" <<<"$syms"; then ok "export $n"; else ko "export $n (not a defined T symbol in $so)"; fi
  done
  # internal routines of c-abi.md §6 must not be exported unprefixed
  bad=$(grep -Ew "T (rigid_dual|model_point|transform_point|face_visible|anime_quad|cross2)" <<<"$syms")
  if [ -z "$bad" ]; then ok "no unprefixed internal routines exported"; else ko "internal routines exported: $bad"; fi
else
  ko "shared library $so missing"
fi

# 2. header text
dirs=$(grep -E '^[[:space:]]*#' "$hdr" | sed -E 's/^[[:space:]]*#[[:space:]]*/#/')
first=$(head -n1 <<<"$dirs")
if [ "$first" = "#pragma once" ]; then ok "#pragma once is the first directive"; else ko "first directive is '$first'"; fi
incs=$(grep -E '^#include' <<<"$dirs" | tr -s ' ' | tr '\n' '|')
if [ "$incs" = "#include <stdbool.h>|#include <stdint.h>|" ]; then ok "includes exactly <stdbool.h> then <stdint.h>"
else ko "includes are '$incs'"; fi
if grep -Eq '^#define R2D_ROTSPRITE_SIZE 64$' <<<"$dirs"; then ok "R2D_ROTSPRITE_SIZE is the plain literal 64"
else ko "R2D_ROTSPRITE_SIZE definition: $(grep -E 'R2D_ROTSPRITE_SIZE' <<<"$dirs" | head -1)"; fi
# other macros: only an include guard (#ifndef G / #define G) is allowed
prev=""
extra=""
while IFS= read -r d; do
  if [[ $d =~ ^#define[[:space:]]+([A-Za-z_0-9]+) ]]; then
    m=${BASH_REMATCH[1]}
    if [ "$m" != R2D_ROTSPRITE_SIZE ] && ! [[ $prev =~ ^#ifndef[[:space:]]+$m$ ]]; then extra="$extra $m"; fi
  fi
  prev=$d
done <<<"$dirs"
if [ -z "$extra" ]; then ok "no other macros"; else ko "other macros defined:$extra"; fi

# declaration order of c-abi.md §1
order=(R2D_ROTSPRITE_SIZE r2d_rotsprite_layout r2d_rotsprite_angles r2d_rotsprite_raster "struct R2DRotPoint"
       "struct R2DRotAtlas" r2d_rotsprite_v2_header r2d_rotsprite_v2_decode r2d_rotsprite_v2_free
       r2d_rotsprite_v2_raster "struct R2DRotPartPose" "struct R2DRotModelPose" "struct R2DRotRig"
       r2d_rotsprite_v2_draw r2d_rotsprite_v2_joint r2d_rotsprite_v2_decode_anime r2d_rotsprite_v2_anime
       "struct R2DRotAnimeWorkspace" r2d_rotsprite_anime_workspace_free r2d_rotsprite_v2_anime_workspace
       r2d_rotsprite_v2_anime_sized)
last=0
bad=""
for n in "${order[@]}"; do
  case $n in
    struct*) pat="${n}[[:space:]]*\\{" ;;
    R2D_*) pat="define[[:space:]]+${n}" ;;
    *) pat="[[:space:]*]${n}[[:space:]]*\\(" ;;
  esac
  line=$(grep -nE "$pat" "$hdr" | head -1 | cut -d: -f1)
  if [ -z "$line" ]; then bad="$bad missing:$n"; continue; fi
  if [ "$line" -le "$last" ]; then bad="$bad out-of-order:$n"; fi
  last=$line
done
if [ -z "$bad" ]; then ok "declaration order of c-abi.md §1"; else ko "declaration order:$bad"; fi
# typedef names equal tags
for t in R2DRotPoint R2DRotAtlas R2DRotPartPose R2DRotModelPose R2DRotRig R2DRotAnimeWorkspace; do
  if tr '\n' ' ' <"$hdr" | grep -Eq "typedef struct $t[[:space:]]*\\{[^}]*(\\{[^}]*\\}[^}]*)*\\}[[:space:]]*$t[[:space:]]*;"; then
    ok "typedef struct $t { ... } $t;"
  else ko "typedef struct $t { ... } $t; not found"; fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
