#!/bin/bash
# Every example program's kernel launches timed on the GPU (cltime.so), through NVIDIA's
# OpenCL registered alone; two rounds, one file per round in $OUT (default validation/
# examples/out). The first round also writes every program's binaries as the driver gives
# them back (NVIDIA's PTX) into $OUT/binaries. On the GPU machine, from the repository
# root, with the examples built (scripts/build-examples) and cltime.so built beside this
# file (see cltime.c) or carried.
set -u
OUT=${OUT:-validation/examples/out}
mkdir -p "$OUT"
lib=${NVIDIA_OPENCL:-/usr/lib/libnvidia-opencl.so.1}
cltime=${CLTIME:-$PWD/validation/examples/cltime.so}
exec > >(tee "$OUT/log.txt") 2>&1
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
mkdir -p /tmp/icd && echo "$lib" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=$lib
export SRCSIM_EXAMPLES_DIR=$PWD/examples
mkdir -p "$OUT/binaries"
for round in 1 2; do
  f=$OUT/cltime-$round.txt; : > "$f"
  binaries=""
  [ "$round" = 1 ] && binaries=$OUT/binaries
  for p in $(ls target/examples); do
    echo "== $p" >> "$f"
    s=$(date +%s.%N)
    CLTIME_OUT=$f CLTIME_BINARIES=$binaries LD_PRELOAD=$cltime timeout 60 target/examples/$p \
      > /tmp/stdout.txt 2>/tmp/stderr.txt
    rc=$?
    echo "rc $p $rc $(awk "BEGIN{print $(date +%s.%N)-$s}") $(head -c 200 /tmp/stdout.txt | head -1)" >> "$f"
    echo "round $round $p rc=$rc $(tail -c 200 /tmp/stderr.txt | tail -1)"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,clocks_throttle_reasons.active --format=csv
