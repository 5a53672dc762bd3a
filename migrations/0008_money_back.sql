-- Money back (DESIGN.md section 11): cancel, refunds through API Pix devolução, refund
-- events, and the exit for a charge paid with the wrong amount.

-- What an intent has given back. `refund_reserved_centavos` is the sum of its PENDING and
-- SUCCEEDED refunds: a refund reserves its amount with a conditional update of this row
-- (`reserved + amount <= paid`), so concurrent refunds on one intent, on one instance or on
-- several sharing a PostgreSQL, never over-refund. `refunded_centavos` is the sum of the
-- SUCCEEDED ones (`amountRefunded`).
alter table payment_intents add column refund_reserved_centavos bigint not null default 0;
alter table payment_intents add column refunded_centavos bigint not null default 0;
-- A charge concluded at its PSP with a pix of another amount (section 10): the first such
-- read records the pix here (the anomaly is counted once per charge, not once per read); an
-- admin then resolves it (`accept` or `refund`), and `resolution` says which and why.
alter table payment_intents add column received_centavos bigint;
alter table payment_intents add column received_e2eid text;
alter table payment_intents add column resolution text
    constraint payment_intents_resolution_check check (resolution in ('accept', 'refund'));
alter table payment_intents add column resolution_reason text;
-- A callback's pix (`endToEndId`) leads to its intent, for the devoluções it carries.
create index payment_intents_payment_id_idx on payment_intents (provider_code, provider_payment_id);
create index payment_intents_received_e2eid_idx on payment_intents (provider_code, received_e2eid)
    where received_e2eid is not null;

-- One refund of a payment: asked by the merchant, by an admin resolving a wrong amount, or
-- a devolução the PSP made on its own (the MED), recorded when seen.
create table refunds (
    id text not null constraint refunds_pk primary key,
    merchant_id text not null constraint refunds_merchant_fk references merchants (id),
    payment_intent_id text not null constraint refunds_intent_fk references payment_intents (id),
    status text not null constraint refunds_status_check
        check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
    amount_centavos bigint not null constraint refunds_amount_check check (amount_centavos > 0),
    currency text not null,
    reason text,
    metadata text not null,
    origin text not null constraint refunds_origin_check check (origin in ('merchant', 'admin', 'psp')),
    -- The merchant's Idempotency-Key and the hash of the request it came with (merchant
    -- refunds only). Refund keys are a key space of their own, kept as long as the refund.
    idempotency_key text,
    request_hash text,
    -- The answer given for the key, replayed for the same key and body (null until the first
    -- answer was given, or when a crash came first).
    response_body text,
    natureza text not null,
    provider_code text not null,
    e2eid text not null,
    devolucao_id text not null,
    rtr_id text,
    failure_code text,
    failure_message text,
    -- Whether a PUT of this devolução may have reached the PSP: from then on, a retry reads it
    -- back with GET before anything else.
    psp_attempted bigint not null default 0 constraint refunds_psp_attempted_check check (psp_attempted in (0, 1)),
    -- Held by the request or the instance working on the refund (request, reconciler, callback).
    lease_until bigint,
    -- A PENDING refund is read again at its PSP from this time on.
    reconcile_at bigint,
    created_at bigint not null,
    updated_at bigint not null,
    completed_at bigint
);

create unique index refunds_idempotency_key on refunds (merchant_id, idempotency_key);
-- A devolução is recorded once, however many callbacks and reads name it.
create unique index refunds_devolucao_key on refunds (provider_code, e2eid, devolucao_id);
create index refunds_intent_idx on refunds (payment_intent_id, created_at);
create index refunds_reconcile_idx on refunds (status, reconcile_at);

-- Refund events (`refund.succeeded`, `refund.failed`), beside the payment events; a delivery
-- points at one or the other.
create table refund_events (
    id text not null constraint refund_events_pk primary key,
    merchant_id text not null constraint refund_events_merchant_fk references merchants (id),
    refund_id text not null constraint refund_events_refund_fk references refunds (id),
    type text not null constraint refund_events_type_check
        check (type in ('refund.succeeded', 'refund.failed')),
    data text not null,
    created_at bigint not null
);

create index refund_events_refund_idx on refund_events (refund_id, created_at);
create index refund_events_created_idx on refund_events (created_at);
alter table webhook_deliveries add column refund_event_id text
    constraint webhook_deliveries_refund_event_fk references refund_events (id);
create index webhook_deliveries_refund_event_idx on webhook_deliveries (refund_event_id);

-- The PSP calls gain the cancel and devolução operations and the refund they were made for.
-- A check constraint cannot be altered in SQLite: the table is rebuilt, the same way on both.
create table psp_calls_0007 as select * from psp_calls;
drop table psp_calls;
create table psp_calls (
    id text not null constraint psp_calls_pk primary key,
    payment_intent_id text,
    refund_id text,
    provider_code text not null,
    gateway_alias text,
    operation text not null constraint psp_calls_operation_check
        check (operation in ('put_cob', 'get_cob', 'patch_cob', 'put_devolucao',
            'get_devolucao', 'get_pix')),
    outcome text not null constraint psp_calls_outcome_check
        check (outcome in ('success', 'refused', 'unauthorized', 'unavailable', 'timeout',
            'connect_failed', 'protocol_error', 'not_configured')),
    duration_ms bigint not null,
    error text,
    created_at bigint not null
);
insert into psp_calls (id, payment_intent_id, refund_id, provider_code, gateway_alias, operation,
        outcome, duration_ms, error, created_at)
    select id, payment_intent_id, null, provider_code, gateway_alias, operation, outcome,
        duration_ms, error, created_at
    from psp_calls_0007;
drop table psp_calls_0007;
create index psp_calls_intent_idx on psp_calls (payment_intent_id, created_at);
create index psp_calls_created_idx on psp_calls (created_at);
