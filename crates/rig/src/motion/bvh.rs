//! BVH motion-capture reader and forward kinematics (rig.md §6).
//!
//! [`parse`] reads any valid BVH: one or more `ROOT` hierarchies, `JOINT`s
//! with any subset of the six channels in any order (`Xposition`,
//! `Yposition`, `Zposition`, `Xrotation`, `Yrotation`, `Zrotation`, matched
//! without regard to case), `End Site`s, LF, CRLF or CR line ends, tabs,
//! and numbers such as `.0083333`, `-1e-3` or `+2.`. Joint names run to the
//! end of their line (or to a `{` on it), so a name may contain spaces.
//!
//! **Every size is checked before it is allocated** against the limits
//! table (`bvh-max-bytes`, `bvh-max-joints`, `bvh-max-channels`,
//! `bvh-max-frames`): the `Frames:` count is refused when it is over the
//! limit, and also when the bytes left in the file cannot hold that many
//! frames (each value needs at least one character and one separator), so
//! `Frames: 1000000000` never allocates anything. A capture read for a
//! clip ([`parse_for_clip`]) is also charged its keys × tracks against
//! `rig-max-keys` at the `Frame Time:` line ([`ClipBudget`]).
//!
//! The motion section is line based: each frame is one line holding exactly
//! one value per channel (blank lines are skipped). A line with too few or
//! too many values is `E_BVH_CHANNELS`, fewer lines than `Frames:` is
//! `E_BVH_TRUNCATED`, more is `E_BVH_FRAMES`. Values are stored as `f32`
//! (BVH files carry 4–6 significant digits).
//!
//! **Forward kinematics** ([`Bvh::world`]): a joint's local transform is a
//! translation by its `OFFSET` plus its position channels (in the parent's
//! frame, whatever their place in the channel list), then its rotation
//! channels composed **in the order written**: `Zrotation Yrotation
//! Xrotation` is `Rz·Ry·Rx` (column vectors, right-handed axes, degrees).
//! A joint's world transform is its parent's world transform times its
//! local one; the joint sits at the world transform's origin, an End Site
//! at its offset under its joint's transform.
//!
//! Errors (one line, [`RigError`]): `E_BVH_SYNTAX` (with the line number),
//! `E_BVH_CHANNELS`, `E_BVH_NAN` (NaN or infinity), `E_BVH_LIMIT` (a limit
//! of the table, named), `E_BVH_FRAMES` (more motion lines than declared),
//! `E_BVH_TRUNCATED`, `E_BVH_FRAME_TIME` (zero or negative),
//! `E_BVH_JOINT` (a joint asked for by name is missing or ambiguous), and
//! `E_IO` from [`read`].

use std::path::Path;

use crate::error::RigError;
use re2d::limits::{Limits, ReadError, read_file};

/// One channel of a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Translation along an axis (0 = X, 1 = Y, 2 = Z), in file units.
    Position(usize),
    /// Rotation about an axis (0 = X, 1 = Y, 2 = Z), in degrees.
    Rotation(usize),
}

impl Channel {
    fn parse(tok: &[u8]) -> Option<Channel> {
        let t = tok.to_ascii_lowercase();
        let axis = match t.first()? {
            b'x' => 0,
            b'y' => 1,
            b'z' => 2,
            _ => return None,
        };
        match &t[1..] {
            b"position" => Some(Channel::Position(axis)),
            b"rotation" => Some(Channel::Rotation(axis)),
            _ => None,
        }
    }

    /// The BVH name (`Xposition` … `Zrotation`).
    pub fn name(self) -> &'static str {
        match self {
            Channel::Position(0) => "Xposition",
            Channel::Position(1) => "Yposition",
            Channel::Position(_) => "Zposition",
            Channel::Rotation(0) => "Xrotation",
            Channel::Rotation(1) => "Yrotation",
            Channel::Rotation(_) => "Zrotation",
        }
    }
}

/// A joint of the hierarchy (`ROOT` or `JOINT`), in file (depth-first) order.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Name as written.
    pub name: String,
    /// Parent joint (`None` for a `ROOT`); always a smaller index.
    pub parent: Option<usize>,
    /// `OFFSET` from the parent.
    pub offset: [f64; 3],
    /// Channels in the order written.
    pub channels: Vec<Channel>,
    /// Column of the first channel in a motion line.
    pub first_channel: usize,
    /// Child joints, in file order.
    pub children: Vec<usize>,
    /// `End Site` offsets, in file order.
    pub end_sites: Vec<[f64; 3]>,
    /// 1-based line of the `ROOT`/`JOINT` keyword.
    pub line: usize,
}

/// A parsed BVH file.
#[derive(Clone, Debug, PartialEq)]
pub struct Bvh {
    /// Joints in file order (parents before children).
    pub joints: Vec<Joint>,
    /// Channels per frame (the sum over all joints).
    pub channels: usize,
    /// Number of frames.
    pub frames: usize,
    /// Seconds per frame (> 0).
    pub frame_time: f64,
    /// 1-based file line of each frame's motion line.
    pub frame_lines: Vec<usize>,
    /// `frames × channels` values, frame-major.
    motion: Vec<f32>,
}

/// A rigid transform: rotation (row-major 3×3) and translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Xform {
    /// Rotation, row-major: `r[i][j]`.
    pub r: [[f64; 3]; 3],
    /// Translation (the joint's world position for a joint transform).
    pub t: [f64; 3],
}

impl Xform {
    /// The identity.
    pub const IDENTITY: Xform = Xform {
        r: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        t: [0.0; 3],
    };

    /// `self · p` for a point.
    pub fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let mut o = self.t;
        for (i, oi) in o.iter_mut().enumerate() {
            *oi += self.r[i][0] * p[0] + self.r[i][1] * p[1] + self.r[i][2] * p[2];
        }
        o
    }

    /// `self · other`.
    pub fn then(&self, other: &Xform) -> Xform {
        let mut r = [[0.0; 3]; 3];
        for (i, row) in r.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = (0..3).map(|k| self.r[i][k] * other.r[k][j]).sum();
            }
        }
        Xform {
            r,
            t: self.apply(other.t),
        }
    }

    /// The rotation about `axis` by `deg` degrees (right-handed).
    pub fn rotation(axis: usize, deg: f64) -> Xform {
        let (s, c) = deg.to_radians().sin_cos();
        let r = match axis {
            0 => [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]],
            1 => [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]],
            _ => [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]],
        };
        Xform { r, t: [0.0; 3] }
    }
}

impl Bvh {
    /// The values of frame `f` (one per channel, in column order).
    pub fn frame(&self, f: usize) -> &[f32] {
        &self.motion[f * self.channels..(f + 1) * self.channels]
    }

    /// The index of the joint called `name`; `E_BVH_JOINT` when there is
    /// none or more than one. A name without an exact match is looked up
    /// without namespaces ([`base_name`]): `LeftArm` finds
    /// `mixamorig:LeftArm`, and `mixamorig:LeftArm` finds `LeftArm`.
    pub fn find(&self, name: &str) -> Result<usize, RigError> {
        let exact = self.joints.iter().filter(|j| j.name == name).count();
        let base = base_name(name);
        let mut it = self
            .joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.name == name || (exact == 0 && base_name(&j.name) == base));
        match (it.next(), it.next()) {
            (Some((i, _)), None) => Ok(i),
            (None, _) => Err(RigError::new(
                "E_BVH_JOINT",
                format!("the capture has no joint '{name}'"),
            )),
            (Some((_, a)), Some((_, b))) => Err(RigError::new(
                "E_BVH_JOINT",
                format!(
                    "joint name '{name}' is ambiguous (lines {} and {})",
                    a.line, b.line
                ),
            )),
        }
    }

    /// Whether exactly one joint is called `name`.
    pub fn has(&self, name: &str) -> bool {
        self.find(name).is_ok()
    }

    /// The local transform of joint `j` at frame `f`.
    pub fn local(&self, j: usize, f: usize) -> Xform {
        let joint = &self.joints[j];
        let vals = &self.frame(f)[joint.first_channel..joint.first_channel + joint.channels.len()];
        let mut x = Xform {
            t: joint.offset,
            ..Xform::IDENTITY
        };
        for (c, &v) in joint.channels.iter().zip(vals) {
            match *c {
                Channel::Position(a) => x.t[a] += v as f64,
                Channel::Rotation(a) => {
                    let t = x.t;
                    x = x.then(&Xform::rotation(a, v as f64));
                    x.t = t;
                }
            }
        }
        x
    }

    /// World transforms of every joint at frame `f` into `out` (resized to
    /// the joint count; reuse it across frames to stay allocation-free).
    pub fn world(&self, f: usize, out: &mut Vec<Xform>) {
        out.clear();
        for (j, joint) in self.joints.iter().enumerate() {
            let l = self.local(j, f);
            let w = match joint.parent {
                Some(p) => out[p].then(&l),
                None => l,
            };
            out.push(w);
        }
    }

    /// World positions of every joint at frame `f`.
    pub fn positions(&self, f: usize) -> Vec<[f64; 3]> {
        let mut w = Vec::with_capacity(self.joints.len());
        self.world(f, &mut w);
        w.iter().map(|x| x.t).collect()
    }

    /// Duration of the capture in seconds (`frames × frame_time`).
    pub fn duration(&self) -> f64 {
        self.frames as f64 * self.frame_time
    }
}

/// A joint name without its namespaces: the part after the last `:`
/// (`mixamorig:LeftArm` → `LeftArm`; a name without `:` is unchanged).
pub fn base_name(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// Reads a BVH file with the `bvh-max-bytes` limit (`E_IO` when it cannot
/// be read, `E_BVH_LIMIT` when it is too large), then [`parse`]s it.
pub fn read(path: &Path, limits: &Limits) -> Result<Bvh, RigError> {
    read_for_clip(path, limits, None)
}

/// [`read`] for a capture that becomes a clip: `budget` is charged at the
/// `Frame Time:` line ([`parse_for_clip`]).
pub fn read_for_clip(
    path: &Path,
    limits: &Limits,
    budget: Option<&ClipBudget>,
) -> Result<Bvh, RigError> {
    let bytes = read_file(path, limits.bvh_max_bytes, "bvh-max-bytes").map_err(|e| match e {
        ReadError::Io(e) => RigError::new("E_IO", format!("{}: {e}", path.display())),
        ReadError::TooLarge(e) => RigError::new("E_BVH_LIMIT", format!("{}: {e}", path.display())),
    })?;
    parse_for_clip(&bytes, limits, budget)
        .map_err(|e| RigError::new(e.code, format!("{}: {}", path.display(), e.message)))
}

/// What a capture may cost as a clip (issue 45): its keys × animated tracks,
/// charged against `rig-max-keys` (and the `model.json` they imply against
/// `json-max-bytes` and `json-max-values`) as soon as the `Frames:` and
/// `Frame Time:` lines are read — before the motion section, the
/// retargeting or the model cost anything. A clip has at most
/// `round(seconds × fps) + 1` keys, `seconds` being the capture's duration
/// (`(frames − 1) × frame time`) or [`ClipBudget::seconds`] when shorter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipBudget {
    /// Keys per second of the clip (> 0).
    pub fps: f64,
    /// Animated tracks per key: every bone plus the root translation(s).
    pub tracks: u64,
    /// The longest excerpt the clip can take (a `--range`, the longest
    /// gait cycle); `None`: the whole capture.
    pub seconds: Option<f64>,
    /// Key values left of `rig-max-keys` (earlier motions spent the rest).
    pub left: u64,
}

impl ClipBudget {
    /// The most keys the clip of a capture of `frames` frames of
    /// `frame_time` seconds can have (saturating).
    pub fn keys(&self, frames: u64, frame_time: f64) -> u64 {
        let mut secs = frames.saturating_sub(1) as f64 * frame_time;
        if let Some(s) = self.seconds {
            secs = secs.min(s);
        }
        // `as` saturates: a huge or infinite product becomes u64::MAX
        ((secs * self.fps).round() as u64).saturating_add(1)
    }

    /// Refuses (`E_BVH_LIMIT`, naming the limit) a clip whose key values do
    /// not fit what is left of `rig-max-keys`, or whose keys would make a
    /// `model.json` over `json-max-bytes` / `json-max-values`
    /// ([`re2d::limits::RIG_KEY_JSON_BYTES`] per key value). Returns the key
    /// values charged.
    pub fn charge(
        &self,
        frames: u64,
        frame_time: f64,
        limits: &Limits,
        line: usize,
    ) -> Result<u64, RigError> {
        use re2d::limits::{RIG_KEY_JSON_BYTES, RIG_KEY_JSON_VALUES};
        let keys = self.keys(frames, frame_time);
        let values = keys.saturating_mul(self.tracks);
        let what = || {
            format!(
                "line {line}: {frames} frames of {frame_time} s make up to {keys} keys at {} fps x {} tracks = {values} key values",
                self.fps, self.tracks
            )
        };
        if values > self.left {
            let spent = limits.rig_max_keys.saturating_sub(self.left);
            let others = if spent > 0 {
                format!(" ({spent} spent by the earlier motions)")
            } else {
                String::new()
            };
            return Err(limit(
                "rig-max-keys",
                format!(
                    "{}, more than the {} left of {}{others}",
                    what(),
                    self.left,
                    limits.rig_max_keys
                ),
            ));
        }
        let bytes = values.saturating_mul(RIG_KEY_JSON_BYTES);
        if bytes > limits.json_max_bytes {
            return Err(limit(
                "json-max-bytes",
                format!(
                    "{}: up to {bytes} bytes of model.json, more than {}",
                    what(),
                    limits.json_max_bytes
                ),
            ));
        }
        let counted = values.saturating_mul(RIG_KEY_JSON_VALUES);
        if counted > limits.json_max_values {
            return Err(limit(
                "json-max-values",
                format!(
                    "{}: up to {counted} JSON values in model.json, more than {}",
                    what(),
                    limits.json_max_values
                ),
            ));
        }
        Ok(values)
    }
}

/// A whitespace tokenizer that counts lines (LF, CRLF and lone CR each end
/// one line).
struct Lexer<'a> {
    b: &'a [u8],
    pos: usize,
    line: usize,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

impl<'a> Lexer<'a> {
    /// Skips spaces and tabs only (stays on the line).
    fn skip_inline(&mut self) {
        while self.pos < self.b.len() && matches!(self.b[self.pos], b' ' | b'\t' | 0x0b | 0x0c) {
            self.pos += 1;
        }
    }

    /// Consumes one line end if there is one here; true if it did.
    fn eat_newline(&mut self) -> bool {
        match self.b.get(self.pos) {
            Some(b'\n') => {
                self.pos += 1;
                self.line += 1;
                true
            }
            Some(b'\r') => {
                self.pos += 1;
                if self.b.get(self.pos) == Some(&b'\n') {
                    self.pos += 1;
                }
                self.line += 1;
                true
            }
            _ => false,
        }
    }

    fn skip_space(&mut self) {
        loop {
            self.skip_inline();
            if !self.eat_newline() {
                break;
            }
        }
    }

    /// The next token (any line), with its line; `None` at the end.
    fn token(&mut self) -> Option<(&'a [u8], usize)> {
        self.skip_space();
        if self.pos >= self.b.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < self.b.len() && !is_space(self.b[self.pos]) {
            self.pos += 1;
        }
        Some((&self.b[start..self.pos], self.line))
    }

    /// The next token (any line) without consuming it.
    fn peek(&mut self) -> Option<&'a [u8]> {
        let (pos, line) = (self.pos, self.line);
        let t = self.token().map(|t| t.0);
        (self.pos, self.line) = (pos, line);
        t
    }

    /// The next token on the current line (`None` at the line's end).
    fn token_inline(&mut self) -> Option<&'a [u8]> {
        self.skip_inline();
        if self.pos >= self.b.len() || matches!(self.b[self.pos], b'\n' | b'\r') {
            return None;
        }
        let start = self.pos;
        while self.pos < self.b.len() && !is_space(self.b[self.pos]) {
            self.pos += 1;
        }
        Some(&self.b[start..self.pos])
    }
}

fn syntax(line: usize, msg: impl std::fmt::Display) -> RigError {
    RigError::new("E_BVH_SYNTAX", format!("line {line}: {msg}"))
}

fn show(tok: &[u8]) -> String {
    let s = String::from_utf8_lossy(tok);
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.into_owned()
    }
}

/// Parses one number; `E_BVH_NAN` for NaN/infinity, `E_BVH_SYNTAX` for
/// anything that is not a number.
fn number(tok: &[u8], line: usize, what: &str) -> Result<f64, RigError> {
    let s = std::str::from_utf8(tok).ok();
    match s.and_then(|s| s.parse::<f64>().ok()) {
        Some(v) if v.is_finite() => Ok(v),
        Some(_) => Err(RigError::new(
            "E_BVH_NAN",
            format!("line {line}: {what} '{}' is not a finite number", show(tok)),
        )),
        None => {
            let low = tok.to_ascii_lowercase();
            if low.windows(3).any(|w| w == b"nan" || w == b"inf") {
                Err(RigError::new(
                    "E_BVH_NAN",
                    format!("line {line}: {what} '{}' is not a finite number", show(tok)),
                ))
            } else {
                Err(syntax(
                    line,
                    format!("{what} '{}' is not a number", show(tok)),
                ))
            }
        }
    }
}

fn keyword(tok: &[u8], kw: &str) -> bool {
    tok.eq_ignore_ascii_case(kw.as_bytes())
}

fn limit(name: &str, msg: String) -> RigError {
    RigError::new("E_BVH_LIMIT", format!("{msg} (limit {name}, see --limit)"))
}

/// What the hierarchy parser expects inside a `{ … }` body.
enum Open {
    /// A joint's body; its index.
    Joint(usize),
    /// An End Site's body; the joint it belongs to.
    EndSite(usize),
}

/// Parses a BVH document (never panics, for any bytes).
pub fn parse(bytes: &[u8], limits: &Limits) -> Result<Bvh, RigError> {
    parse_for_clip(bytes, limits, None)
}

/// [`parse`], charging `budget` ([`ClipBudget::charge`]) right after the
/// `Frame Time:` line, before the motion section is read.
pub fn parse_for_clip(
    bytes: &[u8],
    limits: &Limits,
    budget: Option<&ClipBudget>,
) -> Result<Bvh, RigError> {
    if bytes.len() as u64 > limits.bvh_max_bytes {
        return Err(limit(
            "bvh-max-bytes",
            format!(
                "the BVH is {} bytes, more than {}",
                bytes.len(),
                limits.bvh_max_bytes
            ),
        ));
    }
    let mut lx = Lexer {
        b: bytes,
        pos: 0,
        line: 1,
    };
    // Skip a UTF-8 byte-order mark.
    if bytes.starts_with(&[0xef, 0xbb, 0xbf]) {
        lx.pos = 3;
    }
    match lx.token() {
        Some((t, _)) if keyword(t, "HIERARCHY") => {}
        Some((t, l)) => {
            return Err(syntax(
                l,
                format!("expected HIERARCHY, found '{}'", show(t)),
            ));
        }
        None => return Err(syntax(lx.line, "empty file (expected HIERARCHY)")),
    }
    let mut joints: Vec<Joint> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut channels = 0usize;
    // Per open body: whether OFFSET / CHANNELS were seen.
    let mut seen_offset: Vec<bool> = Vec::new();
    // Per joint: whether its CHANNELS line was seen.
    let mut chan_seen: Vec<bool> = Vec::new();
    loop {
        let Some((tok, line)) = lx.token() else {
            return Err(syntax(
                lx.line,
                if stack.is_empty() {
                    "the file ends before MOTION"
                } else {
                    "the file ends inside the hierarchy (missing '}')"
                },
            ));
        };
        if stack.is_empty() {
            // Top level: ROOT or MOTION.
            if keyword(tok, "MOTION") {
                if joints.is_empty() {
                    return Err(syntax(line, "MOTION before any ROOT"));
                }
                break;
            }
            if !keyword(tok, "ROOT") {
                return Err(syntax(
                    line,
                    format!("expected ROOT or MOTION, found '{}'", show(tok)),
                ));
            }
            open_joint(&mut lx, &mut joints, None, line, limits)?;
            chan_seen.push(false);
            stack.push(Open::Joint(joints.len() - 1));
            seen_offset.push(false);
            continue;
        }
        let top = match stack.last() {
            Some(Open::Joint(j)) => Some(*j),
            _ => None,
        };
        let at_end_site = match stack.last() {
            Some(Open::EndSite(j)) => Some(*j),
            _ => None,
        };
        if tok == b"}" {
            if !seen_offset.last().copied().unwrap_or(false) {
                let what = match (top, at_end_site) {
                    (Some(j), _) => format!("joint '{}'", joints[j].name),
                    (_, Some(j)) => format!("the End Site of '{}'", joints[j].name),
                    _ => String::new(),
                };
                return Err(syntax(line, format!("{what} has no OFFSET")));
            }
            stack.pop();
            seen_offset.pop();
            continue;
        }
        if keyword(tok, "OFFSET") {
            if seen_offset.last().copied().unwrap_or(false) {
                return Err(syntax(line, "a second OFFSET in one body"));
            }
            let mut o = [0.0; 3];
            for v in &mut o {
                let (t, l) = lx
                    .token()
                    .ok_or_else(|| syntax(lx.line, "the file ends inside an OFFSET"))?;
                *v = number(t, l, "OFFSET value")?;
            }
            match (top, at_end_site) {
                (Some(j), _) => joints[j].offset = o,
                (_, Some(j)) => joints[j].end_sites.push(o),
                _ => {}
            }
            if let Some(s) = seen_offset.last_mut() {
                *s = true;
            }
            continue;
        }
        let Some(j) = top else {
            return Err(syntax(
                line,
                format!("an End Site holds only an OFFSET, found '{}'", show(tok)),
            ));
        };
        if keyword(tok, "CHANNELS") {
            if chan_seen[j] {
                return Err(syntax(
                    line,
                    format!("joint '{}' has a second CHANNELS line", joints[j].name),
                ));
            }
            chan_seen[j] = true;
            let (t, l) = lx
                .token()
                .ok_or_else(|| syntax(lx.line, "the file ends inside CHANNELS"))?;
            let n = match std::str::from_utf8(t)
                .ok()
                .and_then(|s| s.parse::<usize>().ok())
            {
                Some(n) if n <= 6 => n,
                _ => {
                    return Err(RigError::new(
                        "E_BVH_CHANNELS",
                        format!(
                            "line {l}: joint '{}': CHANNELS count '{}' is not 0..6",
                            joints[j].name,
                            show(t)
                        ),
                    ));
                }
            };
            if channels + n > limits.bvh_max_channels as usize {
                return Err(limit(
                    "bvh-max-channels",
                    format!(
                        "line {l}: more than {} channels per frame",
                        limits.bvh_max_channels
                    ),
                ));
            }
            let mut list = Vec::with_capacity(n);
            for k in 0..n {
                let c = lx.peek().and_then(Channel::parse).ok_or_else(|| {
                    RigError::new(
                        "E_BVH_CHANNELS",
                        format!(
                            "line {l}: joint '{}': CHANNELS {n} lists {k} channel names",
                            joints[j].name
                        ),
                    )
                })?;
                lx.token();
                if list.contains(&c) {
                    return Err(RigError::new(
                        "E_BVH_CHANNELS",
                        format!(
                            "line {l}: joint '{}': channel {} is listed twice",
                            joints[j].name,
                            c.name()
                        ),
                    ));
                }
                list.push(c);
            }
            if lx.peek().and_then(Channel::parse).is_some() {
                return Err(RigError::new(
                    "E_BVH_CHANNELS",
                    format!(
                        "line {l}: joint '{}': CHANNELS {n} is followed by more channel names",
                        joints[j].name
                    ),
                ));
            }
            channels += n;
            joints[j].channels = list;
            continue;
        }
        if keyword(tok, "JOINT") {
            if !seen_offset.last().copied().unwrap_or(false) {
                return Err(syntax(
                    line,
                    format!(
                        "joint '{}' has no OFFSET before its children",
                        joints[j].name
                    ),
                ));
            }
            open_joint(&mut lx, &mut joints, Some(j), line, limits)?;
            chan_seen.push(false);
            let child = joints.len() - 1;
            joints[j].children.push(child);
            stack.push(Open::Joint(child));
            seen_offset.push(false);
            continue;
        }
        if keyword(tok, "End") || keyword(tok, "EndSite") {
            if keyword(tok, "End") {
                match lx.token_inline() {
                    Some(t) if keyword(t, "Site") => {}
                    _ => return Err(syntax(line, "expected 'Site' after 'End'")),
                }
            }
            match lx.token() {
                Some((t, _)) if t == b"{" => {}
                Some((t, l)) => {
                    return Err(syntax(l, format!("expected '{{', found '{}'", show(t))));
                }
                None => return Err(syntax(lx.line, "the file ends after End Site")),
            }
            stack.push(Open::EndSite(j));
            seen_offset.push(false);
            continue;
        }
        return Err(syntax(
            line,
            format!(
                "unexpected '{}' in joint '{}' (expected OFFSET, CHANNELS, JOINT, End Site or '}}')",
                show(tok),
                joints[j].name
            ),
        ));
    }
    // Columns of the channels, in file order.
    let mut col = 0;
    for j in &mut joints {
        j.first_channel = col;
        col += j.channels.len();
    }
    debug_assert_eq!(col, channels);
    // Frames: N
    let (tok, line) = lx
        .token()
        .ok_or_else(|| syntax(lx.line, "the file ends after MOTION (expected 'Frames:')"))?;
    let count_tok = if tok.len() > 7 && tok[..7].eq_ignore_ascii_case(b"Frames:") {
        &tok[7..]
    } else if keyword(tok, "Frames:") {
        lx.token_inline()
            .ok_or_else(|| syntax(line, "'Frames:' has no count"))?
    } else {
        return Err(syntax(
            line,
            format!("expected 'Frames:', found '{}'", show(tok)),
        ));
    };
    if count_tok.is_empty() || !count_tok.iter().all(u8::is_ascii_digit) {
        return Err(syntax(
            line,
            format!("frame count '{}' is not a whole number", show(count_tok)),
        ));
    }
    let digits = count_tok.iter().skip_while(|&&c| c == b'0').count();
    let frames_decl: u64 = if digits > 12 {
        u64::MAX
    } else {
        count_tok
            .iter()
            .fold(0u64, |a, &c| a * 10 + (c - b'0') as u64)
    };
    if frames_decl > limits.bvh_max_frames as u64 {
        return Err(limit(
            "bvh-max-frames",
            format!(
                "line {line}: Frames: {} is more than {} frames",
                show(count_tok),
                limits.bvh_max_frames
            ),
        ));
    }
    // The work budget (issue 29): forward kinematics visits every joint on
    // every frame, so the declared frames × joints is bounded before any
    // work, even when the frames hold no channel (and so no bytes).
    let work = frames_decl.saturating_mul(joints.len() as u64);
    if work > limits.bvh_max_work {
        return Err(limit(
            "bvh-max-work",
            format!(
                "line {line}: {frames_decl} frames x {} joints is {work} joint-frames, more than {}",
                joints.len(),
                limits.bvh_max_work
            ),
        ));
    }
    let frames = frames_decl as usize;
    // Frame Time: t
    let (tok, tline) = lx
        .token()
        .ok_or_else(|| syntax(lx.line, "the file ends before 'Frame Time:'"))?;
    if !keyword(tok, "Frame") {
        return Err(syntax(
            tline,
            format!("expected 'Frame Time:', found '{}'", show(tok)),
        ));
    }
    let t2 = lx
        .token_inline()
        .ok_or_else(|| syntax(tline, "expected 'Time:' after 'Frame'"))?;
    let time_tok = if t2.len() > 5 && t2[..5].eq_ignore_ascii_case(b"Time:") {
        &t2[5..]
    } else if keyword(t2, "Time:") {
        lx.token_inline()
            .ok_or_else(|| syntax(tline, "'Frame Time:' has no value"))?
    } else {
        return Err(syntax(
            tline,
            format!("expected 'Time:', found '{}'", show(t2)),
        ));
    };
    let frame_time = number(time_tok, tline, "Frame Time")?;
    if frame_time <= 0.0 {
        return Err(RigError::new(
            "E_BVH_FRAME_TIME",
            format!("line {tline}: Frame Time {frame_time} is not positive"),
        ));
    }
    if let Some(t) = lx.token_inline() {
        return Err(syntax(
            tline,
            format!("unexpected '{}' after the frame time", show(t)),
        ));
    }
    if let Some(b) = budget {
        b.charge(frames_decl, frame_time, limits, tline)?;
    }
    // Before allocating: the remaining bytes must be able to hold the frames.
    let remaining = bytes.len() - lx.pos;
    let need = (frames as u128) * (channels as u128) * 2;
    if need > remaining as u128 + 1 {
        return Err(RigError::new(
            "E_BVH_TRUNCATED",
            format!(
                "line {line}: Frames: {frames} of {channels} values need at least {need} bytes, the motion section has {remaining}"
            ),
        ));
    }
    let total = frames * channels;
    let mut motion: Vec<f32> = Vec::new();
    motion
        .try_reserve_exact(total)
        .map_err(|_| limit("bvh-max-frames", format!("cannot allocate {frames} frames")))?;
    let mut frame_lines = Vec::new();
    frame_lines
        .try_reserve_exact(frames)
        .map_err(|_| limit("bvh-max-frames", format!("cannot allocate {frames} frames")))?;
    lx.eat_newline();
    // Frame lines.
    loop {
        lx.skip_inline();
        if lx.pos >= bytes.len() {
            break;
        }
        if lx.eat_newline() {
            continue; // blank line
        }
        let line = lx.line;
        if frame_lines.len() == frames {
            return Err(RigError::new(
                "E_BVH_FRAMES",
                format!("line {line}: more motion lines than 'Frames: {frames}'"),
            ));
        }
        let mut n = 0usize;
        while let Some(t) = lx.token_inline() {
            if n >= channels {
                return Err(RigError::new(
                    "E_BVH_CHANNELS",
                    format!(
                        "line {line}: frame {} has more than {channels} values (the hierarchy has {channels} channels)",
                        frame_lines.len() + 1
                    ),
                ));
            }
            let v = number(t, line, "value")?;
            let f = v as f32;
            if !f.is_finite() {
                return Err(RigError::new(
                    "E_BVH_NAN",
                    format!("line {line}: value '{}' is out of range", show(t)),
                ));
            }
            motion.push(f);
            n += 1;
        }
        if n != channels {
            return Err(RigError::new(
                "E_BVH_CHANNELS",
                format!(
                    "line {line}: frame {} has {n} values, the hierarchy has {channels} channels",
                    frame_lines.len() + 1
                ),
            ));
        }
        frame_lines.push(line);
        lx.eat_newline();
    }
    if frame_lines.len() < frames && channels > 0 {
        return Err(RigError::new(
            "E_BVH_TRUNCATED",
            format!(
                "line {}: the motion section ends after {} of {frames} frames",
                lx.line,
                frame_lines.len()
            ),
        ));
    }
    if channels == 0 {
        // No values to read: every frame is the rest pose.
        frame_lines.resize(frames, 0);
    }
    Ok(Bvh {
        joints,
        channels,
        frames,
        frame_time,
        frame_lines,
        motion,
    })
}

/// Reads the name after ROOT/JOINT (the rest of the line, or up to a `{`
/// on it), consumes the `{`, and appends the joint.
fn open_joint(
    lx: &mut Lexer<'_>,
    joints: &mut Vec<Joint>,
    parent: Option<usize>,
    line: usize,
    limits: &Limits,
) -> Result<(), RigError> {
    if joints.len() >= limits.bvh_max_joints as usize {
        return Err(limit(
            "bvh-max-joints",
            format!("line {line}: more than {} joints", limits.bvh_max_joints),
        ));
    }
    let mut parts: Vec<&[u8]> = Vec::new();
    let mut brace = false;
    while let Some(t) = lx.token_inline() {
        if t == b"{" {
            brace = true;
            break;
        }
        if let Some(stripped) = t.strip_suffix(b"{") {
            parts.push(stripped);
            brace = true;
            break;
        }
        parts.push(t);
    }
    if parts.is_empty() {
        return Err(syntax(line, "a joint without a name"));
    }
    let name = parts
        .iter()
        .map(|p| String::from_utf8_lossy(p))
        .collect::<Vec<_>>()
        .join(" ");
    if brace {
        if let Some(t) = lx.token_inline() {
            return Err(syntax(line, format!("unexpected '{}' after '{{'", show(t))));
        }
    } else {
        match lx.token() {
            Some((t, _)) if t == b"{" => {}
            Some((t, l)) => {
                return Err(syntax(
                    l,
                    format!("expected '{{' after joint '{name}', found '{}'", show(t)),
                ));
            }
            None => {
                return Err(syntax(
                    lx.line,
                    format!("the file ends after joint '{name}'"),
                ));
            }
        }
    }
    joints.push(Joint {
        name,
        parent,
        offset: [0.0; 3],
        channels: Vec::new(),
        first_channel: 0,
        children: Vec::new(),
        end_sites: Vec::new(),
        line,
    });
    Ok(())
}
