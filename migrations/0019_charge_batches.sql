-- Batches of due-date charges (issue 32, DESIGN.md section 16): `POST /payments/charge-batches`
-- answers 202 once the batch and its items are written here (one transaction), and a worker
-- on any instance processes them, claimed under a lease, so a crash or a restart resumes them
-- and instances sharing a PostgreSQL never process one batch at once. New tables only: the
-- previous release runs beside this one untouched.

-- One batch: the merchant's request under its Idempotency-Key (the key's record replays the
-- 202), and the worker's claim. `next_attempt_at` is when the batch is due for a pass; a
-- worker claims it by moving it to the end of its lease with its `claim_token`, renews it as
-- it goes, and hands it back with the time of the next pass (or ends it `DONE`).
create table charge_batches (
    id text not null constraint charge_batches_pk primary key,
    merchant_id text not null constraint charge_batches_merchant_fk references merchants (id),
    store_id text not null constraint charge_batches_store_fk references stores (id),
    idempotency_key text not null,
    status text not null constraint charge_batches_status_check
        check (status in ('PROCESSING', 'DONE')),
    total bigint not null constraint charge_batches_total_check check (total between 1 and 1000),
    -- The day (Brasília, YYYY-MM-DD) the batch was asked on: every item is judged as a single
    -- charge asked that day would be, whenever the worker gets to it.
    asked_on text not null,
    next_attempt_at bigint not null,
    claim_token text,
    attempts bigint not null default 0,
    created_at bigint not null,
    updated_at bigint not null,
    completed_at bigint
);
create index charge_batches_due_idx on charge_batches (status, next_attempt_at);
create index charge_batches_merchant_idx on charge_batches (merchant_id, created_at);

-- One charge of a batch, by its place in the request. `payment_intent_id` is reserved when the
-- batch is written: the intent the item creates has that id, and its txid is derived from it,
-- so a second pass (after a crash, or on another instance) names the same intent and the same
-- cobv. `request_sealed` is the item's JSON as sent, sealed with the master key (it holds the
-- payer), kept until the item is resolved. A LIVE item's `decision` (the chain's trace) and
-- `lote_id` are written before its lote goes to the PSP, so a later pass sends it to the same
-- gateway in the same lote.
create table charge_batch_items (
    batch_id text not null constraint charge_batch_items_batch_fk references charge_batches (id),
    item_index bigint not null,
    reference text,
    status text not null constraint charge_batch_items_status_check
        check (status in ('PROCESSING', 'CREATED', 'REJECTED')),
    payment_intent_id text not null constraint charge_batch_items_intent_key unique,
    request_sealed text,
    decision text,
    lote_id bigint,
    error_code text,
    error_message text,
    error_field text,
    updated_at bigint not null,
    constraint charge_batch_items_pk primary key (batch_id, item_index)
);
create index charge_batch_items_status_idx on charge_batch_items (batch_id, status);

-- The lotes of a batch: the LIVE items routed to one gateway, sent to its PSP as one
-- `PUT /lotecobv/{id}`. `id` is the lote's int64 id at the PSP (derived from the batch and the
-- gateway). `sent_at` is set before the first PUT: from then on, a pass reads the lote back
-- with GET before it would put it again.
create table charge_batch_lotes (
    batch_id text not null constraint charge_batch_lotes_batch_fk references charge_batches (id),
    lote_id bigint not null,
    provider_code text not null,
    gateway_alias text not null,
    sent_at bigint,
    constraint charge_batch_lotes_pk primary key (batch_id, lote_id)
);
