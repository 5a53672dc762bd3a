-- Money back, second pass (DESIGN.md section 11): the wrong-amount exit keeps the pix's own
-- settlement time, and paid intents are re-read at their PSP so a MED devolução whose callback
-- was lost is still recorded. Expand only: new columns are nullable or have a default.

-- When the pix of another amount was settled at the PSP (its `horario`): `accept` takes it as
-- the intent's `completedAt`. Null for a pix first read before this migration (`accept` then
-- falls back to the moment of the decision).
alter table payment_intents add column received_at bigint;

-- The next read of a paid (`SUCCEEDED` LIVE) intent's pix at its PSP (`GET /pix/{e2eid}`), and
-- how many reads it had: the pace slows down with each read (1 h after the payment, then 2 h,
-- 4 h, ... at most a day apart) and stops 90 days after the payment (no devolução is possible
-- after that). Claimed by a compare-and-set on `pix_read_at`, so instances sharing a
-- PostgreSQL make each read once. Null: no read planned.
alter table payment_intents add column pix_read_at bigint;
alter table payment_intents add column pix_reads bigint not null default 0;
update payment_intents set pix_read_at = completed_at + 3600000
    where status = 'SUCCEEDED' and routing_mode = 'LIVE' and completed_at is not null;
create index payment_intents_pix_read_idx on payment_intents (pix_read_at)
    where pix_read_at is not null;
