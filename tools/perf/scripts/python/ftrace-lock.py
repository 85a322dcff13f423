# SPDX-License-Identifier: GPL-2.0
# ftrace-lock.py: who waits on ftrace_lock, and for how long
#
# usage: perf script -s ftrace-lock.py [ADDR | KALLSYMS]
#
# Pairs each task's first lock:contention_begin on a lock with its next
# lock:contention_end on the same lock (a mutex reports a begin for the
# optimistic spin and another one before it sleeps) and reports the wait:
# the most waited-on locks, then for ftrace_lock a log2 histogram with n,
# p50, p99 and max, and the waiters by comm.
#
# ADDR is ftrace_lock's address in hex.  KALLSYMS is a copy of the traced
# machine's /proc/kallsyms (its data symbols suffice): it gives that address
# and names the other locks.  Without either, a recording made with
# ftrace-lock-record (filtered on ftrace_lock already) reports its only lock.
#
# These tracepoints see waits, not hold times: a lock that is held long
# but never contended does not show up.  CONFIG_LOCK_STAT's /proc/lock_stat
# gives hold times on a debug kernel.

from __future__ import print_function

import os
import sys

target = [None]		# ftrace_lock's address, when known
names = {}		# lock address -> symbol, from KALLSYMS
waiting = {}		# (tid, lock address) -> contention_begin timestamp (ns)
waits = {}		# lock address -> list of waits, ns
by_comm = {}		# (lock address, "comm-tid") -> list of waits, ns


def _load_args():
    if len(sys.argv) < 2:
        return
    arg = sys.argv[1]
    if not os.path.isfile(arg):
        target[0] = int(arg, 16)
        return
    with open(arg) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 3 or fields[1] not in 'bBdD':
                continue
            addr = int(fields[0], 16)
            names[addr] = fields[2]
            if fields[2] == 'ftrace_lock' and len(fields) == 3:
                target[0] = addr
    if target[0] is None:
        sys.exit('%s: no ftrace_lock in it' % arg)


def _name(addr):
    return names.get(addr, '%#x' % addr)


def _ts(secs, nsecs):
    return secs * 1000000000 + nsecs


def _pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def trace_begin():
    _load_args()


def lock__contention_begin(event_name, context, common_cpu, common_secs,
                           common_nsecs, common_pid, common_comm,
                           common_callchain, lock_addr, flags, *rest):
    waiting.setdefault((common_pid, lock_addr), _ts(common_secs, common_nsecs))


def lock__contention_end(event_name, context, common_cpu, common_secs,
                         common_nsecs, common_pid, common_comm,
                         common_callchain, lock_addr, ret, *rest):
    t = waiting.pop((common_pid, lock_addr), None)
    if t is None:
        return		# The wait began before the recording did.
    ns = _ts(common_secs, common_nsecs) - t
    waits.setdefault(lock_addr, []).append(ns)
    by_comm.setdefault((lock_addr, "%s-%d" % (common_comm, common_pid)),
                       []).append(ns)


def _row(label, ns):
    us = [x / 1000.0 for x in ns]
    return '%-28s %7d %12.1f %10.1f %10.1f %10.1f' % (
        label[:28], len(us), sum(us), _pct(us, 50), _pct(us, 99), max(us))


def _header(first):
    return '%-28s %7s %12s %10s %10s %10s' % (
        first, 'n', 'total us', 'p50 us', 'p99 us', 'max us')


def _histogram(ns):
    buckets = {}
    for x in ns:
        b = 1
        while b < x / 1000.0:
            b *= 2
        buckets[b] = buckets.get(b, 0) + 1
    top = max(buckets.values())
    print('\n%12s %8s' % ('<= us', 'count'))
    for b in sorted(buckets):
        print('%12d %8d %s' % (b, buckets[b], '#' * (40 * buckets[b] // top)))


def trace_end():
    pending = sum(1 for k in waiting if target[0] in (None, k[1]))
    if not waits:
        print('no contention_begin/end pair in this trace')
        return
    if target[0] is None and len(waits) == 1:
        target[0] = list(waits)[0]
    print('waits by lock (most total wait first):')
    print(_header('lock'))
    ranked = sorted(waits, key=lambda a: -sum(waits[a]))
    for addr in ranked[:10]:
        print(_row(_name(addr), waits[addr]))
    if target[0] is None:
        print('\nftrace_lock unknown: give its address or a kallsyms copy')
        return
    mine = waits.get(target[0], [])
    print('\nftrace_lock (%s): %d waits' % (_name(target[0]), len(mine)))
    if mine:
        _histogram(mine)
        comms = [k for k in by_comm if k[0] == target[0]]
        print('\n' + _header('waiter (comm-tid)'))
        for k in sorted(comms, key=lambda k: -sum(by_comm[k])):
            print(_row(k[1], by_comm[k]))
    if pending:
        print('\n%d wait(s) still open at the end of the trace' % pending)
