"""pytest plugin for NetworkX's own tests run with NETWORKX_TEST_BACKEND=chatty
and CHATTY_NX_RECORD=1: per test, whether the backend's functions ran on
chatty or were declined (and why), printed at the end and written to
$CHATTY_NX_REPORT as JSON. Declined calls run in NetworkX (fallback), so
a test passes only on answers that are NetworkX's either way; the report
says how much of it was ours."""

import collections
import json
import os

import pytest

_per_test = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    from chattygraph import nx_backend

    del nx_backend.events[:]
    yield
    # Under --pyargs the node ids leave out the module ("::test_quality" in
    # test_louvain and in test_leiden alike): the module's name keeps them apart.
    module = getattr(getattr(item, "module", None), "__name__", "")
    _per_test[module + item.nodeid] = list(nx_backend.events)


def _ran():
    """(tests with a call on chatty, calls on chatty by function, the shortfall or "")."""
    from chattygraph import nx_backend

    ran_tests = sum(1 for ev in _per_test.values() if any(k == "ran" for k, _, _ in ev))
    calls = collections.Counter(name for ev in _per_test.values() for k, name, _ in ev if k == "ran")
    # CHATTY_NX_EXEMPT: functions whose NetworkX tests all ask for what the
    # backend declines (each named with its reason where the test is set up).
    exempt = set(os.environ.get("CHATTY_NX_EXEMPT", "").split())
    missing = sorted(set(nx_backend._FUNCTIONS) - set(calls) - exempt)
    expect = int(os.environ.get("CHATTY_NX_EXPECT_TESTS", "0"))
    shortfall = ""
    if missing or ran_tests < expect:
        shortfall = f"chatty ran in {ran_tests} tests (expected {expect}); never ran: {', '.join(missing) or 'none'}"
    return ran_tests, calls, shortfall


def pytest_terminal_summary(terminalreporter):
    ran_tests, calls, shortfall = _ran()
    declined = collections.Counter(
        f"{name}: {why}" for ev in _per_test.values() for k, name, why in ev if k == "declined")
    tr = terminalreporter
    tr.write_sep("=", "chatty backend")
    tr.write_line(f"{ran_tests} of {len(_per_test)} tests called chatty's functions; calls that ran on chatty:")
    for name, k in sorted(calls.items()):
        tr.write_line(f"  {name}: {k}")
    tr.write_line("calls declined (run by NetworkX instead), by reason:")
    for why, k in sorted(declined.items()):
        tr.write_line(f"  {k} x {why}")
    if shortfall:
        tr.write_line(shortfall)
    out = os.environ.get("CHATTY_NX_REPORT")
    if out:
        with open(out, "w") as f:
            json.dump({"tests": len(_per_test), "tests_on_chatty": ran_tests, "calls": calls, "declined": declined},
                      f, indent=1)


def pytest_sessionfinish(session, exitstatus):
    # A suite that passes because every call fell back to NetworkX tests
    # nothing of ours. (The terminal summary comes after this hook: the
    # shortfall is worked out here too.)
    if _ran()[2] and exitstatus == 0:
        session.exitstatus = 1
