#!/usr/bin/env python3
"""Checks that every note wording the checks emit has a column rule in the
HTML report (tools/runner/html.c, the table between "note-column rules:
begin" and "end"), so that a new wording cannot land silently in the wrong
column of a finding page's "The two sides".

  note_columns.py CHECKERS_DIR HTML_C            check; exit 1 and list the
                                                 wordings without a rule
  note_columns.py --list CHECKERS_DIR HTML_C     print every wording, its
                                                 source line and its column

A wording is read from the source of each `Notes.push_back({Loc, TEXT})`:
TEXT's string literals kept, anything else (a name, a spelling) shown as
"*"; a conditional gives one wording per branch, and a call of a helper
defined in CHECKERS_DIR that returns std::string gives one per `return` of
the helper, its parameters bound to the literal arguments of the call. A
wording has a rule when a rule's phrase occurs in it, as html.c matches a
message. A note whose TEXT has no literal at all is taken from elsewhere
and cannot be read here: it must be listed in FROM_ELSEWHERE below, with the
reason its column does not matter or where its wordings are checked.
"""
import os
import re
import sys

# (file, text expression): notes whose text has no literal in the call.
FROM_ELSEWHERE = {
    ("AccessPlainSharedCheck.cpp", "Ev->Note"):
        "access-plain-shared is not drawn as a pair (html.c: is_pair_check), "
        "so its notes have no column",
}

RULE = re.compile(r'\{\s*"((?:[^"\\]|\\.)*)"\s*,\s*(SIDE_[A-Z]+)\s*\}')
TOKEN = re.compile(r'''\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<chr>'(?:[^'\\]|\\.)*')|'''
                   r'''(?P<id>[A-Za-z_]\w*)|(?P<num>\d[\w.]*)|(?P<op>::|->|&&|\|\||==|!=|<=|>=|\S))''')
HOLE = "*"


def fail(msg):
    sys.exit("note_columns: " + msg)


def rules(html_c):
    with open(html_c, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"note-column rules: begin(.*?)note-column rules: end", text, re.S)
    if not m:
        fail("%s has no table between 'note-column rules: begin' and 'end'" % html_c)
    found = [(bytes(p, "utf-8").decode("unicode_escape"), side) for p, side in RULE.findall(m.group(1))]
    if not found:
        fail("%s: the note-column table is empty" % html_c)
    return found


def tokens(s):
    out, i = [], 0
    while i < len(s):
        m = TOKEN.match(s, i)
        if not m or m.end() == i:
            if s[i:].strip() == "":
                break
            fail("cannot read %r" % s[i:i + 40])
        i = m.end()
        kind = m.lastgroup
        val = m.group(kind)
        if kind == "str":
            val = bytes(val[1:-1], "utf-8").decode("unicode_escape")
        out.append((kind, val))
    return out


def split_top(toks, seps):
    """Splits toks at the operators in seps outside brackets."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t[0] == "op" and t[1] in "([{":
            depth += 1
        elif t[0] == "op" and t[1] in ")]}":
            depth -= 1
        if depth == 0 and t[0] == "op" and t[1] in seps:
            parts.append(cur)
            cur = []
            continue
        cur.append(t)
    parts.append(cur)
    return parts


def join(a, b):
    if a.endswith(HOLE) and b.startswith(HOLE):
        return a + b[1:]
    return a + b


class Reader:
    def __init__(self, helpers):
        self.helpers = helpers  # name -> (params, [return token lists])
        self.depth = 0

    def expr(self, toks, env):
        """The wordings an expression can produce."""
        # cond ? a : b (the lowest precedence; ':' here is never '::').
        q = split_top(toks, {"?"})
        if len(q) > 1:
            rest = [t for part in q[1:] for t in part + [("op", "?")]][:-1]
            branches = split_top(rest, {":"})
            if len(branches) == 2:
                return self.expr(branches[0], env) + self.expr(branches[1], env)
        results = [""]
        for term in split_top(toks, {"+"}):
            alts = self.term(term, env)
            results = [join(r, a) for r in results for a in alts]
        return sorted(set(results))

    def term(self, toks, env):
        if not toks:
            return [""]
        if all(k == "str" for k, _ in toks):
            return ["".join(v for _, v in toks)]
        if len(toks) == 1 and toks[0][0] == "id" and toks[0][1] in env:
            return [env[toks[0][1]]]
        # (expr) possibly followed by .str() and the like.
        if toks[0] == ("op", "("):
            depth = 0
            for i, t in enumerate(toks):
                depth += t == ("op", "(")
                depth -= t == ("op", ")")
                if depth == 0:
                    break
            inner = self.expr(toks[1:i], env)
            tail = toks[i + 1:]
            if not tail or tail[0] in (("op", "."), ("op", "->")):
                return inner
            return [HOLE]
        # std::string(x), (llvm::)Twine(x), NAME(args) of a helper.
        names = [v for k, v in toks if k == "id"]
        call = next((i for i, t in enumerate(toks) if t == ("op", "(")), None)
        if call is not None and toks[-1] == ("op", ")"):
            callee = [v for k, v in toks[:call] if k == "id"]
            args = split_top(toks[call + 1:-1], {","})
            if callee and callee[-1] in ("string", "Twine", "StringRef") and len(args) == 1:
                return self.expr(args[0], env)
            if callee and callee[-1] in self.helpers and self.depth < 3:
                params, returns = self.helpers[callee[-1]]
                bound = {}
                for p, a in zip(params, args):
                    if a and all(k == "str" for k, _ in a):
                        bound[p] = "".join(v for _, v in a)
                self.depth += 1
                out = [w for r in returns for w in self.expr(r, bound)]
                self.depth -= 1
                return out or [HOLE]
        del names
        return [HOLE]


def helpers(sources):
    """Functions of the checkers that return a std::string: name -> (params,
    [return expressions as tokens])."""
    out = {}
    for path, text in sources:
        for m in re.finditer(r"\bstd::string\s+(\w+)\s*\(([^()]*)\)\s*(?:const\s*)?\{", text):
            params = [re.findall(r"(\w+)\s*$", p.split("=")[0].strip()) for p in m.group(2).split(",")]
            params = [p[0] for p in params if p]
            body_end = block_end(text, m.end() - 1)
            body = text[m.end():body_end]
            rets, cur = [], None
            for t in tokens(strip_comments(body)):
                if t == ("id", "return"):
                    cur = []
                elif cur is not None and t == ("op", ";"):
                    rets.append(cur)
                    cur = None
                elif cur is not None:
                    cur.append(t)
            out.setdefault(m.group(1), (params, []))[1].extend(rets)
    return out


def block_end(text, open_brace):
    depth = 0
    i = open_brace
    while i < len(text):
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def skip_string(text, i):
    q = text[i]
    i += 1
    while text[i] != q:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def strip_comments(text):
    out, i = [], 0
    while i < len(text):
        if text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
        elif text.startswith("/*", i):
            i = text.find("*/", i) + 2
        elif text[i] in "\"'":
            j = skip_string(text, i)
            out.append(text[i:j])
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def note_sites(sources):
    """(file, line, text expression tokens) of every Notes.push_back."""
    for path, text in sources:
        code = strip_comments(text)
        for m in re.finditer(r"\bNotes\.(?:push_back|emplace_back)\s*\(", code):
            depth, i = 1, m.end()
            while depth:
                c = code[i]
                if c in "\"'":
                    i = skip_string(code, i)
                    continue
                depth += c in "([{"
                depth -= c in ")]}"
                i += 1
            args = tokens(code[m.end():i - 1])
            if args and args[0] == ("op", "{") and args[-1] == ("op", "}"):
                args = args[1:-1]
            parts = split_top(args, {","})
            if len(parts) != 2:
                fail("%s: a note that is not {location, text}: %s"
                     % (path, " ".join(v for _, v in args)[:120]))
            yield path, code.count("\n", 0, m.start()) + 1, parts[1]


def side_of(wording, table):
    """html.c's message_side(): the side rule whose phrase comes first wins;
    a neutral rule (SIDE_NONE) only when no side rule matches."""
    best = None
    for phrase, side in table:
        p = wording.find(phrase)
        if p < 0:
            continue
        key = (side == "SIDE_NONE", p, -len(phrase))
        if best is None or key < best[0]:
            best = (key, side)
    return best[1] if best else None


def main():
    args = sys.argv[1:]
    listing = bool(args) and args[0] == "--list"
    if listing:
        args = args[1:]
    if len(args) != 2:
        fail("usage: note_columns.py [--list] CHECKERS_DIR HTML_C")
    checkers, html_c = args
    if not os.path.isdir(checkers):
        fail("%s is not a directory" % checkers)
    sources = []
    for dp, _, files in os.walk(checkers):
        for f in sorted(files):
            if f.endswith((".cpp", ".h")):
                with open(os.path.join(dp, f), encoding="utf-8") as fh:
                    sources.append((os.path.join(dp, f), fh.read()))
    table = rules(html_c)
    reader = Reader(helpers(sources))
    missing, n_sites, n_words, elsewhere = [], 0, 0, set()
    for path, line, expr in note_sites(sources):
        n_sites += 1
        where = "%s:%d" % (os.path.relpath(path, checkers), line)
        if not any(k == "str" for k, _ in expr) and not any(k == "id" and v in reader.helpers
                                                              for k, v in expr):
            key = (os.path.basename(path), "".join(v for _, v in expr))
            if key not in FROM_ELSEWHERE:
                missing.append("%s: the text %r has no literal: list it in FROM_ELSEWHERE of "
                               "note_columns.py with the reason" % (where, key[1]))
            elsewhere.add(key)
            continue
        for w in reader.expr(expr, {}):
            n_words += 1
            side = side_of(w, table)
            if listing:
                print("%-12s %s  %s" % (side or "NO RULE", where, w))
            if side is None:
                missing.append("%s: no column rule for the wording %r" % (where, w))
    stale = set(FROM_ELSEWHERE) - elsewhere
    for key in sorted(stale):
        missing.append("FROM_ELSEWHERE lists %s: %r, which no longer exists" % key)
    if missing:
        sys.exit("note_columns: %d wording(s) without a column rule in %s (add a phrase to "
                 "its table):\n  %s" % (len(missing), html_c, "\n  ".join(missing)))
    if not listing:
        print("ok: %d note wordings at %d places, each with a column rule (%d rules)"
              % (n_words, n_sites, len(table)))


if __name__ == "__main__":
    main()
