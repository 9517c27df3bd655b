//! Keeps the OpenCL runtime's compiler chatter about the annotated twin off the
//! application's stderr.
//!
//! PoCL compiles a program's source with clang inside the process, and clang prints its
//! summary (`1 warning generated.`, `2 errors generated.`) on the process's stderr, not in
//! the build log; the twin of a program with a warning would print it a second time, and a
//! twin that failed to build would print its errors where the application's own output
//! goes. While the twin builds, file descriptor 2 points at a temporary file; afterwards
//! it is restored, clang's summary lines are taken out (they go to the shim's log) and
//! anything else written meanwhile (another thread of the application) is written to
//! stderr after all.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::sync::Mutex;

/// One capture at a time: a second one would save the first one's file as "stderr".
static CAPTURING: Mutex<()> = Mutex::new(());

/// Runs `f` with stderr captured; returns its result and clang's summary lines written
/// meanwhile (empty where stderr could not be redirected).
pub fn without_compiler_chatter<T>(f: impl FnOnce() -> T) -> (T, Vec<String>) {
    let _one = CAPTURING.lock().unwrap_or_else(|e| e.into_inner());
    let Some(capture) = Capture::start() else {
        return (f(), Vec::new());
    };
    let result = f();
    let written = capture.stop();
    let (chatter, rest) = split_chatter(&written);
    if !rest.is_empty() {
        let _ = std::io::stderr().write_all(&rest);
    }
    (result, chatter)
}

struct Capture {
    /// The real stderr, to put back.
    saved: OwnedFd,
    file: File,
}

impl Capture {
    fn start() -> Option<Capture> {
        let saved = std::io::stderr().as_fd().try_clone_to_owned().ok()?;
        let file = tempfile::tempfile().ok()?;
        rustix::stdio::dup2_stderr(&file).ok()?;
        Some(Capture { saved, file })
    }

    /// Puts stderr back; what was written to it meanwhile.
    fn stop(mut self) -> Vec<u8> {
        // Should stderr not come back, nothing more can be said about it anyway.
        let _ = rustix::stdio::dup2_stderr(&self.saved);
        let mut out = Vec::new();
        if self.file.seek(SeekFrom::Start(0)).is_ok() {
            let _ = self.file.read_to_end(&mut out);
        }
        out
    }
}

/// Whether `line` is clang's summary of the diagnostics it printed:
/// `N warning(s) generated.`, `N error(s) generated.` or `N warning(s) and M error(s)
/// generated.`.
fn is_chatter(line: &str) -> bool {
    let Some(counts) = line.trim_end().strip_suffix(" generated.") else {
        return false;
    };
    let count = |part: &str, word: &str| {
        part.strip_suffix(word)
            .and_then(|n| n.strip_suffix(' '))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let one = |part: &str| {
        ["warning", "warnings", "error", "errors"]
            .iter()
            .any(|w| count(part, w))
    };
    match counts.split_once(" and ") {
        Some((a, b)) => one(a) && one(b),
        None => one(counts),
    }
}

/// `written` split into clang's summary lines and the rest (kept byte for byte).
fn split_chatter(written: &[u8]) -> (Vec<String>, Vec<u8>) {
    let mut chatter = Vec::new();
    let mut rest = Vec::new();
    for line in written.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(text) if is_chatter(text) => chatter.push(text.trim_end().to_string()),
            _ => rest.extend_from_slice(line),
        }
    }
    (chatter, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clangs_summary_lines_are_chatter_and_nothing_else_is() {
        for line in [
            "1 warning generated.\n",
            "2 errors generated.\n",
            "3 warnings and 1 error generated.\n",
            "12 warnings generated.",
        ] {
            assert!(is_chatter(line), "{line}");
        }
        for line in [
            "warning generated.\n",
            "x warnings generated.\n",
            "2 errors generated. Really.\n",
            "result: 2 errors generated.\n",
            "1 warning and generated.\n",
            "\n",
        ] {
            assert!(!is_chatter(line), "{line}");
        }
    }

    #[test]
    fn what_is_not_chatter_is_kept_byte_for_byte() {
        let written = b"1 warning generated.\nmy own line\n2 errors generated.\n\xff no newline";
        let (chatter, rest) = split_chatter(written);
        assert_eq!(chatter, ["1 warning generated.", "2 errors generated."]);
        assert_eq!(rest, b"my own line\n\xff no newline");
    }
}
