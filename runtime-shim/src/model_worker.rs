//! The model's thread, and the threads that help it at exit.
//!
//! Launches' records are modelled on a thread of the shim's own, in the order they come
//! back, while the application goes on. When the program ends, what is left (the last
//! launches, often the largest: a device runs up to four large launches ahead of the
//! model) would be modelled on that one thread while the cores PoCL ran the kernels on
//! stand idle, and the process's exit waits for it. So at exit the thread that ends the
//! program, and one more thread for each further core, take jobs from the same queue.
//! The outcomes do not depend on which thread models a launch: each thread keeps its own
//! last estimates to reuse ([`LastModelled`]), and a launch another thread's estimate
//! would have served is modelled anew, to the same estimate.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use pipeline_model::Architecture;

use crate::batch::Batches;
use crate::modelling::{
    lock, model_batch, model_evaluated, Job, LastModelled, Models, Pending, Sink, Stats, Sweep,
};

/// What modelling a job needs, shared by every thread that models.
pub(crate) struct ModelContext {
    pub(crate) arch: Option<Architecture>,
    pub(crate) sweep: Option<Arc<Sweep>>,
    pub(crate) sink: Arc<Sink>,
    pub(crate) batches: Arc<Batches<Pending>>,
    pub(crate) stats: Arc<Stats>,
}

/// What one modelling thread keeps from job to job.
struct Scratch {
    last: LastModelled,
    evaluated: (Vec<u64>, Vec<u32>),
}

impl ModelContext {
    fn run(&self, job: Job, scratch: &mut Scratch) {
        let sweep = self.sweep.as_deref();
        match job {
            Job::Records(mut batch) => {
                model_batch(
                    self.arch.as_ref(),
                    sweep,
                    &mut batch,
                    &self.sink,
                    &mut scratch.last,
                    &self.stats,
                );
                batch.read.release();
                self.batches.recycle(batch.arena);
            }
            Job::Evaluated(e) => {
                let models = Models {
                    arch: self.arch.as_ref(),
                    sweep,
                    sink: &self.sink,
                    stats: &self.stats,
                };
                model_evaluated(&models, &e, &mut scratch.evaluated);
            }
        }
    }

    /// Models jobs from `queue` until it is empty and closed. The lock is held while
    /// waiting for a job, so the threads take them one at a time, each the next.
    fn work(&self, queue: &Mutex<Receiver<Job>>) {
        let mut scratch = Scratch {
            last: LastModelled::new(),
            evaluated: (Vec::new(), Vec::new()),
        };
        loop {
            let job = lock(queue).recv();
            match job {
                Ok(job) => self.run(job, &mut scratch),
                Err(_) => return,
            }
        }
    }
}

/// The model's thread and the queue of jobs it takes.
pub(crate) struct Worker {
    jobs: Sender<Job>,
    queue: Arc<Mutex<Receiver<Job>>>,
    context: Arc<ModelContext>,
    thread: JoinHandle<()>,
}

impl Worker {
    pub(crate) fn spawn(context: ModelContext) -> Worker {
        let (jobs, rx) = channel::<Job>();
        let queue = Arc::new(Mutex::new(rx));
        let context = Arc::new(context);
        let thread = {
            let (queue, context) = (Arc::clone(&queue), Arc::clone(&context));
            std::thread::Builder::new()
                .name("srcsim-model".to_string())
                .spawn(move || context.work(&queue))
                .expect("spawning the model thread")
        };
        Worker {
            jobs,
            queue,
            context,
            thread,
        }
    }

    /// Queues `job`. The queue's receiver lives as long as this worker (`queue`), so the
    /// send cannot fail; a job the model's thread never takes (were it gone) is modelled
    /// at exit ([`Worker::finish`]).
    pub(crate) fn submit(&self, job: Job) {
        let _ = self.jobs.send(job);
    }

    /// Closes the queue and models what is left in it on this thread and on one more
    /// for each core beyond the two (this one and the model's), beside the model's
    /// thread; returns once every job is modelled.
    pub(crate) fn finish(self) {
        let Worker {
            jobs,
            queue,
            context,
            thread,
        } = self;
        drop(jobs);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::thread::scope(|scope| {
            for _ in 2..cores {
                scope.spawn(|| context.work(&queue));
            }
            context.work(&queue);
        });
        let _ = thread.join();
    }
}
