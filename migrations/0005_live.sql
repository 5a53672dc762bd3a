-- Live execution (DESIGN.md sections 5 and 10): the charge at the PSP, its lease for the
-- reconciler, the PSP calls made for it, and Idempotency-Keys claimed before the PSP call.

-- The API Pix charge behind a LIVE intent: its txid (derived from store and
-- Idempotency-Key), the PSP's location and BR Code, and when it expires.
alter table payment_intents add column txid text;
alter table payment_intents add column pix_location text;
alter table payment_intents add column pix_copy_paste text;
alter table payment_intents add column pix_expires_at bigint;
-- The reconciler re-reads a PENDING charge at its PSP from `reconcile_at` on. An instance
-- settling a charge (reconciler or callback) holds it until `settle_lease_until`, taken with a
-- compare-and-set only when no one holds it, so two instances never process one charge at
-- once.
alter table payment_intents add column reconcile_at bigint;
alter table payment_intents add column settle_lease_until bigint;

create index payment_intents_reconcile_idx on payment_intents (status, reconcile_at);
-- A txid names one charge at its PSP: two intents must never share one.
create unique index payment_intents_txid_key on payment_intents (provider_code, txid);

-- A LIVE charge claims its Idempotency-Key before calling a PSP: `lease_until` set means the
-- request is in progress (its response not yet known) until then. A retry under the same key
-- meanwhile is 409 `idempotency_key_in_use`; after a crash the lease runs out and the retry
-- takes the charge over with the same intent id and txid, so the PSP sees the same charge.
alter table idempotency_records add column lease_until bigint;

-- Every call made to a PSP for a charge, in order: the intent's trace shows them (provider
-- health is measured in memory per instance, from the same calls).
create table psp_calls (
    id text not null constraint psp_calls_pk primary key,
    payment_intent_id text,
    provider_code text not null,
    gateway_alias text,
    operation text not null constraint psp_calls_operation_check
        check (operation in ('put_cob', 'get_cob')),
    outcome text not null constraint psp_calls_outcome_check
        check (outcome in ('success', 'refused', 'unauthorized', 'unavailable', 'timeout',
            'connect_failed', 'protocol_error', 'not_configured')),
    duration_ms bigint not null,
    error text,
    created_at bigint not null
);

create index psp_calls_intent_idx on psp_calls (payment_intent_id, created_at);
