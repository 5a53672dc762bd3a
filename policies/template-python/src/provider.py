"""A pixgate provider-selection step: which gateways may take this charge, and in which order.

pixgate tries them in the order returned: the first is the primary, the rest the failover
order of a LIVE charge.

This example ranks the gateways cheapest first for the charge's amount. It leaves out a
gateway that is down, whose release class the policy step did not allow, or whose fee is above
the store's `ranking.max-fee-centavos` (when the store sets it). A charge pinned to one gateway
(`input.pinned_gateway`) leaves every other one out: it goes to that gateway if the rules above
keep it, and is refused otherwise.

The rules every component lives by: the same input must give the same output. `time.time()`
is the charge's time (`input.env.now_ms`) and `random` is seeded from `input.env.seed`, so
both replay exactly; there is no network, no files, no environment. Money is integer centavos
(Python ints), never a float.
"""

from typing import List, Optional, Tuple

from componentize_py_types import Err
from wit_world import exports
from wit_world.exports.provider_selection import ProviderInput
from wit_world.imports import host_log
from wit_world.imports.types import (
    ExcludedGateway,
    FeeTerms,
    Gateway,
    ProviderDecision,
    RankedGateway,
    StepError,
    StoreContext,
)

# The store configuration key this component reads. Pick keys of your own for your settings.
MAX_FEE_KEY = "ranking.max-fee-centavos"


class ProviderSelection(exports.ProviderSelection):
    def rank(self, input: ProviderInput) -> ProviderDecision:
        amount = input.charge.amount_centavos
        # A malformed setting refuses the charge with a clear code rather than guessing.
        max_fee = config_int(input.store, MAX_FEE_KEY)
        classes = input.policy.eligible_release_classes
        # A recurring charge must go to the gateway that holds its mandate: pixgate accepts that
        # gateway ranked alone, or a refusal.
        pinned = input.pinned_gateway

        ranked: List[Tuple[int, Gateway]] = []
        excluded: List[ExcludedGateway] = []
        for gateway in input.gateways:
            fee = fee_for(amount, gateway.fee_terms)
            reason = None
            if pinned is not None and gateway.gateway_alias != pinned:
                reason = f"the charge is pinned to {pinned}"
            elif not gateway.health.available:
                reason = "gateway unavailable"
            elif classes and gateway.release_class not in classes:
                reason = (
                    f"release class {gateway.release_class} not eligible under "
                    f"{input.policy.policy}"
                )
            elif max_fee is not None and fee > max_fee:
                reason = f"fee of {fee} centavos is above {MAX_FEE_KEY}"
            if reason is None:
                ranked.append((fee, gateway))
            else:
                excluded.append(ExcludedGateway(gateway_alias=gateway.gateway_alias, reason=reason))
        # The alias breaks ties: the order must be the same on every run.
        ranked.sort(key=lambda pair: (pair[0], pair[1].gateway_alias))

        if not ranked:
            # A step error refuses the charge: the merchant gets an error, nothing is created.
            raise Err(
                StepError(
                    code="no_eligible_gateway",
                    message=f"none of the {len(excluded)} gateways is eligible",
                )
            )
        # Log lines are kept with the decision trace (1 KB per call in all): keep them short.
        host_log.log(host_log.Level.INFO, f"{len(ranked)} ranked, {len(excluded)} left out")
        return ProviderDecision(
            ranking=[
                RankedGateway(
                    gateway_alias=gateway.gateway_alias,
                    provider_code=gateway.provider_code,
                    release_class=gateway.release_class,
                    reason=f"fee {fee} centavos",
                )
                for fee, gateway in ranked
            ],
            excluded=excluded,
        )


def fee_for(amount: int, terms: FeeTerms) -> int:
    """The fee a gateway charges for `amount`, as pixgate's bundled economics computes it: the
    MDR (basis points, rounded half up to the centavo) plus the fixed fee, raised to the
    minimum and capped at the maximum."""
    fee = (amount * terms.mdr_bps + 5_000) // 10_000 + terms.fixed_centavos
    fee = max(fee, terms.min_fee_centavos)
    if terms.max_fee_centavos is not None:
        fee = min(fee, terms.max_fee_centavos)
    return fee


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
