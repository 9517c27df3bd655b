//! Arbitrary bytes, read as lossy UTF-8, through the PTX parser and, when they parse, the
//! static analysis: neither may panic.
//!
//! ```sh
//! cd annotator
//! mkdir -p fuzz/corpus/ptx_parse   # new inputs go here (ignored by git)
//! cargo +nightly fuzz run ptx_parse fuzz/corpus/ptx_parse fuzz/seeds
//! ```
#![no_main]

use std::sync::OnceLock;

use annotator::{analysis::blocks::analyze_module, front::ptx};
use libfuzzer_sys::fuzz_target;
use pipeline_model::Architecture;

fn arch() -> &'static Architecture {
    static ARCH: OnceLock<Architecture> = OnceLock::new();
    ARCH.get_or_init(|| Architecture::load("gtx480").unwrap())
}

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    if let Ok(module) = ptx::parse(&src) {
        analyze_module(&module, arch(), "fuzz");
    }
});
