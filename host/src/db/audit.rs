//! The audit trail of the admin API (DESIGN.md section 13): one event per admin write,
//! appended by the service that makes the change, inside the transaction that makes it, so a
//! change and its event commit or vanish together.
//!
//! `POST /evaluate` and `POST /replays` append nothing: they persist nothing (a dry run and a
//! report), so there is no change to record.

use serde::Serialize;
use sqlx::{Any, AssertSqlSafe, Executor};

pixgate_domain::text_enum!(
    /// What an admin write did: `resource.verb`. Every write names one of these, so the values
    /// the `action` filter accepts are exactly the ones the trail can hold.
    Action {
        MerchantCreate = "merchant.create",
        StoreCreate = "store.create",
        StoreUpdate = "store.update",
        StoreGatewaysSet = "store.gateways_set",
        GatewayCreate = "gateway.create",
        GatewayUpdate = "gateway.update",
        ProviderCreate = "provider.create",
        ProviderUpdate = "provider.update",
        ApiKeyCreate = "api_key.create",
        ApiKeyRevoke = "api_key.revoke",
        ComponentUpload = "component.upload",
        ComponentDelete = "component.delete",
        ComponentActivate = "component.activate",
        ComponentRollback = "component.rollback",
        ComponentCandidateSet = "component.candidate_set",
        ComponentCandidateClear = "component.candidate_clear",
        ComponentCanaryStart = "component.canary_start",
        ComponentCanaryEnd = "component.canary_end",
        ComponentBudgetSet = "component.budget_set",
        KillSwitchUpdate = "kill_switch.update",
        PaymentIntentResolve = "payment_intent.resolve",
        OperatorCreate = "operator.create",
        OperatorRevoke = "operator.revoke",
        WebhookDeliveryResend = "webhook_delivery.resend",
        WebhookEndpointCreate = "webhook_endpoint.create",
        ReconciliationRequest = "reconciliation.request",
    }
);

/// One change to record: what was done to which resource (`kind/id`), with the resource as
/// it was and as it became. The snapshots are the admin API's views of the resource, which
/// never hold a secret (client secrets, private keys, tokens, API keys).
#[derive(Debug, Clone)]
pub struct Change {
    pub action: Action,
    pub target: String,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
}

impl Change {
    pub fn new(action: Action, target: impl Into<String>) -> Self {
        Self {
            action,
            target: target.into(),
            before: None,
            after: None,
        }
    }

    /// The resource as it was.
    pub fn before(mut self, snapshot: &impl Serialize) -> Self {
        self.before = serde_json::to_value(snapshot).ok();
        self
    }

    /// The resource as it became.
    pub fn after(mut self, snapshot: &impl Serialize) -> Self {
        self.after = serde_json::to_value(snapshot).ok();
        self
    }
}

/// Who made a change, as the audit trail keeps it: the operator's id and their name at the
/// time. The access layer's `Actor` is one; storage needs no more of it.
pub trait Author {
    fn id(&self) -> &str;
    fn name(&self) -> &str;
}

/// Appends the event of `change` made by `actor`; call it on the change's transaction.
pub async fn append<'e>(
    ex: impl Executor<'e, Database = Any>,
    actor: &(impl Author + ?Sized),
    change: &Change,
) -> sqlx::Result<()> {
    let json = |v: &Option<serde_json::Value>| v.as_ref().map(|v| v.to_string());
    sqlx::query(
        "insert into audit_events \
         (id, at, operator_id, operator_name, action, target, before_json, after_json) \
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(uuid::Uuid::now_v7().to_string())
    .bind(super::now_ms())
    .bind(actor.id())
    .bind(actor.name())
    .bind(change.action.as_str())
    .bind(&change.target)
    .bind(json(&change.before))
    .bind(json(&change.after))
    .execute(ex)
    .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct Event {
    pub id: String,
    pub at: i64,
    pub operator_id: String,
    pub operator_name: String,
    pub action: Action,
    pub target: String,
    pub before_json: Option<String>,
    pub after_json: Option<String>,
}

crate::db::from_row!(Event {
    id,
    at,
    operator_id,
    operator_name,
    action: try_from(String),
    target,
    before_json,
    after_json
});

/// What a page of the trail is narrowed to; every filter is an equality but the time window
/// (`[since, until)`, Unix ms).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub operator: Option<String>,
    pub action: Option<Action>,
    pub target: Option<String>,
    pub since: Option<i64>,
    pub until: Option<i64>,
}

const COLUMNS: &str = "id, at, operator_id, operator_name, action, target, before_json, after_json";

/// The event with this id.
pub async fn by_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Event>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from audit_events where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// A page of the trail, newest first ((at, id) descending), after the event at `after` (its
/// time and id).
pub async fn page<'e>(
    ex: impl Executor<'e, Database = Any>,
    filter: &Filter,
    after: Option<(i64, &str)>,
    limit: i64,
) -> sqlx::Result<Vec<Event>> {
    let mut conditions = Vec::new();
    let mut n = 0;
    let mut next = || {
        n += 1;
        format!("${n}")
    };
    if filter.operator.is_some() {
        conditions.push(format!("operator_id = {}", next()));
    }
    if filter.action.is_some() {
        conditions.push(format!("action = {}", next()));
    }
    if filter.target.is_some() {
        conditions.push(format!("target = {}", next()));
    }
    if filter.since.is_some() {
        conditions.push(format!("at >= {}", next()));
    }
    if filter.until.is_some() {
        conditions.push(format!("at < {}", next()));
    }
    if after.is_some() {
        let (at, id) = (next(), next());
        conditions.push(format!("(at < {at} or (at = {at} and id < {id}))"));
    }
    let limit_param = next();
    let where_clause = if conditions.is_empty() {
        String::new()
    } else {
        format!("where {}", conditions.join(" and "))
    };
    let sql = format!(
        "select {COLUMNS} from audit_events {where_clause} \
         order by at desc, id desc limit {limit_param}"
    );
    let mut query = sqlx::query_as(AssertSqlSafe(sql));
    if let Some(operator) = &filter.operator {
        query = query.bind(operator.clone());
    }
    if let Some(action) = filter.action {
        query = query.bind(action.as_str());
    }
    if let Some(target) = &filter.target {
        query = query.bind(target.clone());
    }
    if let Some(since) = filter.since {
        query = query.bind(since);
    }
    if let Some(until) = filter.until {
        query = query.bind(until);
    }
    if let Some((at, id)) = after {
        query = query.bind(at).bind(id.to_owned());
    }
    query.bind(limit).fetch_all(ex).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_named_as_serde_names_them() {
        for action in Action::ALL {
            assert_eq!(serde_json::to_value(action).unwrap(), action.as_str());
            assert_eq!(action.as_str().parse(), Ok(action));
            let (resource, verb) = action.as_str().split_once('.').unwrap();
            assert!(!resource.is_empty() && !verb.is_empty());
        }
        assert!("store.delete".parse::<Action>().is_err());
        // The OpenAPI document lists the same names.
        let schema = serde_json::to_value(<Action as utoipa::PartialSchema>::schema()).unwrap();
        let names: Vec<&str> = Action::ALL.iter().map(|a| a.as_str()).collect();
        assert_eq!(schema["enum"], serde_json::json!(names));
    }

    /// An action the enum does not know is a corrupt row: the read fails, nothing panics.
    #[tokio::test]
    async fn an_unknown_action_is_a_corrupt_row() {
        for t in crate::db::testing::fresh_databases().await {
            let db = &t.db;
            for (id, action) in [("e-1", "store.update"), ("e-2", "store.delete")] {
                sqlx::query(
                    "insert into audit_events (id, at, operator_id, operator_name, action, target) \
                     values ($1, 1, 'bootstrap', 'bootstrap admin token', $2, 'store/s')",
                )
                .bind(id)
                .bind(action)
                .execute(&db.write)
                .await
                .unwrap();
            }
            let read = by_id(&db.read, "e-1").await.unwrap().unwrap();
            assert_eq!(read.action, Action::StoreUpdate);
            let err = by_id(&db.read, "e-2").await.unwrap_err();
            assert!(
                matches!(&err, sqlx::Error::ColumnDecode { index, .. } if index.contains("action")),
                "{err}"
            );
        }
    }
}
