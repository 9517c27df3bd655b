//! Paths evaluated on the host (`annotator::back::host_paths`): for each kernel below, which
//! work-items take its branch is written out by hand in Rust (C's conversions included),
//! and the cells the host cuts a launch into must give every work-item a path that
//! partitions them exactly so. Kernels the host cannot evaluate get no skeleton, or no
//! cells at a launch (the shim then runs the copy). The e2e tests check the warp records
//! written from the cells against the copy's on PoCL, bit for bit.

use std::path::PathBuf;

use annotator::annotate::annotate_file;
use annotator::back::host_paths::{Cells, HostPaths, PathLaunch};
use annotator::front::compile::{BuildOptions, Compiler};
use pipeline_model::Architecture;

/// The skeleton of kernel `name` of `text`, if it has one.
fn skeleton(text: &str, name: &str) -> Option<HostPaths> {
    let dir = std::env::temp_dir().join(format!("srcsim-host-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("{name}.cl"));
    std::fs::write(&path, text).unwrap();
    let a = annotate_file(
        &Compiler::locate().unwrap(),
        &path,
        &BuildOptions::default(),
        &Architecture::default_arch(),
    )
    .unwrap();
    let k = a.sidecar.kernels.iter().find(|k| k.name == name).unwrap();
    k.host_paths.clone()
}

/// The cells of a launch of `global` work-items (groups of `local`) with these
/// arguments' bytes.
fn cells(
    paths: &HostPaths,
    global: [u64; 3],
    local: [u64; 3],
    args: &[Option<Vec<u8>>],
) -> Option<Cells> {
    let values: Vec<Option<&[u8]>> = args.iter().map(|a| a.as_deref()).collect();
    paths.cells(&PathLaunch {
        work_dim: if global[1] > 1 { 2 } else { 1 },
        global,
        local,
        offset: [0; 3],
        args: &values,
    })
}

fn int(v: i32) -> Option<Vec<u8>> {
    Some(v.to_le_bytes().to_vec())
}

/// Every work-item's path is one of two: `taken`'s, or the others'.
fn assert_partition(cells: &Cells, global: [u64; 3], taken: impl Fn(u64, u64) -> bool) {
    assert_classes(cells, global, |x, y| u8::from(taken(x, y)));
}

/// Work-items take the same path exactly where `class` gives them the same class.
fn assert_classes(cells: &Cells, global: [u64; 3], class: impl Fn(u64, u64) -> u8) {
    let mut masks: std::collections::BTreeMap<u8, u64> = Default::default();
    for y in 0..global[1] {
        for x in 0..global[0] {
            let mask = cells.mask([x, y, 0]);
            let c = class(x, y);
            assert_eq!(
                *masks.entry(c).or_insert(mask),
                mask,
                "work-item ({x}, {y})"
            );
        }
    }
    let distinct: std::collections::BTreeSet<u64> = masks.values().copied().collect();
    assert_eq!(
        distinct.len(),
        masks.len(),
        "classes share a path: {masks:?}"
    );
}

#[test]
fn a_size_t_compared_with_a_negative_int_is_a_huge_unsigned() {
    let src = "__kernel void k_unsigned(__global float *a, const int n)
    {
        if (get_global_id(0) < n)
            a[get_global_id(0)] += 1.0f;
    }";
    let paths = skeleton(src, "k_unsigned").expect("a skeleton");
    let g = [100, 1, 1];
    let five = cells(&paths, g, [20, 1, 1], &[None, int(5)]).unwrap();
    assert_partition(&five, g, |x, _| x < 5);
    // `n` converts to size_t: -1 is 2^64 - 1, above every id.
    let all = cells(&paths, g, [20, 1, 1], &[None, int(-1)]).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all.mask([99, 0, 0]), five.mask([0, 0, 0]));
}

#[test]
fn an_int_compared_with_a_negative_int_stays_signed() {
    let src = "__kernel void k_signed(__global float *a, const int n)
    {
        if ((int)get_global_id(0) < n)
            a[get_global_id(0)] += 1.0f;
    }";
    let paths = skeleton(src, "k_signed").expect("a skeleton");
    let g = [100, 1, 1];
    let none = cells(&paths, g, [20, 1, 1], &[None, int(-1)]).unwrap();
    let some = cells(&paths, g, [20, 1, 1], &[None, int(30)]).unwrap();
    assert_partition(&some, g, |x, _| x < 30);
    assert_eq!(none.mask([0, 0, 0]), some.mask([99, 0, 0]));
}

#[test]
fn equality_cuts_on_both_sides() {
    let src = "__kernel void k_equal(__global float *a, const uint k)
    {
        if (get_global_id(0) == k)
            a[0] = 1.0f;
    }";
    let paths = skeleton(src, "k_equal").expect("a skeleton");
    let g = [100, 1, 1];
    let c = cells(&paths, g, [20, 1, 1], &[None, int(37)]).unwrap();
    assert_eq!(c.len(), 3);
    assert_partition(&c, g, |x, _| x == 37);
}

#[test]
fn early_returns_in_two_dimensions_with_a_conditional_bound() {
    let src = "__kernel void k_bounds(__global float *a, const int w, const int h, const int k)
    {
        int x = get_global_id(0), y = get_global_id(1);
        if (x >= w || y >= h)
            return;
        int lo = k > 4 ? k - 4 : 0;
        if (y >= lo && y < lo + 3 && x * 2 + 1 > w)
            a[y * w + x] = 0.0f;
    }";
    let paths = skeleton(src, "k_bounds").expect("a skeleton");
    let g = [16, 12, 1];
    for k in [0, 6, 20] {
        let c = cells(&paths, g, [8, 4, 1], &[None, int(13), int(10), int(k)]).unwrap();
        let lo = if k > 4 { k - 4 } else { 0 } as u64;
        // Three paths: out of bounds, in bounds without the store, with it.
        let store = |x: u64, y: u64| y >= lo && y < lo + 3 && x * 2 + 1 > 13;
        assert_classes(&c, g, |x, y| match (x < 13 && y < 10, store(x, y)) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        });
    }
}

#[test]
fn a_condition_that_is_not_monotone_leaves_the_launch_to_the_copy() {
    let src = "__kernel void k_mod(__global float *a, const int m)
    {
        if (get_global_id(0) % m == 0)
            a[get_global_id(0)] = 0.0f;
    }";
    let paths = skeleton(src, "k_mod").expect("a skeleton");
    assert!(cells(&paths, [96, 1, 1], [32, 1, 1], &[None, int(3)]).is_none());
    // One cell, where every id takes the branch.
    let one = cells(&paths, [96, 1, 1], [32, 1, 1], &[None, int(1)]).unwrap();
    assert_eq!(one.len(), 1);
}

#[test]
fn conditions_on_two_dimensions_or_on_local_ids_get_no_skeleton() {
    let diagonal = "__kernel void k_diag(__global float *a, const int n)
    {
        if (get_global_id(0) < get_global_id(1))
            a[get_global_id(1) * n + get_global_id(0)] = 0.0f;
    }";
    assert!(skeleton(diagonal, "k_diag").is_none());
    let local = "__kernel void k_local(__global float *a)
    {
        if (get_local_id(0) == 0)
            a[get_group_id(0)] = 0.0f;
    }";
    assert!(skeleton(local, "k_local").is_none());
    let memory = "__kernel void k_memory(__global float *a, __global const int *flags)
    {
        if (flags[get_global_id(0)] > 0)
            a[get_global_id(0)] = 0.0f;
    }";
    assert!(skeleton(memory, "k_memory").is_none());
}
