"""A pixgate policy step: which routing policy applies to this charge, and its constraints (the
release classes it may go to, cross-class failover, how many gateways to try).

This example keeps same-day money for ordinary tickets and saves fees on large ones:
- a charge above the store's `limits.max-amount-centavos` is refused;
- from `policy.lowest-cost-from-centavos` (default R$ 1,000.00) up, and for a charge with a due
  date (`charge.kind` is `ChargeKind_DueDate`) of any amount, `lowest-cost` in any release
  class;
- below it, `d0-first` over D0 then D1 only.

The policy names `d0-first` and `lowest-cost` are the ones pixgate's bundled provider step
understands; a provider step of your own may read any name you choose.

The rules every component lives by: the same input must give the same output. `time.time()`
is the charge's time (`input.env.now_ms`) and `random` is seeded from `input.env.seed`, so
both replay exactly; there is no network, no files, no environment. Money is integer centavos
(Python ints), never a float.
"""

from typing import Optional

from componentize_py_types import Err
from wit_world import exports
from wit_world.exports.policy import PolicyInput
from wit_world.imports import host_log
from wit_world.imports.types import ChargeKind_DueDate, PolicyDecision, StepError, StoreContext

# The store configuration keys this component reads. Pick keys of your own for your settings.
MAX_AMOUNT_KEY = "limits.max-amount-centavos"
LOWEST_COST_FROM_KEY = "policy.lowest-cost-from-centavos"
DEFAULT_LOWEST_COST_FROM = 100_000


class Policy(exports.Policy):
    def decide(self, input: PolicyInput) -> PolicyDecision:
        amount = input.charge.amount_centavos
        # A malformed setting refuses the charge with a clear code rather than guessing.
        maximum = config_int(input.store, MAX_AMOUNT_KEY)
        if maximum is not None and amount > maximum:
            # A step error refuses the charge: the merchant gets this code, nothing is created.
            raise Err(
                StepError(
                    code="amount_above_store_limit",
                    message=f"amount is above the store's maximum of {maximum} centavos",
                )
            )
        lowest_cost_from = config_int(input.store, LOWEST_COST_FROM_KEY)
        if lowest_cost_from is None:
            lowest_cost_from = DEFAULT_LOWEST_COST_FROM

        # The merchant waits for the due date anyway: a later release class costs little there.
        # (`input.charge.kind.value` holds the due terms: `due_date`, `fine`, ...)
        due_date = isinstance(input.charge.kind, ChargeKind_DueDate)

        if due_date or amount >= lowest_cost_from:
            decision = PolicyDecision(
                policy="lowest-cost",
                # Empty: every release class is eligible.
                eligible_release_classes=[],
                cross_release_class_failover=True,
                max_attempts=3,
            )
        else:
            decision = PolicyDecision(
                policy="d0-first",
                eligible_release_classes=["D0", "D1"],
                cross_release_class_failover=True,
                max_attempts=2,
            )
        # Log lines are kept with the decision trace (1 KB per call in all): keep them short.
        host_log.log(host_log.Level.INFO, f"{decision.policy} for {amount} centavos")
        return decision


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
