//! Where the launches' records go, and how they come back: many launches at a time.
//!
//! A launch's records need a device buffer, and a read of it back to the host once the
//! launch has run. Done per launch (a fresh buffer, a read command, a host vector), that
//! costs more than a small kernel does: the runtime maps and faults in new memory every
//! time, and every extra command in the application's queue is work for the runtime's
//! scheduler. So the buffers are *arenas*: one device buffer cut into slots (sub-buffers)
//! of one size, each launch bound to the next free slot; once every slot is used, one
//! read brings all of them back, on the shim's own queue (never the application's: the
//! application's queues hold exactly the commands they hold without the shim, and
//! nothing of the shim's waits on them), after the launches' events. The arena and its
//! host memory then go back to a pool and are reused, so that the steady state allocates
//! nothing. Arenas left part-filled are read when the program ends
//! ([`Batches::drain`]) or releases their context.
//!
//! The device buffer is the arena's own host memory (`CL_MEM_USE_HOST_PTR`): a CPU
//! device such as PoCL's then writes the records where the host reads them, the read is
//! only the ordering the OpenCL memory model asks for (PoCL copies nothing when the
//! destination is the buffer's own memory), and the memory is touched once for the
//! arena's life instead of once on the device and once more for each read.
//!
//! The records need no clearing between uses: the annotated kernel stores every value of
//! every work-item's record.
//!
//! A program may enqueue far ahead of the device (an LU factorisation's thousand launches
//! in a few milliseconds), and the records of every launch not yet run must be somewhere:
//! a budget bounds them ([`Batches::needs_room`], `SRCSIM_RECORDS_MIB`). A launch that
//! would go past it waits for arenas to come back from the model, as a GPU driver holds
//! a program whose queue is full (two arenas may be in use whatever the budget, so that a
//! launch larger than it still overlaps the model); where none comes back for a while (a
//! launch gated on a user event the program sets later), or once the program makes a
//! user event, launches stop waiting for good, so that the shim never holds a program up
//! on itself.

use std::collections::{HashMap, HashSet};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::cl::{ClError, Context, Device, Event, Mem, Queue};
use crate::host_memory::HostMemory;

/// An arena holds about this many bytes (one slot at least, however large).
const ARENA_BYTES: usize = 1 << 20;
/// The most launches one read brings back.
const MAX_SLOTS: usize = 256;
/// Idle arenas kept for reuse, in bytes (or the budget, if more): the steady state then
/// touches no fresh memory (faulting in fresh zeroed pages for every read was a quarter of
/// `heat_steps`' time under the shim), also where a program runs as far ahead of the
/// device as the budget lets it (`lu_steps`: 12.5 to 10.8 thousand page faults, where
/// two idle arenas per slot size were kept).
const IDLE_BYTES: usize = 32 << 20;

/// Arenas that may always be in use, whatever the budget: a launch whose records are more
/// than the budget then runs while the previous one's are modelled (with one, the device
/// waited for the model before every such launch).
const ALWAYS_IN_USE: usize = 2;
/// Launches of large records that may be in flight at once where memory allows
/// ([`Batches::new`]'s ceiling).
const LARGE_IN_FLIGHT: usize = 4;

/// How long a launch waits for room with no arena coming back before launches stop waiting
/// for good: the device is then not running the launches on its own.
const STALL: Duration = Duration::from_secs(2);
/// A waiting launch reads the arenas filled meanwhile this often.
const WAIT_SLICE: Duration = Duration::from_millis(10);

/// Arenas are interchangeable when they are of one context, for one device, with slots
/// of one size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    context: Context,
    device: Device,
    slot_bytes: usize,
}

/// Memory for the records of up to `slots.len()` launches: the host's, which the device
/// buffer uses.
pub struct Arena {
    key: Key,
    buffer: Mem,
    /// One sub-buffer per slot; the buffer itself when there is one slot.
    slots: Vec<Mem>,
    /// The buffer's memory: `host[start..]`, where the device's alignment allows. Never
    /// resized while the buffer lives, and read only once the launches that write it and
    /// the read after them are over.
    host: HostMemory,
    start: usize,
}

impl Arena {
    /// An arena of `count` slots at most (fewer when that many would exceed
    /// [`ARENA_BYTES`]); `device_align` is the key's device's base address alignment.
    fn new(key: Key, count: usize, device_align: usize) -> Result<Arena, ClError> {
        let count = count.min(ARENA_BYTES / key.slot_bytes).clamp(1, MAX_SLOTS);
        // Sub-buffers must start where every device of the context allows; with one
        // slot there are none.
        let align = if count > 1 {
            let devices = key.context.devices()?;
            let mut align = 1;
            for d in devices {
                align = align.max(d.base_addr_align()?);
            }
            align
        } else {
            1
        };
        let count = if key.slot_bytes / align * align == key.slot_bytes {
            count
        } else {
            1
        };
        let (host, start, buffer) = host_buffer(key, count * key.slot_bytes, device_align)?;
        let mut slots = Vec::with_capacity(count);
        if count == 1 {
            slots.push(buffer);
        } else {
            for i in 0..count {
                // The whole slot: a later launch whose records round up to the same
                // slot size may need more than the launch the arena was made for.
                match buffer.sub_buffer(i * key.slot_bytes, key.slot_bytes) {
                    Ok(m) => slots.push(m),
                    Err(e) => {
                        slots.into_iter().for_each(Mem::release);
                        buffer.release();
                        return Err(e);
                    }
                }
            }
        }
        Ok(Arena {
            key,
            buffer,
            host,
            start,
            slots,
        })
    }

    /// The records the launch in `slot` left: its first `words` values (the model's, to
    /// correct where they are).
    pub fn records_mut(&mut self, slot: usize, words: usize) -> &mut [u64] {
        let start = self.start + slot * self.key.slot_bytes / 8;
        &mut self.host.words_mut()[start..start + words]
    }

    fn bytes(&self) -> usize {
        self.key.slot_bytes * self.slots.len()
    }

    /// Frees the buffer, then its memory: no command that uses it is left (the read after
    /// its launches is over, or nothing was enqueued with it).
    fn release(self) {
        if self.slots.len() > 1 {
            self.slots.into_iter().for_each(Mem::release);
        }
        self.buffer.release();
        drop(self.host);
    }
}

/// Zeroed host memory of at least `bytes` and a device buffer of `bytes` that uses it,
/// starting at the first word `align` (the device's, a multiple of 8) allows.
fn host_buffer(key: Key, bytes: usize, align: usize) -> Result<(HostMemory, usize, Mem), ClError> {
    let words = bytes.div_ceil(8);
    let mut host = HostMemory::new(words + align / 8)?;
    let at = host.words().as_ptr() as usize;
    let start = (at.next_multiple_of(align) - at) / 8;
    let buffer = key
        .context
        .records_buffer(&mut host.words_mut()[start..start + words])?;
    Ok((host, start, buffer))
}

/// An arena being filled: the launches bound to its slots so far.
struct Filling<T> {
    arena: Arena,
    /// The next slot to hand out.
    next: usize,
    /// Slots handed out whose launch is not yet committed or abandoned.
    outstanding: usize,
    /// Each committed launch's slot and what the caller keeps with it.
    launches: Vec<(usize, T)>,
    /// The events the read waits on (this library's references): each committed
    /// launch's, or for an in-order queue its last launch's only (it ends after the
    /// queue's earlier ones).
    events: Vec<(Option<Queue>, Event)>,
}

impl<T> Filling<T> {
    fn ready(&self) -> bool {
        self.next == self.arena.slots.len() && self.outstanding == 0
    }
}

/// A slot handed to a launch: bind `mem`, then [`Batches::commit`] or
/// [`Batches::abandon`] it.
#[must_use]
pub struct Slot {
    filling: u64,
    index: usize,
    /// The buffer to bind as the launch's records argument.
    pub mem: Mem,
}

/// An arena whose slots are all committed (or the program is ending): to be read back by
/// [`Batches::read_back`].
pub struct Full<T>(Filling<T>);

/// The records of a batch of launches on their way back.
pub struct Batch<T> {
    /// The read; complete, the arena holds the records.
    pub read: Event,
    /// The arena (to [`Batches::recycle`] once its records are used).
    pub arena: Arena,
    /// Each launch's slot, and what the caller keeps with it.
    pub launches: Vec<(usize, T)>,
}

#[derive(Default)]
struct Inner<T> {
    next_id: u64,
    /// The arena each key hands slots out of.
    open: HashMap<Key, u64>,
    /// The slots the next new arena of each key gets: one at first, so that a program
    /// of a few launches has each read back (and modelled) while it runs, as many as
    /// [`MAX_SLOTS`] (doubling) for a program of many.
    grow: HashMap<Key, usize>,
    fillings: HashMap<u64, Filling<T>>,
    idle: HashMap<Key, Vec<Arena>>,
    idle_bytes: usize,
    /// The shim's own queue per context and device, for the reads.
    queues: HashMap<(Context, Device), Queue>,
    /// Arenas created, and the most bytes of them alive at once (for the timing line).
    created: usize,
    alive_bytes: usize,
    alive_arenas: usize,
    peak_bytes: usize,
    /// Devices' sub-buffer alignment, in bytes.
    align: HashMap<Device, usize>,
    /// Contexts the application released (perhaps for good): arenas of theirs that come
    /// back are freed, not kept, until a launch uses the context again.
    retired: HashSet<Context>,
    /// The most bytes of arenas in use (not idle) before a launch waits for room, the
    /// most a launch of large records may have (`Inner::budget_for`), and whether
    /// launches no longer wait.
    budget: usize,
    ceiling: usize,
    unbounded: bool,
    /// Arenas that came back so far (a waiting launch's sign of progress).
    recycled: u64,
    /// Arenas in use of launches of large records ([`Inner::large`]), and their bytes.
    large_in_use: (usize, usize),
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<T> Inner<T> {
    /// The arenas a launch's `bytes` of records go to: slots of that size, rounded to the
    /// device's sub-buffer alignment.
    fn key(&mut self, context: Context, device: Device, bytes: usize) -> Result<Key, ClError> {
        let align = self.device_align(device)?;
        Ok(Key {
            context,
            device,
            slot_bytes: bytes.max(8).div_ceil(align) * align,
        })
    }

    /// `device`'s base address alignment in bytes (at least a word), asked once.
    fn device_align(&mut self, device: Device) -> Result<usize, ClError> {
        if let Some(a) = self.align.get(&device) {
            return Ok(*a);
        }
        let a = device.base_addr_align()?.max(8);
        self.align.insert(device, a);
        Ok(a)
    }

    /// The open arena of `key` with a slot left, if any.
    fn open_slot(&self, key: Key) -> Option<u64> {
        self.open.get(&key).copied().filter(|id| {
            self.fillings
                .get(id)
                .is_some_and(|f| f.next < f.arena.slots.len())
        })
    }

    /// Whether a launch of `key` has room: fewer than [`ALWAYS_IN_USE`] arenas in use (a
    /// launch larger than the budget), or an arena of one slot more within the budget of
    /// arenas in use.
    fn fits(&self, key: Key) -> bool {
        self.room_for(key.slot_bytes, self.budget_for(key.slot_bytes))
    }

    /// The budget of arenas in use for a launch of `bytes` of records: at least room for
    /// [`LARGE_IN_FLIGHT`] such launches, within the ceiling (where memory allows). A
    /// launch of records far larger than the budget (a BFS level's 300000 work-items'
    /// sampled records, 36 MB) would otherwise wait for the model at every launch.
    fn budget_for(&self, bytes: usize) -> usize {
        self.budget
            .max(bytes.saturating_mul(LARGE_IN_FLIGHT).min(self.ceiling))
    }

    /// Whether fewer than [`ALWAYS_IN_USE`] arenas are in use, or `bytes` more of them
    /// stay within `budget`. Launches of small records and of large ones each count the
    /// arenas of their own kind: a small launch keeps the budget among small ones, and
    /// does not wait for a large launch's records to be modelled (a BFS level's frontier
    /// step, whose records take most of the budget, held up the next small launch behind
    /// it until then, device and model in turn); a large one has room for
    /// [`LARGE_IN_FLIGHT`] of its kind, whatever small ones are in use.
    fn room_for(&self, bytes: usize, budget: usize) -> bool {
        let in_use = self.alive_bytes - self.idle_bytes;
        let idle_arenas: usize = self.idle.values().map(Vec::len).sum();
        let arenas = self.alive_arenas - idle_arenas;
        let (arenas, in_use) = if self.large(bytes) {
            self.large_in_use
        } else {
            (arenas - self.large_in_use.0, in_use - self.large_in_use.1)
        };
        arenas < ALWAYS_IN_USE || in_use + bytes <= budget
    }

    /// Bytes of the idle arenas of large records, or of small ones.
    fn idle_bytes_of(&self, large: bool) -> usize {
        self.idle
            .iter()
            .filter(|(k, _)| self.large(k.slot_bytes) == large)
            .flat_map(|(_, arenas)| arenas.iter().map(Arena::bytes))
            .sum()
    }

    /// Whether launches of `slot_bytes` of records are large: room for
    /// [`LARGE_IN_FLIGHT`] of them is more than the budget.
    fn large(&self, slot_bytes: usize) -> bool {
        slot_bytes.saturating_mul(LARGE_IN_FLIGHT) > self.budget
    }
}

/// The arenas of the whole process.
pub struct Batches<T> {
    inner: Mutex<Inner<T>>,
    /// Signalled when an arena comes back, or launches stop waiting.
    room: Condvar,
}

impl<T> Batches<T> {
    /// No arenas yet; launches wait for room beyond `budget` bytes of arenas in use, or
    /// as much as room for [`LARGE_IN_FLIGHT`] launches within `ceiling` bytes.
    pub fn new(budget: usize, ceiling: usize) -> Self {
        Batches {
            room: Condvar::new(),
            inner: Mutex::new(Inner {
                budget,
                ceiling,
                unbounded: false,
                recycled: 0,
                next_id: 0,
                open: HashMap::new(),
                grow: HashMap::new(),
                fillings: HashMap::new(),
                idle: HashMap::new(),
                idle_bytes: 0,
                created: 0,
                alive_bytes: 0,
                alive_arenas: 0,
                peak_bytes: 0,
                queues: HashMap::new(),
                align: HashMap::new(),
                retired: HashSet::new(),
                large_in_use: (0, 0),
            }),
        }
    }

    /// Whether a launch on `device` in `context` with `bytes` of records must wait for
    /// room ([`Batches::wait_for_room`]): no arena open or idle has a slot for it, and a
    /// new one would take the arenas in use past the budget.
    pub fn needs_room(&self, context: Context, device: Device, bytes: usize) -> bool {
        let mut inner = lock(&self.inner);
        if inner.unbounded {
            return false;
        }
        let Ok(key) = inner.key(context, device, bytes) else {
            return false;
        };
        inner.open_slot(key).is_none() && !inner.fits(key)
    }

    /// Waits for arenas to come back until such a launch fits half the budget (so that the
    /// program then enqueues several launches at a time, instead of waking for every
    /// arena back: `lu_steps` 4% faster; a launch of large records, until it fits), calling `read_filled` every [`WAIT_SLICE`]
    /// without the lock held (to read arenas other threads have filled since). Where none
    /// comes back for [`STALL`], launches stop waiting for good: returns false.
    pub fn wait_for_room(
        &self,
        context: Context,
        device: Device,
        bytes: usize,
        read_filled: &mut dyn FnMut(),
    ) -> bool {
        let mut inner = lock(&self.inner);
        let Ok(key) = inner.key(context, device, bytes) else {
            return true;
        };
        let (mut recycled, mut since) = (inner.recycled, Instant::now());
        // A large launch waits only until it fits: each arena back is a fifth of its room.
        let budget = if inner.large(key.slot_bytes) {
            inner.budget_for(key.slot_bytes)
        } else {
            inner.budget_for(key.slot_bytes) / 2
        };
        while !inner.unbounded && !inner.room_for(key.slot_bytes, budget) {
            if inner.recycled != recycled {
                (recycled, since) = (inner.recycled, Instant::now());
            }
            if since.elapsed() >= STALL {
                inner.unbounded = true;
                return false;
            }
            drop(inner);
            read_filled();
            inner = lock(&self.inner);
            if inner.recycled == recycled && !inner.unbounded {
                inner = self
                    .room
                    .wait_timeout(inner, WAIT_SLICE)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        }
        true
    }

    /// No launch waits for room from now on: the program made a user event, and its
    /// launches may wait on what it does after them.
    pub fn stop_waiting(&self) {
        lock(&self.inner).unbounded = true;
        self.room.notify_all();
    }

    /// A slot for the `bytes` of records of a launch on `device` in `context`.
    pub fn take(&self, context: Context, device: Device, bytes: usize) -> Result<Slot, ClError> {
        let mut inner = lock(&self.inner);
        inner.retired.remove(&context);
        let key = inner.key(context, device, bytes)?;
        let open = inner.open_slot(key);
        let id = match open {
            Some(id) => id,
            None => {
                let wanted = inner
                    .grow
                    .get(&key)
                    .copied()
                    .unwrap_or(1)
                    .min(ARENA_BYTES / key.slot_bytes)
                    .max(1);
                inner.grow.insert(key, (wanted * 2).min(MAX_SLOTS));
                let idle = inner.idle.get_mut(&key).and_then(Vec::pop);
                if let Some(a) = &idle {
                    inner.idle_bytes -= a.bytes();
                }
                let arena = match idle {
                    Some(a) if a.slots.len() >= wanted => a,
                    small => {
                        // An idle arena smaller than the launches now call for goes.
                        if let Some(a) = small {
                            inner.alive_bytes -= a.bytes();
                            inner.alive_arenas -= 1;
                            a.release();
                        }
                        let align = inner.device_align(device)?;
                        let a = Arena::new(key, wanted, align)?;
                        inner.created += 1;
                        inner.alive_bytes += a.bytes();
                        inner.alive_arenas += 1;
                        inner.peak_bytes = inner.peak_bytes.max(inner.alive_bytes);
                        a
                    }
                };
                if inner.large(key.slot_bytes) {
                    inner.large_in_use.0 += 1;
                    inner.large_in_use.1 += arena.bytes();
                }
                let count = arena.slots.len();
                let id = inner.next_id;
                inner.next_id += 1;
                inner.fillings.insert(
                    id,
                    Filling {
                        arena,
                        next: 0,
                        outstanding: 0,
                        launches: Vec::with_capacity(count),
                        events: Vec::new(),
                    },
                );
                inner.open.insert(key, id);
                id
            }
        };
        let f = inner.fillings.get_mut(&id).expect("the open arena");
        let index = f.next;
        debug_assert!(index < f.arena.slots.len());
        f.next += 1;
        f.outstanding += 1;
        Ok(Slot {
            filling: id,
            index,
            mem: f.arena.slots[index],
        })
    }

    /// Word `at` of `slot`'s records as the last launch bound to it left it (0 in fresh
    /// memory): read before its launch is enqueued, while nothing writes it.
    pub fn word(&self, slot: &Slot, at: usize) -> Option<u64> {
        let inner = lock(&self.inner);
        let f = inner.fillings.get(&slot.filling)?;
        let start = f.arena.start + slot.index * f.arena.key.slot_bytes / 8;
        let end = start + f.arena.key.slot_bytes / 8;
        f.arena.host.words().get(start..end)?.get(at).copied()
    }

    /// The launch bound to `slot` was enqueued with `event` (this library's reference,
    /// released once the read is enqueued) on `queue` (given when it is in order);
    /// `what` goes with its records. Gives the arena back when it is full, to be read.
    pub fn commit(
        &self,
        slot: Slot,
        queue: Option<Queue>,
        event: Event,
        what: T,
    ) -> Option<Full<T>> {
        let mut inner = lock(&self.inner);
        let f = inner
            .fillings
            .get_mut(&slot.filling)
            .expect("a slot's arena stays until the slot is committed");
        f.outstanding -= 1;
        f.launches.push((slot.index, what));
        let earlier = queue.and_then(|q| f.events.iter_mut().find(|(e, _)| *e == Some(q)));
        match earlier {
            // Its queue's earlier launch is over once this one is.
            Some((_, e)) => std::mem::replace(e, event).release(),
            None => f.events.push((queue, event)),
        }
        Self::take_if_ready(&mut inner, slot.filling)
    }

    /// Nothing was enqueued with `slot`: its records are not to be read. Gives the arena
    /// back when it is full, to be read.
    pub fn abandon(&self, slot: Slot) -> Option<Full<T>> {
        let mut inner = lock(&self.inner);
        if let Some(f) = inner.fillings.get_mut(&slot.filling) {
            f.outstanding -= 1;
        }
        Self::take_if_ready(&mut inner, slot.filling)
    }

    fn take_if_ready(inner: &mut Inner<T>, id: u64) -> Option<Full<T>> {
        if !inner.fillings.get(&id)?.ready() {
            return None;
        }
        let f = inner.fillings.remove(&id)?;
        if inner.open.get(&f.arena.key) == Some(&id) {
            inner.open.remove(&f.arena.key);
        }
        Some(Full(f))
    }

    /// The arenas holding launches whose slots are all committed, full or not (the
    /// program is ending), or only those of `context` (it is being released).
    pub fn drain(&self, context: Option<Context>) -> Vec<Full<T>> {
        let mut inner = lock(&self.inner);
        let ids: Vec<u64> = inner
            .fillings
            .iter()
            .filter(|(_, f)| f.outstanding == 0 && context.is_none_or(|c| f.arena.key.context == c))
            .map(|(id, _)| *id)
            .collect();
        let mut full = Vec::new();
        for id in ids {
            let f = inner.fillings.remove(&id).expect("listed");
            if inner.open.get(&f.arena.key) == Some(&id) {
                inner.open.remove(&f.arena.key);
            }
            full.push(Full(f));
        }
        full
    }

    /// Enqueues the read of `full`'s launches' records on the shim's own queue, after
    /// their launches. An arena with no launch is recycled at once (`Ok(None)`); a
    /// failure gives back what went with each launch.
    pub fn read_back(&self, full: Full<T>) -> Result<Option<Batch<T>>, (ClError, Vec<T>)> {
        let Full(mut f) = full;
        if f.launches.is_empty() {
            self.recycle(f.arena);
            return Ok(None);
        }
        let key = f.arena.key;
        let queue = {
            let mut inner = lock(&self.inner);
            match inner.queues.get(&(key.context, key.device)) {
                Some(q) => Ok(*q),
                None => key.context.create_queue(key.device).inspect(|q| {
                    inner.queues.insert((key.context, key.device), *q);
                }),
            }
        };
        let used = f.next * key.slot_bytes / 8;
        let events: Vec<Event> = f.events.drain(..).map(|(_, e)| e).collect();
        let start = f.arena.start;
        let dst = &mut f.arena.host.words_mut()[start..start + used];
        let read = queue.and_then(|q| q.read_after(f.arena.buffer, dst, &events));
        // The read holds what it waits on; this library's references can go.
        events.into_iter().for_each(Event::release);
        match read {
            Ok(read) => Ok(Some(Batch {
                read,
                arena: f.arena,
                launches: f.launches,
            })),
            Err(e) => {
                self.recycle(f.arena);
                Err((e, f.launches.into_iter().map(|(_, t)| t).collect()))
            }
        }
    }

    /// Takes back an arena whose records have been used: kept for reuse, or freed.
    pub fn recycle(&self, arena: Arena) {
        let mut inner = lock(&self.inner);
        inner.recycled += 1;
        let bytes = arena.bytes();
        if inner.large(arena.key.slot_bytes) {
            inner.large_in_use.0 -= 1;
            inner.large_in_use.1 -= bytes;
        }
        // Idle arenas of small records and of large ones are kept apart: a large one kept
        // for the next large launch must not crowd out the small ones (a BFS's small
        // launches made a fresh arena each, between its large ones).
        let large = inner.large(arena.key.slot_bytes);
        let keep = !inner.retired.contains(&arena.key.context)
            && inner.idle_bytes_of(large) + bytes <= inner.budget_for(bytes).max(IDLE_BYTES);
        let freed = if keep {
            inner.idle_bytes += bytes;
            inner.idle.entry(arena.key).or_default().push(arena);
            None
        } else {
            inner.alive_bytes -= bytes;
            inner.alive_arenas -= 1;
            Some(arena)
        };
        // A waiting small launch waits for half the budget free among small arenas (or
        // fewer than two in use): waking it before only puts it back to sleep. A large
        // one waits until it fits among large arenas: one coming back may be enough.
        if large || inner.room_for(0, inner.budget / 2) {
            self.room.notify_all();
        }
        drop(inner);
        if let Some(arena) = freed {
            arena.release();
        }
    }

    /// Arenas created so far, and the most bytes of them alive at once.
    pub fn arenas(&self) -> (usize, usize) {
        let inner = lock(&self.inner);
        (inner.created, inner.peak_bytes)
    }

    /// The application is releasing `context` (perhaps for the last time): frees the
    /// idle arenas and the queue of the shim's that hold it, and frees arenas of it that
    /// come back later, until a launch uses it again. Its part-filled arenas are for the
    /// caller to read ([`Batches::drain`] first).
    pub fn retire(&self, context: Context) {
        let mut inner = lock(&self.inner);
        inner.retired.insert(context);
        let keys: Vec<Key> = inner
            .idle
            .keys()
            .filter(|k| k.context == context)
            .copied()
            .collect();
        let mut freed = Vec::new();
        for k in keys {
            freed.extend(inner.idle.remove(&k).unwrap_or_default());
        }
        let bytes = freed.iter().map(Arena::bytes).sum::<usize>();
        inner.idle_bytes -= bytes;
        inner.alive_bytes -= bytes;
        inner.alive_arenas -= freed.len();
        let queues: Vec<(Context, Device)> = inner
            .queues
            .keys()
            .filter(|(c, _)| *c == context)
            .copied()
            .collect();
        let queues: Vec<Queue> = queues
            .iter()
            .filter_map(|k| inner.queues.remove(k))
            .collect();
        drop(inner);
        freed.into_iter().for_each(Arena::release);
        // Commands already queued still run (releasing a queue flushes it).
        queues.into_iter().for_each(Queue::release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr::null_mut;

    #[test]
    fn a_launch_past_the_budget_waits_only_behind_two_arenas_in_use() {
        let batches: Batches<()> = Batches::new(1 << 20, 1 << 20);
        let (context, device) = (Context(null_mut()), Device(null_mut()));
        let mut inner = lock(&batches.inner);
        inner.align.insert(device, 64);
        let big = inner.key(context, device, 4 << 20).unwrap();
        let small = inner.key(context, device, 64 << 10).unwrap();
        assert!(inner.fits(big) && inner.fits(small), "nothing in use");
        // Arenas of small records in use (a budget of 1 MiB makes a launch of 4 MiB
        // large, one of 64 KiB small).
        assert!(inner.large(big.slot_bytes) && !inner.large(small.slot_bytes));
        (inner.alive_arenas, inner.alive_bytes) = (1, 1 << 20);
        assert!(
            inner.fits(small),
            "one in use: the next runs while it is modelled"
        );
        (inner.alive_arenas, inner.alive_bytes) = (2, 2 << 20);
        assert!(!inner.fits(small), "two in use, past the budget");
        (inner.alive_arenas, inner.alive_bytes) = (3, 512 << 10);
        assert!(inner.fits(small), "within the budget");
        // Large ones: two in use, past their room (four of 4 MiB within a ceiling of 1
        // MiB: the budget).
        (inner.alive_arenas, inner.alive_bytes) = (1, 4 << 20);
        inner.large_in_use = (1, 4 << 20);
        assert!(
            inner.fits(big),
            "one in use: the next runs while it is modelled"
        );
        (inner.alive_arenas, inner.alive_bytes) = (2, 8 << 20);
        inner.large_in_use = (2, 8 << 20);
        assert!(!inner.fits(big), "two in use, past the budget");
        assert!(inner.fits(small), "small ones count their own");
        (inner.alive_arenas, inner.alive_bytes, inner.large_in_use) = (3, 512 << 10, (0, 0));
        // A waiting launch waits for half the budget (512 KiB), and is woken once the
        // arenas in use are within it.
        assert!(!inner.room_for(small.slot_bytes, 512 << 10));
        assert!(inner.room_for(0, 512 << 10));
        inner.alive_bytes = 600 << 10;
        assert!(!inner.room_for(0, 512 << 10), "not woken yet");
    }

    #[test]
    fn launches_of_large_records_have_room_for_four_within_the_ceiling() {
        let batches: Batches<()> = Batches::new(1 << 20, 64 << 20);
        let (context, device) = (Context(null_mut()), Device(null_mut()));
        let mut inner = lock(&batches.inner);
        inner.align.insert(device, 64);
        assert_eq!(inner.budget_for(64 << 10), 1 << 20, "small: the budget");
        assert_eq!(inner.budget_for(4 << 20), 16 << 20, "four of them");
        assert_eq!(inner.budget_for(40 << 20), 64 << 20, "the ceiling");
        let big = inner.key(context, device, 4 << 20).unwrap();
        let small = inner.key(context, device, 64 << 10).unwrap();
        (inner.alive_arenas, inner.alive_bytes) = (3, 12 << 20);
        assert!(!inner.fits(small), "small ones keep the budget");
        inner.large_in_use = (3, 12 << 20);
        assert!(inner.fits(big), "a fourth large launch runs");
        (inner.alive_arenas, inner.alive_bytes) = (5, (16 << 20) + (960 << 10));
        inner.large_in_use = (4, 16 << 20);
        assert!(!inner.fits(big), "a fifth waits");
        assert!(inner.fits(small), "small ones count their own");
    }

    #[test]
    fn a_small_launch_does_not_wait_for_large_records_to_be_modelled() {
        let batches: Batches<()> = Batches::new(1 << 20, 64 << 20);
        let (context, device) = (Context(null_mut()), Device(null_mut()));
        let mut inner = lock(&batches.inner);
        inner.align.insert(device, 64);
        let big = inner.key(context, device, 4 << 20).unwrap();
        let small = inner.key(context, device, 64 << 10).unwrap();
        assert!(inner.large(big.slot_bytes) && !inner.large(small.slot_bytes));
        // Two large launches' arenas in use (being modelled) and two small ones, of 960
        // KiB together: the small launch counts the small arenas alone.
        (inner.alive_arenas, inner.alive_bytes) = (4, (8 << 20) + (960 << 10));
        inner.large_in_use = (2, 8 << 20);
        assert!(inner.fits(small), "within the budget among small arenas");
        assert!(inner.fits(big), "a third large launch runs");
        inner.alive_bytes = (8 << 20) + (1000 << 10);
        assert!(!inner.fits(small), "past the budget among small arenas");
    }
}
