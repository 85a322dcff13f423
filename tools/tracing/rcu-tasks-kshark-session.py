#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# rcu-tasks-kshark-session.py TRACE.DAT [SESSION.json]
#
# Write a KernelShark 2.x session for a trace.dat recorded with the
# rcu_tasks and ftrace_tramp events (tools/tracing/rcu-tasks-session.sh, or
# trace-cmd record around samples/ftrace/ftrace-churn.ko), then open it with
#
#	kernelshark -s SESSION.json
#
# The view: both CPU plots, and task plots for the RCU-tasks GP kthread,
# the tasks that build and retire trampolines (churn threads, the tracefs
# writer), the ones that free them (ftrace_tramp workqueue workers) and the
# churn's caller threads, over the whole trace.
#
# A session names its trace by absolute path and modification time, and
# plots tasks by pid: it belongs to one recording, so it is written for
# that recording rather than kept as a fixed file.  Needs trace-cmd.

import json
import os
import re
import subprocess
import sys

# "[buffer:] comm-pid [cpu] seconds.nanoseconds: system:event: ..." (-t)
LINE = re.compile(r'^(?:(\S+):)?\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+([\w:]+):')

# Task plots, in this order; each pattern is matched against the comm.
ROLES = [
    ('GP kthread', re.compile(r'^rcu_tasks_kthre')),
    ('churners', re.compile(r'^churn_ops/')),
    ('callers', re.compile(r'^churn_call/')),
]
MAX_PER_ROLE = 4
MAX_EVENT_TASKS = 3


def scan(dat):
    """CPU count; per buffer: events, first and last timestamp, tasks."""
    out = subprocess.run(['trace-cmd', 'report', '-t', '-i', dat],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, check=True).stdout
    bufs = {}
    m = re.match(r'cpus=(\d+)', out)
    ncpus = int(m.group(1)) if m else 1
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        buf, comm, pid, _cpu, sec, nsec, event = m.groups()
        ts = int(sec) * 1000000000 + int(nsec.ljust(9, '0')[:9])
        b = bufs.setdefault(buf or '', {'n': 0, 'first': ts, 'last': ts,
                                        'comm': {}, 'tramp': {}})
        b['n'] += 1
        b['last'] = max(b['last'], ts)
        b['first'] = min(b['first'], ts)
        pid = int(pid)
        b['comm'][pid] = comm
        if event.startswith('ftrace_tramp'):
            b['tramp'][pid] = b['tramp'].get(pid, 0) + 1
    return ncpus, bufs


def task_plots(buf):
    pids = []
    for _role, pat in ROLES:
        mine = sorted(p for p, c in buf['comm'].items() if pat.match(c))
        pids += [p for p in mine[:MAX_PER_ROLE] if p not in pids]
    # Whoever emitted the trampoline events: the tracefs writer, the
    # workqueue workers that retire and free.
    busiest = sorted(buf['tramp'], key=lambda p: -buf['tramp'][p])
    pids += [p for p in busiest[:MAX_EVENT_TASKS] if p not in pids and p]
    return pids


def session(dat, name, buf, ncpus):
    abs_dat = os.path.realpath(dat)
    # kernelshark opens the top buffer as stream 0 before any other.
    sd = 0 if name == '' else 1
    stream = {
        'type': 'kshark.config.stream',
        'stream id': sd,
        'data': {'type': 'kshark.config.data', 'file': abs_dat,
                 'name': name or 'top buffer',
                 'time': int(os.stat(abs_dat).st_mtime)},
        # At least one filter setting must be present for the stream to
        # load: the default mask (text and graph views) is that setting.
        'filters': {'type': 'kshark.config.filter', 'filter mask': 3},
        'plugins': {'type': 'kshark.config.plugins',
                    'registered': [['sched_events', True],
                                   ['missed_events', True]]},
        'CPUPlots': list(range(ncpus)),
        'TaskPlots': task_plots(buf),
    }
    return {
        'type': 'kshark.config.session',
        'Model': {'type': 'kshark.config.model',
                  'range': [buf['first'], buf['last']], 'bins': 1500},
        'data streams': [stream],
        'ComboPlots': [],
        'Markers': {'type': 'kshark.config.markers',
                    'markA': {'isSet': False}, 'markB': {'isSet': False},
                    'Active': 'A'},
        'ViewTop': 0,
        'ColorScheme': 0.75,
        'MainWindow': [1600, 1000],
        'Splitter': [760, 200],
        'User Plugins': {'type': 'kshark.config.plugins', 'obj. files': []},
    }


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit('usage: %s TRACE.DAT [SESSION.json]' % sys.argv[0])
    dat = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else \
        os.path.splitext(dat)[0] + '.kss.json'
    ncpus, bufs = scan(dat)
    if not bufs:
        sys.exit('%s: no events' % dat)
    # The buffer that holds the events of interest: most of them.
    name = max(bufs, key=lambda b: (len(task_plots(bufs[b])), bufs[b]['n']))
    buf = bufs[name]
    doc = session(dat, name, buf, ncpus)
    with open(out, 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')
    plots = doc['data streams'][0]['TaskPlots']
    print('%s: buffer "%s", %d events, %d CPUs, task plots: %s' % (
        out, name or 'top', buf['n'], ncpus,
        ' '.join('%s-%d' % (buf['comm'][p], p) for p in plots)))


if __name__ == '__main__':
    main()
