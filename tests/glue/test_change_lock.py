"""The hub's change lock on its own (``change_lock.py``): acting calls share it, a change
holds it alone, waiting is first come first served and bounded, and giving up (a timeout, a
cancelled call) never leaves it taken. Through the tools: tests/glue/test_hostile_races.py."""

from __future__ import annotations

import asyncio

import pytest

from custom_components.hubitat_dev_tools.change_lock import ChangeLock
from custom_components.hubitat_dev_tools.errors import ToolError


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """No Home Assistant here (replaces the suite's autouse fixture of that name)."""


async def _hold(
    lock: ChangeLock, name: str, acting: bool, log: list[str], release: asyncio.Event
) -> None:
    async with lock.hold(name, acting=acting, wait_s=5):
        log.append(f"+{name}")
        await release.wait()
        log.append(f"-{name}")


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_acting_calls_share_and_a_change_waits_for_them() -> None:
    lock, log = ChangeLock(), list[str]()
    done_acting, done_change = asyncio.Event(), asyncio.Event()
    a = asyncio.create_task(_hold(lock, "a", True, log, done_acting))
    b = asyncio.create_task(_hold(lock, "b", True, log, done_acting))
    await _settle()
    c = asyncio.create_task(_hold(lock, "c", False, log, done_change))
    await _settle()
    assert log == ["+a", "+b"]  # both acting calls hold it; the change waits
    # an acting call arriving after the waiting change queues behind it (no starvation)
    d = asyncio.create_task(_hold(lock, "d", True, log, done_change))
    await _settle()
    assert log == ["+a", "+b"]
    done_acting.set()
    await _settle()
    assert log[:5] == ["+a", "+b", "-a", "-b", "+c"] and "+d" not in log
    done_change.set()
    await asyncio.gather(a, b, c, d)
    assert log.index("-c") < log.index("+d")
    assert not lock.busy


async def test_a_change_holds_it_alone() -> None:
    lock, log = ChangeLock(), list[str]()
    first, second = asyncio.Event(), asyncio.Event()
    a = asyncio.create_task(_hold(lock, "a", False, log, first))
    await _settle()
    b = asyncio.create_task(_hold(lock, "b", False, log, second))
    c = asyncio.create_task(_hold(lock, "c", True, log, second))
    await _settle()
    assert log == ["+a"]
    first.set()
    second.set()
    await asyncio.gather(a, b, c)
    assert log == ["+a", "-a", "+b", "-b", "+c", "-c"]


async def test_waiting_too_long_is_hub_busy_and_leaves_nothing_taken() -> None:
    lock, log = ChangeLock(), list[str]()
    release = asyncio.Event()
    holder = asyncio.create_task(_hold(lock, "hub_update_rule", False, log, release))
    await _settle()
    with pytest.raises(ToolError) as refused:
        async with lock.hold("hub_call_rule", acting=True, wait_s=0.05):
            pytest.fail("must not get the lock")
    err = refused.value
    assert err.code == "hub_busy" and err.outcome == "refused"
    assert "hub_update_rule" in str(err) and "sent nothing" in str(err)
    release.set()
    await holder
    assert not lock.busy
    async with lock.hold("hub_call_rule", acting=True, wait_s=0.05):
        assert lock.busy


async def test_a_cancelled_call_never_leaves_it_taken() -> None:
    lock, log = ChangeLock(), list[str]()
    release = asyncio.Event()
    holder = asyncio.create_task(_hold(lock, "a", False, log, release))
    await _settle()
    waiter = asyncio.create_task(_hold(lock, "b", False, log, asyncio.Event()))
    await _settle()
    waiter.cancel()  # cancelled while waiting
    holder.cancel()  # cancelled while holding
    await asyncio.gather(holder, waiter, return_exceptions=True)
    assert not lock.busy
    async with lock.hold("c", acting=False, wait_s=0.05):
        pass


async def test_a_waiter_granted_as_it_is_cancelled_hands_it_on() -> None:
    lock, log = ChangeLock(), list[str]()
    release = asyncio.Event()
    holder = asyncio.create_task(_hold(lock, "a", False, log, release))
    await _settle()
    waiter = asyncio.create_task(_hold(lock, "b", False, log, asyncio.Event()))
    third = asyncio.create_task(_hold(lock, "c", False, log, release))
    await _settle()
    release.set()
    await asyncio.sleep(0)  # "a" lets go: "b" is granted, then cancelled before it runs
    waiter.cancel()
    await asyncio.gather(holder, waiter, third, return_exceptions=True)
    assert "+b" not in log and log[-2:] == ["+c", "-c"]
    assert not lock.busy


async def test_a_step_of_a_holding_call_runs_under_its_hold() -> None:
    lock = ChangeLock()
    async with lock.hold("hub_restore_snapshot", acting=False, wait_s=0.05):
        # a step (same task and context): no wait, no deadlock
        async with lock.hold("hub_update_rule", acting=False, wait_s=0.05):
            pass

        async def child() -> None:  # a task it starts inherits the hold
            async with lock.hold("hub_call_device_command", acting=True, wait_s=0.05):
                pass

        await asyncio.create_task(child())
    assert not lock.busy


async def test_a_change_cut_off_keeps_it_until_what_it_sent_may_have_landed() -> None:
    """``linger``: the hub may still apply a cut-off change's request, so the lock stays
    taken a while longer, then ``then`` runs (the sensitivity model forgets)."""
    lock = ChangeLock()
    forgotten: list[bool] = []

    async def cut_off() -> None:
        async with lock.hold("hub_update_rule", acting=False, wait_s=0.05) as hold:
            hold.linger(0.2, then=lambda: forgotten.append(True))
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await cut_off()
    assert lock.busy and forgotten == []
    with pytest.raises(ToolError) as refused:
        async with lock.hold("hub_call_rule", acting=True, wait_s=0.05):
            pass
    assert refused.value.code == "hub_busy" and "hub_update_rule" in str(refused.value)
    async with lock.hold("hub_call_rule", acting=True, wait_s=1.0):
        assert forgotten == [True]


async def test_an_acting_call_lets_go_once_it_has_sent() -> None:
    """``release``: a change need not wait for an acting call that only waits for its
    effect; releasing again at the end does nothing."""
    lock = ChangeLock()
    async with lock.hold("hub_call_device_command", acting=True, wait_s=0.05) as hold:
        hold.release()
        async with asyncio.timeout(1):
            change = asyncio.create_task(_change(lock))
            await change
    assert not lock.busy


async def _change(lock: ChangeLock) -> None:
    async with lock.hold("hub_update_rule", acting=False, wait_s=0.5):
        pass
