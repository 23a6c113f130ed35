"""What the sweep test scripts share: one check() that prints each result and collects failures.

    from checks import FAILURES, check
    check(a == b, "the rows match", detail=diff)
    if FAILURES: sys.exit(...)
"""

FAILURES = []


def check(cond, what, detail=""):
    if cond:
        print(f"  ok: {what}")
    else:
        print(f"  FAIL: {what}\n{detail}")
        FAILURES.append(what)
