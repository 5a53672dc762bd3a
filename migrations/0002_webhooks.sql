-- Webhooks: merchant endpoints, the payment-event outbox, deliveries and their attempts.
-- A delivery is one event to one endpoint; its id is X-Service-Delivery and the payload's id,
-- and its body is stored so every retry sends the same bytes.

create table webhook_endpoints (
    id text not null constraint webhook_endpoints_pk primary key,
    merchant_id text not null constraint webhook_endpoints_merchant_fk references merchants (id),
    name text not null,
    url text not null,
    url_normalized text not null,
    events text not null,
    status text not null constraint webhook_endpoints_status_check
        check (status in ('ACTIVE', 'DISABLED', 'REVOKED')),
    secret_sealed text not null,
    failure_count bigint not null default 0,
    -- The start of the current run of failures, and its latest failure: a run ends at a success
    -- or when no attempt failed for longer than the longest retry wait.
    failing_since bigint,
    last_failure_at bigint,
    last_delivery_id text,
    created_at bigint not null,
    updated_at bigint not null,
    disabled_at bigint,
    revoked_at bigint
);

-- One live endpoint per normalised URL and merchant. Named after its first column so SQLite's
-- "UNIQUE constraint failed: webhook_endpoints.merchant_id, ..." maps to the same name.
create unique index webhook_endpoints_merchant_id_key
    on webhook_endpoints (merchant_id, url_normalized) where status <> 'REVOKED';
create index webhook_endpoints_merchant_created_idx on webhook_endpoints (merchant_id, created_at);

create table payment_events (
    id text not null constraint payment_events_pk primary key,
    merchant_id text not null constraint payment_events_merchant_fk references merchants (id),
    payment_intent_id text not null constraint payment_events_intent_fk references payment_intents (id),
    type text not null constraint payment_events_type_check
        check (type in ('payment.pending', 'payment.succeeded', 'payment.failed', 'payment.canceled')),
    from_status text,
    to_status text not null,
    data text not null,
    created_at bigint not null
);

create index payment_events_intent_idx on payment_events (payment_intent_id, created_at);

create table webhook_deliveries (
    id text not null constraint webhook_deliveries_pk primary key,
    endpoint_id text not null constraint webhook_deliveries_endpoint_fk references webhook_endpoints (id),
    event_id text constraint webhook_deliveries_event_fk references payment_events (id),
    event_type text not null,
    body text not null,
    status text not null constraint webhook_deliveries_status_check
        check (status in ('PENDING', 'DELIVERED', 'FAILED', 'EXHAUSTED', 'CANCELED')),
    attempts bigint not null default 0,
    -- PENDING: when the next attempt is due. A claim moves it past the claim's lease, so a
    -- crashed sender's attempt becomes due again once the lease runs out.
    next_attempt_at bigint,
    claim_token text,
    last_attempt_at bigint,
    last_http_status bigint,
    last_error text,
    created_at bigint not null,
    updated_at bigint not null,
    completed_at bigint
);

create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'PENDING';
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at);

create table webhook_attempts (
    delivery_id text not null constraint webhook_attempts_delivery_fk references webhook_deliveries (id),
    attempt bigint not null,
    attempted_at bigint not null,
    http_status bigint,
    duration_ms bigint not null,
    error text,
    constraint webhook_attempts_pk primary key (delivery_id, attempt)
);
