//! `GET /audit-events`: a page of what the operators changed, newest first, with filters.

use std::sync::LazyLock;

use pixgate_domain::json::Invalid;
use pixgate_pix::time::iso8601;
use regex::Regex;
use serde::Serialize;
use utoipa::ToSchema;

use super::{OperatorError, Operators, after_id};
use crate::db::DbError;
use crate::db::audit::{self, Action};

// Who acted, in an audit event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditOperator {
    /// An operator's id, or `bootstrap`.
    pub id: String,
    /// The name the operator had when they acted.
    pub name: String,
}

// One admin write.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEvent {
    #[schema(format = Uuid)]
    pub event_id: String,
    #[schema(format = DateTime)]
    pub at: String,
    pub operator: AuditOperator,
    pub action: Action,
    /// `kind/id`: `store/demo`, `component/policy/<version>`, `api-key/<keyId>`, ...
    pub target: String,
    /// The resource before the change (absent for a creation); never a secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    /// The resource after the change (absent for a deletion); never a secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub after: Option<serde_json::Value>,
}

impl AuditEvent {
    fn of(e: audit::Event) -> Result<Self, OperatorError> {
        let json = |raw: Option<String>| -> Result<Option<serde_json::Value>, OperatorError> {
            raw.map(|raw| serde_json::from_str(&raw))
                .transpose()
                .map_err(|err| DbError::Corrupt(format!("audit event {}: {err}", e.id)).into())
        };
        Ok(Self {
            action: e.action,
            before: json(e.before_json)?,
            after: json(e.after_json)?,
            event_id: e.id,
            at: iso8601(e.at),
            operator: AuditOperator {
                id: e.operator_id,
                name: e.operator_name,
            },
            target: e.target,
        })
    }
}

/// The query string of `GET /audit-events`, each value as sent (`None`: absent).
#[derive(Debug, Clone, Default)]
pub struct AuditQuery {
    pub limit: Option<String>,
    pub after: Option<String>,
    pub operator: Option<String>,
    pub action: Option<String>,
    pub target: Option<String>,
    pub since: Option<String>,
    pub until: Option<String>,
}

/// An operator's id as the `operator` filter takes it: `bootstrap` or a canonical UUID. The
/// document states it as a literal; a test holds the two together.
pub const OPERATOR_ID_PATTERN: &str =
    "^(bootstrap|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$";

static OPERATOR_ID: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(OPERATOR_ID_PATTERN).expect("OPERATOR_ID_PATTERN"));

impl Operators {
    /// A page of the audit trail, newest first, narrowed by the query's filters.
    pub async fn audit_events(&self, q: &AuditQuery) -> Result<Vec<AuditEvent>, OperatorError> {
        let limit = crate::search::limit(q.limit.as_deref())?;
        let after = q
            .after
            .as_deref()
            .map(|raw| after_id(raw, "`after` must be an audit event's `eventId`"))
            .transpose()?;
        let operator = q
            .operator
            .as_deref()
            .map(|raw| {
                if OPERATOR_ID.is_match(raw) {
                    Ok(raw.to_owned())
                } else {
                    Err(Invalid::new(
                        "invalid_operator",
                        "operator",
                        "`operator` must be an operator's id or `bootstrap`",
                    ))
                }
            })
            .transpose()?;
        let action = q
            .action
            .as_deref()
            .map(|raw| {
                raw.parse::<Action>().map_err(|_| {
                    Invalid::new(
                        "invalid_action",
                        "action",
                        "`action` must be one of the audit actions (`store.update`, ...)",
                    )
                })
            })
            .transpose()?;
        let target = q
            .target
            .as_deref()
            .map(|raw| pixgate_domain::json::bounded(raw, "target", "invalid_target", 1, 200))
            .transpose()?;
        let since = q
            .since
            .as_deref()
            .map(|raw| crate::search::date_time(raw, "since", "invalid_since"))
            .transpose()?;
        let until = q
            .until
            .as_deref()
            .map(|raw| crate::search::date_time(raw, "until", "invalid_until"))
            .transpose()?;
        let after = match after {
            Some(id) => {
                let last = audit::by_id(&self.db.read, &id)
                    .await?
                    .ok_or(OperatorError::EventNotFound)?;
                Some((last.at, last.id))
            }
            None => None,
        };
        let filter = audit::Filter {
            operator,
            action,
            target,
            since,
            until,
        };
        let page = audit::page(
            &self.db.read,
            &filter,
            after.as_ref().map(|(at, id)| (*at, id.as_str())),
            limit,
        )
        .await?;
        page.into_iter().map(AuditEvent::of).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An audit event's action and an operator's role are enums in the admin document.
    #[test]
    fn the_admin_document_lists_the_actions_and_roles() {
        let doc = serde_json::to_value(crate::http::admin::openapi()).unwrap();
        let schemas = &doc["components"]["schemas"];
        assert_eq!(
            schemas["Action"]["enum"],
            serde_json::json!(Action::ALL.map(Action::as_str))
        );
        assert_eq!(
            schemas["Role"]["enum"],
            serde_json::json!(["viewer", "tester", "operator", "admin"])
        );
        for (schema, field, target) in [
            ("AuditEvent", "action", "Action"),
            ("OperatorView", "role", "Role"),
            ("Me", "role", "Role"),
        ] {
            assert_eq!(
                schemas[schema]["properties"][field]["$ref"],
                format!("#/components/schemas/{target}"),
                "{schema}.{field}: {}",
                schemas[schema]
            );
        }
    }

    #[test]
    fn the_operator_filter_pattern_is_bootstrap_or_a_canonical_uuid() {
        let id = uuid::Uuid::now_v7().to_string();
        assert!(OPERATOR_ID.is_match(&id) && OPERATOR_ID.is_match("bootstrap"));
        for bad in [
            id.to_uppercase(),
            id.replace('-', ""),
            "boot".into(),
            String::new(),
        ] {
            assert!(!OPERATOR_ID.is_match(&bad), "{bad}");
        }
    }
}
