#!/usr/bin/env python3
"""The import graph of src/: every `use` and every inline `crate::` / `super::` path, resolved to
the file that defines it (re-exports followed). Fails (exit 1) on an import cycle between files,
an edge up the layer order, a model folder importing another model folder, or anything outside
the command line importing `commands`.

Usage: scripts/layers.py [--graph]   (--graph also prints every edge)
"""
import os, re, sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
# The layer order (lib.rs, ARCHITECTURE.md, DESIGN.md): an edge may only point to its own layer or
# one earlier in this list. DESIGN.md's layer 7 holds both outputs (app) and sweeps; sweeps write
# through the outputs' number text, CSV quoting and progress line, never the other way, so app
# comes first.
LAYERS = ["math", "geometry", "field", "contact", "dynamics", "scene", "app", "sweep", "commands", "main"]
MODELS = ("contact/hertz", "contact/peg", "contact/pressure_field", "contact/volume6d")

def rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, "/")

def module_file(segs):
    """The file of module crate::segs, or None."""
    base = os.path.join(ROOT, *segs) if segs else ROOT
    if not segs:
        return os.path.join(ROOT, "lib.rs")
    for cand in (base + ".rs", os.path.join(base, "mod.rs")):
        if os.path.isfile(cand):
            return cand
    return None

def module_of(path):
    r = rel(path)[:-3].split("/")
    if r[-1] in ("mod", "lib", "main"):
        r = r[:-1]
    return r

def strip(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\])'", "' '", text)
    return text

def expand(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    tree = re.sub(r"\s+", "", tree)
    out = []
    def rec(prefix, t):
        m = t.find("{")
        if m < 0:
            for part in t.split(","):
                if part:
                    out.append(prefix + part.split(" as ")[0])
            return
        # split top-level commas
        depth, start, parts = 0, 0, []
        for i, ch in enumerate(t):
            if ch == "{": depth += 1
            elif ch == "}": depth -= 1
            elif ch == "," and depth == 0:
                parts.append(t[start:i]); start = i + 1
        parts.append(t[start:])
        for p in parts:
            if not p: continue
            k = p.find("{")
            if k < 0:
                out.append(prefix + p)
            else:
                rec(prefix + p[:k], p[k + 1:p.rfind("}")])
    rec("", tree)
    return [o.replace("as", " as ").split(" as ")[0] if False else o for o in out]

files = []
for d, _, fs in os.walk(ROOT):
    for f in fs:
        if f.endswith(".rs"):
            files.append(os.path.join(d, f))

texts = {f: strip(open(f).read()) for f in files}

# Re-exports: (module file, name) -> file
reexports = {}
def resolve(segs, depth=0):
    """Longest prefix of crate path `segs` that is a module file, following re-exports."""
    for k in range(len(segs), 0, -1):
        f = module_file(segs[:k])
        if f:
            rest = segs[k:]
            if rest and (f, rest[0]) in reexports and depth < 10:
                return resolve(reexports[(f, rest[0])], depth + 1)
            return f
    return None

USE = re.compile(r"\buse\s+([^;]+);")
INLINE = re.compile(r"\b((?:crate|super|self)(?:::\w+)+)")

def absolute(path, f, inner):
    """A path as written in file f (inside `inner` inline modules) -> crate segments."""
    segs = path.split("::")
    mod = module_of(f) + inner
    if segs[0] == "crate":
        return segs[1:]
    if segs[0] in ("self", "super"):
        while segs and segs[0] in ("self", "super"):
            if segs[0] == "super":
                mod = mod[:-1]
            segs = segs[1:]
        return mod + segs
    # a child module declared by this file, or an external crate
    if module_file(module_of(f) + inner + segs[:1]) and not inner:
        return module_of(f) + segs
    return None

def inner_modules(text):
    """(position, inline module path) for each byte range inside `mod NAME { ... }`."""
    spans = []
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            if text[i] == "{": depth += 1
            elif text[i] == "}": depth -= 1
            i += 1
        spans.append((m.start(), i, m.group(1)))
    return spans

def inner_at(spans, pos):
    return [name for s, e, name in sorted(spans) if s <= pos < e]

# pass 1: re-exports
for f, text in texts.items():
    spans = inner_modules(text)
    for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", text):
        for p in expand(m.group(1)):
            name = p.split("::")[-1]
            segs = absolute(p, f, inner_at(spans, m.start()))
            if segs and name not in ("*", "self"):
                reexports[(f, name)] = segs

edges = defaultdict(set)
for f, text in texts.items():
    spans = inner_modules(text)
    paths = []
    for m in USE.finditer(text):
        paths += [(p, m.start()) for p in expand(m.group(1))]
    for m in INLINE.finditer(text):
        paths.append((m.group(1), m.start()))
    for p, pos in paths:
        segs = absolute(p, f, inner_at(spans, pos))
        if segs is None:
            continue
        g = resolve(segs)
        if g and g != f:
            edges[rel(f)].add(rel(g))

def layer(r):
    top = r.split("/")[0]
    if top.endswith(".rs"):
        top = top[:-3]
    return top

def model(r):
    for m in MODELS:
        if r.startswith(m + "/") or r == m + ".rs":
            return m
    return None

problems = []
for a, bs in sorted(edges.items()):
    for b in sorted(bs):
        la, lb = layer(a), layer(b)
        if la == "lib" or lb == "lib":
            continue
        if la in LAYERS and lb in LAYERS and LAYERS.index(lb) > LAYERS.index(la):
            problems.append(f"upward: {a} -> {b} ({la} imports {lb})")
        ma, mb = model(a), model(b)
        if ma and mb and ma != mb:
            problems.append(f"model to model: {a} -> {b}")
        if lb == "commands" and la not in ("commands", "main"):
            problems.append(f"imports commands: {a} -> {b}")

# cycles: Tarjan's SCCs over files
index, low, stack, on, sccs = {}, {}, [], set(), []
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1:
            sccs.append(sorted(comp))
for v in sorted(set(edges) | {b for bs in edges.values() for b in bs}):
    if v not in index:
        visit(v)
for c in sccs:
    problems.append("cycle: " + " <-> ".join(c))

if "--graph" in sys.argv:
    for a, bs in sorted(edges.items()):
        for b in sorted(bs):
            print(f"{a} -> {b}")
n = sum(len(b) for b in edges.values())
for p in problems:
    print(p)
print(f"{len(files)} files, {n} edges, {len(sccs)} cycles, {len(problems)} problems")
sys.exit(1 if problems else 0)
