//! Authenticated API keys kept in memory, on SQLite only. Every merchant request
//! authenticates, and the lookup (the key, its merchant, its grants) was a round trip to a
//! reader thread on each. A key's merchant, scopes and grants never change once it exists;
//! only revocation does, and a revocation clears this cache in the same process before its
//! answer is sent, so it is as immediate as before. That holds because a SQLite database has
//! exactly one `pixgate serve` process (start-up takes a lock on the file). On PostgreSQL,
//! where another instance may revoke a key, nothing is cached and every request reads it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::keys::{self, Authenticated};
use super::{Backend, Db};

/// Beyond this many keys the cache starts over (unknown keys are never cached).
const MAX_ENTRIES: usize = 10_000;

#[derive(Debug)]
pub struct KeyCache {
    enabled: bool,
    entries: Mutex<HashMap<String, Arc<Authenticated>>>,
    /// Bumped by every `clear`: a read that started before a revocation must not be cached.
    generation: AtomicU64,
}

impl KeyCache {
    pub fn new(backend: Backend) -> Self {
        Self {
            enabled: backend == Backend::Sqlite,
            entries: Mutex::new(HashMap::new()),
            generation: AtomicU64::new(0),
        }
    }

    /// The key with this secret hash, as [`keys::authenticate`] reads it.
    pub async fn authenticate(
        &self,
        db: &Db,
        secret_hash: &str,
    ) -> sqlx::Result<Option<Arc<Authenticated>>> {
        if !self.enabled {
            return Ok(keys::authenticate(&db.read, secret_hash)
                .await?
                .map(Arc::new));
        }
        if let Some(found) = self.lock().get(secret_hash) {
            return Ok(Some(found.clone()));
        }
        let generation = self.generation.load(Ordering::SeqCst);
        let Some(found) = keys::authenticate(&db.read, secret_hash).await? else {
            return Ok(None);
        };
        let found = Arc::new(found);
        let mut entries = self.lock();
        if self.generation.load(Ordering::SeqCst) == generation {
            if entries.len() >= MAX_ENTRIES {
                entries.clear();
            }
            entries.insert(secret_hash.to_owned(), found.clone());
        }
        Ok(Some(found))
    }

    /// Forgets every key: after a revocation, before it is acknowledged.
    pub fn clear(&self) {
        let mut entries = self.lock();
        self.generation.fetch_add(1, Ordering::SeqCst);
        entries.clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Authenticated>>> {
        // The map holds plain data: a panic elsewhere cannot leave it inconsistent.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}
