//! Loading a version before its first charge needs it. A version activated, attached as a
//! shadow candidate or put on canary through another instance reaches this one through the
//! database; without this, the first charge here that needs it would wait while it compiles
//! (10-20 s for a JavaScript or Python engine, the disk cache being per instance). Every
//! second, the preloader loads each version in use that this instance has not loaded yet.

use std::collections::HashSet;
use std::time::Duration;

use pixgate_domain::Step;

use super::{ComponentError, ComponentService};
use crate::db::components::{self as sql, BUNDLED};
use crate::db::store_cache::StoreCache;

impl ComponentService {
    /// Starts the preloader: every [`StoreCache::TTL`] (the lag of an activation), it loads
    /// the versions in use that are not loaded here yet.
    pub fn spawn_preloader(&self) -> tokio::task::JoinHandle<()> {
        let this = self.clone();
        tokio::spawn(async move {
            let mut failed = HashSet::new();
            let mut tick = tokio::time::interval(StoreCache::TTL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(e) = this.preload(&mut failed).await {
                    tracing::warn!(error = %e, "components: preloading the versions in use failed");
                    // A database that is down is not asked again every second.
                    tokio::time::sleep(Duration::from_secs(10)).await;
                }
            }
        })
    }

    /// Loads every version in use that this instance has not loaded. A version that fails to
    /// load for any reason but the database is logged once, kept in `failed` and not tried
    /// again (compiling is deterministic): the charge that needs it reports the failure as it
    /// always has.
    async fn preload(&self, failed: &mut HashSet<(Step, String)>) -> Result<(), ComponentError> {
        for (step, version) in sql::versions_in_use(&self.db.read).await? {
            if version == BUNDLED
                || self.registry.cached(step, &version).is_some()
                || failed.contains(&(step, version.clone()))
            {
                continue;
            }
            let started = std::time::Instant::now();
            match self
                .registry
                .load(&self.db, &self.sandbox, step, &version)
                .await
            {
                Ok(_) => {
                    tracing::info!(%step, %version, ms = started.elapsed().as_millis() as u64,
                        "components: loaded a version in use before its first charge here");
                }
                Err(e) => {
                    tracing::warn!(%step, %version, error = %e,
                        "components: a version in use does not load");
                    // A database error is worth another try; a version that does not compile
                    // is not.
                    if !matches!(e, ComponentError::Db(_)) {
                        failed.insert((step, version));
                    }
                }
            }
        }
        Ok(())
    }
}
