//! Bounds on heavy admin work (DESIGN.md section 13), so that it never starves the merchants'
//! charges: upload bodies read at once, replays run at once (per store and in all), and the
//! cores replays run on. A request beyond a bound is refused at once (429 with `Retry-After`),
//! not queued: a queue of 32 MiB bodies is the memory the bound is there to save.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::ComponentError;
use crate::internal::Internal;

/// How long a refused client is told to wait: an upload is read in about a second, a replay
/// of the default 10,000 charges runs for a few.
pub const UPLOAD_RETRY_AFTER_SECS: u64 = 1;
pub const REPLAY_RETRY_AFTER_SECS: u64 = 5;

#[derive(Debug)]
pub struct AdminLimits {
    uploads: Arc<Semaphore>,
    max_uploads: usize,
    replays: Arc<Semaphore>,
    max_replays: usize,
    max_replays_per_store: usize,
    /// Replays running per store id.
    running: Arc<Mutex<HashMap<String, usize>>>,
    /// Where replays run their charges: half the cores, shared by every replay, built on the
    /// first replay.
    replay_pool: OnceLock<rayon::ThreadPool>,
    replay_threads: usize,
}

/// An upload body being read; dropping it lets the next one in.
#[derive(Debug)]
pub struct UploadPermit {
    _permit: OwnedSemaphorePermit,
}

/// A replay running; dropping it lets the next one of its store, and in all, in.
#[derive(Debug)]
pub struct ReplayPermit {
    _total: OwnedSemaphorePermit,
    store_id: String,
    running: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for ReplayPermit {
    fn drop(&mut self) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = running.get_mut(&self.store_id) {
            *n -= 1;
            if *n == 0 {
                running.remove(&self.store_id);
            }
        }
    }
}

impl AdminLimits {
    /// `replays_per_store` is capped at `replays` (each at least one).
    pub fn new(uploads: usize, replays: usize, replays_per_store: usize) -> Self {
        let (uploads, replays) = (uploads.max(1), replays.max(1));
        Self {
            uploads: Arc::new(Semaphore::new(uploads)),
            max_uploads: uploads,
            replays: Arc::new(Semaphore::new(replays)),
            max_replays: replays,
            max_replays_per_store: replays_per_store.clamp(1, replays),
            running: Arc::default(),
            replay_pool: OnceLock::new(),
            replay_threads: pixgate_sandbox::default_compile_threads(),
        }
    }

    /// A permit to read an upload's body, or `TooManyUploads` when the bound is reached.
    pub fn upload(&self) -> Result<UploadPermit, ComponentError> {
        self.uploads
            .clone()
            .try_acquire_owned()
            .map(|permit| UploadPermit { _permit: permit })
            .map_err(|_| ComponentError::TooManyUploads {
                limit: self.max_uploads,
            })
    }

    /// A permit to run a replay of `store` (its code names it in a refusal), or
    /// `TooManyReplays` when its store's or the overall bound is reached.
    pub fn replay(&self, store_id: &str, store: &str) -> Result<ReplayPermit, ComponentError> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let of_store = running.get(store_id).copied().unwrap_or(0);
        if of_store >= self.max_replays_per_store {
            return Err(ComponentError::TooManyReplaysOfStore {
                store: store.to_owned(),
                limit: self.max_replays_per_store,
            });
        }
        let total = self.replays.clone().try_acquire_owned().map_err(|_| {
            ComponentError::TooManyReplays {
                limit: self.max_replays,
            }
        })?;
        running.insert(store_id.to_owned(), of_store + 1);
        Ok(ReplayPermit {
            _total: total,
            store_id: store_id.to_owned(),
            running: self.running.clone(),
        })
    }

    /// The pool replays run their charges on: half the cores (at least one) for all replays
    /// together, so two replays at once still leave half the cores to the charges.
    pub fn replay_pool(&self) -> Result<&rayon::ThreadPool, ComponentError> {
        if let Some(pool) = self.replay_pool.get() {
            return Ok(pool);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.replay_threads)
            .thread_name(|i| format!("pixgate-replay-{i}"))
            .build()
            .map_err(|e| Internal::caused("the replay thread pool", e))?;
        // Two first replays at once may both build one; the second is dropped unused.
        Ok(self.replay_pool.get_or_init(|| pool))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_runs_one_replay_and_all_stores_two_until_one_ends() {
        let limits = AdminLimits::new(2, 2, 1);
        let a = limits.replay("s1", "a").unwrap();
        assert!(matches!(
            limits.replay("s1", "a"),
            Err(ComponentError::TooManyReplaysOfStore { limit: 1, .. })
        ));
        let b = limits.replay("s2", "b").unwrap();
        assert!(matches!(
            limits.replay("s3", "c"),
            Err(ComponentError::TooManyReplays { limit: 2 })
        ));
        drop(a);
        let _a = limits.replay("s1", "a").unwrap();
        drop(b);
        let _c = limits.replay("s3", "c").unwrap();
    }

    #[test]
    fn uploads_beyond_the_bound_are_refused_until_one_is_read() {
        let limits = AdminLimits::new(2, 2, 1);
        let first = limits.upload().unwrap();
        let _second = limits.upload().unwrap();
        assert!(matches!(
            limits.upload(),
            Err(ComponentError::TooManyUploads { limit: 2 })
        ));
        drop(first);
        limits.upload().unwrap();
    }
}
