-- Pix Automático mandates (issue 33, DESIGN.md section 17). Expand only: a new table, a
-- nullable column and a wider check, so an instance of the previous release runs beside this
-- one (it knows no mandate route).
--
-- A mandate is the payer's authorisation for the merchant to charge every cycle (API Pix
-- `rec`). Its Idempotency-Key is a key space of its own, as a refund's: kept as long as the
-- mandate, with the request's fingerprint to tell a replay from a reused key.
-- `payer_sealed`: the payer's name and tax id as JSON, AES-256-GCM under the master key.
-- `payer_account_sealed`: a PUSH mandate's account at the payer's bank, sealed likewise.
-- `routing_*`, `provider_code`, `gateway_alias`: the chain's decision, run once for the
-- mandate; every charge of it goes to that provider (`recurrence_id` is the PSP's `idRec`).
-- `authorization_json`: JSON {copyAndPaste, expiresAt} of the QR code or request the payer answers.
-- `rejection`, `cancellation`, `failure`: JSON, as the mandate view shows them.
create table mandates (
    id text not null constraint mandates_pk primary key,
    merchant_id text not null constraint mandates_merchant_fk references merchants (id),
    store_id text not null constraint mandates_store_fk references stores (id),
    status text not null constraint mandates_status_check
        check (status in ('PENDING_AUTHORIZATION', 'ACTIVE', 'REJECTED', 'EXPIRED', 'CANCELED',
            'FAILED', 'SHADOW_ONLY')),
    reference text not null,
    description text,
    payer_kind text not null,
    payer_sealed text not null,
    frequency text not null constraint mandates_frequency_check
        check (frequency in ('WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL')),
    start_date text not null,
    end_date text,
    amount_centavos bigint constraint mandates_amount_check check (amount_centavos > 0),
    minimum_amount_centavos bigint
        constraint mandates_minimum_amount_check check (minimum_amount_centavos > 0),
    auto_charge bigint not null constraint mandates_auto_charge_check check (auto_charge in (0, 1)),
    retry_policy text not null constraint mandates_retry_policy_check
        check (retry_policy in ('NONE', 'UP_TO_3_IN_7_DAYS')),
    journey text not null constraint mandates_journey_check
        check (journey in ('QR', 'QR_WITH_FIRST_PAYMENT', 'PUSH')),
    first_payment_centavos bigint,
    first_payment_intent_id text
        constraint mandates_first_payment_fk references payment_intents (id),
    payer_account_sealed text,
    metadata text not null,
    idempotency_key text not null,
    request_hash text not null,
    routing_mode text not null,
    routing_policy text not null,
    provider_code text not null,
    gateway_alias text not null,
    recurrence_id text,
    -- The chain's trace of the mandate's resolution (as decision_traces holds a charge's).
    trace text not null,
    authorization_json text,
    rejection text,
    cancellation text,
    failure text,
    -- When the reconciler next reads a pending mandate at its PSP (Unix ms); null: never.
    reconcile_at bigint,
    created_at bigint not null,
    updated_at bigint not null,
    constraint mandates_amounts_check
        check (amount_centavos is null or minimum_amount_centavos is null)
);

create unique index mandates_idempotency_key on mandates (merchant_id, idempotency_key);
create index mandates_store_created_idx on mandates (store_id, created_at);
create index mandates_merchant_created_idx on mandates (merchant_id, created_at);
create index mandates_reconcile_idx on mandates (status, reconcile_at);
create index mandates_recurrence_idx on mandates (provider_code, recurrence_id);


-- The provider's receiving account, which a recurring charge names (API Pix
-- `cobr.recebedor`): JSON {branch, number, type: CORRENTE|POUPANCA|PAGAMENTO}. Null: the
-- provider takes no mandates, and a mandate's chain is offered only providers that have one.
alter table providers add column account text;

-- The PSP calls gain Pix Automático's operations and the mandate they were made for. A check
-- constraint cannot be altered in SQLite: the table is rebuilt, the same way on both, as 0018
-- did. The previous release writes only names this list keeps, so it runs beside this one.
create table psp_calls_0019 as select * from psp_calls;
drop table psp_calls;
create table psp_calls (
    id text not null constraint psp_calls_pk primary key,
    payment_intent_id text,
    refund_id text,
    mandate_id text,
    provider_code text not null,
    gateway_alias text,
    operation text not null constraint psp_calls_operation_check
        check (operation in ('put_cob', 'get_cob', 'patch_cob', 'put_cobv', 'get_cobv',
            'patch_cobv', 'put_lotecobv', 'get_lotecobv', 'put_devolucao', 'get_devolucao',
            'get_pix', 'post_locrec', 'post_rec', 'get_rec', 'patch_rec', 'post_solicrec',
            'put_cobr', 'get_cobr', 'patch_cobr', 'post_retentativa')),
    outcome text not null constraint psp_calls_outcome_check
        check (outcome in ('success', 'refused', 'unauthorized', 'unavailable', 'timeout',
            'connect_failed', 'protocol_error', 'not_configured')),
    duration_ms bigint not null,
    error text,
    created_at bigint not null
);
insert into psp_calls (id, payment_intent_id, refund_id, provider_code, gateway_alias, operation,
        outcome, duration_ms, error, created_at)
    select id, payment_intent_id, refund_id, provider_code, gateway_alias, operation, outcome,
        duration_ms, error, created_at
    from psp_calls_0019;
drop table psp_calls_0019;
create index psp_calls_intent_idx on psp_calls (payment_intent_id, created_at);
create index psp_calls_created_idx on psp_calls (created_at);
create index psp_calls_mandate_idx on psp_calls (mandate_id, created_at);
