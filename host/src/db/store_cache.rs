//! A short-lived cache of each store with the gateways it may use, the component versions it
//! runs, its running canaries and its kill-switch settings: every charge needs them, and
//! reading them is round trips on its path. Admin writes on this instance clear it at once;
//! other instances sharing the database see a change within the TTL (this is how an
//! activation or a canary reaches them).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::Db;
use super::canary::{self, Canary};
use super::catalog::{self, Gateway, Store};
use super::components::{self, KillSwitch, StoreStep};

/// A store and the active gateways it may use, as read at one moment.
#[derive(Debug)]
pub struct StoreRoute {
    pub store: Store,
    pub gateways: Vec<Gateway>,
    /// The steps with an activation or a candidate; the others run the bundled component.
    pub steps: Vec<StoreStep>,
    pub kill_switch: KillSwitch,
    /// The running canaries, one per step at most.
    pub canaries: Vec<Canary>,
}

#[derive(Debug)]
pub struct StoreCache {
    ttl: Duration,
    entries: Mutex<HashMap<String, (Instant, Arc<StoreRoute>)>>,
    /// Bumped by every `clear`: a read that started before a clear must not be cached.
    generation: AtomicU64,
}

impl StoreCache {
    pub const TTL: Duration = Duration::from_secs(1);

    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            entries: Mutex::new(HashMap::new()),
            generation: AtomicU64::new(0),
        }
    }

    /// The store with this code and its gateways; `None` when there is no such store
    /// (misses are not cached, so a new store is usable at once).
    pub async fn get(&self, db: &Db, code: &str) -> sqlx::Result<Option<Arc<StoreRoute>>> {
        if let Some((at, route)) = self.lock().get(code)
            && at.elapsed() < self.ttl
        {
            return Ok(Some(route.clone()));
        }
        let generation = self.generation.load(Ordering::SeqCst);
        let Some(store) = catalog::store_by_code(&db.read, code).await? else {
            return Ok(None);
        };
        let gateways = catalog::gateways_for_store(&db.read, &store.id).await?;
        let steps = components::store_steps(&db.read, &store.id).await?;
        let kill_switch = components::kill_switch(&db.read, &store.id).await?;
        let canaries = canary::running(&db.read, &store.id).await?;
        let route = Arc::new(StoreRoute {
            store,
            gateways,
            steps,
            kill_switch,
            canaries,
        });
        let mut entries = self.lock();
        // An admin write that cleared the cache while we read may not be in what we read.
        if self.generation.load(Ordering::SeqCst) == generation {
            entries.insert(code.to_owned(), (Instant::now(), route.clone()));
        }
        Ok(Some(route))
    }

    /// Forgets everything: after any change to stores, grants or gateways.
    pub fn clear(&self) {
        let mut entries = self.lock();
        self.generation.fetch_add(1, Ordering::SeqCst);
        entries.clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, Arc<StoreRoute>)>> {
        // The map holds plain data: a panic elsewhere cannot leave it inconsistent.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}
