#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns `vskin-bench --json` output into Markdown tables, every cell of the
run: python3 scripts/bench_tables.py docs/performance-results.json
(scripts/perf-results.sh writes the headline cells into docs/performance.md)."""
import json
import sys

R = json.load(open(sys.argv[1]))['rows']


def size(v):
    return f"{v // 1000000}M" if v >= 1000000 else f"{v // 1000}k"


print("Memory bandwidth (STREAM copy, 2 x 64 MiB, bytes read + written):\n")
print("| threads | GB/s |\n|---:|---:|")
for r in R:
    if r['kind'] == 'copy':
        print(f"| {r['threads']} | {r['gbytes_per_second']:.1f} |")
print("\nSkinning. kernel = vs_skinning_job_run (dispatched, AUTO), reference = "
      "vs_skinning_job_run_reference, same buffers. Mvert/s = millions of vertices "
      "per second; x ref = / the 1-thread reference; % copy = moved bytes per second "
      "/ the same-thread copy bandwidth.\n")
print("| attributes | infl | vertices | B/vertex | reference 1 thr Mvert/s | kernel 1 thr Mvert/s | x ref "
      "| kernel 2 thr Mvert/s | x ref | GB/s 2 thr | % copy 2 thr |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
order = ['pos', 'pos+nrm', 'pos+nrm+tan']
keys = sorted({(r['what'], r['influences'], r['vertices']) for r in R if r['kind'] == 'skin'},
              key=lambda k: (order.index(k[0]), k[1], k[2]))
for k in keys:
    rows = [r for r in R if r['kind'] == 'skin' and (r['what'], r['influences'], r['vertices']) == k]
    ref = [r for r in rows if r['impl'] == 'reference'][0]
    a1 = [r for r in rows if r['impl'] != 'reference' and r['threads'] == 1][0]
    a2 = [r for r in rows if r['impl'] != 'reference' and r['threads'] == 2][0]
    print(f"| {k[0]} | {k[1]} | {size(k[2])} | {ref['bytes_per_vertex']:.0f} "
          f"| {ref['vertices_per_second'] / 1e6:.1f} | {a1['vertices_per_second'] / 1e6:.1f} "
          f"| {a1['speedup_vs_reference']:.2f} | {a2['vertices_per_second'] / 1e6:.1f} "
          f"| {a2['speedup_vs_reference']:.2f} | {a2['gbytes_per_second']:.2f} "
          f"| {100 * a2['fraction_of_copy']:.0f} % |")
print("\nKernels by ISA (positions + normals, 4 influences, 1 thread, the job's `isa` forced); "
      "Mvert/s (x ref):\n")
print("| vertices | portable | sse2 | avx2 | avx512 |\n|---:|---:|---:|---:|---:|")
for v in sorted({r['vertices'] for r in R if r['kind'] == 'isa'}):
    cells = []
    for isa in ['portable', 'sse2', 'avx2', 'avx512']:
        m = [r for r in R if r['kind'] == 'isa' and r['vertices'] == v and r['impl'] == isa]
        cells.append(f"{m[0]['vertices_per_second'] / 1e6:.1f} ({m[0]['speedup_vs_reference']:.2f}x)"
                     if m else "-")
    print(f"| {size(v)} | " + " | ".join(cells) + " |")
print("\nPrepared stream (vs_skin_stream: u8 joints, unorm16 weights, stream order), "
      "positions + normals:\n")
print("| infl | vertices | B/vertex | 1 thr Mvert/s | x ref | 2 thr Mvert/s | x ref | % copy 2 thr |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
for k in sorted({(r['influences'], r['vertices']) for r in R if r['kind'] == 'stream'}):
    m = [r for r in R if r['kind'] == 'stream' and (r['influences'], r['vertices']) == k]
    a1 = [r for r in m if r['threads'] == 1][0]
    a2 = [r for r in m if r['threads'] == 2][0]
    print(f"| {k[0]} | {size(k[1])} | {a1['bytes_per_vertex']:.0f} "
          f"| {a1['vertices_per_second'] / 1e6:.1f} | {a1['speedup_vs_reference']:.2f} "
          f"| {a2['vertices_per_second'] / 1e6:.1f} | {a2['speedup_vs_reference']:.2f} "
          f"| {100 * a2['fraction_of_copy']:.0f} % |")
print("\nCharacter-frame (vs_pose_sample + vs_pose_update_world + vs_pose_joint_matrices, "
      "1 thread):\n")
print("| character | steps | joints | µs per character-frame |\n|---|---|---:|---:|")
for r in R:
    if r['kind'] == 'frame':
        print(f"| {r['what']} | {r['impl']} | {r['joints']} | {r['us_per_frame']:.2f} |")
print("\nCrowd (per character: sample, world and joint matrices, skin positions + normals):\n")
print("| character | skinning | crowd | threads | characters/s |\n|---|---|---:|---:|---:|")
for r in R:
    if r['kind'] == 'crowd':
        print(f"| {r['what']} | {r['impl']} | {r['characters']} | {r['threads']} "
              f"| {r['characters_per_second']:.0f} |")
