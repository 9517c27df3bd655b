//! Unit tests of the profile layout's totals and shares and of reading a sidecar
//! without a profile.

use crate::back::sidecar::{LineShare, LineWeight, ProfileLayout, ProfiledBlock, RecordLayout};

fn layout(blocks: usize) -> ProfileLayout {
    ProfileLayout {
        offset: 2,
        fields: vec!["executions".into(), "cycles".into(), "instructions".into()],
        blocks: (0..blocks)
            .map(|b| ProfiledBlock {
                function: "k".into(),
                block: b,
                lines: vec![b as u32 + 1],
                line: b as u32 + 1,
                column: 5,
                shares: Vec::new(),
            })
            .collect(),
        extra_counters: 0,
    }
}

#[test]
fn totals_sum_each_blocks_counters_over_work_items() {
    // Two blocks, records [t, u0, e0, c0, i0, e1, c1, i1]; three work-items.
    let records = [
        10, 1, 1, 4, 2, 3, 6, 9, //
        20, 1, 1, 4, 2, 0, 0, 0, //
        30, 1, 2, 8, 4, 7, 14, 21,
    ];
    assert_eq!(
        layout(2).totals(&records, 8),
        (vec![[4, 16, 8], [10, 20, 30]], vec![])
    );
    // No records, no counts.
    assert_eq!(layout(2).totals(&[], 8), (vec![[0; 3], [0; 3]], vec![]));
}

fn share(counter: Option<usize>, lines: &[(u32, f64, f64)]) -> LineShare {
    LineShare {
        counter,
        lines: lines
            .iter()
            .map(|&(line, cycles, instructions)| LineWeight {
                line,
                cycles,
                instructions,
            })
            .collect(),
    }
}

#[test]
fn block_totals_divide_each_share_over_its_lines() {
    // Block 0 (line 1): paths dividing 3/4 : 1/4 over lines 1 and 2 (cycles) and
    // 1/2 : 1/2 (instructions), and paths all on line 3, counted in extra pair 0.
    // Block 1 (line 2): no share (nothing booked by a known division): its line.
    let mut l = layout(2);
    l.extra_counters = 1;
    l.blocks[0].shares = vec![
        share(None, &[(1, 0.75, 0.5), (2, 0.25, 0.5)]),
        share(Some(0), &[(3, 1.0, 1.0)]),
    ];
    // Records [t, u0, e0, c0, i0, e1, c1, i1, extra c, extra i]; two work-items.
    let records = [
        0, 0, 2, 100, 10, 1, 7, 3, 20, 4, //
        0, 0, 1, 60, 6, 0, 0, 0, 0, 0,
    ];
    let t = l.block_totals(&records, 10);
    // Block 0: 160 cycles, 16 instructions; 20 and 4 of them on line 3, the rest
    // (140, 12) divided by the first share.
    assert_eq!(
        (t[0].executions, t[0].cycles, t[0].instructions),
        (3, 160, 16)
    );
    let lines = |b: &crate::back::records::BlockTotals| -> Vec<(u32, f64, f64)> {
        b.lines
            .iter()
            .map(|l| (l.line, l.cycles, l.instructions))
            .collect()
    };
    assert_eq!(
        lines(&t[0]),
        vec![(1, 105.0, 6.0), (2, 35.0, 6.0), (3, 20.0, 4.0)]
    );
    assert_eq!(lines(&t[1]), vec![(2, 7.0, 3.0)]);
    // Every block's lines hold all its cycles and instructions.
    for b in &t {
        let c: f64 = b.lines.iter().map(|l| l.cycles).sum();
        let i: f64 = b.lines.iter().map(|l| l.instructions).sum();
        assert_eq!((c, i), (b.cycles as f64, b.instructions as f64));
    }
}

#[test]
fn a_sidecar_without_profile_reads_as_none() {
    let json = r#"{"stride": 1, "resources": 0, "arms": 0, "fields": ["t"], "usage_scale": 2, "index": "x"}"#;
    let r: RecordLayout = serde_json::from_str(json).unwrap();
    assert!(r.profile.is_none());
    assert!(!serde_json::to_string(&r).unwrap().contains("profile"));
}
