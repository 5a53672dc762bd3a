-- Charge kinds (issue 32, DESIGN.md sections 15 and 16). Expand only: columns with a default
-- or nullable, so an instance of the previous release keeps inserting while this one rolls
-- out (it names no kind and gets IMMEDIATE, which every intent so far is).
--
-- `kind`: IMMEDIATE (API Pix `cob`), DUE_DATE (`cobv`), RECURRING (`cobr`).
-- `due_terms`: a due-date charge's terms as the intent shows them (JSON: dueDate,
-- daysAfterDue, fine, interest, abatement, discount).
-- `amount_paid_centavos`, `amount_components`: what a due-date charge was paid with, and the
-- parts of it (JSON: original, fine, interest, abatement, discount, in centavos).
alter table payment_intents add column kind text not null default 'IMMEDIATE';
alter table payment_intents add column due_terms text;
alter table payment_intents add column amount_paid_centavos bigint;
alter table payment_intents add column amount_components text;
