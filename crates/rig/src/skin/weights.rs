//! Stage 6b: weight schemes and the measurement that chooses one (rig.md §5).
//!
//! Schemes (at most two bones per vertex; bones are declared indices):
//! - `rigid`: every vertex of part `k` on bone `k`;
//! - `ramp`: a linear ramp across the whole part along the chain
//!   parent → `k` → first declared child (the `ramp` control of
//!   `rive-export.md` §9): the vertex's arc-length position on the chain's
//!   joint polyline, split between the two chain bones around it;
//! - `zone`: a blend zone around the part's own joint: `t` = the vertex's
//!   position along its bone from its first point, zone width `W` = the
//!   joint radius (the bone's radius at its first point), weight of the bone
//!   `u = clamp((t + W/2) / W, 0, 1)`, the rest on the declared parent;
//! - `smooth-zone`: the same zone with `u` eased (`3u² − 2u³`), so the
//!   weights have no kink at the zone's edges.
//!
//! **Measure** (every declared bone with a part whose parent has a part is a
//! child joint; partless bones still carry their children's blend zones): the
//! joint is bent by +30° (the bone and its descendants rotate about its
//! first point); all parts are rendered at rest and bent through their
//! meshes; changed pixels (largest RGBA difference > 8) are counted in the
//! exclusive region of the distal part (the bone's) and of the proximal part
//! (the declared parent's) — pixels covered (alpha > 127) by that part and
//! painted by no other (alpha > 0) at rest. *Choice*: a proximal pixel that the moving parts (the
//! bent bone's subtree) cover in the bent pose is not counted — that change
//! is the distal limb passing over, not the proximal part deforming (an arm
//! drawn over the torso sweeps over it under any weights). Joint volume
//! loss: the distal part's covered area bent vs rest, `1 − bent / rest`.
//!
//! **Choice** (*choice* beyond rig.md): a scheme is local when the
//! proximal change is 0 px at every joint; among local schemes whose largest
//! `|volume loss|` is at most [`MAX_VOLUME_LOSS`], the smoothest
//! (`smooth-zone`, then `zone`, then `rigid`): an artist expects the skin to
//! blend at a joint, and rigid is the fallback.

use crate::cut::slice::{PartImage, Slicing};
use crate::declare::skeleton::Skeleton;
use crate::skin::raster::{
    Affine, AlphaPlane, Canvas, IDENTITY, PartMesh, raster_masked, rotation_about, skin,
};

/// Largest joint volume loss a chosen scheme may have (the seed's linear
/// blending lost 7.85 %).
pub const MAX_VOLUME_LOSS: f64 = 0.05;

/// A weight scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// One bone per vertex.
    Rigid,
    /// Linear ramp across the whole part.
    Ramp,
    /// Linear blend zone around the joint.
    Zone,
    /// Eased blend zone around the joint.
    SmoothZone,
}

impl Scheme {
    /// Every scheme, in the table's order.
    pub const ALL: [Scheme; 4] = [
        Scheme::Rigid,
        Scheme::Ramp,
        Scheme::Zone,
        Scheme::SmoothZone,
    ];

    /// The report name.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Rigid => "rigid",
            Scheme::Ramp => "ramp",
            Scheme::Zone => "zone",
            Scheme::SmoothZone => "smooth-zone",
        }
    }

    /// Preference among equals (higher is smoother).
    fn smoothness(self) -> u8 {
        match self {
            Scheme::Rigid => 0,
            Scheme::Ramp => 1,
            Scheme::Zone => 2,
            Scheme::SmoothZone => 3,
        }
    }
}

/// At most two `(bone, weight)` pairs, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Pairs {
    n: usize,
    p: [(usize, f64); 2],
}

impl Pairs {
    fn one(b: usize) -> Pairs {
        Pairs {
            n: 1,
            p: [(b, 1.0), (0, 0.0)],
        }
    }

    fn two(a: (usize, f64), b: (usize, f64)) -> Pairs {
        Pairs { n: 2, p: [a, b] }
    }
}

impl std::ops::Deref for Pairs {
    type Target = [(usize, f64)];
    fn deref(&self) -> &[(usize, f64)] {
        &self.p[..self.n]
    }
}

impl PartialEq for Pairs {
    fn eq(&self, o: &Pairs) -> bool {
        **self == **o
    }
}

fn first_child(sk: &Skeleton, k: usize) -> Option<usize> {
    sk.bones.iter().position(|b| b.parent == Some(k))
}

/// The weights of a point `p` (drawing pixels) of part `k` under `scheme`.
pub fn weights(scheme: Scheme, sk: &Skeleton, k: usize, p: [f64; 2]) -> Pairs {
    let b = &sk.bones[k];
    match (scheme, b.parent) {
        (Scheme::Rigid, _) | (Scheme::Zone | Scheme::SmoothZone, None) => Pairs::one(k),
        (Scheme::Zone | Scheme::SmoothZone, Some(parent)) => {
            let (s, e) = (b.start(), b.end());
            let (dx, dy) = (e[0] - s[0], e[1] - s[1]);
            let t = ((p[0] - s[0]) * dx + (p[1] - s[1]) * dy) / (dx * dx + dy * dy).sqrt();
            let wz = b.radii[0];
            let mut u = ((t + wz / 2.0) / wz).clamp(0.0, 1.0);
            if scheme == Scheme::SmoothZone {
                u = u * u * (3.0 - 2.0 * u);
            }
            if u >= 1.0 {
                Pairs::one(k)
            } else if u <= 0.0 {
                Pairs::one(parent)
            } else {
                Pairs::two((parent, 1.0 - u), (k, u))
            }
        }
        (Scheme::Ramp, parent) => {
            let mut chain: Vec<usize> = parent.into_iter().collect();
            chain.push(k);
            if let Some(c) = first_child(sk, k) {
                chain.push(c);
            }
            if chain.len() < 2 {
                return Pairs::one(k);
            }
            let mut pts: Vec<[f64; 2]> = chain.iter().map(|&c| sk.bones[c].start()).collect();
            pts.push(sk.bones[*chain.last().unwrap_or(&k)].end());
            let (mut total, mut best) = (0.0, (f64::INFINITY, 0.0));
            for s in pts.windows(2) {
                let (a, q) = (s[0], s[1]);
                let (dx, dy) = (q[0] - a[0], q[1] - a[1]);
                let (t, l2) = re2d::math::nearest_on_segment(p, a, q);
                let (ex, ey) = (p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
                // sqrt of the sum, not hypot (per texel; small coordinates)
                let d = (ex * ex + ey * ey).sqrt();
                if d < best.0 {
                    best = (d, total + t * l2.sqrt());
                }
                total += l2.sqrt();
            }
            let s = if total > 0.0 { best.1 / total } else { 0.0 };
            let u = s * (chain.len() - 1) as f64;
            let i = (u.floor() as usize).min(chain.len() - 2);
            let f = u - i as f64;
            Pairs::two((chain[i], 1.0 - f), (chain[i + 1], f))
        }
    }
}

/// Per declared bone: the map of a bend of joint `c` by `theta`.
pub fn bend_maps(sk: &Skeleton, c: usize, theta: f64) -> Vec<Affine> {
    let r = rotation_about(sk.bones[c].start(), theta);
    (0..sk.bones.len())
        .map(|b| {
            let mut q = Some(b);
            while let Some(x) = q {
                if x == c {
                    return r;
                }
                q = sk.bones[x].parent;
            }
            IDENTITY
        })
        .collect()
}

/// One scheme's row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemeRow {
    /// The scheme.
    pub scheme: Scheme,
    /// Per joint (declared child bone): distal changed px.
    pub distal: Vec<u64>,
    /// Per joint: proximal changed px.
    pub proximal: Vec<u64>,
    /// Per joint: volume loss of the distal part (fraction).
    pub volume_loss: Vec<f64>,
}

impl SchemeRow {
    /// Proximal change is 0 at every joint.
    pub fn local(&self) -> bool {
        self.proximal.iter().all(|&p| p == 0)
    }

    /// Largest |volume loss|.
    pub fn max_loss(&self) -> f64 {
        self.volume_loss.iter().fold(0.0, |m, v| m.max(v.abs()))
    }
}

/// The weight-scheme table.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemeTable {
    /// Joints (declared bones with a parent), in declaration order.
    pub joints: Vec<usize>,
    /// One row per scheme, [`Scheme::ALL`] order.
    pub rows: Vec<SchemeRow>,
    /// The chosen scheme (`None`: no scheme is local).
    pub chosen: Option<Scheme>,
    /// Mesh step the table was measured with.
    pub step: usize,
}

fn rect_of(p: &PartImage) -> [i64; 4] {
    [
        p.origin[0] as i64,
        p.origin[1] as i64,
        (p.origin[0] + p.width) as i64,
        (p.origin[1] + p.height) as i64,
    ]
}

fn deformed(
    scheme: Scheme,
    sk: &Skeleton,
    k: usize,
    mesh: &PartMesh,
    maps: &[Affine],
) -> Vec<[f64; 2]> {
    mesh.verts
        .iter()
        .map(|&v| skin(v, &weights(scheme, sk, k, v), maps))
        .collect()
}

/// Renders the parts `set` (far to near) into `win` with vertices from
/// `pose`; with `moving`, marks the pixels the moving parts touch.
#[allow(clippy::too_many_arguments)]
fn render(
    buf: Vec<u8>,
    sk: &Skeleton,
    sl: &Slicing,
    meshes: &[PartMesh],
    set: &[bool],
    pose: &dyn Fn(usize) -> Vec<[f64; 2]>,
    win: [i64; 4],
    mask: &[bool],
    mut moving: Option<(&[bool], &mut Vec<bool>)>,
) -> Canvas {
    let mut c = Canvas::reuse(win, buf);
    for k in sk.far_to_near() {
        if !set[k] {
            continue;
        }
        let pts = pose(k);
        match moving.as_mut() {
            Some((moves, touched)) if moves[k] => raster_masked(
                &sl.parts[k],
                &meshes[k],
                &pts,
                &mut c,
                Some(mask),
                |i, a| touched[i] |= a > 0,
            ),
            _ => raster_masked(
                &sl.parts[k],
                &meshes[k],
                &pts,
                &mut c,
                Some(mask),
                |_, _| {},
            ),
        }
    }
    c
}

/// Reused buffer of the table's coverage counts.
#[derive(Default)]
struct Scratch {
    seen: Vec<bool>,
}

/// The pixels where a part (its alpha plane `alpha`) drawn through `mesh`
/// deformed to `pts` lands a texel of alpha > 127.
fn covered_area(alpha: &AlphaPlane, mesh: &PartMesh, pts: &[[f64; 2]], sc: &mut Scratch) -> u64 {
    if pts.is_empty() {
        return 0;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in pts {
        x0 = x0.min(p[0]);
        y0 = y0.min(p[1]);
        x1 = x1.max(p[0]);
        y1 = y1.max(p[1]);
    }
    let win = [
        x0.floor() as i64 - 1,
        y0.floor() as i64 - 1,
        x1.ceil() as i64 + 1,
        y1.ceil() as i64 + 1,
    ];
    // coverage only: the texels landing, not their colours composited
    let n = ((win[2] - win[0]).max(0) * (win[3] - win[1]).max(0)) as usize;
    let seen = &mut sc.seen;
    seen.clear();
    seen.resize(n, false);
    alpha.walk(mesh, pts, win, |i, ti| seen[i] |= alpha.alpha[ti] > 127);
    seen.iter().filter(|s| **s).count() as u64
}

/// Measures every scheme on `meshes` (one per declared bone) and chooses.
pub fn table(sk: &Skeleton, sl: &Slicing, meshes: &[PartMesh]) -> SchemeTable {
    // joints between two parts (a partless bone has no pixel to change)
    let joints: Vec<usize> = (0..sk.bones.len())
        .filter(|&k| {
            sk.bones[k]
                .parent
                .is_some_and(|p| sl.parts[p].has_part() && sl.parts[k].has_part())
        })
        .collect();
    let theta = 30f64.to_radians();
    let mut rows: Vec<SchemeRow> = Scheme::ALL
        .iter()
        .map(|&s| SchemeRow {
            scheme: s,
            distal: Vec::new(),
            proximal: Vec::new(),
            volume_loss: Vec::new(),
        })
        .collect();
    let mut sc = Scratch::default();
    let (mut rest_buf, mut bent_buf, mut swept) = (Vec::new(), Vec::new(), Vec::new());
    let alpha: Vec<AlphaPlane> = sl.parts.iter().map(AlphaPlane::of).collect();
    // the rest coverage of each joint's child (the volume loss's denominator)
    let rest_area: Vec<u64> = (0..sk.bones.len())
        .map(|k| {
            if !joints.contains(&k) {
                return 0;
            }
            covered_area(&alpha[k], &meshes[k], &meshes[k].verts, &mut sc)
        })
        .collect();
    // rest coverage of the whole drawing: at rest a part's mesh shows its PNG
    // exactly (pixel centres hit texel centres); a pixel is exclusive to a part
    // when no other part paints it at all (alpha > 0: the faint edge of a
    // layered drawing's nearer layer over it changes it when that layer moves)
    let (w, h) = (sl.width, sl.height);
    let mut count = vec![0u8; w * h];
    let mut last = vec![0u8; w * h];
    for p in &sl.parts {
        for y in 0..p.height {
            for x in 0..p.width {
                let a = p.rgba[(y * p.width + x) * 4 + 3];
                if a > 0 {
                    let i = (y + p.origin[1]) * w + x + p.origin[0];
                    count[i] = count[i].saturating_add(1);
                    // a faint pixel of the part is no one's exclusive pixel
                    last[i] = if a > 127 { p.bone as u8 } else { u8::MAX };
                }
            }
        }
    }
    for &c in &joints {
        let p = sk.bones[c].parent.unwrap_or(c);
        let (a, b) = (rect_of(&sl.parts[c]), rect_of(&sl.parts[p]));
        let win = [
            a[0].min(b[0]),
            a[1].min(b[1]),
            a[2].max(b[2]),
            a[3].max(b[3]),
        ];
        let ww = (win[2] - win[0]) as usize;
        let n = ww * (win[3] - win[1]) as usize;
        let maps = bend_maps(sk, c, theta);
        let moves: Vec<bool> = maps.iter().map(|m| *m != IDENTITY).collect();
        // the parts whose pixels can change in the two exclusive regions: the
        // moving subtree, and the proximal part (deformed if its weights reach
        // the bent bone); a static part cannot cover an exclusive pixel
        let mut set = moves.clone();
        set[p] = true;
        // only the two exclusive regions are compared: render nothing else
        let mask: Vec<bool> = (0..n)
            .map(|i| {
                let gi = (i / ww + win[1] as usize) * w + i % ww + win[0] as usize;
                count[gi] == 1 && (last[gi] as usize == c || last[gi] as usize == p)
            })
            .collect();
        // the masked pixels in order, each with whether `c` owns it (else `p`)
        let compared: Vec<(u32, bool)> = (0..n)
            .filter(|&i| mask[i])
            .map(|i| {
                let gi = (i / ww + win[1] as usize) * w + i % ww + win[0] as usize;
                (i as u32, last[gi] as usize == c)
            })
            .collect();
        let rest = render(
            std::mem::take(&mut rest_buf),
            sk,
            sl,
            meshes,
            &set,
            &|k| meshes[k].verts.clone(),
            win,
            &mask,
            None,
        );
        for row in rows.iter_mut() {
            let s = row.scheme;
            swept.clear();
            swept.resize(n, false);
            let bent = render(
                std::mem::take(&mut bent_buf),
                sk,
                sl,
                meshes,
                &set,
                &|k| deformed(s, sk, k, &meshes[k], &maps),
                win,
                &mask,
                Some((&moves, &mut swept)),
            );
            let (mut dist, mut prox) = (0u64, 0u64);
            // the mask is exactly the pixels compared: one part there, `c` or `p`
            for &(i, distal) in &compared {
                let i = i as usize;
                let d = (0..4)
                    .map(|j| rest.rgba[i * 4 + j].abs_diff(bent.rgba[i * 4 + j]))
                    .max()
                    .unwrap_or(0);
                if d > 8 {
                    if distal {
                        dist += 1;
                    } else if !swept[i] {
                        prox += 1;
                    }
                }
            }
            let pts = deformed(s, sk, c, &meshes[c], &maps);
            let area = covered_area(&alpha[c], &meshes[c], &pts, &mut sc);
            row.distal.push(dist);
            row.proximal.push(prox);
            row.volume_loss
                .push(1.0 - area as f64 / rest_area[c].max(1) as f64);
        }
    }
    let chosen = rows
        .iter()
        .filter(|r| r.local() && r.max_loss() <= MAX_VOLUME_LOSS)
        .max_by_key(|r| r.scheme.smoothness())
        .map(|r| r.scheme);
    SchemeTable {
        joints,
        rows,
        chosen,
        step: meshes.first().map_or(0, |m| m.step),
    }
}
