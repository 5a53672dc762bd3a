"""Sample: pixgate's bundled provider-selection step written in Python, built from source by
`.ci/kits.sh` and run end to end by `tests/tests/e2e/languages.rs`.

The ranking is the bundled step's (`policies/logic/src/provider.rs`): a gateway is left out when
it is down, when its release class is not eligible under the policy, or when its success rate
is below `routing.min-success-rate-bps` (default 8000) over at least
`routing.min-health-samples` attempts (default 20); the rest is ordered by health tier
(healthy: at least 95 % success or too few samples), then under `d0-first` by the policy's
release-class preference, then by fee, median latency and alias. Without cross-release-class
failover only the primary's release class stays in the failover order. A charge pinned to one
gateway (`pinned_gateway`, a recurring charge's mandate) is only confirmed or refused, as the
bundled step does.

It also reads the clock and randomness, `time.time()` and `random.random()`, and writes both
into the primary's reason and the log: the sandbox serves them from the charge's `env`, so a
replay of a recorded charge must reproduce them exactly, and the tests check that it does.
"""

import datetime
import random
import time
from typing import List, Tuple

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

HEALTHY_BPS = 9_500
D0_FIRST = "d0-first"


class ProviderSelection(exports.ProviderSelection):
    def rank(self, input: ProviderInput) -> ProviderDecision:
        if input.pinned_gateway is not None:
            return confirm_pinned(input, input.pinned_gateway)
        store, policy = input.store, input.policy
        floor = config_or(store, "routing.min-success-rate-bps", 8_000)
        min_samples = config_or(store, "routing.min-health-samples", 20)
        amount = input.charge.amount_centavos

        excluded: List[ExcludedGateway] = []
        eligible: List[Tuple[Tuple[int, int, int, int, str], Gateway, str]] = []
        for g in input.gateways:
            classes = policy.eligible_release_classes
            class_pref = classes.index(g.release_class) if g.release_class in classes else None
            enough_samples = g.health.samples >= min_samples
            exclusion = None
            if not g.health.available:
                exclusion = "gateway unavailable"
            elif classes and class_pref is None:
                exclusion = f"release class {g.release_class} not eligible under {policy.policy}"
            elif enough_samples and g.health.success_rate_bps < floor:
                exclusion = (
                    f"success rate {g.health.success_rate_bps} bps below the floor of "
                    f"{floor} bps"
                )
            if exclusion is not None:
                excluded.append(ExcludedGateway(gateway_alias=g.gateway_alias, reason=exclusion))
                continue
            healthy = not enough_samples or g.health.success_rate_bps >= HEALTHY_BPS
            if policy.policy == D0_FIRST:
                pref = class_pref if class_pref is not None else len(classes)
            else:
                pref = 0
            key = (
                0 if healthy else 1,
                pref,
                fee_for(amount, g.fee_terms),
                g.health.latency_p50_ms,
                g.gateway_alias,
            )
            eligible.append((key, g, "healthy" if healthy else "degraded"))
        eligible.sort(key=lambda entry: entry[0])

        if not eligible:
            raise Err(
                StepError(
                    code="no_eligible_gateway",
                    message=(
                        f"none of the {len(input.gateways)} gateways is eligible under "
                        f"{policy.policy}"
                    ),
                )
            )
        primary_class = eligible[0][1].release_class
        # The sandbox's clock is the charge's time and its randomness follows the charge's seed.
        ranked_at = datetime.datetime.fromtimestamp(time.time(), datetime.timezone.utc)
        ranked_at_text = ranked_at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        draw = f"{random.random():.6f}"
        ranking: List[RankedGateway] = []
        for key, g, health in eligible:
            if not policy.cross_release_class_failover and g.release_class != primary_class:
                excluded.append(
                    ExcludedGateway(
                        gateway_alias=g.gateway_alias,
                        reason=(
                            "cross-release-class failover not allowed "
                            f"(primary is {primary_class})"
                        ),
                    )
                )
                continue
            reason = f"{health}, fee {key[2]} centavos"
            if not ranking:
                reason += f" (ranked at {ranked_at_text}, draw {draw})"
            ranking.append(
                RankedGateway(
                    gateway_alias=g.gateway_alias,
                    provider_code=g.provider_code,
                    release_class=g.release_class,
                    reason=reason,
                )
            )
        host_log.log(host_log.Level.INFO, f"python: ranked at {ranked_at_text}, draw {draw}")
        return ProviderDecision(ranking=ranking, excluded=excluded)


def confirm_pinned(input: ProviderInput, pinned: str) -> ProviderDecision:
    """The bundled step's answer for a pinned charge: the pinned gateway alone, unless it is not
    among the store's gateways or the host reports it unavailable; no other rule applies."""
    g = next((o for o in input.gateways if o.gateway_alias == pinned), None)
    if g is None:
        raise Err(
            StepError(
                code="pinned_gateway_unknown",
                message=(
                    f"the charge is pinned to {pinned}, which is not among the store's "
                    "gateways"
                ),
            )
        )
    if not g.health.available:
        raise Err(
            StepError(
                code="pinned_gateway_unavailable",
                message=f"the charge is pinned to {pinned}, which is unavailable",
            )
        )
    return ProviderDecision(
        ranking=[
            RankedGateway(
                gateway_alias=g.gateway_alias,
                provider_code=g.provider_code,
                release_class=g.release_class,
                reason="pinned",
            )
        ],
        excluded=[
            ExcludedGateway(
                gateway_alias=o.gateway_alias, reason=f"the charge is pinned to {pinned}"
            )
            for o in input.gateways
            if o.gateway_alias != pinned
        ],
    )


def fee_for(amount: int, terms: FeeTerms) -> int:
    """The bundled economics' fee: MDR in basis points rounded half up, plus the fixed fee,
    raised to the minimum and capped at the maximum."""
    fee = (amount * terms.mdr_bps + 5_000) // 10_000 + terms.fixed_centavos
    fee = max(fee, terms.min_fee_centavos)
    if terms.max_fee_centavos is not None:
        fee = min(fee, terms.max_fee_centavos)
    return fee


def config_or(store: StoreContext, key: str, default: int) -> int:
    """A whole number from the store's configuration, or `default` when it is not set."""
    for entry in store.config:
        if entry.key == key:
            text = entry.value.strip()
            if not (text.isascii() and text.isdigit()):
                raise Err(
                    StepError(
                        code="invalid_store_config",
                        message=(
                            f"store configuration `{key}` is `{entry.value}`; "
                            "expected a whole number"
                        ),
                    )
                )
            return int(text)
    return default
