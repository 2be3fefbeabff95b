"""Hypothesis stateful test of the ledger invariant on SQLite and PostgreSQL:
balance = grants − charges, reserved = open reservations, available never negative, no double settlement."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from leadwire.platform.billing import ledger
from leadwire.platform.billing.models import CreditEntry
from leadwire.platform.db import make_engine, make_sessionmaker, transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.users import create_user
from tests.support.fuzzing import examples


def make_machine(database_url: str) -> type[RuleBasedStateMachine]:
    class LedgerMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.loop = asyncio.new_event_loop()
            self.engine = make_engine(database_url)
            self.sessions = make_sessionmaker(self.engine)
            self.user_id = self.run(self._user())
            self.granted = 0
            self.charged = 0
            self.open: dict[str, int] = {}
            self.settled: set[str] = set()

        def run(self, coro):  # type: ignore[no-untyped-def]
            return self.loop.run_until_complete(coro)

        async def _user(self) -> str:
            async with transaction(self.sessions) as session:
                return (await create_user(session, email=f"{new_id('usr')}@ledger.example")).id

        def teardown(self) -> None:
            self.run(self.engine.dispose())
            self.loop.close()

        @rule(amount=st.integers(min_value=1, max_value=500))
        def grant(self, amount: int) -> None:
            async def work() -> None:
                async with transaction(self.sessions) as session:
                    await ledger.grant(session, self.user_id, amount)

            self.run(work())
            self.granted += amount

        @rule(amount=st.integers(min_value=1, max_value=400))
        def reserve(self, amount: int) -> None:
            job_id = new_id("job")

            async def work() -> None:
                async with transaction(self.sessions) as session:
                    await ledger.reserve(session, self.user_id, job_id, amount)

            available = self.granted - self.charged - sum(self.open.values())
            try:
                self.run(work())
            except ApiError as exc:
                assert exc.code == "insufficient_credits" and available < amount
                return
            assert available >= amount
            self.open[job_id] = amount

        @precondition(lambda self: bool(self.open))
        @rule(data=st.data())
        def settle(self, data: st.DataObject) -> None:
            job_id = data.draw(st.sampled_from(sorted(self.open)))
            reserved = self.open.pop(job_id)
            asked = data.draw(st.integers(min_value=0, max_value=reserved * 2))

            async def work() -> int:
                async with transaction(self.sessions) as session:
                    return await ledger.settle(session, self.user_id, job_id, reserved=reserved, charge=asked)

            charged = self.run(work())
            assert charged == min(asked, reserved)
            self.charged += charged
            self.settled.add(job_id)

        @precondition(lambda self: bool(self.settled))
        @rule(data=st.data())
        def settle_twice_is_refused(self, data: st.DataObject) -> None:
            job_id = data.draw(st.sampled_from(sorted(self.settled)))

            async def work() -> None:
                async with transaction(self.sessions) as session:
                    await ledger.settle(session, self.user_id, job_id, reserved=1, charge=1)

            with pytest.raises(IntegrityError):
                self.run(work())

        @invariant()
        def balances_match_the_model_and_the_entries(self) -> None:
            async def read() -> tuple[ledger.BalanceView, dict[str, int]]:
                async with transaction(self.sessions) as session:
                    view = await ledger.read_balance(session, self.user_id)
                    rows = await session.execute(
                        select(CreditEntry.kind, func.sum(CreditEntry.amount))
                        .where(CreditEntry.user_id == self.user_id)
                        .group_by(CreditEntry.kind)
                    )
                    return view, {kind: int(total) for kind, total in rows}

            view, sums = self.run(read())
            reserved = sum(self.open.values())
            assert view.balance == self.granted - self.charged
            assert view.reserved == reserved
            assert view.available == self.granted - self.charged - reserved >= 0
            assert sums.get("grant", 0) - sums.get("charge", 0) == view.balance
            assert sums.get("reserve", 0) - sums.get("release", 0) == view.reserved

    return LedgerMachine


def test_ledger_invariant_holds(database_url: str) -> None:
    machine = make_machine(database_url)
    machine.TestCase.settings = settings(max_examples=examples(15), stateful_step_count=20)
    machine.TestCase().runTest()
