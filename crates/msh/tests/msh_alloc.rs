// re2d MSH allocation bound: hostile inputs whose counts claim gigabytes are decoded, validated and exported with small allocations (spec: msh.md §1.6 "never allocates past the limits").
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
use re2d_msh::nres::{self, Profile};
use re2d_msh::{self as msh, export, synth};

fn put32(b: &mut [u8], o: usize, v: u32) {
    b[o..o + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn hostile_counts_do_not_allocate() {
    let l = Limits::DEFAULT;
    // negative control: the counter does see a big allocation
    let big = peak(|| {
        let v = vec![1u8; 8 << 20];
        std::hint::black_box(&v);
    });
    assert!(big >= 8 << 20, "the allocation counter works ({big})");

    // a 40-byte file claiming 4 GiB and 2^24 entries
    let mut x = vec![0u8; 40];
    x[..4].copy_from_slice(b"NRes");
    put32(&mut x, 4, 0x100);
    for (count, total) in [
        (0x00FF_FFFFu32, 40u32),
        (60_000, 40),
        (1, u32::MAX),
        (0x7FFF_FFFF, 40),
    ] {
        put32(&mut x, 8, count);
        put32(&mut x, 12, total);
        let p = peak(|| {
            let _ = nres::decode(&x, Profile::Tolerant, &l);
            let _ = msh::validate(&x, None, &l);
        });
        assert!(p < 64 << 10, "count {count}, total {total}: {p} bytes");
    }

    // a valid model whose tables claim huge counts
    let s = synth::generate("hierarchy-anim", 1).unwrap();
    let b = s.bytes;
    let n = u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize;
    let d = b.len() - 64 * n;
    let entry = |ty: u32| {
        (0..n)
            .map(|i| d + 64 * i)
            .find(|&e| u32::from_le_bytes(b[e..e + 4].try_into().unwrap()) == ty)
            .unwrap()
    };
    let mut h = b.clone();
    for ty in [1u32, 2, 3, 6, 8, 13, 19] {
        put32(&mut h, entry(ty) + 4, u32::MAX); // attr1 counts
    }
    put32(&mut h, entry(19) + 8, u32::MAX); // frame_count
    let names = u32::from_le_bytes(b[entry(10) + 56..entry(10) + 60].try_into().unwrap()) as usize;
    put32(&mut h, names, u32::MAX); // Res10 record length
    let batches =
        u32::from_le_bytes(b[entry(13) + 56..entry(13) + 60].try_into().unwrap()) as usize;
    put32(&mut h, batches + 10, u32::MAX); // index_start
    put32(&mut h, batches + 16, u32::MAX); // base_vertex
    let p = peak(|| {
        let r = msh::validate(&h, None, &l);
        assert!(!r.ok());
        let (m, _) = msh::decode(&h, None, Profile::Tolerant, &l).unwrap();
        let _ = export::gltf(
            &m,
            &export::Options {
                anim: true,
                ..Default::default()
            },
            true,
        );
        let _ = export::obj(&m, &Default::default());
    });
    assert!(p < 1 << 20, "hostile model: {p} bytes");
}
