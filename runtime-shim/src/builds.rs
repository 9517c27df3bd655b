//! What names the builds that make the cache's files: srcsim's own library, the OpenCL
//! runtime (PoCL) that made a program binary, and the clang that compiled the annotated
//! source, each by its ELF build-id (`NT_GNU_BUILD_ID`, which the linker derives from the
//! file's contents).
//!
//! A file's size and time say little: a reinstalled package keeps its size, a copied or
//! synced cache keeps any time, and a rebuilt library of the same size was once taken
//! for the old one. The build-id changes with the code and only with it.

use std::ops::Range;
use std::path::{Path, PathBuf};

use object::{Object, ReadCache};
use serde::{Deserialize, Serialize};

/// The files mapped into this process, each with one of its address ranges, in the
/// order of `/proc/self/maps` (one entry per mapping: a file appears several times).
pub(crate) fn mappings() -> Vec<(Range<usize>, PathBuf)> {
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
        return Vec::new();
    };
    maps.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (start, end) = fields.next()?.split_once('-')?;
            let start = usize::from_str_radix(start, 16).ok()?;
            let end = usize::from_str_radix(end, 16).ok()?;
            let path = fields.nth(4).filter(|p| p.starts_with('/'))?;
            Some((start..end, PathBuf::from(path)))
        })
        .collect()
}

/// The file this code was loaded from (the mapping that holds this function):
/// `libsrcsim.so` in a host program, the `srcsim` program or a test binary otherwise.
pub(crate) fn this_file(mappings: &[(Range<usize>, PathBuf)]) -> Option<&Path> {
    let here = this_file as fn(&[(Range<usize>, PathBuf)]) -> Option<&Path> as usize;
    mappings
        .iter()
        .find(|(range, _)| range.contains(&here))
        .map(|(_, path)| path.as_path())
}

/// The first mapped file whose name starts with `prefix` (`libpocl.so`).
fn mapped(mappings: &[(Range<usize>, PathBuf)], prefix: &str) -> Option<PathBuf> {
    mappings
        .iter()
        .map(|(_, p)| p)
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix))
        })
        .cloned()
}

/// The build-id of the ELF file at `path`, in hex: the `NT_GNU_BUILD_ID` note of its
/// program headers' `PT_NOTE` segments. Read through a cache of the file's pages, and
/// only those parts: parsing the whole file (sections, symbols) took 10 ms per library
/// of a debug build, in every host process; this takes 50 us.
pub fn build_id(path: &Path) -> Option<String> {
    use object::elf::{FileHeader64, NT_GNU_BUILD_ID};
    use object::read::elf::{FileHeader, ProgramHeader};
    let file = std::fs::File::open(path).ok()?;
    let data = ReadCache::new(file);
    let id = match FileHeader64::<object::Endianness>::parse(&data) {
        Ok(header) => {
            let endian = header.endian().ok()?;
            header
                .program_headers(endian, &data)
                .ok()?
                .iter()
                .filter_map(|segment| segment.notes(endian, &data).ok().flatten())
                .find_map(|mut notes| {
                    while let Ok(Some(note)) = notes.next() {
                        if note.name() == b"GNU" && note.n_type(endian) == NT_GNU_BUILD_ID {
                            return Some(note.desc().to_vec());
                        }
                    }
                    None
                })?
        }
        // Not a 64-bit ELF file: object's general reader.
        Err(_) => object::File::parse(&data).ok()?.build_id().ok()??.to_vec(),
    };
    Some(id.iter().map(|b| format!("{b:02x}")).collect())
}

/// A file's name in an identity: its build-id, else (a file linked without one) its
/// path, size and time, else that it is not there.
fn named(path: Option<&Path>) -> String {
    let Some(path) = path else {
        return "none".to_string();
    };
    if let Some(id) = build_id(path) {
        return id;
    }
    match std::fs::metadata(path) {
        Ok(m) => format!("{} {} {:?}", path.display(), m.len(), m.modified().ok()),
        Err(_) => format!("{} (unreadable)", path.display()),
    }
}

/// The builds a kept file depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Builds {
    /// srcsim's library (or program), whose code annotates, builds and models.
    pub srcsim: String,
    /// The OpenCL runtime's library (`libpocl`), which makes and loads program binaries
    /// (a new PoCL is also a new build of the LLVM it links, and of its binary format).
    pub pocl: String,
    /// The clang that compiles the annotated source to PTX for the analysis. libclang,
    /// which parses the source, comes with it (it is opened only when a source is
    /// parsed, so its mapping says nothing on a warm run).
    pub clang: String,
}

impl Builds {
    /// The builds of this process: its own code, the PoCL it has loaded (none where the
    /// OpenCL runtime is not loaded yet or is not PoCL) and the clang at `clang`.
    pub fn of_this_process(clang: Option<&Path>) -> Builds {
        let maps = mappings();
        Builds {
            srcsim: named(this_file(&maps)),
            pocl: PoclBuild::among(&maps).0,
            clang: named(clang),
        }
    }

    /// The one-line form the cache seals its files with.
    pub fn identity(&self) -> String {
        format!(
            "srcsim={} pocl={} clang={}",
            self.srcsim, self.pocl, self.clang
        )
    }
}

/// The build of the PoCL library this process has loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoclBuild(pub String);

impl PoclBuild {
    /// The PoCL mapped into this process now.
    pub fn of_this_process() -> PoclBuild {
        Self::among(&mappings())
    }

    fn among(mappings: &[(Range<usize>, PathBuf)]) -> PoclBuild {
        PoclBuild(named(mapped(mappings, "libpocl.so").as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_file_is_found_among_the_mappings_and_has_a_build_id() {
        let maps = mappings();
        let exe = std::env::current_exe().unwrap();
        assert_eq!(this_file(&maps), Some(exe.as_path()));
        let id = build_id(&exe).expect("the linker gives every build an id");
        assert!(
            id.len() >= 16 && id.chars().all(|c| c.is_ascii_hexdigit()),
            "{id}"
        );
        // A file that is not ELF has no build-id, and is named by its path and size.
        let text = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        assert_eq!(build_id(&text), None);
        assert!(named(Some(&text)).starts_with(text.to_str().unwrap()));
        assert_eq!(named(None), "none");
    }
}
