//! The example hosts and the corpus (one host per kernel file): each computes and exits as
//! on its own, and every launch is simulated.

use super::*;

/// (program, launches it makes)
const SIMULATED: &[(&str, usize)] = &[
    ("vector_add", 1),
    ("reduction", 2),
    ("scan", 3),
    ("stencil2d", 6),
    ("matmul", 1),
    ("spmv", 1),
    ("nbody", 1),
    ("kmeans", 5),
    ("volume3d", 1),
    ("dp_saxpy", 1),
    ("histogram", 1),
    ("match_count", 1),
    ("gated_launches", 64),
    ("lu_steps", 1022),
    ("launch_sweep", 160),
    ("first_launch", 41),
    ("diffusion", 200),
    ("bfs_frontier", 20),
    ("gauss_steps", 510),
    ("newton_steps", 2000),
    ("clone_kernel", 4),
    ("from_binary", 2),
    ("compile_link", 2),
    ("images", 2),
    ("kernel_calls", 3),
];

#[test]
fn examples_compute_the_same_and_every_launch_is_simulated() {
    for &(program, launches) in SIMULATED {
        let before = plain(program);
        let (after, report) = simulated(program, &[], &[]);
        assert_eq!(before.status.code(), Some(0), "{program} fails on its own");
        assert_eq!(
            after.status.code(),
            before.status.code(),
            "{program}: exit code"
        );
        assert_eq!(
            String::from_utf8_lossy(&after.stdout),
            String::from_utf8_lossy(&before.stdout),
            "{program}: output"
        );
        assert_all_simulated(program, &report, launches);
    }
}

/// The corpus (examples/hosts/kernels/corpus, one host each): (program, launches it
/// makes, the kernels of its file, each launched at least once).
const CORPUS: &[(&str, usize, &[&str])] = &[
    (
        "corpus_linalg",
        99,
        &[
            "gemm_tiled",
            "gemv",
            "transpose_tiled",
            "dot_partial",
            "lu_column",
            "lu_trailing",
            "gauss_eliminate",
            "back_substitute",
        ],
    ),
    (
        "corpus_sparse",
        5,
        &[
            "spmv_csr_scalar",
            "spmv_csr_vector",
            "spmv_ell",
            "spmv_dia",
            "csr_census",
        ],
    ),
    (
        "corpus_stencil",
        43,
        &[
            "jacobi1d",
            "jacobi2d_tiled",
            "heat3d",
            "wave1d",
            "fdtd_h",
            "fdtd_e",
        ],
    ),
    (
        "corpus_graph",
        37,
        &[
            "bfs_expand",
            "bfs_advance",
            "sssp_relax",
            "cc_propagate",
            "pagerank_pull",
        ],
    ),
    (
        "corpus_particles",
        6,
        &[
            "nbody_accel",
            "bin_count",
            "neighbour_list",
            "list_force",
            "pf_weight",
            "pf_resample",
        ],
    ),
    (
        "corpus_sort",
        97,
        &[
            "bitonic_local",
            "bitonic_step",
            "rank_sort",
            "radix_count",
            "odd_even_step",
        ],
    ),
    (
        "corpus_image",
        6,
        &[
            "convolve",
            "sobel",
            "median3x3",
            "blur_rows",
            "blur_cols",
            "grey_histogram",
        ],
    ),
    (
        "corpus_dp",
        110,
        &[
            "nw_diagonal",
            "sw_tile",
            "edit_distance",
            "knapsack_row",
            "max_subarray",
        ],
    ),
    (
        "corpus_cluster",
        12,
        &[
            "kmeans_assign",
            "kmeans_accumulate",
            "haar_forward",
            "haar_inverse",
            "haar2d_level",
            "density_count",
        ],
    ),
];

/// Every kernel of the corpus is simulated: no refusal, no launch left unsimulated, and
/// each host prints and exits as it does on its own.
#[test]
fn every_kernel_of_the_corpus_is_simulated_and_computes_the_same() {
    let mut kernels = 0;
    for &(program, launches, names) in CORPUS {
        let before = plain(program);
        let (after, report) = simulated(program, &[], &[]);
        assert_eq!(
            before.status.code(),
            Some(0),
            "{program} fails on its own: {}",
            String::from_utf8_lossy(&before.stderr)
        );
        assert_eq!(after.status.code(), Some(0), "{program}: exit code");
        assert_eq!(
            String::from_utf8_lossy(&after.stdout),
            String::from_utf8_lossy(&before.stdout),
            "{program}: output"
        );
        assert!(
            String::from_utf8_lossy(&before.stdout).ends_with(&format!("{program}: OK\n")),
            "{program}: {}",
            String::from_utf8_lossy(&before.stdout)
        );
        assert_all_simulated(program, &report, launches);
        let mut launched: Vec<&str> = report.launches.iter().map(|l| &*l.kernel).collect();
        launched.sort_unstable();
        launched.dedup();
        let mut want = names.to_vec();
        want.sort_unstable();
        assert_eq!(launched, want, "{program}: the kernels launched");
        kernels += names.len();
    }
    assert_eq!(kernels, 52);
}
