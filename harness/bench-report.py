#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the "@@ M metric value" samples of a stock and a patched guest run
into a Markdown table (metric, stock, ours, ratio, n), bench.json and
gnuplot PNGs.  "@@ E metric why" (a failed measurement), "@@ NA metric
why" (this kernel cannot measure it) and an "@@ M" line without a number
are no samples: the report lists them under the table."""
import json
import math
import os
import subprocess
import sys


def samples(paths):
    """Pool the samples of one or more guest runs (comma-separated paths);
    also return each metric's median per run, for metrics seen in several,
    and what was not a sample: {metric: {'error'|'na'|'missing': [why]}}."""
    out, per_boot, notes = {}, {}, {}
    for path in paths.split(','):
        run = {}
        with open(path) as f:
            for line in f:
                parts = line.split(None, 3)
                if len(parts) < 3 or parts[0] != '@@' or parts[1] not in ('M', 'E', 'NA'):
                    continue
                name, rest = parts[2], parts[3].strip() if len(parts) > 3 else ''
                if parts[1] == 'E':
                    notes.setdefault(name, {}).setdefault('error', []).append(rest)
                    continue
                if parts[1] == 'NA':
                    notes.setdefault(name, {}).setdefault('na', []).append(rest)
                    continue
                try:
                    value = float(rest)
                except ValueError:
                    value = float('nan')
                if math.isfinite(value):
                    run.setdefault(name, []).append(value)
                else:
                    notes.setdefault(name, {}).setdefault('missing', []).append(
                        'value %r' % rest if rest else 'no value')
        for name, values in run.items():
            out.setdefault(name, []).extend(values)
            per_boot.setdefault(name, []).append(pct(values, 50))
    return out, {k: v for k, v in per_boot.items() if len(v) > 1}, notes


def pct(values, p):
    """The p-th percentile of values, None if there are none."""
    v = sorted(values)
    if not v:
        return None
    k = min(len(v) - 1, max(0, int(round(p / 100.0 * (len(v) - 1)))))
    return v[k]


def is_time(name):
    """A time in ns: *_ns, and the per-call costs call_ns_*."""
    return name.endswith('_ns') or name.startswith('call_ns_')


def unit(name):
    """The unit of a metric's samples, from its name (every row states one;
    a time cell also names its own scale)."""
    if name.startswith('call_ns_'):
        return 'ns/call'
    if name.startswith('unwind_frame') and is_time(name):
        return 'ns/frame'
    if name.endswith('_per_1000cbs_ns'):
        return 'ns/1000 callbacks'
    if is_time(name):
        return 'ns'
    if '_bytes' in name:
        return 'bytes'
    for suffix, u in (('_cbs_per_s', 'callbacks/s'), ('_ns_per_s', 'ns/s'),
                      ('_cycles_per_s', 'cycles/s'), ('_per_s', 'per s'),
                      ('_wakeups_per_10s', 'wakeups/10 s'), ('_per_10s', 'per 10 s'),
                      ('_pending', 'trampolines'), ('_swaps', 'swaps'),
                      ('_cycles', 'cycles'), ('_refused', 'builds'),
                      ('_count', 'count'), ('_per_cycle', 'IPIs/cycle')):
        if name.endswith(suffix):
            return u
    sys.stderr.write('bench-report: no unit known for %s, shown as a count\n' % name)
    return 'count'


def fmt(x, name):
    if is_time(name):
        if x >= 1e6:
            return '%.2f ms' % (x / 1e6)
        if x >= 1e3:
            return '%.1f us' % (x / 1e3)
        return ('%.1f ns' if x < 100 else '%.0f ns') % x  # A call costs 40 ns.
    return '%g' % x


def cell(x, name, notes):
    """A table cell: the value, or why there is none on this kernel."""
    if x is not None:
        return fmt(x, name)
    for kind, text in (('error', 'error'), ('na', 'n/a'), ('missing', 'missing')):
        if notes.get(name, {}).get(kind):
            return text
    return '\u2014'  # No such metric on this kernel (ours-only rows).


def main():
    stock, stock_boots, stock_notes = samples(sys.argv[1])
    ours, ours_boots, ours_notes = samples(sys.argv[2])
    outdir = sys.argv[3]
    rows, table = [], []
    table.append('| metric | unit | stock p50 | ours p50 | ratio p50 | stock p99 | ours p99 | n stock/ours |')
    table.append('|---|---|---|---|---|---|---|---|')
    for name in sorted(set(stock) | set(ours) | set(stock_notes) | set(ours_notes)):
        s, o = stock.get(name, []), ours.get(name, [])
        row = {'metric': name, 'unit': unit(name), 'n_stock': len(s), 'n_ours': len(o),
               'stock_p50': pct(s, 50), 'ours_p50': pct(o, 50),
               'stock_p99': pct(s, 99), 'ours_p99': pct(o, 99),
               'stock_max': max(s) if s else None, 'ours_max': max(o) if o else None,
               'stock_errors': len(stock_notes.get(name, {}).get('error', [])),
               'ours_errors': len(ours_notes.get(name, {}).get('error', []))}
        row['ratio_p50'] = (row['ours_p50'] / row['stock_p50']
                            if s and o and row['stock_p50'] else None)
        rows.append(row)
        ratio = '%.3g' % row['ratio_p50'] if row['ratio_p50'] is not None else '\u2014'
        n = '%d/%d' % (len(s), len(o))
        if row['stock_errors'] or row['ours_errors']:
            n += ' (errors %d/%d)' % (row['stock_errors'], row['ours_errors'])
        table.append('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
            name, row['unit'], cell(row['stock_p50'], name, stock_notes),
            cell(row['ours_p50'], name, ours_notes), ratio,
            cell(row['stock_p99'], name, stock_notes),
            cell(row['ours_p99'], name, ours_notes), n))
    table.append('')
    table.append('A time cell names its scale (ns, us, ms); the unit column is that of the'
                 ' samples in bench.json.  \u2014: no such metric on that kernel.')
    notes = []
    for label, side in (('stock', stock_notes), ('ours', ours_notes)):
        for name in sorted(side):
            for kind, text in (('error', 'error'), ('na', 'not available'),
                               ('missing', 'missing')):
                whys = side[name].get(kind, [])
                for why in sorted(set(whys)):
                    count = whys.count(why)
                    notes.append('- %s %s: %s%s%s' % (
                        label, name, text, ': ' + why if why else '',
                        ' (%d times)' % count if count > 1 else ''))
    if notes:
        table.append('')
        table.append('Not samples (errors, values this kernel cannot give, empty values):')
        table.append('')
        table.extend(notes)
    if stock_boots or ours_boots:
        table.append('')
        table.append('Medians of each boot (the pooled samples above come from several):')
        table.append('')
        table.append('| metric | unit | stock, per boot | ours, per boot |')
        table.append('|---|---|---|---|')
        for name in sorted(set(stock_boots) | set(ours_boots)):
            table.append('| %s | %s | %s | %s |' % (
                name, unit(name),
                ', '.join(fmt(x, name) for x in stock_boots.get(name, [])) or '\u2014',
                ', '.join(fmt(x, name) for x in ours_boots.get(name, [])) or '\u2014'))
    md = '\n'.join(table) + '\n'
    print(md)
    with open(os.path.join(outdir, 'bench.md'), 'w') as f:
        f.write(md)
    with open(os.path.join(outdir, 'bench.json'), 'w') as f:
        json.dump({'metrics': rows, 'samples': {'stock': stock, 'ours': ours},
                   'not_samples': {'stock': stock_notes, 'ours': ours_notes},
                   'per_boot_p50': {'stock': stock_boots, 'ours': ours_boots}}, f, indent=1)
    plot(stock, ours, outdir)
    plot_ratios(rows, outdir)


def plot_ratios(rows, outdir):
    """ratios.png: the p50 ratio ours/stock of every metric both kernels
    gave, on a log axis with 1.0 (no change) marked, to read at a glance.
    Whether below 1 is better depends on the metric (a time, a cost: yes;
    a throughput, *_per_s of work done: no); the table says."""
    have = [r for r in rows if r['ratio_p50'] is not None and r['ratio_p50'] > 0]
    if not have:
        return
    dat = os.path.join(outdir, 'ratios.dat')
    with open(dat, 'w') as f:
        for r in have:
            f.write('"%s" %g\n' % (r['metric'], r['ratio_p50']))
    lo = min(min(r['ratio_p50'] for r in have), 1.0) / 2
    hi = max(max(r['ratio_p50'] for r in have), 1.0) * 2
    gp = ('set terminal png size 1000,%d; set output "%s"; set termoption noenhanced;'
          'set title "ours / stock, p50 of each metric (1.0: no change)";'
          'set logscale x; set xrange [%g:%g]; set yrange [-1:%d]; set grid xtics;'
          'set ytics font ",8"; set key off;'
          'set arrow from 1, graph 0 to 1, graph 1 nohead lw 2 lc rgb "red";'
          'plot "%s" using 2:0:ytic(1) with points pt 7 ps 1'
          % (120 + 14 * len(have), os.path.join(outdir, 'ratios.png'), lo, hi,
             len(have), dat))
    subprocess.run(['gnuplot', '-e', gp], check=False)


def plot(stock, ours, outdir):
    """Latency distributions (CDF) per metric, and GP latency vs tasks."""
    for name in sorted(set(stock) & set(ours)):
        if not name.endswith('_ns') or len(stock[name]) < 5:
            continue
        dat = os.path.join(outdir, name + '.dat')
        with open(dat, 'w') as f:
            for label, vals in (('stock', stock[name]), ('ours', ours[name])):
                v = sorted(vals)
                for i, x in enumerate(v):
                    f.write('%g %g\n' % (x / 1e6, (i + 1) / len(v)))
                f.write('\n\n')
        gp = ('set terminal png size 800,500; set output "%s";'
              'set title "%s (CDF)"; set xlabel "ms"; set ylabel "fraction";'
              'set logscale x; set key bottom right;'
              'plot "%s" index 0 with steps title "stock", "" index 1 with steps title "ours"'
              % (os.path.join(outdir, name + '.png'), name, dat))
        subprocess.run(['gnuplot', '-e', gp], check=False)
    pts = []
    for n in (100, 1000, 10000):
        k = 'rcuscale_tasks%d_ns' % n
        if k in stock and k in ours:
            pts.append('%d %g %g' % (n, pct(stock[k], 50) / 1e6, pct(ours[k], 50) / 1e6))
    if pts:
        dat = os.path.join(outdir, 'gp_vs_tasks.dat')
        with open(dat, 'w') as f:
            f.write('\n'.join(pts) + '\n')
        gp = ('set terminal png size 800,500; set output "%s";'
              'set title "Tasks RCU GP latency (p50) against sleeping tasks";'
              'set xlabel "tasks"; set ylabel "ms"; set logscale x;'
              'plot "%s" using 1:2 with linespoints title "stock",'
              ' "" using 1:3 with linespoints title "ours"'
              % (os.path.join(outdir, 'gp_vs_tasks.png'), dat))
        subprocess.run(['gnuplot', '-e', gp], check=False)


if __name__ == '__main__':
    main()
