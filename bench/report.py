#!/usr/bin/env python3
"""Turns a Google Benchmark JSON run into ours/peer ratios.

Usage: report.py RUN.json [--markdown OUT.md] [--png OUT.png]
Benchmarks are named `<kind>/<shape>/<impl>/<threads>/...`; for every
(kind, shape, threads) the GFLOP/s of `aotc` is divided by the peer's
(`openblas`, `onednn`, ...), measured in the same run.
"""
import argparse
import collections
import json


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run")
    parser.add_argument("--markdown")
    parser.add_argument("--png")
    args = parser.parse_args()
    with open(args.run) as f:
        run = json.load(f)

    rates = collections.defaultdict(dict)
    for b in run["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        parts = b["name"].split("/")
        kind, shape, impl, threads = parts[0], parts[1], parts[2], parts[3]
        # The GFLOPS counter is a rate: already GFLOP per second.
        rates[(kind, shape, int(threads))][impl] = b["GFLOPS"]

    lines = ["| benchmark | threads | aotc GFLOP/s | peer | peer GFLOP/s | aotc/peer |",
             "|---|---:|---:|---|---:|---:|"]
    chart = []
    for (kind, shape, threads), impls in sorted(rates.items()):
        ours = impls.get("aotc")
        for peer, rate in sorted(impls.items()):
            if peer == "aotc" or ours is None:
                continue
            ratio = ours / rate
            lines.append(f"| {kind} {shape} | {threads} | {ours:.1f} | {peer} | "
                         f"{rate:.1f} | {ratio:.2f}x |")
            chart.append((f"{kind} {shape} t{threads}", ratio))
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if args.png and chart:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 0.35 * len(chart) + 1))
        ax.barh([c[0] for c in chart], [c[1] for c in chart])
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_xlabel("aotc / peer (higher is better)")
        fig.tight_layout()
        fig.savefig(args.png)


if __name__ == "__main__":
    main()
