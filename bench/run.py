"""The benchmarks' one entry point: run some, write their figures as JSON, compare two results.

    python bench/run.py [--only end_to_end,statistics,...] [--out FILE]
    python bench/run.py compare OLD.json NEW.json
    python bench/run.py table RESULT.json
    python bench/run.py page

A run starts each benchmark script in a fresh process (the figures of several runs inside one
script, such as medians, are the script's own), collects what they hand to
:func:`record.record`, and writes one JSON file: the commit, whether the work tree had changes,
the machine (CPU, cores, memory, Python, numpy, the OpenBLAS kernels), the time, and each
benchmark's figures; by default into ``bench/results/`` under the date and the commit. The
figures beside sacreBLEU are measured in the same run (the ratios are what to read: machines are
noisy). ``compare`` prints each figure of two results side by side with their ratio; ``table``
prints a result as the Markdown table of the docs' performance page; ``page`` puts the table of
the newest result of the standing benchmark (by its time) into that page, between its two markers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from record import RECORD_VARIABLE

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PAGE = HERE.parent / "docs" / "performance.md"
BEGIN, END = "<!-- results table: python bench/run.py page -->", "<!-- end of results table -->"
"""The markers around the page's table of the newest result."""
BENCHMARKS = {
    "end_to_end": "bench_end_to_end.py",
    "statistics": "bench_statistics.py",
    "chrf": "bench_chrf.py",
    "ter": "bench_ter.py",
    "cli_large": "bench_cli_large.py",
    "studies": "bench_studies.py",
    "gui_large": "bench_gui_large.py",
    "campaign": "bench_campaign.py",
    "runs_calibration": "bench_runs_calibration.py",
    "first_run": "bench_first_run.py",
}
"""The benchmarks that record figures, by the name the results use."""
STANDING = "end_to_end"
"""The standing benchmark, whose newest result the performance page shows."""
QUICK = ("end_to_end", "statistics")
"""What a run without --only measures (the others take minutes each)."""


def git(*args: str) -> str:
    """A git command's output in this checkout ('' where git cannot tell)."""
    done = subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True, check=False)
    return done.stdout.strip()


def machine() -> dict[str, Any]:
    """What the figures depend on besides the code."""
    import numpy as np

    info = Path("/proc/cpuinfo")
    lines = info.read_text(encoding="utf-8").splitlines() if info.exists() else []
    cpu = next((line.split(":", 1)[1].strip() for line in lines if "model name" in line), "")
    memory = (
        os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") if hasattr(os, "sysconf") else 0
    )
    return {
        "cpu": cpu or platform.processor(),
        "cores": os.cpu_count(),
        "memory_gib": round(memory / 2**30, 1),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE", ""),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else [],
    }


def run(names: list[str]) -> dict[str, Any]:
    """Run the benchmarks ``names``, each with its default arguments, and gather their figures."""
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            target = Path(folder) / f"{name}.jsonl"
            target.touch()
            environment = {**os.environ, RECORD_VARIABLE: str(target)}
            print(f"== {name}", flush=True)
            script = HERE / BENCHMARKS[name]
            done = subprocess.run([sys.executable, str(script)], env=environment, check=False)
            figures: dict[str, Any] = {}
            for line in target.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                figures.setdefault(entry["benchmark"], {}).update(entry["figures"])
            results[name] = {"exit": done.returncode, "figures": figures}
    return results


def main() -> None:
    """Run, compare or tabulate, as the arguments say."""
    if len(sys.argv) > 1 and sys.argv[1] in ("compare", "table"):
        return (compare if sys.argv[1] == "compare" else table)(*map(Path, sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "page":
        return page()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", default=",".join(QUICK), help="comma-separated: " + ", ".join(BENCHMARKS)
    )
    parser.add_argument("--out", type=Path, help="the results file (default: bench/results/...)")
    args = parser.parse_args()
    names = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        raise SystemExit(f"unknown benchmark {unknown[0]}; choose from {', '.join(BENCHMARKS)}")
    commit = git("rev-parse", "--short", "HEAD")
    result = {
        "commit": commit,
        "changed": bool(git("status", "--porcelain", "--untracked-files=no")),
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "benchmarks": run(names),
    }
    stamp = result["time"][:10]
    out = args.out or RESULTS / f"{stamp}-{commit or 'unknown'}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"results: {out}")


def flat(result: dict[str, Any]) -> dict[str, float]:
    """Every numeric figure of a result by 'benchmark / part / figure'."""
    found = {}
    for name, bench in result["benchmarks"].items():
        for part, figures in bench["figures"].items():
            for key, value in figures.items():
                if isinstance(value, int | float):
                    found[f"{name} / {part} / {key}" if part != name else f"{name} / {key}"] = value
    return found


def compare(old_path: Path, new_path: Path) -> None:
    """Each figure of two results side by side, with new / old."""
    old, new = (json.loads(p.read_text(encoding="utf-8")) for p in (old_path, new_path))
    before, after = flat(old), flat(new)
    print(f"{'figure':<60} {old['commit']:>10} {new['commit']:>10} {'new/old':>8}")
    for key in sorted(before.keys() | after.keys()):
        a, b = before.get(key), after.get(key)
        ratio = f"{b / a:8.3f}" if a and b is not None else f"{'':>8}"
        show = [f"{v:10.4g}" if v is not None else f"{'-':>10}" for v in (a, b)]
        print(f"{key:<60} {show[0]} {show[1]} {ratio}")


def table(path: Path) -> None:
    """A result as a Markdown table (the docs' performance page)."""
    print(table_text(json.loads(path.read_text(encoding="utf-8"))), end="")


def table_text(result: dict[str, Any]) -> str:
    """A result as the Markdown table of the docs' performance page, with the line above it."""
    machine = result["machine"]
    lines = [
        f"Commit `{result['commit']}`, {result['time'][:10]}, {machine['cores']} cores, "
        f"{machine['cpu']}.",
        "",
        "| benchmark | figure | value |",
        "|---|---|---|",
    ]
    for key, value in flat(result).items():
        bench, _, figure = key.partition(" / ")
        lines.append(f"| {bench} | {figure} | {value:.4g} |")
    return "\n".join(lines) + "\n"


def newest(folder: Path = RESULTS) -> Path:
    """The results file of ``folder`` that measured the standing benchmark (``end_to_end``,
    mtgui against sacreBLEU) last, by the time it records: the page's table is that one's.
    A run of other benchmarks alone (``--only first_run``) does not replace it."""
    results = [
        (path, json.loads(path.read_text(encoding="utf-8"))) for path in folder.glob("*.json")
    ]
    standing = [(r["time"], path) for path, r in results if STANDING in r["benchmarks"]]
    if not standing:
        raise SystemExit(f"no results of {STANDING} in {folder}")
    return max(standing)[1]


def page_with_table(text: str, result: dict[str, Any]) -> str:
    """The performance page ``text`` with the table of ``result`` between its markers."""
    head, found, rest = text.partition(BEGIN)
    _, found_end, tail = rest.partition(END)
    if not found or not found_end:
        raise SystemExit(f"{PAGE} lacks the markers {BEGIN} and {END}")
    return f"{head}{BEGIN}\n\n{table_text(result)}\n{END}{tail}"


def page() -> None:
    """Put the table of the newest result into the performance page."""
    path = newest()
    result = json.loads(path.read_text(encoding="utf-8"))
    PAGE.write_text(page_with_table(PAGE.read_text(encoding="utf-8"), result), encoding="utf-8")
    print(f"{PAGE}: the table of {path.name}")


if __name__ == "__main__":
    main()
