-- no-transaction
-- Recurring charges under a mandate (issue 33, DESIGN.md section 17). Expand only: the new
-- status admits more, the new columns are nullable, so an instance of the previous release
-- keeps reading and writing intents while this one rolls out.
--
-- `SCHEDULED`: a recurring charge held until the Pix Automático window opens (10 days before
-- its due date), when its `cobr` is sent and it turns `PENDING`.
-- `mandate_id`, `mandate_cycle`: the mandate a recurring charge is under and the cycle it
-- charges (1 for the start date's); one charge per cycle, whoever makes it (the merchant, or
-- pixgate for a mandate that charges itself), however many instances or retries try.
-- `due_date`: a recurring charge's due date (`YYYY-MM-DD`).
-- `attempts`: JSON array of its attempts as the intent shows them ({date, status, failure?}).
-- `mandates.next_cycle`, `mandates.next_charge_at`: for a mandate that charges itself
-- (`auto_charge`), the next cycle pixgate charges and from when (Unix ms:
-- `PIXGATE_MANDATE_LEAD_DAYS` before its due date); null when none is to come.
--
-- A check constraint cannot be altered in SQLite: there the table is rebuilt in one
-- transaction as SQLite's documentation describes (a new table, the rows copied, the old one
-- dropped and the new one renamed, its indexes made again), with foreign keys off so that the
-- tables referencing `payment_intents` keep naming it and nothing cascades; that pragma works
-- only outside a transaction, hence `-- no-transaction` and each backend's block opening its
-- own. PostgreSQL swaps the constraint.

-- sqlite:
pragma foreign_keys = off;
begin;
create table payment_intents_0022 (
    id text not null constraint payment_intents_pk primary key,
    merchant_id text not null constraint payment_intents_merchant_fk references merchants (id),
    store_id text not null constraint payment_intents_store_fk references stores (id),
    status text not null constraint payment_intents_status_check
        check (status in ('SHADOW_ONLY', 'SCHEDULED', 'PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED')),
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
    completed_at bigint,
    txid text,
    pix_location text,
    pix_copy_paste text,
    pix_expires_at bigint,
    reconcile_at bigint,
    settle_lease_until bigint,
    refund_reserved_centavos bigint not null default 0,
    refunded_centavos bigint not null default 0,
    received_centavos bigint,
    received_e2eid text,
    resolution text
        constraint payment_intents_resolution_check check (resolution in ('accept', 'refund')),
    resolution_reason text,
    received_at bigint,
    pix_read_at bigint,
    pix_reads bigint not null default 0,
    kind text not null default 'IMMEDIATE',
    due_terms text,
    amount_paid_centavos bigint,
    amount_components text,
    mandate_id text constraint payment_intents_mandate_fk references mandates (id),
    mandate_cycle bigint,
    due_date text,
    attempts text
);
insert into payment_intents_0022 (
    id, merchant_id, store_id, status, amount_centavos, currency, reference, description,
    payer_kind, payer_sealed, metadata, idempotency_key, routing_mode, routing_policy,
    provider_code, gateway_alias, release_class, cross_class_failover, fee_centavos,
    net_centavos, settlement_date, provider_payment_id, failure_code, failure_message,
    created_at, updated_at, completed_at, txid, pix_location, pix_copy_paste,
    pix_expires_at, reconcile_at, settle_lease_until, refund_reserved_centavos,
    refunded_centavos, received_centavos, received_e2eid, resolution, resolution_reason,
    received_at, pix_read_at, pix_reads, kind, due_terms, amount_paid_centavos,
    amount_components)
select
    id, merchant_id, store_id, status, amount_centavos, currency, reference, description,
    payer_kind, payer_sealed, metadata, idempotency_key, routing_mode, routing_policy,
    provider_code, gateway_alias, release_class, cross_class_failover, fee_centavos,
    net_centavos, settlement_date, provider_payment_id, failure_code, failure_message,
    created_at, updated_at, completed_at, txid, pix_location, pix_copy_paste,
    pix_expires_at, reconcile_at, settle_lease_until, refund_reserved_centavos,
    refunded_centavos, received_centavos, received_e2eid, resolution, resolution_reason,
    received_at, pix_read_at, pix_reads, kind, due_terms, amount_paid_centavos,
    amount_components
from payment_intents;
drop table payment_intents;
alter table payment_intents_0022 rename to payment_intents;
create index payment_intents_reconcile_idx on payment_intents (status, reconcile_at);
create unique index payment_intents_txid_key on payment_intents (provider_code, txid);
create index payment_intents_payment_id_idx on payment_intents (provider_code, provider_payment_id);
create index payment_intents_received_e2eid_idx on payment_intents (provider_code, received_e2eid)
    where received_e2eid is not null;
create index payment_intents_store_created_id_idx on payment_intents (store_id, created_at, id);
create index payment_intents_store_status_idx
    on payment_intents (store_id, status, created_at, id);
create index payment_intents_store_reference_idx
    on payment_intents (store_id, reference, created_at, id);
create index payment_intents_pix_read_idx on payment_intents (pix_read_at)
    where pix_read_at is not null;
create index payment_intents_txid_idx on payment_intents (txid);
create index payment_intents_provider_payment_id_idx on payment_intents (provider_payment_id);
create index payment_intents_received_e2eid_only_idx on payment_intents (received_e2eid);
create index payment_intents_created_idx on payment_intents (created_at);
create unique index payment_intents_mandate_cycle_key on payment_intents (mandate_id, mandate_cycle);
alter table mandates add column next_cycle bigint;
alter table mandates add column next_charge_at bigint;
create index mandates_next_charge_idx on mandates (next_charge_at);
commit;
pragma foreign_keys = on;

-- postgres:
begin;
alter table payment_intents drop constraint payment_intents_status_check;
alter table payment_intents add constraint payment_intents_status_check
    check (status in ('SHADOW_ONLY', 'SCHEDULED', 'PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED'));
alter table payment_intents add column mandate_id text
    constraint payment_intents_mandate_fk references mandates (id);
alter table payment_intents add column mandate_cycle bigint;
alter table payment_intents add column due_date text;
alter table payment_intents add column attempts text;
create unique index payment_intents_mandate_cycle_key on payment_intents (mandate_id, mandate_cycle);
alter table mandates add column next_cycle bigint;
alter table mandates add column next_charge_at bigint;
create index mandates_next_charge_idx on mandates (next_charge_at);
commit;
