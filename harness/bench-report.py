#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the "@@ M metric value" samples of a stock and a patched guest run
into a Markdown table (metric, stock, ours, ratio, n), bench.json and
gnuplot PNGs."""
import json
import os
import subprocess
import sys


def samples(paths):
    """Pool the samples of one or more guest runs (comma-separated paths);
    also return each metric's median per run, for metrics seen in several."""
    out, per_boot = {}, {}
    for path in paths.split(','):
        run = {}
        with open(path) as f:
            for line in f:
                if line.startswith('@@ M '):
                    _, _, name, value = line.split()
                    run.setdefault(name, []).append(float(value))
        for name, values in run.items():
            out.setdefault(name, []).extend(values)
            per_boot.setdefault(name, []).append(pct(values, 50))
    return out, {k: v for k, v in per_boot.items() if len(v) > 1}


def pct(values, p):
    v = sorted(values)
    if not v:
        return float('nan')
    k = min(len(v) - 1, max(0, int(round(p / 100.0 * (len(v) - 1)))))
    return v[k]


def unit(name):
    """The unit of a metric, from its name (every row states one)."""
    for suffix, u in (('_ns', 'time'), ('_bytes', 'bytes'), ('_per_s', '1/s'),
                      ('_per_10s', 'per 10 s'), ('_pending_max', 'bytes'),
                      ('_pending', 'trampolines'), ('_swaps', 'swaps')):
        if name.endswith(suffix):
            return u
    return 'count'


def fmt(x, name):
    if x != x:  # NaN: this kernel has no such metric (ours-only rows).
        return '\u2014'
    if name.endswith('_ns'):
        if x >= 1e6:
            return '%.2f ms' % (x / 1e6)
        if x >= 1e3:
            return '%.1f us' % (x / 1e3)
        return '%.0f ns' % x
    return '%g' % x


def main():
    (stock, stock_boots), (ours, ours_boots) = samples(sys.argv[1]), samples(sys.argv[2])
    outdir = sys.argv[3]
    rows, table = [], []
    table.append('| metric | unit | stock p50 | ours p50 | ratio p50 | stock p99 | ours p99 | n stock/ours |')
    table.append('|---|---|---|---|---|---|---|---|')
    for name in sorted(set(stock) | set(ours)):
        s, o = stock.get(name, []), ours.get(name, [])
        row = {'metric': name, 'n_stock': len(s), 'n_ours': len(o),
               'stock_p50': pct(s, 50), 'ours_p50': pct(o, 50),
               'stock_p99': pct(s, 99), 'ours_p99': pct(o, 99),
               'stock_max': max(s) if s else None, 'ours_max': max(o) if o else None}
        row['ratio_p50'] = (row['ours_p50'] / row['stock_p50']
                            if s and o and row['stock_p50'] else None)
        rows.append(row)
        ratio = '%.3g' % row['ratio_p50'] if row['ratio_p50'] is not None else '\u2014'
        table.append('| %s | %s | %s | %s | %s | %s | %s | %d/%d |' % (
            name, unit(name), fmt(row['stock_p50'], name), fmt(row['ours_p50'], name), ratio,
            fmt(row['stock_p99'], name), fmt(row['ours_p99'], name), len(s), len(o)))
    if stock_boots or ours_boots:
        table.append('')
        table.append('Medians of each boot (the pooled samples above come from several):')
        table.append('')
        table.append('| metric | stock, per boot | ours, per boot |')
        table.append('|---|---|---|')
        for name in sorted(set(stock_boots) | set(ours_boots)):
            table.append('| %s | %s | %s |' % (
                name, ', '.join(fmt(x, name) for x in stock_boots.get(name, [])),
                ', '.join(fmt(x, name) for x in ours_boots.get(name, []))))
    md = '\n'.join(table) + '\n'
    print(md)
    with open(os.path.join(outdir, 'bench.md'), 'w') as f:
        f.write(md)
    with open(os.path.join(outdir, 'bench.json'), 'w') as f:
        json.dump({'metrics': rows, 'samples': {'stock': stock, 'ours': ours},
                   'per_boot_p50': {'stock': stock_boots, 'ours': ours_boots}}, f, indent=1)
    plot(stock, ours, outdir)


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
