# SPDX-License-Identifier: GPL-2.0
# rcu-tasks-gp.py: Tasks RCU grace periods from the rcu_tasks tracepoints
#
# usage: perf script -s rcu-tasks-gp.py
#
# One line per grace period (sequence, duration, tasks scanned, holdouts,
# holdout passes, callbacks), then the distribution of durations (n, p50, p99,
# max) and the totals, so the cost of the flavor is visible in one report.

from __future__ import print_function

gps = {}


def _gp(seq):
    return gps.setdefault(seq, {'start': None, 'dur': None, 'scanned': 0,
                                'holdouts': 0, 'passes': 0, 'ncbs': 0,
                                'invoked': 0, 'scan_ns': 0})


def _ts(secs, nsecs):
    return secs * 1000000000 + nsecs


def rcu_tasks__rcu_tasks_gp_start(event_name, context, common_cpu, common_secs,
                                  common_nsecs, common_pid, common_comm,
                                  common_callchain, gp_seq, ncbs, *rest):
    g = _gp(gp_seq)
    g['start'] = _ts(common_secs, common_nsecs)
    g['ncbs'] = ncbs


def rcu_tasks__rcu_tasks_scan_done(event_name, context, common_cpu, common_secs,
                                   common_nsecs, common_pid, common_comm,
                                   common_callchain, gp_seq, nscanned,
                                   nholdouts, scan_ns, *rest):
    g = _gp(gp_seq)
    g['scanned'], g['holdouts'], g['scan_ns'] = nscanned, nholdouts, scan_ns


def rcu_tasks__rcu_tasks_gp_end(event_name, context, common_cpu, common_secs,
                                common_nsecs, common_pid, common_comm,
                                common_callchain, gp_seq, duration_ns,
                                npasses, *rest):
    g = _gp(gp_seq)
    g['dur'], g['passes'] = duration_ns, npasses


def rcu_tasks__rcu_tasks_cbs_invoked(event_name, context, common_cpu,
                                     common_secs, common_nsecs, common_pid,
                                     common_comm, common_callchain, gp_seq,
                                     count, *rest):
    _gp(gp_seq)['invoked'] += count


def _pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def trace_end():
    done = [(s, g) for s, g in sorted(gps.items()) if g['dur'] is not None]
    print('%10s %12s %8s %9s %7s %6s %8s' % ('gp_seq', 'duration_us', 'scanned',
                                             'holdouts', 'passes', 'cbs', 'invoked'))
    for seq, g in done:
        print('%10d %12.1f %8d %9d %7d %6d %8d' % (
            seq, g['dur'] / 1000.0, g['scanned'], g['holdouts'], g['passes'],
            g['ncbs'], g['invoked']))
    if not done:
        print('no complete grace period in this trace')
        return
    d = [g['dur'] / 1000.0 for _, g in done]
    print('\ngrace periods: n=%d p50=%.1f us p99=%.1f us max=%.1f us' % (
        len(d), _pct(d, 50), _pct(d, 99), max(d)))
    print('holdouts: %d in all, passes: %d, callbacks invoked: %d' % (
        sum(g['holdouts'] for _, g in done), sum(g['passes'] for _, g in done),
        sum(g['invoked'] for _, g in done)))
