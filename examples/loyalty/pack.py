"""The loyalty pack: its tools (bound to a :class:`LoyaltyBackend`) and its capabilities.

Everything the turn needs to serve a member is declared here — intents with zh/en examples and
patterns, argument extraction, kinds, identifiers, amounts, fields kept by compaction — and the
wording lives in ``replies.<lang>.yaml`` beside this file. The graph is not edited.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from helpdesk.degrade.errors import BusinessError
from helpdesk.examples.loyalty.backend import POINTS_PER_YUAN, LoyaltyBackend, LoyaltyError
from helpdesk.tools.packs import Capability, IntentSpec, Pack, PackEnv, regex_args
from helpdesk.tools.registry import LookupFn, PrecheckOutcome, ToolRegistry, VerifyOutcome
from helpdesk.tools.results import ToolResult, ToolStatus

__all__ = ["CAPABILITIES", "loyalty_pack", "loyalty_registry", "pack"]


class Balance(BaseModel):
    points: int
    credit: float


class Redeemed(BaseModel):
    code: str
    added: int
    points: int


class Converted(BaseModel):
    points_used: int
    credit: float
    points: int


def _business(exc: LoyaltyError) -> BusinessError:
    return BusinessError(str(exc), code=exc.code)


def loyalty_registry(backend: LoyaltyBackend) -> ToolRegistry:
    """The pack's three tools, bound to ``backend``."""
    registry = ToolRegistry()

    def verify_by_key(args: dict[str, Any], key: str, customer: str | None) -> VerifyOutcome:
        stored = backend.outcome(key)
        if stored is None:
            return VerifyOutcome(executed=False)
        if not stored["ok"]:
            return VerifyOutcome(executed=False, data=stored, refused=True)
        return VerifyOutcome(executed=True, data=stored["response"])

    @registry.tool(kind="read", timeout=2.0, cache_ttl=60.0, output=Balance)
    def points_balance(customer: str | None = None) -> dict[str, Any]:
        """The member's points balance and store credit."""
        try:
            return backend.balance(customer)
        except LoyaltyError as exc:
            raise _business(exc) from exc

    @registry.tool(
        kind="write", idempotent=True, timeout=3.0, output=Redeemed, verify=verify_by_key
    )
    def redeem_voucher(
        code: str, customer: str | None = None, idempotency_key: str | None = None
    ) -> dict[str, Any]:
        """Redeem a voucher code (V-XXXX) for points; each code once per member."""
        try:
            return backend.redeem(customer, code, idempotency_key)
        except LoyaltyError as exc:
            raise _business(exc) from exc

    async def convert_precheck(args: dict[str, Any], lookup: LookupFn) -> PrecheckOutcome:
        """Ask about an exact number of points and credit: "all my points" becomes the balance
        (rounded down to whole yuan); more than the balance is refused with the maximum."""
        looked: ToolResult = await lookup("points_balance", {})
        if looked.status is not ToolStatus.OK or not isinstance(looked.data, dict):
            if args.get("points") is None:
                return PrecheckOutcome(
                    refusal={
                        "code": "balance_unknown",
                        "message": "the points balance could not be checked",
                        "error_class": "unavailable",
                    }
                )
            points = int(args["points"])
            return PrecheckOutcome(data={"credit": f"{points / POINTS_PER_YUAN:.2f}"})
        available = int(looked.data["points"])
        usable = available - available % POINTS_PER_YUAN
        points = int(args["points"]) if args.get("points") is not None else usable
        if usable <= 0 or points > usable:
            return PrecheckOutcome(
                refusal={
                    "code": "not_enough_points",
                    "message": f"at most {usable} points can be converted",
                    "usable": usable,
                    "max_credit": f"{usable / POINTS_PER_YUAN:.2f}",
                }
            )
        if points <= 0 or points % POINTS_PER_YUAN:
            return PrecheckOutcome(
                refusal={
                    "code": "bad_points",
                    "message": "points must be whole hundreds",
                    "usable": usable,
                    "max_credit": f"{usable / POINTS_PER_YUAN:.2f}",
                }
            )
        credit = f"{points / POINTS_PER_YUAN:.2f}"
        return PrecheckOutcome(args={**args, "points": points}, data={"credit": credit})

    @registry.tool(
        kind="money",
        idempotent=True,
        timeout=3.0,
        output=Converted,
        verify=verify_by_key,
        precheck=convert_precheck,
    )
    def convert_points(
        points: int | None = None, customer: str | None = None, idempotency_key: str | None = None
    ) -> dict[str, Any]:
        """Convert points into store credit (100 points = ¥1.00); asks the customer first."""
        if points is None:
            raise BusinessError("the number of points is missing", code="bad_points")
        try:
            return backend.convert(customer, points, idempotency_key)
        except LoyaltyError as exc:
            raise _business(exc) from exc

    return registry


def _points(text: str, facts: Mapping[str, Any]) -> dict[str, Any]:
    found = regex_args(points=(r"(\d{2,7})\s*(?:points?|pts|积分|分)", int))(text, facts)
    return found


CAPABILITIES: tuple[Capability, ...] = (
    Capability(
        name="points_balance",
        tool="points_balance",
        kind="read",
        intents=(
            IntentSpec(
                name="points_balance",
                description="the member's points balance, store credit and vouchers",
                examples={
                    "en": ("how many points do I have?", "what's my points balance"),
                    "zh": ("我有多少积分", "查一下我的积分余额"),
                },
                patterns=(
                    r"\bhow many (?:loyalty |reward )?points\b",
                    r"\bpoints? balance\b",
                    r"^(?!.*\b(?:convert|redeem|turn|exchange)\b)"
                    r".*\bmy (?:loyalty |reward )?points\b",
                    r"(?:多少|查|余额|剩).{0,6}积分|积分.{0,6}(?:多少|余额|还剩|查)",
                ),
            ),
        ),
        keep=("points", "credit"),
        amounts=("credit",),
        summary={"en": "points balance and store credit", "zh": "积分余额和购物金"},
        core=False,
    ),
    Capability(
        name="redeem_voucher",
        tool="redeem_voucher",
        kind="write",
        intents=(
            IntentSpec(
                name="redeem_voucher",
                description="redeem a voucher code (V-XXXX) for the member; needs code",
                examples={
                    "en": ("redeem voucher V-SPRING", "use code V-WELCOME"),
                    "zh": ("兑换券码 V-SPRING", "帮我兑换优惠码V-WELCOME"),
                },
                patterns=(
                    r"\bredeem\b",
                    r"\b(?:use|apply)\b.*\b(?:voucher|code)\b",
                    r"兑换(?:券|码)|券码|兑换码|使用.{0,4}(?:券|码)|兑换\s*v-",
                ),
                negations=(
                    r"\b(?:don'?t|do not|no need to|not)\s+redeem\b",
                    r"不要兑换|别兑换|不兑换",
                ),
                questions=(r"\bhow (?:do|does|can|to)\b", r"怎么|如何"),
            ),
        ),
        extract=regex_args(code=(r"\b(V-[A-Z0-9]{4,8})\b", str.upper)),
        required=("code",),
        identifiers={"code": r"V-[A-Z0-9]{4,8}"},
        keep=("code", "points"),
        summary={"en": "redeem a voucher code for points", "zh": "兑换券码换积分"},
    ),
    Capability(
        name="convert_points",
        tool="convert_points",
        kind="money",
        intents=(
            IntentSpec(
                name="convert_points",
                description="convert points into store credit (100 points = 1 yuan); points "
                "if given, else all",
                examples={
                    "en": ("convert 500 points to store credit", "turn all my points into credit"),
                    "zh": ("把500积分换成购物金", "积分全部转成购物金"),
                },
                patterns=(
                    r"\b(?:convert|turn|exchange|cash)\b.*\bpoints?\b",
                    r"\bpoints?\b.*\b(?:into|to|for)\s+(?:store\s+)?credit\b",
                    r"积分.{0,10}(?:换|转|兑).{0,6}(?:购物金|余额|储值)",
                ),
                negations=(
                    r"\b(?:don'?t|do not|no need to|not)\s+(?:convert|turn|exchange)\b",
                    r"不要(?:换|转|兑)|别(?:换|转|兑)|不(?:换|转)了|算了",
                ),
                questions=(
                    r"\bhow (?:do|does|can|to|much)\b|\bwhat(?:'s| is)\b",
                    r"怎么|如何|多少钱",
                ),
            ),
        ),
        extract=_points,
        amounts=("credit",),
        keep=("points_used", "credit"),
        summary={"en": "convert points into store credit", "zh": "积分兑换购物金"},
    ),
)


def loyalty_pack(backend: LoyaltyBackend | None = None) -> Pack:
    """The pack, with its tools bound to ``backend`` (a fresh seeded one by default, or
    ``PackEnv.options["loyalty_backend"]`` when the deployment passes one)."""

    def tools(env: PackEnv) -> ToolRegistry:
        chosen = backend or env.options.get("loyalty_backend") or LoyaltyBackend()
        return loyalty_registry(chosen)

    return Pack(
        name="loyalty",
        capabilities=CAPABILITIES,
        tools=tools,
        templates="helpdesk.examples.loyalty",
    )


pack = loyalty_pack()
"""The pack with its own seeded backend: ``helpdesk chat --pack helpdesk.examples.loyalty:pack``."""
