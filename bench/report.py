#!/usr/bin/env python3
"""Merges benchmark runs into one JSON, a markdown table and a PNG chart.

Usage: report.py RUN.json... [--json OUT.json] [--markdown OUT.md]
                 [--png OUT.png] [--command CMD] [--note TEXT]...

Inputs are Google Benchmark JSON runs (bench_gemm, bench_ops) and the JSON of
bench_models.py. Google Benchmark names are `<kind>/<shape>/<impl>/<threads>`
and carry a rate counter: GFLOPS (GEMM, conv) or GBps (bytes read + written
per second: eltwise, softmax, layernorm); with repetitions, the median
aggregate is used and the coefficient of variation (cv) is kept as the noise
figure. Model entries carry the median latency (ms) and quartiles; their rate
is inferences per second and their noise figure the interquartile range over
the median.

For every (kind, shape, threads) the rate of `aotc` is divided by each
peer's (`openblas`, `onednn`, `onednn_nchw`, `memcpy`, `onnxruntime`,
`pytorch`), all measured in the same run: above 1 means aotc is faster.
"""
import argparse
import collections
import datetime
import json
import math
import os
import platform

ORDER = ["gemm", "conv", "eltwise", "softmax", "layernorm", "model"]
UNITS = {"GFLOPS": "GFLOP/s", "GBps": "GB/s", "ips": "inf/s"}


def read_gbench(run, entries):
    """Adds (kind, shape, threads) -> impl -> {rate, unit, noise} entries."""
    cvs = {}
    for b in run["benchmarks"]:
        if b.get("aggregate_name") == "cv":
            cvs[b["run_name"]] = b["real_time"]
    for b in run["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        parts = b["name"].split("/")
        kind, shape, impl, threads = parts[0], parts[1], parts[2], int(parts[3])
        unit = "GFLOPS" if "GFLOPS" in b else "GBps"
        # The counters are rates: already per second.
        entries[(kind, shape, threads)][impl] = {
            "rate": b[unit], "unit": unit,
            "time_ms": b["real_time"] if b.get("time_unit") == "ms" else None,
            "noise": cvs.get(b.get("run_name"))}


def read_models(run, entries):
    for r in run["results"]:
        entries[(r["kind"], r["shape"], r["threads"])][r["impl"]] = {
            "rate": 1000.0 / r["median_ms"], "unit": "ips",
            "time_ms": r["median_ms"],
            "noise": (r["q3_ms"] - r["q1_ms"]) / r["median_ms"],
            "runs": r["runs"]}


def sort_key(item):
    (kind, shape, threads), _ = item
    return (ORDER.index(kind) if kind in ORDER else len(ORDER), kind, shape,
            threads)


def fmt_noise(x):
    return "" if x is None else f"{100 * x:.0f}%"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--json")
    parser.add_argument("--markdown")
    parser.add_argument("--png")
    parser.add_argument("--command", default="")
    parser.add_argument("--note", action="append", default=[],
                        help="a line for the notes (repeatable)")
    args = parser.parse_args()

    entries = collections.defaultdict(dict)
    notes, contexts = list(args.note), {}
    for path in args.runs:
        with open(path) as f:
            run = json.load(f)
        if "benchmarks" in run:
            read_gbench(run, entries)
            contexts[os.path.basename(path)] = run.get("context", {})
        else:
            read_models(run, entries)
            notes += [f"skipped peer {s}" for s in run.get("skipped", [])]
            contexts[os.path.basename(path)] = run.get("versions", {})

    lines = ["| benchmark | threads | unit | aotc | peer | peer rate | "
             "aotc/peer | noise aotc / peer |",
             "|---|---:|---|---:|---|---:|---:|---:|"]
    ratios = []
    for (kind, shape, threads), impls in sorted(entries.items(), key=sort_key):
        ours = impls.get("aotc")
        for peer, theirs in sorted(impls.items()):
            if peer == "aotc" or ours is None:
                continue
            ratio = ours["rate"] / theirs["rate"]
            unit = UNITS[ours["unit"]]
            lines.append(
                f"| {kind} {shape} | {threads} | {unit} | {ours['rate']:.3g} | "
                f"{peer} | {theirs['rate']:.3g} | {ratio:.3g}x | "
                f"{fmt_noise(ours['noise'])} / {fmt_noise(theirs['noise'])} |")
            ratios.append({"kind": kind, "shape": shape, "threads": threads,
                           "peer": peer, "ratio": ratio})
    # Per peer and thread count over several models: the geometric mean of
    # aotc/peer (the corpus' figure of merit), the worst and the best.
    groups = collections.defaultdict(list)
    for r in ratios:
        if r["kind"] == "model":
            groups[(r["peer"], r["threads"])].append(r)
    summary = []
    if any(len(g) > 1 for g in groups.values()):
        lines += ["", "| models vs peer | threads | models | geometric mean "
                  "| worst | best |", "|---|---:|---:|---:|---|---|"]
        for (peer, threads), group in sorted(groups.items()):
            geo = math.exp(sum(math.log(r["ratio"]) for r in group) /
                           len(group))
            worst = min(group, key=lambda r: r["ratio"])
            best = max(group, key=lambda r: r["ratio"])
            lines.append(f"| {peer} | {threads} | {len(group)} | {geo:.3g}x | "
                         f"{worst['ratio']:.3g}x {worst['shape']} | "
                         f"{best['ratio']:.3g}x {best['shape']} |")
            summary.append({"peer": peer, "threads": threads,
                            "models": len(group), "geomean": geo,
                            "worst": [worst["shape"], worst["ratio"]],
                            "best": [best["shape"], best["ratio"]]})
    for n in notes:
        lines.append(f"\n{n}")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")

    if args.json:
        doc = {
            "command": args.command,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds"),
            "machine": {"node": platform.node(), "cpus": os.cpu_count(),
                        "processor": platform.processor(),
                        # 1/5/15-minute load when the report is written: on a
                        # shared machine, how busy it was during the run.
                        "load_average": os.getloadavg()},
            "contexts": contexts,
            "notes": notes,
            "results": [dict(kind=k, shape=s, threads=t, impl=i, **v)
                        for (k, s, t), impls in sorted(entries.items(),
                                                       key=sort_key)
                        for i, v in sorted(impls.items())],
            "ratios": ratios,
            "summary": summary,
        }
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)

    if args.png and ratios:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        labels = [f"{r['kind']} {r['shape']} vs {r['peer']} t{r['threads']}"
                  for r in ratios]
        colors = ["tab:blue" if r["threads"] == 1 else "tab:orange"
                  for r in ratios]
        fig, ax = plt.subplots(figsize=(10, 0.22 * len(ratios) + 1.5))
        y = list(range(len(ratios)))[::-1]
        ax.barh(y, [r["ratio"] for r in ratios], color=colors)
        ax.set_yticks(y)
        ax.set_yticklabels(labels, fontsize=7)
        ax.set_xscale("log")
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_xlabel("aotc / peer, log scale (higher is better; "
                      "blue: 1 thread, orange: 2 threads)")
        ax.set_title("aotc vs peers, same process and run")
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
