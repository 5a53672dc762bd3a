//! The routers' state: the service handles the handlers take (`State<Charges>`, ...) through
//! its `FromRef` impls, and what the operational routes read (the database for `/readyz`, the
//! metrics). The composition root (`app`) builds it; no service sees it.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::access::Access;
use crate::catalog::Catalog;
use crate::charges::Charges;
use crate::charges::batches::ChargeBatches;
use crate::components::ComponentService;
use crate::db::Db;
use crate::mandates::Mandates;
use crate::metrics::Metrics;
use crate::operators::Operators;
use crate::psp::live::LiveExecution;
use crate::psp::providers::ProviderAdmin;
use crate::refunds::Refunds;
use crate::search::Search;
use crate::webhooks::Delivery;
use crate::webhooks::endpoints::Endpoints;

/// The router's state: the service handles, and what the operational routes read.
pub struct AppState {
    pub access: Access,
    /// Merchants, stores, gateways and API keys (the admin catalog).
    pub catalog: Catalog,
    pub charges: Charges,
    /// Batches of due-date charges.
    pub batches: ChargeBatches,
    /// Refunds, and the admin's exit for a charge paid with the wrong amount.
    pub refunds: Refunds,
    /// Pix Automático mandates.
    pub mandates: Mandates,
    /// The ledger sweep's runs and findings.
    pub reconciliations: crate::reconciliation::Reconciliations,
    /// The settlement calendar.
    pub settlements: crate::settlements::Settlements,
    pub components: ComponentService,
    pub providers: ProviderAdmin,
    pub live: LiveExecution,
    pub delivery: Delivery,
    /// Readiness (`/readyz`) pings it.
    pub db: Db,
    pub metrics: Arc<Metrics>,
    /// A merchant's webhook endpoints and their deliveries.
    pub endpoints: Endpoints,
    /// Payment search and the admin lists of intents and stores.
    pub search: Search,
    /// The admin API's operators and the audit trail.
    pub operators: Operators,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("db", &self.db.backend)
            .finish_non_exhaustive()
    }
}

macro_rules! handle {
    ($($field:ident: $ty:ty),* $(,)?) => {$(
        impl FromRef<Arc<AppState>> for $ty {
            fn from_ref(state: &Arc<AppState>) -> Self {
                state.$field.clone()
            }
        }
    )*};
}

handle!(
    access: Access,
    catalog: Catalog,
    charges: Charges,
    batches: ChargeBatches,
    refunds: Refunds,
    mandates: Mandates,
    reconciliations: crate::reconciliation::Reconciliations,
    settlements: crate::settlements::Settlements,
    components: ComponentService,
    providers: ProviderAdmin,
    live: LiveExecution,
    delivery: Delivery,
    endpoints: Endpoints,
    search: Search,
    operators: Operators,
    db: Db,
);
