//! Kept artefacts, sealed: every file the cache keeps starts with one line that names the
//! build that made it (a hash of an identity string: srcsim's build, PoCL's, clang's and,
//! for program binaries, the device), the payload's length and its XXH3-128 checksum.
//!
//! Kept files are read by later processes, and one of them (a program binary) is handed
//! to the OpenCL runtime, which trusts it: PoCL asserts on a truncated binary and aborts
//! the host program. A file that a full disk, a killed copy, a synced home directory or an
//! upgrade of any of those tools left behind must be a miss, never an input. So a file is
//! only ever read whole and checked ([`read`]), and only ever written whole, to a
//! temporary file in the same directory that is then renamed over the name ([`write()`]):
//! a reader sees the old file or the new one.

use std::io::Write;
use std::path::Path;

use xxhash_rust::xxh3::xxh3_128;

/// What begins every sealed file (then the identity, length and checksum).
const MAGIC: &str = "srcsim-kept/1";

/// Why a kept file was not taken (it is removed, and the caller makes it again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Fault {
    /// The file is empty.
    #[error("was empty")]
    Empty,
    /// No header, or one that does not parse.
    #[error("had no valid header")]
    Malformed,
    /// Fewer bytes than the header says.
    #[error("was truncated")]
    Truncated,
    /// More bytes than the header says.
    #[error("was longer than written")]
    TooLong,
    /// The payload's checksum is not the header's.
    #[error("failed its checksum")]
    Checksum,
    /// Made by another build of srcsim, PoCL or clang (or for another device).
    #[error("was made by another build of srcsim, PoCL or clang")]
    OtherBuild,
}

/// The header's identity field of `identity`.
fn identity_hash(identity: &str) -> u128 {
    xxh3_128(identity.as_bytes())
}

/// `payload` with its header, as [`write()`] keeps it.
pub fn seal(identity: &str, payload: &[u8]) -> Vec<u8> {
    let header = format!(
        "{MAGIC} {:032x} {} {:032x}\n",
        identity_hash(identity),
        payload.len(),
        xxh3_128(payload)
    );
    let mut out = Vec::with_capacity(header.len() + payload.len());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of a sealed file's bytes, if they are whole, unaltered and made under
/// `identity`.
pub fn unseal<'a>(identity: &str, bytes: &'a [u8]) -> Result<&'a [u8], Fault> {
    if bytes.is_empty() {
        return Err(Fault::Empty);
    }
    // The header is short; a file without a newline early on is not one of ours.
    let end = bytes
        .iter()
        .take(256)
        .position(|&b| b == b'\n')
        .ok_or(Fault::Malformed)?;
    let header = std::str::from_utf8(&bytes[..end]).map_err(|_| Fault::Malformed)?;
    let fields: Vec<&str> = header.split(' ').collect();
    let [magic, id, len, sum] = fields[..] else {
        return Err(Fault::Malformed);
    };
    let id = u128::from_str_radix(id, 16).map_err(|_| Fault::Malformed)?;
    let len: usize = len.parse().map_err(|_| Fault::Malformed)?;
    let sum = u128::from_str_radix(sum, 16).map_err(|_| Fault::Malformed)?;
    // Only the header [`seal`] writes: a flipped bit that still parses (a hex digit's
    // case, a sign) is damage too.
    if magic != MAGIC || header != format!("{MAGIC} {id:032x} {len} {sum:032x}") {
        return Err(Fault::Malformed);
    }
    let payload = &bytes[end + 1..];
    if payload.len() < len {
        return Err(Fault::Truncated);
    }
    if payload.len() > len {
        return Err(Fault::TooLong);
    }
    // Checked before the identity: a damaged header that happens to change the identity
    // field still reads as another build, which is a miss all the same.
    if xxh3_128(payload) != sum {
        return Err(Fault::Checksum);
    }
    if id != identity_hash(identity) {
        return Err(Fault::OtherBuild);
    }
    Ok(payload)
}

/// The payload kept at `path` under `identity`: `Ok(None)` where there is none (or it
/// cannot be read), `Err` where it is there but not to be taken, after removing it (so
/// that it is made again, and a fault is met once).
pub fn read(path: &Path, identity: &str) -> Result<Option<Vec<u8>>, Fault> {
    let Ok(mut bytes) = std::fs::read(path) else {
        return Ok(None);
    };
    match unseal(identity, &bytes) {
        Ok(payload) => {
            let start = bytes.len() - payload.len();
            bytes.drain(..start);
            Ok(Some(bytes))
        }
        Err(fault) => {
            let _ = std::fs::remove_file(path);
            Err(fault)
        }
    }
}

/// Keeps `payload` at `path` under `identity`: written whole to a temporary file in the
/// same directory (private to the user), then renamed over `path`. A failed write (a full
/// disk, no permission) leaves no temporary file and `path` as it was.
pub fn write(path: &Path, identity: &str, payload: &[u8]) -> std::io::Result<()> {
    let sealed = seal(identity, payload);
    within_file_size_limit(sealed.len() as u64)?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut file = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    file.write_all(&sealed)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Refuses a file of `bytes` beyond the process's file-size limit (`ulimit -f`,
/// `RLIMIT_FSIZE`): writing past it raises `SIGXFSZ`, whose default action kills the
/// process, and the process is the host program; its own files never come near the
/// limit without srcsim, so srcsim's must not either.
fn within_file_size_limit(bytes: u64) -> std::io::Result<()> {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Fsize).current;
    match limit {
        Some(limit) if bytes > limit => Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("{bytes} bytes is over the file-size limit (ulimit -f) of {limit}"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_payload_reads_back_and_every_damage_is_a_fault() {
        let sealed = seal("build 1", b"the payload");
        assert_eq!(unseal("build 1", &sealed), Ok(&b"the payload"[..]));
        assert_eq!(unseal("build 2", &sealed), Err(Fault::OtherBuild));
        assert_eq!(unseal("build 1", b""), Err(Fault::Empty));
        assert_eq!(unseal("build 1", b"the payload"), Err(Fault::Malformed));
        assert_eq!(
            unseal("build 1", &sealed[..sealed.len() - 1]),
            Err(Fault::Truncated)
        );
        let mut longer = sealed.clone();
        longer.push(b'!');
        assert_eq!(unseal("build 1", &longer), Err(Fault::TooLong));
        // Any one bit flipped anywhere is caught.
        for i in 0..sealed.len() {
            for bit in 0..8 {
                let mut flipped = sealed.clone();
                flipped[i] ^= 1 << bit;
                assert!(unseal("build 1", &flipped).is_err(), "byte {i} bit {bit}");
            }
        }
    }

    #[test]
    fn a_fault_removes_the_file_and_a_write_replaces_it_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("entry");
        assert_eq!(read(&path, "id"), Ok(None));
        write(&path, "id", b"one").unwrap();
        assert_eq!(read(&path, "id"), Ok(Some(b"one".to_vec())));
        assert_eq!(read(&path, "another id"), Err(Fault::OtherBuild));
        assert!(!path.exists(), "a faulty file is removed");
        write(&path, "id", b"two").unwrap();
        write(&path, "id", b"three").unwrap();
        assert_eq!(read(&path, "id"), Ok(Some(b"three".to_vec())));
        // No temporary file is left beside it.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// Where the child process of the next test writes.
    const FSIZE_DIR: &str = "SRCSIM_TEST_FSIZE_DIR";

    #[test]
    fn a_write_over_the_file_size_limit_is_refused_not_killed() {
        if let Some(dir) = std::env::var_os(FSIZE_DIR) {
            // The child, under `ulimit -f 1`: writing past the limit would raise SIGXFSZ,
            // which kills the process (the host program, under the shim).
            let dir = Path::new(&dir);
            let err = write(&dir.join("big"), "id", &[7; 4096]).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge, "{err}");
            write(&dir.join("small"), "id", b"fits").unwrap();
            let names: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            assert_eq!(names, ["small"], "nothing half-written is left");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -f 1 && exec \"$0\" --exact --test-threads=1 \"$1\"")
            .arg(std::env::current_exe().unwrap())
            .arg("cache::sealed::tests::a_write_over_the_file_size_limit_is_refused_not_killed")
            .env(FSIZE_DIR, dir.path())
            // Captured: the limit holds for every regular file the child writes, and the
            // test's own streams may be one (`cargo test > log`).
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{:?}\n{}{}",
            status.status,
            String::from_utf8_lossy(&status.stdout),
            String::from_utf8_lossy(&status.stderr)
        );
    }
}
