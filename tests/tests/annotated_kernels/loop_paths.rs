//! The PTX loops a source loop became, found from the PTX alone, and the times of paths
//! through them.

use super::*;

/// The time of `n` iterations of a loop unrolled into `main` (`factor` copies) and a
/// remainder loop `rem`, walking the PTX CFG: fewest blocks between the loops' blocks.
pub(crate) fn unrolled_path_time(
    k: &FunctionAnalysis,
    main: usize,
    rem: Option<usize>,
    factor: usize,
    n: usize,
) -> u64 {
    let exit = k
        .blocks
        .iter()
        .position(|b| b.successors.is_empty())
        .unwrap();
    let hop = |from: usize, to: usize, avoid: &[usize]| fewest_blocks_path(k, from, to, avoid);
    let others = |this: usize| -> Vec<usize> {
        [Some(main), rem, Some(exit)]
            .into_iter()
            .flatten()
            .filter(|&b| b != this)
            .collect()
    };
    let (q, r) = (n / factor, n % factor);
    let mut p = vec![0];
    let mut at = 0;
    let mut go = |to: usize| {
        p.extend(hop(at, to, &others(to)));
        at = to;
    };
    for _ in 0..q {
        go(main);
    }
    if let Some(rem) = rem {
        for _ in 0..r {
            go(rem);
        }
    }
    go(exit);
    path_time(k, &p)
}

/// The two PTX loops a run-time unrolled loop of `k` (PTX `f`) with a one multiply-add
/// body became, counted from the PTX alone: `(main, remainder, factor)`, the loop with
/// more multiply-adds first, the factor their ratio.
pub(crate) fn unrolled_fma_loops(
    k: &FunctionAnalysis,
    f: &annotator::front::ptx::Function,
) -> (usize, usize, usize) {
    let fmas = |b: usize| {
        f.blocks[b]
            .instrs
            .iter()
            .filter(|i| i.base() == "fma")
            .count()
    };
    let mut loops: Vec<usize> = k
        .loops
        .iter()
        .map(|l| l.header)
        .filter(|&h| fmas(h) > 0)
        .collect();
    loops.sort_by_key(|&h| std::cmp::Reverse(fmas(h)));
    let [main, rem] = loops[..] else {
        panic!("{:?}", k.loops)
    };
    (main, rem, fmas(main) / fmas(rem))
}

/// The blocks of `f` holding `fma` instructions, with their counts: the copies of a loop
/// body `acc = acc * b + a[i]` (or `acc += a[i] * b`) the compiler made.
pub(crate) fn fma_blocks(f: &annotator::front::ptx::Function) -> Vec<(usize, usize)> {
    f.blocks
        .iter()
        .enumerate()
        .map(|(b, block)| (b, block.instrs.iter().filter(|i| i.base() == "fma").count()))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// The time of `n` iterations of the one source loop of kernel `k` (PTX `f`) whose body
/// is one multiply-add, from the PTX alone: the block with the most copies of the body is
/// the loop the compiler made of it (`factor` copies), another block holding copies is
/// the remainder (a loop, or a block that runs at most once), and the path walks the PTX
/// CFG between them ([`unrolled_path_time`]).
pub(crate) fn fma_loop_time(
    k: &FunctionAnalysis,
    f: &annotator::front::ptx::Function,
    n: usize,
) -> u64 {
    let mut copies = fma_blocks(f);
    copies.sort_by_key(|&(b, n)| (std::cmp::Reverse(n), b));
    match copies[..] {
        [(main, m)] => unrolled_path_time(k, main, None, m, n),
        [(main, m), (rem, r)] => {
            assert_eq!(m % r, 0, "{}: {copies:?}", k.name);
            unrolled_path_time(k, main, Some(rem), m / r, n)
        }
        _ => panic!("{}: copies of the body in {copies:?}", k.name),
    }
}

/// The path of fewest blocks from `from` to `to` in `k`'s PTX CFG (both ends included),
/// entering no block of `avoid` but `to`.
pub(crate) fn fewest_blocks_path(
    k: &FunctionAnalysis,
    from: usize,
    to: usize,
    avoid: &[usize],
) -> Vec<usize> {
    let mut prev = vec![None; k.blocks.len()];
    let mut seen = vec![false; k.blocks.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(b) = queue.pop_front() {
        for &s in &k.blocks[b].successors {
            if seen[s] || (avoid.contains(&s) && s != to) {
                continue;
            }
            seen[s] = true;
            prev[s] = Some(b);
            if s == to {
                let mut p = vec![to];
                let mut x = b;
                while x != from {
                    p.push(x);
                    x = prev[x].unwrap();
                }
                p.reverse();
                return p;
            }
            queue.push_back(s);
        }
    }
    panic!("no path B{from} -> B{to}");
}
