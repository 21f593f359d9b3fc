#!/usr/bin/env python3
"""seqlint plugin overhead, side by side with plain clang. Driven by run.sh.

Three parts (see README.md):
  compile  the TOP largest files of a compile database: -O2 -c and -fsyntax-only,
           each with and without the plugin, REPS interleaved repetitions;
  set      the whole database: plain clang -fsyntax-only, clang + plugin run
           directly, and the seqlint runner, at -j1 and -j2;
  scaling  generated files of 10..10000 functions (gen.py): plugin cost per function.
Writes a Markdown report (ratios; absolute times only next to their peer).
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def timed(cmd, cwd=None, stdout=subprocess.DEVNULL):
    """Runs cmd; returns (exit status, wall seconds, child CPU seconds user+sys)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=stdout, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, wall, ru.ru_utime + ru.ru_stime


def loadavg():
    try:
        return open('/proc/loadavg').read().split()[0]
    except OSError:
        return '?'


def median(xs):
    return statistics.median(xs)


# ---- compile database ------------------------------------------------------

def entry_args(e):
    return list(e['arguments']) if 'arguments' in e else shlex.split(e['command'])


def base_args(e):
    """The compile command without its output and dependency-file options."""
    out, args, i = [], entry_args(e), 0
    while i < len(args):
        a = args[i]
        if a in ('-o', '-MF', '-MT', '-MQ'):
            i += 2
            continue
        if a in ('-MD', '-MMD') or a.startswith(('-Wp,-MD,', '-Wp,-MMD,')):
            i += 1
            continue
        out.append(a)
        i += 1
    return out


def compile_cmd(e, obj):
    return base_args(e) + ['-o', obj]


def syntax_cmd(e):
    return [a for a in base_args(e) if a != '-c'] + ['-fsyntax-only']


def plugin_args(plugin):
    return ['-fplugin=' + plugin, '-fplugin-arg-seqlint-no-werror']


def set_cmd(e, plugin=None):
    """What the runner runs for one entry (-fsyntax-only, -Wno-error), with or
    without the plugin."""
    cmd = syntax_cmd(e) + ['-Wno-error', '-fno-crash-diagnostics']
    return cmd + plugin_args(plugin) if plugin else cmd


def preprocessed_size(e):
    cmd = [a for a in syntax_cmd(e) if a != '-fsyntax-only'] + ['-E']
    p = subprocess.run(cmd, cwd=e['directory'], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return len(p.stdout) if p.returncode == 0 else -1


def rel(e):
    f = os.path.normpath(os.path.join(e['directory'], e['file']))
    return os.path.relpath(f, e['directory'])


# ---- part 1: the largest files ----------------------------------------------

def part_compile(db, plugin, top, reps, select, jobs):
    if select == 'preprocessed':
        log('compile: measuring the preprocessed size of %d files (-j%d)' % (len(db), jobs))
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            sizes = list(pool.map(preprocessed_size, db))
    else:
        sizes = [os.path.getsize(os.path.join(e['directory'], e['file'])) for e in db]
    order = sorted(range(len(db)), key=lambda k: -sizes[k])[:top]
    files = [(db[k], sizes[k]) for k in order]
    tmp = tempfile.mkdtemp(prefix='seqlint-bench-')
    obj = os.path.join(tmp, 'out.o')
    configs = {
        'c': lambda e: compile_cmd(e, obj),
        'c+plugin': lambda e: compile_cmd(e, obj) + plugin_args(plugin),
        'syntax': syntax_cmd,
        'syntax+plugin': lambda e: syntax_cmd(e) + plugin_args(plugin),
    }
    # Interleaved: each repetition runs every file's four configurations,
    # plain/plugin order alternating between repetitions (ABBA) against drift.
    t = {(rel(e), c): [] for e, _ in files for c in configs}
    failures = []
    for r in range(reps):
        log('compile: repetition %d/%d' % (r + 1, reps))
        for e, _ in files:
            pairs = [('c', 'c+plugin'), ('syntax', 'syntax+plugin')]
            for a, b in pairs:
                for c in ((a, b) if r % 2 == 0 else (b, a)):
                    rc, wall, cpu = timed(configs[c](e), cwd=e['directory'])
                    if rc != 0:
                        failures.append((rel(e), c, rc))
                    t[(rel(e), c)].append((wall, cpu))
    shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for e, size in files:
        n = rel(e)
        m = {c: (median(w for w, _ in t[(n, c)]), median(u for _, u in t[(n, c)]))
             for c in configs}
        rows.append({'file': n, 'size': size, 'median': m,
                     'ratio_c': m['c+plugin'][1] / m['c'][1],
                     'ratio_syntax': m['syntax+plugin'][1] / m['syntax'][1],
                     'ratio_c_wall': m['c+plugin'][0] / m['c'][0],
                     'ratio_syntax_wall': m['syntax+plugin'][0] / m['syntax'][0]})
    return {'rows': rows, 'reps': reps, 'select': select, 'failures': failures,
            'median_c': median(r['ratio_c'] for r in rows),
            'median_syntax': median(r['ratio_syntax'] for r in rows),
            'median_c_wall': median(r['ratio_c_wall'] for r in rows),
            'median_syntax_wall': median(r['ratio_syntax_wall'] for r in rows)}


# ---- part 2: the whole set ---------------------------------------------------

def run_pool(db, plugin, jobs):
    """clang over every entry, `jobs` at a time (what xargs -P does)."""
    failures = []

    def one(e):
        rc, _, _ = timed(set_cmd(e, plugin), cwd=e['directory'])
        return rel(e), rc

    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for name, rc in pool.map(one, db):
            if rc != 0:
                failures.append((name, rc))
    return time.perf_counter() - t0, failures


def run_runner(runner, dbdir, plugin, jobs):
    cmd = [runner, '-p', dbdir, '-j', str(jobs), '--plugin=' + plugin, '-o', os.devnull]
    rc, wall, _ = timed(cmd)
    return wall, ([] if rc in (0, 1) else [('runner', rc)])


def part_set(db, dbdir, plugin, runner, jobs_list, reps):
    res = {}
    for j in jobs_list:
        times = {'plain': [], 'plugin': [], 'runner': []}
        fails = []
        for r in range(reps):
            order = ['plain', 'plugin', 'runner']
            if r % 2:
                order.reverse()
            for c in order:
                log('set: %s -j%d (repetition %d/%d)' % (c, j, r + 1, reps))
                if c == 'plain':
                    wall, f = run_pool(db, None, j)
                elif c == 'plugin':
                    wall, f = run_pool(db, plugin, j)
                else:
                    wall, f = run_runner(runner, dbdir, plugin, j)
                times[c].append(wall)
                fails += [(c, j) + x for x in f]
        res[j] = {'times': {c: median(v) for c, v in times.items()}, 'failures': fails}
    return {'n': len(db), 'reps': reps, 'by_jobs': res}


# ---- part 3: scaling ---------------------------------------------------------

def part_scaling(clang, plugin, sizes, reps):
    tmp = tempfile.mkdtemp(prefix='seqlint-scale-')
    inc = os.path.join(ROOT, 'test', 'Inputs', 'kernel')
    rows = []
    sys.path.insert(0, HERE)
    import gen  # noqa: E402
    for n in sizes:
        src = os.path.join(tmp, 'gen%d.c' % n)
        with open(src, 'w') as f:
            f.write(gen.generate(n))
        base = [clang, '-fsyntax-only', '-I', inc, src]
        withp = base + plugin_args(plugin)
        # The plugin must be silent on this correct code.
        p = subprocess.run(withp, capture_output=True, text=True)
        findings = p.stderr.count('[seqlint-')
        plain, plug = [], []
        k = reps if n < 10000 else max(3, reps // 2 + 1)
        for r in range(k):
            for c in ((base, withp) if r % 2 == 0 else (withp, base)):
                rc, wall, cpu = timed(c)
                if rc != 0:
                    raise SystemExit('scaling: %s failed (%d)' % (' '.join(c), rc))
                (plain if c is base else plug).append(cpu)
        mp, mq = median(plain), median(plug)
        rows.append({'n': n, 'plain': mp, 'plugin': mq, 'ratio': mq / mp,
                     'per_fn_us': (mq - mp) / n * 1e6, 'findings': findings, 'reps': k})
        log('scaling: %5d functions: plugin/plain %.3f, %.1f us per function'
            % (n, mq / mp, rows[-1]['per_fn_us']))
    shutil.rmtree(tmp, ignore_errors=True)
    by = {r['n']: r for r in rows}
    lin = None
    if 100 in by and 10000 in by and by[100]['per_fn_us'] > 0:
        lin = by[10000]['per_fn_us'] / by[100]['per_fn_us']
    lin1000 = None
    if 1000 in by and 10000 in by and by[1000]['per_fn_us'] > 0:
        lin1000 = by[10000]['per_fn_us'] / by[1000]['per_fn_us']
    return {'rows': rows, 'linearity': lin, 'linearity_1000': lin1000}


# ---- report ------------------------------------------------------------------

def machine_facts(clang, plugin_src):
    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
        except OSError:
            return '?'
    cpu = '?'
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                cpu = line.split(':', 1)[1].strip()
                break
    except OSError:
        pass
    return {
        'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
        'nproc': out(['nproc']), 'arch': out(['uname', '-m']), 'cpu': cpu,
        'clang': out([clang, '--version']).splitlines()[0] if out([clang, '--version']) else '?',
        'rev': out(['git', '-C', ROOT, 'describe', '--always', '--dirty']),
        'plugin': plugin_src,
    }


def ok(v, limit):
    return 'meets' if v <= limit else 'MISSES'


def report(facts, comp, sets, scale, args):
    L = ['# seqlint plugin overhead: results of one run', '',
         'Written by `bench/plugin/run.sh` (method: `bench/plugin/README.md`). '
         'Every figure is a ratio to plain clang on the same input in the same run; '
         'absolute times appear only next to their peer.', '',
         '| | |', '|---|---|',
         '| date | %s |' % facts['date'],
         '| machine | `nproc` %s, `uname -m` %s, %s |' % (facts['nproc'], facts['arch'], facts['cpu']),
         '| compiler | %s |' % facts['clang'],
         '| 1-min load average | %s (the benchmark itself accounts for about 1, 2 at -j2; more means other work ran alongside: expect noise) |' % facts['load'],
         '| seqlint | `%s` at %s |' % (facts['plugin'], facts['rev']),
         '| command | `%s` |' % args.command_line, '']
    if comp:
        L += ['## 1. Largest files: plugin overhead per compile', '',
              'The %d largest files (by %s size) of `%s`, each configuration run %d times, '
              'interleaved (plain/plugin order alternating). Times are the median CPU time '
              '(user+sys) of the clang process; the ratio is plugin/plain. '
              'Targets: -O2 -c <= 1.03x, -fsyntax-only <= 1.15x.'
              % (len(comp['rows']), comp['select'], args.db_display, comp['reps']), '',
              '| file | -c plain | -c + plugin | **-c ratio** | -fsyntax-only plain | + plugin | **-fsyntax-only ratio** |',
              '|---|---:|---:|---:|---:|---:|---:|']
        for r in comp['rows']:
            m = r['median']
            L.append('| `%s` | %.3f s | %.3f s | **%.3f** | %.3f s | %.3f s | **%.3f** |'
                     % (r['file'], m['c'][1], m['c+plugin'][1], r['ratio_c'],
                        m['syntax'][1], m['syntax+plugin'][1], r['ratio_syntax']))
        L += ['',
              '**Median ratio: -O2 -c %.3fx (target 1.03x: %s), -fsyntax-only %.3fx '
              '(target 1.15x: %s).** The same medians in wall time: %.3fx and %.3fx.'
              % (comp['median_c'], ok(comp['median_c'], 1.03), comp['median_syntax'],
                 ok(comp['median_syntax'], 1.15), comp['median_c_wall'], comp['median_syntax_wall']),
              '']
        if comp['failures']:
            L += ['Failed compiles (excluded from nothing; investigate): %s' % comp['failures'], '']
    if sets:
        L += ['## 2. The whole set: runner vs direct compiles', '',
              'All %d entries of the database, `-fsyntax-only` with the runner\'s flags '
              '(`-Wno-error -fno-crash-diagnostics`). "plain": clang without the plugin, N at a time '
              '(like `xargs -P N`); "clang+plugin": the same with the plugin; "runner": '
              '`seqlint -p DIR -j N` (output discarded). Wall time, median of %d run(s).'
              % (sets['n'], sets['reps']), '',
              '| -j | plain | clang+plugin | runner | plain files/s | clang+plugin files/s | runner files/s | **runner / plain** | clang+plugin / plain | **runner overhead vs clang+plugin** |',
              '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
        for j, v in sorted(sets['by_jobs'].items()):
            t = v['times']
            L.append('| %d | %.1f s | %.1f s | %.1f s | %.2f | %.2f | %.2f | **%.3f** | %.3f | **%+.1f%%** |'
                     % (j, t['plain'], t['plugin'], t['runner'], sets['n'] / t['plain'],
                        sets['n'] / t['plugin'], sets['n'] / t['runner'], t['runner'] / t['plain'],
                        t['plugin'] / t['plain'], (t['runner'] / t['plugin'] - 1) * 100))
        fails = [f for v in sets['by_jobs'].values() for f in v['failures']]
        L += ['', 'Target: runner overhead beyond the compiler runs < 5%.'
              + (' Failed runs: %s' % fails if fails else ' Every compile succeeded.'), '']
    if scale:
        L += ['## 3. Scaling with the number of functions', '',
              'Files written by `bench/plugin/gen.py N` (reader loops, open-coded writers and '
              'plain functions in turn over 50 shared struct types; correct code), '
              '`clang-19 -fsyntax-only -I test/Inputs/kernel`, median CPU time of %s runs '
              'respectively, interleaved. Cost per function = (plugin - plain) / N.'
              % '/'.join(str(r['reps']) for r in scale['rows']), '',
              '| functions | plain | + plugin | plugin / plain | plugin cost per function | findings |',
              '|---:|---:|---:|---:|---:|---:|']
        for r in scale['rows']:
            L.append('| %d | %.3f s | %.3f s | %.3f | %.1f us | %d |'
                     % (r['n'], r['plain'], r['plugin'], r['ratio'], r['per_fn_us'], r['findings']))
        if scale['linearity'] is not None:
            L += ['', '**Per-function cost, 10000 vs 100 functions: %.2fx** (1.0 = linear; '
                  'the 10- and 100-function costs sit near the measurement noise).' % scale['linearity']]
        if scale.get('linearity_1000') is not None:
            L += ['', 'Per-function cost, 10000 vs 1000 functions: %.2fx.' % scale['linearity_1000']]
        L.append('')
    return '\n'.join(L)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--plugin', required=True)
    ap.add_argument('--plugin-src', default='build/lib/seqlint.so')
    ap.add_argument('--runner', required=True)
    ap.add_argument('--clang', default='clang-19')
    ap.add_argument('--db', required=True, help='directory with compile_commands.json')
    ap.add_argument('--top', type=int, default=10)
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--set-reps', type=int, default=1)
    ap.add_argument('--select', choices=['preprocessed', 'source'], default='preprocessed')
    ap.add_argument('--jobs', default='1,2')
    ap.add_argument('--sizes', default='10,100,1000,10000')
    ap.add_argument('--parts', default='compile,set,scaling')
    ap.add_argument('--out', required=True)
    ap.add_argument('--json')
    ap.add_argument('--command-line', default='bench/plugin/run.sh')
    args = ap.parse_args()
    args.db_display = args.db
    parts = set(args.parts.split(','))
    db = []
    if parts & {'compile', 'set'}:
        db = json.load(open(os.path.join(args.db, 'compile_commands.json')))
    load_start = loadavg()
    facts = machine_facts(args.clang, args.plugin_src)  # the revision the plugin was copied at
    comp = part_compile(db, args.plugin, args.top, args.reps, args.select, 2) if 'compile' in parts else None
    sets = part_set(db, args.db, args.plugin, args.runner,
                    [int(j) for j in args.jobs.split(',')], args.set_reps) if 'set' in parts else None
    scale = part_scaling(args.clang, args.plugin, [int(n) for n in args.sizes.split(',')],
                         args.reps) if 'scaling' in parts else None
    facts['load'] = '%s at the start, %s at the end' % (load_start, loadavg())
    text = report(facts, comp, sets, scale, args)
    with open(args.out, 'w') as f:
        f.write(text)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'compile': comp, 'set': sets, 'scaling': scale}, f, indent=1)
    print(text)


if __name__ == '__main__':
    main()
