//! The sidecar's records: their fields, where a kernel keeps its values, sampled accesses
//! and their indices, and the profile's line instructions.

use super::*;

#[test]
fn the_sidecar_describes_the_records() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels/vector_add.cl");
    let a = annotate(&p).unwrap();
    let v = serde_json::to_value(&a.sidecar).unwrap();
    assert_eq!(v["schema"], "srcsim.annotation/1");
    // t, then issue, ALU, SFU, MEM, the SM's fetch unit, its miss entries, its fill port,
    // the L2 and DRAM (bytes), the path's cycles beyond unloaded L2 trips; no divergent
    // arm: `if (i < n)` has no `else`.
    assert_eq!(v["records"]["stride"], 11);
    assert_eq!(v["records"]["fields"][0], "t");
    assert_eq!(v["records"]["fields"][5], "fetch");
    assert_eq!(v["records"]["fields"][6], "MSHR");
    assert_eq!(v["records"]["fields"][7], "fill");
    assert_eq!(v["records"]["fields"][8], "L2");
    assert_eq!(v["records"]["fields"][9], "DRAM");
    assert_eq!(v["records"]["fields"][10], "L2_trip");
    assert_eq!(
        v["kernels"][0]["arms"],
        serde_json::json!([null, null, null])
    );
    assert_eq!(v["records"]["usage_scale"], 64);
    assert_eq!(v["kernels"][0]["records_arg"], 4);
    // `(__global const float *a, __global const float *b, __global float *c, const int n)`
    assert_eq!(
        v["kernels"][0]["params"],
        serde_json::json!(["buffer", "buffer", "buffer", "value"])
    );
    assert!(a
        .source
        .contains("const int n, __global ulong *__srcsim_records)"));
    // No barrier: a copy reduces its records to warps, with the lanes and the warp size.
    assert_eq!(v["kernels"][0]["warp_records"], true);
    assert_eq!(
        a.sidecar.kernels[0].warp_kernel().as_deref(),
        Some("__srcsim_warps_vector_add")
    );
    assert!(a
        .source
        .contains("__kernel void __srcsim_warps_vector_add(__global const float *a,"));
    assert!(a.source.contains(
        "const int n, __global ulong *__srcsim_records, __local ulong *__srcsim_lanes, uint __srcsim_warp)"
    ));
}

/// A kernel with a barrier keeps its record's values in its record in the twin (PoCL
/// saves every private value live across a barrier at every barrier), and private in its
/// copy that reduces to warps; a kernel without a barrier, or one that calls a function
/// of the file (whose timing functions any kernel may run), keeps them private.
#[test]
fn kernels_with_a_barrier_keep_their_values_in_their_record() {
    let body = |call: &str| {
        format!(
            "{call}__kernel void k(__global float *x, const int n)\n{{\n    __local float t[64];\n    \
             int i = get_global_id(0);\n    t[get_local_id(0)] = x[i];\n    \
             barrier(CLK_LOCAL_MEM_FENCE);\n    if (i % 2 == 0)\n        x[i] = sqrt(t[63 - get_local_id(0)]);\n}}\n"
        )
    };
    let kept = annotate(&temp("in_record.cl", &body(""))).unwrap();
    let s = &kept.source;
    assert!(
        s.contains("__global __srcsim_values *v; } __srcsim_state;"),
        "{s}"
    );
    assert!(
        s.contains("typedef struct { ulong t; ulong u[10]; } __srcsim_values;"),
        "{s}"
    );
    assert!(s.contains("#ifdef __SRCSIM_WARPS\n#define __SRCSIM_V(s) (s)\n#else\n#define __SRCSIM_V(s) ((s)->v)\n#endif"), "{s}");
    assert!(s.contains("__SRCSIM_V(s)->t += "), "{s}");
    assert!(!s.contains(" s->t += "), "{s}");
    // The twin makes its record at its start and writes nothing at its exit; its copy
    // starts as before.
    assert!(
        s.contains("->last = 0u; __srcsim_enter_record(__srcsim, __srcsim_records);"),
        "{s}"
    );
    assert!(
        s.contains("    for (uint i = 0; i < 11u; ++i)\n        rec[i] = 0;"),
        "{s}"
    );
    assert!(!s.contains("rec[0] = "), "{s}");
    assert_eq!(
        s.matches("__srcsim_enter_record(__srcsim").count(),
        1,
        "{s}"
    );
    let private = annotate(&temp(
        "private_values.cl",
        &body("float half_of(float v)\n{\n    return v * 0.5f;\n}\n\n")
            .replace("sqrt(t[", "half_of(t["),
    ))
    .unwrap();
    let s = &private.source;
    assert!(!s.contains("__SRCSIM_V"), "{s}");
    assert!(s.contains(" s->t += "), "{s}");
    assert!(s.contains("rec[0] = s->t;"), "{s}");
}

/// A pointer chase `p = ring[tid]; for (...) p = ring[p];`: clang compiles both subscripts
/// to one load in one loop, its `.loc` line 0 (merged). The load is sampled at the loop's
/// subscript, the one load of its width in the loop statement its loop was compiled from
/// (line 6, column 13), and its chase is counted: clang unrolls the loop into copies with
/// no source line, so the file is timed as compiled without unrolling, and says so.
#[test]
fn a_chase_merged_by_the_compiler_is_sampled_at_the_loops_subscript() {
    let a = annotate(&temp(
        "chase.cl",
        "__kernel void chase(__global ulong *ring, __global ulong *out, uint repeat)\n{\n    \
         uint tid = get_local_id(0);\n    ulong p = ring[tid];\n    \
         for (uint i = 0; i < repeat; i++)\n        p = ring[p];\n    \
         out[get_global_id(0)] = p;\n}\n",
    ))
    .unwrap();
    let samples = a.sidecar.records.samples_of("chase");
    let places: Vec<(u32, u32)> = samples.iter().map(|(_, s)| (s.line, s.column)).collect();
    assert_eq!(places, vec![(6, 13)], "{samples:?}");
    assert_eq!(samples[0].1.element_bytes, 8);
    let note = a.sidecar.timed_without_unrolling.as_deref().unwrap_or("");
    assert!(note.contains("`chase`"), "{note}");
    assert!(a.sidecar.kernels[0].paths.uncounted_loops.is_empty());
}

/// A sampled access's price per extra request: a bank pass of a shared access holds the
/// shared-memory pipe again but moves nothing of the memory side (no L2 bytes), where a
/// global gather's extra request moves a line through the L2.
#[test]
fn a_sampled_shared_access_charges_no_memory_side_per_bank_pass() {
    let a = annotate(&temp(
        "sampled_shared.cl",
        "__kernel void k(__global const int *idx, __global float *x)\n{\n    \
         __local float t[256];\n    int l = get_local_id(0);\n    t[l] = x[get_global_id(0)];\n    \
         barrier(CLK_LOCAL_MEM_FENCE);\n    int j = idx[get_global_id(0)];\n    \
         x[get_global_id(0)] = t[j & 255] + x[j];\n}\n",
    ))
    .unwrap();
    let samples = a.sidecar.records.samples_of("k");
    let arch = Architecture::default_arch();
    let resources = arch.resources();
    let at = |name: &str| resources.iter().position(|r| r == name).unwrap();
    let shared = samples
        .iter()
        .find(|(_, s)| s.shared)
        .expect("t[j & 255] sampled")
        .1
        .clone();
    let global = samples
        .iter()
        .find(|(_, s)| !s.shared)
        .expect("x[j] sampled")
        .1
        .clone();
    assert_eq!(shared.usage_per_transaction[at("L2")], 0.0, "{shared:?}");
    assert!(global.usage_per_transaction[at("L2")] > 0.0, "{global:?}");
    // The DRAM column counts bytes stored: neither load moves any there.
    for access in [&shared, &global] {
        assert_eq!(access.usage_per_transaction[at("DRAM")], 0.0, "{access:?}");
    }
    assert!(
        shared.usage_per_transaction.iter().any(|u| *u > 0.0),
        "{shared:?}"
    );
    assert!(
        shared.usage_per_sector.iter().all(|u| *u == 0.0),
        "{shared:?}"
    );
}

#[test]
fn profile_line_instructions_sum_to_each_paths_instructions_where_addressing_folds() {
    // A shared-memory chase on the H100, whose address arithmetic native code folds away
    // (`frontend.native_addressing`): the profile still counts PTX instructions, per path
    // and per line alike, so the lines' parts add up to the path's instructions.
    let p = temp(
        "folded_chase.cl",
        "__kernel void chase(__global uint *out, uint n)\n{\n    __local uint s[256];\n    \
         uint lid = get_local_id(0);\n    s[lid] = (lid + 1) % 256;\n    \
         barrier(CLK_LOCAL_MEM_FENCE);\n    uint p = lid;\n    for (uint i = 0; i < n; i++)\n        \
         p = s[p];\n    out[get_global_id(0)] = p;\n}\n",
    );
    let compiler = Compiler::locate().unwrap();
    let arch = Architecture::load("hopper_h100").unwrap();
    let a = annotator::annotate::annotate_file_with(
        &compiler,
        &p,
        &BuildOptions::default(),
        &arch,
        annotator::annotate::AnnotateOptions { profile: true },
    )
    .unwrap();
    let k = &a.sidecar.kernels[0];
    let mut checked = 0;
    for path in k.paths.paths.iter().filter(|p| !p.lines.is_empty()) {
        let per_line: u64 = path.lines.iter().map(|l| l.instructions).sum();
        assert_eq!(
            per_line, path.instructions,
            "{:?} -> {:?}",
            path.from, path.to
        );
        checked += 1;
    }
    assert!(checked > 0, "no path carried line charges");
    // And the folding is there to test: some shared access has absorbed arithmetic.
    let analysis = &a.sidecar.analysis.kernels[0];
    let issued: f64 = analysis.blocks.iter().map(|b| b.usage[0]).sum();
    let ptx: usize = analysis.blocks.iter().map(|b| b.instructions).sum();
    assert!(
        issued < ptx as f64,
        "issued {issued} of {ptx} PTX instructions"
    );
}

/// A sampled access's records keep its first and last index: a kernel whose sampled
/// indices come from ids, loop strides and value arguments (a scan's `__local` tree,
/// strides doubling) is decided by its arguments as its paths are, and gets no host
/// skeleton (the host's paths carry no indices); one whose sampled index is loaded from
/// memory (a gather) is decided by memory.
#[test]
fn sampled_indices_decide_the_records_as_branches_do() {
    let a = annotate(&temp(
        "sampled_inputs.cl",
        "__kernel void tree(__global int *out, const int n, const int step) {
            __local int t[256];
            int lid = get_local_id(0);
            t[lid] = lid;
            int offset = 1;
            for (int d = 128; d > 0; d >>= 1) {
                barrier(CLK_LOCAL_MEM_FENCE);
                if (lid < d)
                    t[offset * (2 * lid + 2) - 1] += t[offset * (2 * lid + 1) - 1];
                offset <<= 1;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (get_global_id(0) < n)
                out[get_global_id(0) * step] = t[lid];
        }
        __kernel void gather(__global const int *idx, __global const float *x,
                             __global float *y, const int n) {
            int i = get_global_id(0);
            if (i < n)
                y[i] = x[idx[i]];
        }
        __kernel void plain(__global float *y, const int n) {
            int i = get_global_id(0);
            if (i < n)
                y[i] = 2.0f * y[i];
        }",
    ))
    .unwrap();
    let sampled: Vec<&str> = a
        .sidecar
        .records
        .samples
        .as_ref()
        .map(|s| s.accesses.iter().map(|k| k.kernel.as_str()).collect())
        .unwrap_or_default();
    assert!(
        sampled.contains(&"tree") && sampled.contains(&"gather"),
        "{sampled:?}"
    );
    let kernel = |name: &str| a.sidecar.kernels.iter().find(|k| k.name == name).unwrap();
    // `n` decides a branch; `step` the sampled store's index (a run-time stride).
    assert_eq!(kernel("tree").path_inputs, Some(vec![1, 2]));
    assert!(kernel("tree").host_paths.is_none());
    assert_eq!(kernel("gather").path_inputs, None);
    assert_eq!(kernel("plain").path_inputs, Some(vec![1]));
    assert!(kernel("plain").host_paths.is_some());
}

/// A store through an index the lane analysis cannot tell is sampled at its subscript
/// (clang puts the store's `.loc` at the assignment's operator), and a compound
/// assignment's load and store are one site: a butterfly's pair index (`tid / step`)
/// samples its two loads and its two stores, four sites; `y[i] += 1` one.
#[test]
fn stores_are_sampled_at_the_subscript_they_assign() {
    let a = annotate(&temp(
        "sampled_stores.cl",
        "__kernel void k(__global float *t, __global float *y, const int step)\n{\n    \
         unsigned int tid = get_global_id(0);\n    \
         unsigned int pair = 2 * step * (tid / step) + tid % step;\n    \
         unsigned int match = pair + step;\n    \
         float a = t[pair];\n    float b = t[match];\n    \
         t[pair]   = a + b;\n    t[match]  = a - b;\n    \
         y[tid / step] += 1.0f;\n}\n",
    ))
    .unwrap();
    let samples = a.sidecar.records.samples_of("k");
    let places: Vec<(u32, u32)> = samples.iter().map(|(_, s)| (s.line, s.column)).collect();
    assert_eq!(
        places,
        [(6, 15), (7, 15), (8, 5), (9, 5), (10, 5)],
        "{samples:?}"
    );
}

/// clang gives a load that only initialises a private variable the `.loc` of the
/// variable's first use (`p.x`), not the subscript's: the load is still sampled, at the
/// subscript it initialises from, where that subscript's executions are the load's (the
/// use follows in the same statement list, the variable never written again). A
/// variable written again, or used only under a branch, is left alone.
#[test]
fn a_load_sunk_to_its_variables_first_use_is_sampled_at_the_initialiser() {
    let kernel = |body: &str| {
        format!(
            "__kernel void k(__global const float4 *pos, __global const int *list,\n\
             __global float *out, const int n)\n{{\n    int i = get_global_id(0);\n    \
             float s = 0.0f;\n    for (int j = 0; j < n; j++) {{\n        \
             int m = list[j * n + i];\n        float4 p = pos[m];\n{body}    }}\n    \
             out[i] = s;\n}}\n"
        )
    };
    let places = |name: &str, body: &str| {
        let a = annotate(&temp(name, &kernel(body))).unwrap();
        let samples = a.sidecar.records.samples_of("k");
        samples
            .iter()
            .map(|(_, s)| (s.line, s.column))
            .collect::<Vec<_>>()
    };
    // `pos[m]` at line 8, column 20.
    assert_eq!(
        places("sunk_load.cl", "        s += p.x * p.y + p.z;\n"),
        [(8, 20)]
    );
    assert_eq!(
        places(
            "sunk_load_written.cl",
            "        p.x += 1.0f;\n        s += p.x * p.y + p.z;\n"
        ),
        []
    );
    assert_eq!(
        places(
            "sunk_load_branch.cl",
            "        if (i > 3) s += p.x * p.y + p.z;\n"
        ),
        []
    );
}

/// A base moved by value arguments and literals alone, `(src + off + 1)[i]`, addresses
/// the same in every work-item: its row walk is sampled, the load and the store. A base
/// moved by a work-item's own value is not.
#[test]
fn a_base_moved_by_value_arguments_is_sampled() {
    let a = annotate(&temp(
        "moved_base.cl",
        "__kernel void k(__global float *dst, const int doff, __global const float *src,\n\
         const int soff, const int pitch, const int w)\n{\n    \
         int row = get_global_id(0);\n    for (int c = 0; c < w; c++)\n        \
         (dst + doff)[row * pitch + c] = (src + soff + 1)[row * pitch + c];\n}\n",
    ))
    .unwrap();
    let samples = a.sidecar.records.samples_of("k");
    let places: Vec<(u32, u32)> = samples.iter().map(|(_, s)| (s.line, s.column)).collect();
    // The store's subscript at column 9, the load's at 41.
    assert_eq!(places, [(6, 9), (6, 41)], "{samples:?}");
    let params: Vec<Option<u32>> = samples.iter().map(|(_, s)| s.param).collect();
    assert_eq!(params, [Some(0), Some(2)]);
    let a = annotate(&temp(
        "moved_base_own.cl",
        "__kernel void k(__global float *dst, __global const float *src,\n\
         const int pitch, const int w)\n{\n    \
         int row = get_global_id(0);\n    for (int c = 0; c < w; c++)\n        \
         dst[row * pitch + c] = (src + row)[c * pitch];\n}\n",
    ))
    .unwrap();
    let samples = a.sidecar.records.samples_of("k");
    let places: Vec<(u32, u32)> = samples.iter().map(|(_, s)| (s.line, s.column)).collect();
    assert_eq!(places, [(6, 9)], "{samples:?}");
}

/// A private array indexed by each lane's data (`counts[digit]++`) is a local access
/// whose lanes use offsets of their own: it is sampled, at the subscript (clang puts the
/// load's and the store's `.loc` at `++`), as a local access.
#[test]
fn a_private_array_indexed_by_data_is_sampled_as_local() {
    let a = annotate(&temp(
        "private_counts.cl",
        "__kernel void k(__global const uint *in, __global uint *out, const int n)\n{\n    \
         uint counts[16] = {0};\n    \
         for (int i = get_global_id(0); i < n; i += get_global_size(0))\n        \
         counts[in[i] & 15u]++;\n    \
         for (int d = 0; d < 16; d++)\n        \
         out[d * get_global_size(0) + get_global_id(0)] = counts[d];\n}\n",
    ))
    .unwrap();
    let samples = a.sidecar.records.samples_of("k");
    let local: Vec<(u32, u32, bool)> = samples
        .iter()
        .map(|(_, s)| (s.line, s.column, s.local))
        .collect();
    assert_eq!(local, [(5, 9, true)], "{samples:?}");
    // Charged as a line per offset the 16-word frame has.
    assert_eq!(samples[0].1.charged_transactions, 16.0);
}

/// A warp's first round of loads is the loads of the first block that reads past the L1:
/// both of a vector add's (two 128-byte lines, fetched whole on the GTX 480: 256 bytes); a
/// streaming loop's first iteration alone (one line), not the whole loop's; of a sum of
/// loads each added as it comes (`v = v + in[...]`, in PTX order on the GTX 480), the
/// first alone (one line, not four): the add waits for it before the next load issues.
#[test]
fn a_warps_first_round_of_loads_is_the_first_block_that_loads() {
    let gtx480 = Architecture::default_arch();
    let first_round = |name: &str, text: &str| {
        let a = annotate(&temp(name, text)).unwrap();
        a.sidecar.analysis.kernels[0].first_round_warp_bytes(&gtx480.memory)
    };
    assert_eq!(
        first_round(
            "round_vadd.cl",
            "__kernel void k(__global const float *a, __global const float *b,\n\
             __global float *c)\n{\n    int i = get_global_id(0);\n    \
             c[i] = a[i] + b[i];\n}\n"
        ),
        Some(256)
    );
    assert_eq!(
        first_round(
            "round_loop.cl",
            "__kernel void k(__global const float *a, __global float *c, const int n)\n{\n    \
             float s = 0.0f;\n    \
             for (int i = get_global_id(0); i < n; i += get_global_size(0))\n        \
             s += a[i];\n    c[get_global_id(0)] = s;\n}\n"
        ),
        Some(128)
    );
    assert_eq!(
        first_round(
            "round_chain.cl",
            "__kernel void k(__global const float *a, __global float *c)\n{\n    \
             int i = get_global_id(0);\n    float v = 0.0f;\n    \
             v = v + a[i + 4096];\n    v = v + a[i + 8192];\n    \
             v = v + a[i + 12288];\n    v = v + a[i + 16384];\n    c[i] = v;\n}\n"
        ),
        Some(128)
    );
    assert_eq!(
        first_round(
            "round_none.cl",
            "__kernel void k(__global float *c)\n{\n    c[get_global_id(0)] = 1.0f;\n}\n"
        ),
        None
    );
}

/// Stores clang merges from both sides of a branch (one store of a select, `.loc` line 0)
/// have no subscript of their own; at the address a sampled load read, in its block, they
/// join that load's site: a compare-exchange at a run-time pair distance samples two
/// sites, not two and two stores charged a line per lane. Each site's price per extra
/// request is its load's and its store's, as where the stores have subscripts of their
/// own (four sites).
#[test]
fn stores_merged_from_both_sides_join_the_load_at_their_address() {
    let kernel = |stores: &str| {
        format!(
            "__kernel void k(__global int *t, const uint s, const uint run)\n{{\n    \
             uint i = get_global_id(0);\n    \
             uint lo = (i & ((1u << s) - 1)) + ((i >> s) << (s + 1));\n    \
             uint hi = lo + (1u << s);\n    int a = t[lo];\n    int b = t[hi];\n{stores}}}\n"
        )
    };
    let merged = annotate(&temp(
        "merged_stores.cl",
        &kernel(
            "    if (((i >> run) & 1) == 0) {\n        t[lo] = min(a, b);\n        \
             t[hi] = max(a, b);\n    } else {\n        t[lo] = max(a, b);\n        \
             t[hi] = min(a, b);\n    }\n",
        ),
    ))
    .unwrap();
    let apart = annotate(&temp(
        "apart_stores.cl",
        &kernel("    t[lo] = min(a, b);\n    t[hi] = max(a, b);\n"),
    ))
    .unwrap();
    let merged = merged.sidecar.records.samples_of("k");
    let apart = apart.sidecar.records.samples_of("k");
    let places = |samples: &[(usize, pipeline_model::SampledAccess)]| -> Vec<(u32, u32)> {
        samples.iter().map(|(_, s)| (s.line, s.column)).collect()
    };
    assert_eq!(places(&merged), [(6, 13), (7, 13)], "{merged:?}");
    assert_eq!(
        places(&apart),
        [(6, 13), (7, 13), (8, 5), (9, 5)],
        "{apart:?}"
    );
    let arch = Architecture::default_arch();
    let resources = arch.resources();
    // A load's bytes past the L1 go by its lines, a store's by its sectors
    // (`MemorySystem::stored_bytes`): the site's price per request and per sector are
    // each its load's and its store's.
    for name in ["L2", "DRAM", "MEM"] {
        let r = resources.iter().position(|x| x == name).unwrap();
        for (site, (load, store)) in [(0, (0, 2)), (1, (1, 3))] {
            let per_request = |a: &pipeline_model::SampledAccess| a.usage_per_transaction[r];
            let per_sector = |a: &pipeline_model::SampledAccess| a.usage_per_sector[r];
            let (l, st, m) = (&apart[load].1, &apart[store].1, &merged[site].1);
            let both = per_request(l) + per_request(st);
            let both_sectors = per_sector(l) + per_sector(st);
            assert!(both + both_sectors > 0.0, "{name}: {apart:?}");
            assert_eq!(per_request(m), both, "{name}: {merged:?}");
            assert_eq!(per_sector(m), both_sectors, "{name}: {merged:?}");
        }
    }
}

/// The arguments a kernel reads through, from clang's PTX: a vector add reads its first
/// two and writes its third; a transpose through `__local` memory reads its source only;
/// a kernel that follows a pointer it loaded cannot say.
#[test]
fn a_kernel_names_the_arguments_it_reads_through() {
    let read = |name: &str, text: &str| {
        let a = annotate(&temp(name, text)).unwrap();
        a.sidecar.analysis.kernels[0].read_params.clone()
    };
    assert_eq!(
        read(
            "reads_vadd.cl",
            "__kernel void k(__global const float *a, __global const float *b,\n\
             __global float *c)\n{\n    int i = get_global_id(0);\n    \
             c[i] = a[i] + b[i];\n}\n"
        ),
        Some(vec![0, 1])
    );
    assert_eq!(
        read(
            "reads_transpose.cl",
            "__kernel void k(__global float *out, __global const float *in,\n\
             __local float *tile, const int n)\n{\n    \
             int x = get_global_id(0), y = get_global_id(1);\n    \
             int lx = get_local_id(0), ly = get_local_id(1);\n    \
             tile[ly * 16 + lx] = in[y * n + x];\n    \
             barrier(CLK_LOCAL_MEM_FENCE);\n    \
             out[x * n + y] = tile[lx * 16 + ly];\n}\n"
        ),
        Some(vec![1])
    );
    assert_eq!(
        read(
            "reads_accumulate.cl",
            "__kernel void k(__global float *acc, __global const float *x)\n{\n    \
             int i = get_global_id(0);\n    acc[i] += x[i];\n}\n"
        ),
        Some(vec![0, 1])
    );
}

/// A kernel of one block whose loads read again what earlier ones brought in is timed for
/// each class of warps sharing the L1 (`pipeline_model::l1_sharing`): the first class (64
/// warps) is the block's own time, the fewer the warps the more of the reloads the L1
/// keeps. With a branch (a bounds check), which path a work-item ran is not in its record:
/// one timing.
#[test]
fn a_kernel_of_one_block_is_timed_for_each_class_of_l1_sharers() {
    let body = "    out[i] = E(1) * E(2) / (E(3) * E(4));\n    \
                out[4096 + i] = E(4) * E(3) / (E(2) * E(1));\n    \
                out[8192 + i] = E(3) * E(1) / (E(4) * E(2));\n";
    let kernel = |guard: &str| {
        format!(
            "#define E(q) eg[(q) * 4096 + i]\n\
             __kernel void k(__global const float *eg, __global float *out, int n)\n{{\n    \
             int i = get_global_id(0);\n{guard}{body}}}\n"
        )
    };
    let a = annotate(&temp("sharing.cl", &kernel(""))).unwrap();
    let k = &a.sidecar.analysis.kernels[0];
    assert_eq!(k.blocks.len(), 1);
    let s = k
        .l1_sharing
        .as_ref()
        .expect("the reloads are kept in some class");
    assert_eq!(s.cycles[0], k.blocks[0].cycles);
    // The second and third statements read again what the first brought in (the stores
    // between may alias `eg`), a few lines later: for 32 warps or fewer the L1 keeps them
    // all, and a statement waits for an L1 hit where it waited for an L2 trip.
    let gtx480 = Architecture::default_arch();
    let trip = u64::from(gtx480.memory.l2_hit - gtx480.memory.l1_hit);
    assert!(
        s.cycles[1..].iter().all(|&c| c == s.cycles[1]),
        "{:?}",
        s.cycles
    );
    let saved = s.cycles[0] - s.cycles[1];
    assert!(saved > 0 && saved.is_multiple_of(trip), "{:?}", s.cycles);
    let guarded = annotate(&temp(
        "sharing_guarded.cl",
        &kernel("    if (i >= n) return;\n"),
    ));
    let k = &guarded.unwrap().sidecar.analysis.kernels[0];
    assert!(k.blocks.len() > 1);
    assert_eq!(k.l1_sharing, None);
}

/// `row[v]` and `row[v + 1]` at a gathered `v` (SHOC's BFS walks `edgeArray` so): the
/// block issues both loads together, so an L1 hit of either alone saves the path
/// nothing, and both hitting save the whole trip past the L1 (`gtx480`: its L2 trip, 250
/// cycles, less its L1 hit, 50). Each is priced at what it saves alone plus half of
/// what only both save: together the joint saving, neither near nothing.
#[test]
fn loads_a_block_issues_together_share_what_their_l1_hits_save() {
    let a = annotate(&temp(
        "pair.cl",
        "__kernel void k(__global const int *row, __global const int *order,\n\
         \x20               __global int *out, int n)\n{\n    \
         int s = 0;\n    \
         for (int i = get_global_id(0); i < n; i += 64) {\n        \
         int v = order[i];\n        \
         s += row[v] + row[v + 1];\n    }\n    \
         out[get_global_id(0)] = s;\n}\n",
    ))
    .unwrap();
    let samples = a.sidecar.records.samples_of("k");
    let row: Vec<f64> = samples
        .iter()
        .filter(|(_, s)| s.line == 7)
        .map(|(_, s)| s.l1_cycles)
        .collect();
    assert_eq!(row.len(), 2, "{samples:?}");
    assert!((row[0] + row[1] - 200.0).abs() <= 1.0, "{row:?}");
    assert!(row.iter().all(|&c| c >= 90.0), "{row:?}");
}
