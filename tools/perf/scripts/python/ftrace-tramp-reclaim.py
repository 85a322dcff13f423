# SPDX-License-Identifier: GPL-2.0
# ftrace-tramp-reclaim.py: reclamation latency of ftrace trampolines
#
# usage: perf script -s ftrace-tramp-reclaim.py
#
# Pairs every ftrace_tramp:ftrace_tramp_retire with the ftrace_tramp_free of
# the same trampoline id and reports the retire-to-free latency as a log2
# histogram with n, p50, p99 and max; also the trampolines built and
# swapped, the peak of the memory waiting for retirement, and any
# trampoline retired but not freed by the end of the trace.

from __future__ import print_function

retired = {}		# id -> retire timestamp (ns)
latencies = []		# retire -> free, ns, from the timestamps
counts = {'alloc': 0, 'swap': 0, 'retire': 0, 'free': 0}
peak_pending = [0]


def _ts(secs, nsecs):
    return secs * 1000000000 + nsecs


def ftrace_tramp__ftrace_tramp_alloc(event_name, context, common_cpu,
                                     common_secs, common_nsecs, common_pid,
                                     common_comm, common_callchain, id, ops,
                                     addr, size, *rest):
    counts['alloc'] += 1


def ftrace_tramp__ftrace_tramp_swap(event_name, context, common_cpu,
                                    common_secs, common_nsecs, common_pid,
                                    common_comm, common_callchain, ops,
                                    old_id, new_id, *rest):
    counts['swap'] += 1


def ftrace_tramp__ftrace_tramp_retire(event_name, context, common_cpu,
                                      common_secs, common_nsecs, common_pid,
                                      common_comm, common_callchain, id, addr,
                                      pending, *rest):
    counts['retire'] += 1
    retired[id] = _ts(common_secs, common_nsecs)
    peak_pending[0] = max(peak_pending[0], pending)


def ftrace_tramp__ftrace_tramp_free(event_name, context, common_cpu,
                                    common_secs, common_nsecs, common_pid,
                                    common_comm, common_callchain, id, addr,
                                    latency_ns, *rest):
    counts['free'] += 1
    t = retired.pop(id, None)
    if t is not None:
        latencies.append(_ts(common_secs, common_nsecs) - t)


def _pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def trace_end():
    print('trampolines: %(alloc)d built, %(swap)d swaps, %(retire)d retired, '
          '%(free)d freed' % counts)
    print('peak memory waiting for retirement: %d bytes' % peak_pending[0])
    if not latencies:
        print('no retire/free pair in this trace')
    else:
        us = [x / 1000.0 for x in latencies]
        print('retire -> free: n=%d p50=%.1f us p99=%.1f us max=%.1f us' % (
            len(us), _pct(us, 50), _pct(us, 99), max(us)))
        buckets = {}
        for x in us:
            b = 1
            while b < x:
                b *= 2
            buckets[b] = buckets.get(b, 0) + 1
        top = max(buckets.values())
        print('\n%12s %8s' % ('<= us', 'count'))
        for b in sorted(buckets):
            print('%12d %8d %s' % (b, buckets[b], '#' * (40 * buckets[b] // top)))
    if retired:
        print('\n%d trampoline(s) retired and not freed by the end of the trace: ids %s'
              % (len(retired), ' '.join(str(i) for i in sorted(retired)[:20])))
