//! The records arenas' host memory ([`crate::batch`]).

use crate::cl::ClError;
use crate::ffi::CL_OUT_OF_HOST_MEMORY;

/// An arena's memory: zeroed words of a mapping of its own. A large launch's records are
/// tens of megabytes, written once by the device and faulted in page by page as it does:
/// an arena that spans huge pages asks for them (transparent huge pages, where the system
/// grants them on request), so that a page fault brings 2 MiB instead of 4 KiB (a BFS
/// level's 56 MB arenas: 21 to 14 thousand page faults in the whole program, 5% less
/// processor time).
pub struct HostMemory(memmap2::MmapMut);

/// The huge page size of x86-64 and of most 64-bit Arm systems: smaller arenas are not
/// advised.
const HUGE_PAGE: usize = 2 << 20;

impl HostMemory {
    pub fn new(words: usize) -> Result<HostMemory, ClError> {
        let map = memmap2::MmapMut::map_anon(words.max(1) * 8)
            .map_err(|_| ClError(CL_OUT_OF_HOST_MEMORY))?;
        if map.len() >= HUGE_PAGE {
            // Only advice: where the system grants no huge pages, the memory is the same.
            #[cfg(target_os = "linux")]
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Ok(HostMemory(map))
    }

    pub fn words(&self) -> &[u64] {
        bytemuck::cast_slice(&self.0)
    }

    pub fn words_mut(&mut self) -> &mut [u64] {
        bytemuck::cast_slice_mut(&mut self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small and huge-page-sized memory alike: as many zeroed words as asked, which keep
    /// what is written, at the word alignment the device buffer needs.
    #[test]
    fn memory_is_zeroed_words_that_keep_what_is_written() {
        for words in [1, 1000, HUGE_PAGE / 8 + 3] {
            let mut m = HostMemory::new(words).unwrap();
            assert!(m.words().len() >= words);
            assert_eq!(m.words().as_ptr() as usize % 8, 0);
            assert!(m.words().iter().all(|&w| w == 0));
            for (i, w) in m.words_mut().iter_mut().enumerate().take(words) {
                *w = i as u64 * 3 + 1;
            }
            assert!(m.words()[..words]
                .iter()
                .enumerate()
                .all(|(i, &w)| w == i as u64 * 3 + 1));
        }
        // Nothing asked for still maps a word, as the arenas' sizes round up to one.
        assert_eq!(HostMemory::new(0).unwrap().words().len(), 1);
    }
}
