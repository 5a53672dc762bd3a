-- pixgate schema, the same for SQLite and PostgreSQL. Times are Unix milliseconds (bigint), money
-- integer centavos, ids UUID text, JSON documents text, flags 0/1 (sqlx's Any driver maps no
-- SQL bool type on SQLite). Constraint names map to stable error codes.
-- Append-only: never edit a migration that has shipped; add the next one.

create table settings (
    name text not null constraint settings_pk primary key,
    value text not null
);

create table merchants (
    id text not null constraint merchants_pk primary key,
    code text not null constraint merchants_code_key unique,
    name text not null,
    created_at bigint not null
);

create table stores (
    id text not null constraint stores_pk primary key,
    merchant_id text not null constraint stores_merchant_fk references merchants (id),
    code text not null constraint stores_code_key unique,
    name text not null,
    mode text not null constraint stores_mode_check check (mode in ('SHADOW', 'LIVE')),
    live_enabled bigint not null default 0 constraint stores_live_enabled_check check (live_enabled in (0, 1)),
    config text not null default '{}',
    charge_expiry_seconds bigint not null default 86400,
    created_at bigint not null,
    updated_at bigint not null
);

create table gateways (
    id text not null constraint gateways_pk primary key,
    provider_code text not null,
    alias text not null constraint gateways_alias_key unique,
    release_class text not null,
    mdr_bps bigint not null constraint gateways_mdr_check check (mdr_bps between 0 and 10000),
    fixed_centavos bigint not null constraint gateways_fixed_check check (fixed_centavos >= 0),
    min_fee_centavos bigint not null default 0,
    max_fee_centavos bigint,
    active bigint not null default 1 constraint gateways_active_check check (active in (0, 1)),
    created_at bigint not null,
    updated_at bigint not null
);

create table store_gateways (
    store_id text not null constraint store_gateways_store_fk references stores (id),
    gateway_id text not null constraint store_gateways_gateway_fk references gateways (id),
    constraint store_gateways_pk primary key (store_id, gateway_id)
);

create table api_keys (
    id text not null constraint api_keys_pk primary key,
    merchant_id text not null constraint api_keys_merchant_fk references merchants (id),
    prefix text not null constraint api_keys_prefix_key unique,
    secret_hash text not null constraint api_keys_secret_hash_key unique,
    scopes text not null,
    created_at bigint not null,
    revoked_at bigint
);

create table api_key_stores (
    key_id text not null constraint api_key_stores_key_fk references api_keys (id),
    store_id text not null constraint api_key_stores_store_fk references stores (id),
    constraint api_key_stores_pk primary key (key_id, store_id)
);

create table payment_intents (
    id text not null constraint payment_intents_pk primary key,
    merchant_id text not null constraint payment_intents_merchant_fk references merchants (id),
    store_id text not null constraint payment_intents_store_fk references stores (id),
    status text not null constraint payment_intents_status_check
        check (status in ('SHADOW_ONLY', 'PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED')),
    amount_centavos bigint not null constraint payment_intents_amount_check check (amount_centavos > 0),
    currency text not null,
    reference text not null,
    description text,
    payer_kind text not null,
    payer_sealed text not null,
    metadata text not null,
    idempotency_key text not null,
    routing_mode text not null,
    routing_policy text not null,
    provider_code text not null,
    gateway_alias text not null,
    release_class text not null,
    cross_class_failover bigint not null constraint payment_intents_failover_check check (cross_class_failover in (0, 1)),
    fee_centavos bigint not null,
    net_centavos bigint not null,
    settlement_date text not null,
    provider_payment_id text,
    failure_code text,
    failure_message text,
    created_at bigint not null,
    updated_at bigint not null,
    completed_at bigint
);

create index payment_intents_store_created_idx on payment_intents (store_id, created_at);

create table decision_traces (
    payment_intent_id text not null constraint decision_traces_pk primary key
        constraint decision_traces_intent_fk references payment_intents (id),
    trace text not null,
    created_at bigint not null
);

create table idempotency_records (
    merchant_id text not null,
    idempotency_key text not null,
    request_hash text not null,
    response_status bigint not null,
    response_body text not null,
    payment_intent_id text,
    created_at bigint not null,
    expires_at bigint not null,
    constraint idempotency_records_pk primary key (merchant_id, idempotency_key)
);

create index idempotency_records_expires_idx on idempotency_records (expires_at);
