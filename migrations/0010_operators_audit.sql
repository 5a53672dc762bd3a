-- Operators and the audit trail (DESIGN.md section 13). Several people sign in to the admin
-- API, each with a named token of one role; every admin write appends an audit event in the
-- same transaction as the change it records.

-- A named operator token. Only the SHA-256 (hex) of the token is stored, like API keys; the
-- prefix is its visible, non-secret part. A name is unique among the operators not revoked,
-- so a revoked person's name can be given to their new token.
create table operators (
    id text not null constraint operators_pk primary key,
    name text not null,
    role text not null constraint operators_role_check
        check (role in ('viewer', 'tester', 'operator', 'admin')),
    prefix text not null constraint operators_prefix_key unique,
    token_hash text not null constraint operators_token_hash_key unique,
    created_at bigint not null,
    revoked_at bigint
);

create unique index operators_name_key on operators (name) where revoked_at is null;
-- The list's page order.
create index operators_created_idx on operators (created_at, id);

-- One admin write. The operator's id and name are copied, not referenced: the bootstrap
-- admin token has no row, and the trail keeps the name an operator had when they acted.
-- `action` is `resource.verb` (host/src/db/audit.rs lists them); `target` is `kind/id`;
-- `before_json` and `after_json` are JSON snapshots of the resource, never holding a secret.
create table audit_events (
    id text not null constraint audit_events_pk primary key,
    at bigint not null,
    operator_id text not null,
    operator_name text not null,
    action text not null,
    target text not null,
    before_json text,
    after_json text
);

-- Newest first, the page's order; the filters narrow a range of one of these.
create index audit_events_at_idx on audit_events (at, id);
create index audit_events_operator_idx on audit_events (operator_id, at, id);
create index audit_events_action_idx on audit_events (action, at, id);
create index audit_events_target_idx on audit_events (target, at, id);
