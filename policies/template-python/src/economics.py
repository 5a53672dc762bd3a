"""A pixgate economics/release step: for each gateway the provider step ranked, the fee, the net
amount, the release class and the settlement date, or a rejection. pixgate routes the charge to
the first accepted candidate.

This example prices like pixgate's bundled step (the fee of the gateway's terms; the money is
released `n` business days after the charge for release class `D<n>`) and adds one rule of the
store's: a candidate whose fee is above `economics.max-fee-centavos` is rejected.

pixgate checks every quote: fee plus net must equal the amount, a quote keeps its gateway's
release class, and a settlement date may not precede the charge.

The rules every component lives by: the same input must give the same output. `time.time()`
is the charge's time (`input.env.now_ms`) and `random` is seeded from `input.env.seed`, so
both replay exactly; there is no network, no files, no environment. Money is integer centavos
(Python ints), never a float.
"""

import datetime
import re
from typing import List, Optional, Set

from componentize_py_types import Err
from wit_world import exports
from wit_world.exports.economics import EconomicsInput
from wit_world.imports import host_log
from wit_world.imports.types import (
    CandidateEconomics,
    CandidateOutcome,
    CandidateOutcome_Accepted,
    CandidateOutcome_Rejected,
    EconomicsQuote,
    FeeTerms,
    StepError,
    StoreContext,
)

# The store configuration key this component reads. Pick keys of your own for your settings.
MAX_FEE_KEY = "economics.max-fee-centavos"

# Brasília has been UTC-3 all year since 2019; settlement follows its calendar.
BRASILIA_OFFSET_MS = -3 * 3_600_000
DAY_MS = 86_400_000
EPOCH = datetime.date(1970, 1, 1)


class Economics(exports.Economics):
    def evaluate(self, input: EconomicsInput) -> List[CandidateEconomics]:
        amount = input.charge.amount_centavos
        # A malformed setting refuses the charge with a clear code rather than guessing.
        max_fee = config_int(input.store, MAX_FEE_KEY)
        charge_day = (input.charge.created_at_ms + BRASILIA_OFFSET_MS) // DAY_MS
        holidays = set(input.holidays)

        verdicts: List[CandidateEconomics] = []
        for gateway in input.candidates:
            fee = fee_for(amount, gateway.fee_terms)
            days = release_days(gateway.release_class)
            outcome: CandidateOutcome
            if days is None:
                outcome = CandidateOutcome_Rejected(f"unknown release class {gateway.release_class}")
            elif fee >= amount:
                outcome = CandidateOutcome_Rejected(
                    f"fee of {fee} centavos would take the whole amount"
                )
            elif max_fee is not None and fee > max_fee:
                outcome = CandidateOutcome_Rejected(f"fee of {fee} centavos is above {MAX_FEE_KEY}")
            else:
                outcome = CandidateOutcome_Accepted(
                    EconomicsQuote(
                        fee_centavos=fee,
                        net_centavos=amount - fee,
                        release_class=gateway.release_class,
                        settlement_date=settlement_date(charge_day, days, holidays),
                    )
                )
            verdicts.append(CandidateEconomics(gateway_alias=gateway.gateway_alias, outcome=outcome))
        accepted = sum(isinstance(v.outcome, CandidateOutcome_Accepted) for v in verdicts)
        # Log lines are kept with the decision trace (1 KB per call in all): keep them short.
        host_log.log(host_log.Level.INFO, f"{accepted} of {len(verdicts)} candidates accepted")
        return verdicts


def fee_for(amount: int, terms: FeeTerms) -> int:
    """The fee a gateway charges for `amount`: the MDR (basis points, rounded half up to the
    centavo) plus the fixed fee, raised to the minimum and capped at the maximum."""
    fee = (amount * terms.mdr_bps + 5_000) // 10_000 + terms.fixed_centavos
    fee = max(fee, terms.min_fee_centavos)
    if terms.max_fee_centavos is not None:
        fee = min(fee, terms.max_fee_centavos)
    return fee


def release_days(release_class: str) -> Optional[int]:
    """`D<n>` releases the money `n` business days after the charge."""
    match = re.fullmatch(r"D([0-9]{1,3})", release_class)
    if match is None or int(match.group(1)) > 365:
        return None
    return int(match.group(1))


def settlement_date(charge_day: int, days: int, holidays: Set[str]) -> str:
    """The first business day on or after the charge's day, then `days` business days more, as
    YYYY-MM-DD. Weekends and the holidays pixgate supplies are not business days."""

    def iso(day: int) -> str:
        # Calendar arithmetic on the charge's day, not a clock read.
        return (EPOCH + datetime.timedelta(days=day)).isoformat()

    def is_business(day: int) -> bool:
        # 1970-01-01 (day 0) was a Thursday: 2 and 3 after it are Saturday and Sunday.
        return day % 7 not in (2, 3) and iso(day) not in holidays

    day = charge_day
    while not is_business(day):
        day += 1
    for _ in range(days):
        day += 1
        while not is_business(day):
            day += 1
    return iso(day)


def config_int(store: StoreContext, key: str) -> Optional[int]:
    """A whole number from the store's configuration; None when the store does not set it."""
    for entry in store.config:
        if entry.key == key:
            text = entry.value.strip()
            if not (text.isascii() and text.isdigit()):
                raise Err(
                    StepError(
                        code="invalid_store_config",
                        message=f"{key} must be a whole number, not `{entry.value}`",
                    )
                )
            return int(text)
    return None
