//! The shipped architecture files: each parses, and each number in it says where it comes
//! from (a datasheet, a paper, a configuration, or a fit with its table): a comment on its
//! line, or a comment paragraph directly above the group of lines it belongs to.

use pipeline_model::arch::BUILTIN_ARCHS;
use pipeline_model::Architecture;

/// The `key = number` lines of a TOML text (arrays of numbers too) that have no comment on
/// their line and no comment line above them in their paragraph (a run of non-blank lines;
/// section headers and array rows neither start nor end one). Their line numbers.
fn uncommented_numbers(text: &str) -> Vec<usize> {
    let mut covered = false;
    let mut bad = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let s = line.trim();
        if s.is_empty() {
            covered = false;
        } else if s.starts_with('#') {
            covered = true;
        } else if let Some((_, value)) = s.split_once('=') {
            let value = value.trim_start().trim_start_matches('[').trim_start();
            let numeric = value.starts_with(|c: char| c.is_ascii_digit() || c == '-');
            if numeric && !s.contains('#') && !covered {
                bad.push(n + 1);
            }
        }
    }
    bad
}

#[test]
fn every_shipped_file_parses_and_every_number_cites_its_source() {
    for name in BUILTIN_ARCHS {
        let arch = Architecture::load(name).unwrap();
        assert_eq!(arch.name, *name);
        let text =
            std::fs::read_to_string(format!("{}/arch/{name}.toml", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        assert_eq!(
            uncommented_numbers(&text),
            Vec::<usize>::new(),
            "{name}.toml: numbers without a source comment at these lines"
        );
    }
}

#[test]
fn a_number_without_a_comment_is_found() {
    let text = "# The clock, from the datasheet.\nclock_mhz = 1000.0\n\n[memory]\nl2_hit = 200\n\
                dram = 400   # a paper\n# A fit.\nshared = 30\nunits = [\n  { lanes = 32 },\n]\n";
    // l2_hit (line 5) follows a blank line and a header, with no comment of its own.
    assert_eq!(uncommented_numbers(text), [5]);
}
