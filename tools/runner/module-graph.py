#!/usr/bin/env python3
"""The runner's modules and what they use, checked for layering.

A module of tools/runner is a pair X.c / X.h (main.c has no header). The
script reads every file's #include "..." lines and checks that:

  - every header is a module's: X.h has an X.c (no header shared by all);
  - every X.c includes X.h first (the header stands on its own);
  - the graph "module A includes a header of module B" has no cycle.

With --objects DIR (the directory of the compiled X.c.o files) it also reads
the symbols each object defines and uses (nm) and checks that the call graph
between modules has no cycle either: a function may be declared where it
does not belong. Prints the cycle and exits 1 on a violation; with --dot,
prints the graph in Graphviz syntax.

  tools/runner/module-graph.py tools/runner [--objects build/tools/runner/...]
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(src):
    names = os.listdir(src)
    cs = {n[:-2] for n in names if n.endswith(".c")}
    hs = {n[:-2] for n in names if n.endswith(".h")}
    return cs, hs, names


def include_edges(src, cs, hs, problems):
    edges = {m: set() for m in cs | hs}
    for m in sorted(cs | hs):
        for ext in (".c", ".h"):
            path = os.path.join(src, m + ext)
            if not os.path.exists(path):
                continue
            text = open(path, encoding="utf-8").read()
            incs = [i for i in INCLUDE.findall(text) if i.endswith(".h")]
            local = [i[:-2] for i in incs if i[:-2] in hs]
            if ext == ".c" and m in hs and (not local or local[0] != m):
                problems.append("%s.c does not include %s.h first" % (m, m))
            edges[m].update(x for x in local if x != m)
    return edges


def symbol_edges(objdir, cs):
    defined, used = {}, {}
    for m in cs:
        obj = os.path.join(objdir, m + ".c.o")
        if not os.path.exists(obj):
            continue
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        used[m] = set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRC":
                defined[parts[2]] = m
            elif len(parts) == 2 and parts[0] == "U":
                used[m].add(parts[1])
    if not used:
        sys.exit("module-graph: no object files X.c.o of %s in '%s'" % (sorted(cs), objdir))
    edges = {m: set() for m in used}
    for m, syms in used.items():
        for s in syms:
            owner = defined.get(s)
            if owner and owner != m:
                edges[m].add(owner)
    return edges


def find_cycle(edges):
    """A cycle as a list of modules, or None (depth-first, three colours)."""
    colour = {m: 0 for m in edges}
    stack = []

    def visit(m):
        colour[m] = 1
        stack.append(m)
        for n in sorted(edges.get(m, ())):
            if colour.get(n, 0) == 1:
                return stack[stack.index(n):] + [n]
            if colour.get(n, 0) == 0:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        colour[m] = 2
        return None

    for m in sorted(edges):
        if colour[m] == 0:
            found = visit(m)
            if found:
                return found
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", help="the runner's source directory")
    ap.add_argument("--objects", help="directory of the compiled X.c.o files")
    ap.add_argument("--dot", action="store_true", help="print the include graph")
    args = ap.parse_args()
    if not os.path.isdir(args.src):
        sys.exit("module-graph: '%s' is not a directory" % args.src)
    cs, hs, _ = modules(args.src)
    problems = ["%s.h is no module's header (there is no %s.c)" % (h, h)
                for h in sorted(hs - cs)]
    edges = include_edges(args.src, cs, hs, problems)
    if args.dot:
        print("digraph runner {")
        for m in sorted(edges):
            for n in sorted(edges[m]):
                print('  "%s" -> "%s";' % (m, n))
        print("}")
    cycle = find_cycle(edges)
    if cycle:
        problems.append("include cycle: " + " -> ".join(cycle))
    if args.objects:
        cycle = find_cycle(symbol_edges(args.objects, cs))
        if cycle:
            problems.append("call cycle: " + " -> ".join(cycle))
    for p in problems:
        print("module-graph: " + p, file=sys.stderr)
    if not problems:
        print("module-graph: %d modules, %d include edges, no cycle"
              % (len(edges), sum(len(e) for e in edges.values())))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
