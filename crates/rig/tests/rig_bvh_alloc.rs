// re2d rig BVH allocation bound: a `Frames:` count of 10^9 (over the limit) or one the file's bytes cannot hold is refused before the motion is allocated (spec: rig.md §6; issue 19 "10^9 frames").
//! A counting global allocator records the peak of live heap bytes. The
//! test is alone in this binary so no other test allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let n = LIVE.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(n, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// Peak extra heap while running `f`.
fn peak(f: impl FnOnce()) -> usize {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    f();
    PEAK.load(Relaxed) - base
}

use re2d::limits::Limits;
use re2d_rig::motion::bvh;

fn file(frames: &str, lines: usize) -> Vec<u8> {
    let mut s = format!(
        "HIERARCHY\nROOT Hips\n{{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n  End Site\n  {{\n    OFFSET 0 1 0\n  }}\n}}\nMOTION\nFrames: {frames}\nFrame Time: 0.01\n"
    );
    for i in 0..lines {
        s.push_str(&format!("{i} 1.5 -2 30 0.25 7\n"));
    }
    s.into_bytes()
}

#[test]
fn huge_frame_counts_do_not_allocate() {
    // negative control: the counter does see the motion of a big, valid file
    let big = file("20000", 20_000);
    let mut ok = None;
    let p = peak(|| ok = Some(bvh::parse(&big, &Limits::DEFAULT)));
    let b = ok.unwrap().unwrap();
    assert_eq!(b.frames, 20_000);
    assert!(
        p >= 20_000 * 6 * 4,
        "the counter sees the motion being allocated ({p} bytes)"
    );
    drop(b);

    let limits_wide = Limits {
        bvh_max_frames: re2d::limits::BVH_FRAMES_CEILING,
        ..Limits::DEFAULT
    };
    for (what, text, limits, code) in [
        (
            "10^9 frames",
            file("1000000000", 2),
            Limits::DEFAULT,
            "E_BVH_LIMIT",
        ),
        (
            "10^30 frames",
            file(&"9".repeat(30), 2),
            Limits::DEFAULT,
            "E_BVH_LIMIT",
        ),
        (
            "under the limit, but the bytes cannot hold them",
            file("999999", 2),
            Limits::DEFAULT,
            "E_BVH_TRUNCATED",
        ),
        (
            "the largest settable limit",
            file("16777216", 2),
            limits_wide,
            "E_BVH_TRUNCATED",
        ),
    ] {
        let mut r = None;
        let p = peak(|| r = Some(bvh::parse(&text, &limits)));
        let e = r.unwrap().unwrap_err();
        assert_eq!(e.code, code, "{what}: {e}");
        assert!(
            p < 64 << 10,
            "{what}: {p} bytes allocated before the refusal"
        );
    }
}
