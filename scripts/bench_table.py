#!/usr/bin/env python3
"""Prints contactlab's contact-query figures beside Drake's (stdlib only).

Usage: bench_table.py DRAKE_OUTPUT RESULTS_DIR OUT_FILE

DRAKE_OUTPUT is what `anchors/run.sh drake_sphere_halfspace.py drake_surfaces.py` printed.
RESULTS_DIR holds one `<case>_<h>.json` per scene: the JSON of `contactlab contact --json`, and
optionally `<case>_<h>.t1.json`, the same run on one thread.
The table goes to stdout and is appended to OUT_FILE. Called by scripts/bench_anchors.sh.
"""
import json
import math
import os
import re
import sys

ANALYTIC = 29.3215  # N, compliant sphere R = 0.1, E = 1e5, d = 0.01 on a rigid half space
SAME_ACCURACY = 0.0025  # |relative error| for the "same accuracy" comparison
CASES = ["sphere_halfspace", "sphere_box", "sphere_sphere", "box_box"]
RESOLUTIONS = ["0.04", "0.02", "0.01", "0.005", "0.0025"]
DRAKE_CASE = {
    "sphere_box": "soft_sphere_vs_rigid_box",
    "sphere_sphere": "soft_sphere_vs_soft_sphere",
    "box_box": "soft_box_vs_soft_box",
}


def canonical(h):
    """'0.0100' and '0.01' name the same resolution."""
    return repr(float(h))


def parse_drake(text):
    """{(case, h): {faces, force, us, rel_err?}} from the anchors' output."""
    drake = {}
    halfspace = re.compile(
        r"^hint=(\S+)\s+faces=\s*(\d+)\s+force=(\S+)\s+rel_err=(\S+)%\s+us_per_query=\s*(\S+)")
    surface = re.compile(
        r"^poly\s+(\S+)\s+h=(\S+)\s+surfaces=\d+\s+faces=\s*(\d+)\s+area=\S+\s+force=(\S+)\s+"
        r"us_per_query=\s*(\S+)")
    names = {v: k for k, v in DRAKE_CASE.items()}
    for line in text.splitlines():
        line = line.strip()
        m = halfspace.match(line)
        if m:
            h, faces, force, err, us = m.groups()
            drake[("sphere_halfspace", canonical(h))] = {
                "faces": int(faces), "force": float(force), "rel_err": float(err) / 100.0,
                "us": float(us)}
            continue
        m = surface.match(line)
        if m and m.group(1) in names:
            name, h, faces, force, us = m.groups()
            drake[(names[name], canonical(h))] = {
                "faces": int(faces), "force": float(force), "us": float(us)}
    return drake


def read_report(path):
    with open(path) as f:
        return json.load(f)


def read_ours(results_dir):
    """{(case, h): {faces, force, us, us1}}: `us` on every core, `us1` on one thread (None if
    not measured)."""
    ours = {}
    for case in CASES:
        for h in RESOLUTIONS:
            path = os.path.join(results_dir, f"{case}_{h}.json")
            if not os.path.exists(path):
                continue
            report = read_report(path)
            one = os.path.join(results_dir, f"{case}_{h}.t1.json")
            us1 = read_report(one)["micros_per_query"] if os.path.exists(one) else None
            pairs = report["pairs"]
            force = [sum(p["force"][k] for p in pairs) for k in range(3)]
            ours[(case, canonical(h))] = {
                "faces": sum(p["faces"] for p in pairs),
                "force": math.sqrt(sum(x * x for x in force)),
                "us": report["micros_per_query"],
                "us1": us1,
            }
    return ours


def fmt(value, spec, width):
    return (f"{value:{spec}}" if value is not None else "-").rjust(width)


def ratio(num, den):
    return num / den if num is not None and den else None


def best_within(rows):
    """The fastest (h, err, us, faces) among rows with |err| <= SAME_ACCURACY, or None."""
    ok = [r for r in rows if r[2] is not None and abs(r[1]) <= SAME_ACCURACY]
    return min(ok, key=lambda r: r[2]) if ok else None


def table(drake, ours):
    lines = []
    out = lines.append
    out("contactlab vs Drake (pydrake, polygon contact surfaces), same machine, same run")
    out("force  = |F|, the norm of the force on the pair's body a (N); Drake: sum of p·area over")
    out("         its polygons. err = (force - 29.3215 N) / 29.3215 N, sphere_halfspace only.")
    out("µs     = contactlab on every core; µs 1T = contactlab on one thread (RAYON_NUM_THREADS=1);")
    out("D µs   = Drake (one thread). ratio = D µs / µs, ratio 1T = D µs / µs 1T (> 1: we are faster).")
    out("")
    header = (f"{'case':<17}{'h':>7} {'faces':>6}{'force':>10}{'err':>9}{'µs':>9}{'µs 1T':>9}"
              f" |{'D faces':>8}{'D force':>10}{'D err':>9}{'D µs':>9} |{'ratio':>7}{'ratio 1T':>9}")
    out(header)
    out("-" * len(header))
    pct = lambda e: f"{e * 100:+.3f}%" if e is not None else None
    for case in CASES:
        for h in RESOLUTIONS:
            key = (case, canonical(h))
            o, d = ours.get(key, {}), drake.get(key, {})
            if not o and not d:
                continue
            err = ((o["force"] - ANALYTIC) / ANALYTIC
                   if o and case == "sphere_halfspace" else None)
            out(f"{case:<17}{h:>7} "
                + fmt(o.get("faces"), "d", 6) + fmt(o.get("force"), ".4f", 10)
                + fmt(pct(err), "s", 9) + fmt(o.get("us"), ".1f", 9) + fmt(o.get("us1"), ".1f", 9)
                + " |" + fmt(d.get("faces"), "d", 8) + fmt(d.get("force"), ".4f", 10)
                + fmt(pct(d.get("rel_err")), "s", 9) + fmt(d.get("us"), ".1f", 9)
                + " |" + fmt(ratio(d.get("us"), o.get("us")), ".3g", 7)
                + fmt(ratio(d.get("us"), o.get("us1")), ".3g", 9))
        out("")

    out(f"sphere_halfspace at the same accuracy (|err| <= {SAME_ACCURACY:.2%}), the fastest of each:")
    rows = [(h, (o["force"] - ANALYTIC) / ANALYTIC, o["us"], o["faces"], o["us1"])
            for h in RESOLUTIONS for o in [ours.get(("sphere_halfspace", canonical(h)))] if o]
    best_o = best_within(rows)
    best_o1 = best_within([(h, e, us1, f, us1) for (h, e, _, f, us1) in rows])
    best_d = best_within([(h, d["rel_err"], d["us"], d["faces"], None)
                          for (c, h), d in drake.items() if c == "sphere_halfspace"])
    for who, best in (("contactlab", best_o), ("contactlab 1T", best_o1), ("drake", best_d)):
        if best is None:
            out(f"  {who:<14} no configuration reaches it")
        else:
            h, err, us, faces, _ = best
            out(f"  {who:<14} h={h:<7} faces={faces:<6d} err={err:+.3%}  {us:9.1f} µs/query")
    if best_d and best_o:
        out(f"  ratio drake / contactlab    = {best_d[2] / best_o[2]:.2f}")
    if best_d and best_o1:
        out(f"  ratio drake / contactlab 1T = {best_d[2] / best_o1[2]:.2f}")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    drake_file, results_dir, out_file = sys.argv[1:]
    with open(drake_file) as f:
        drake = parse_drake(f.read())
    ours = read_ours(results_dir)
    text = table(drake, ours)
    sys.stdout.write(text)
    with open(out_file, "a") as f:
        f.write(text)


if __name__ == "__main__":
    main()
