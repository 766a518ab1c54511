#!/bin/sh
# run-on-gpu.sh - the one prepared script to run on a machine with a CUDA
# GPU, from the repository root:
#
#   calibrate/cuda/run-on-gpu.sh [--quick] [other hetsim-cuda-cal options]
#
# Builds calibrate/cuda/hetsim-cuda-cal (make cuda; needs only the CUDA
# toolkit), measures every GPU kernel on device 0 into
# calibrate/models/<device>.samples.csv (+ .meta) and prints the command
# that fits them on a machine with GSL.  Takes well under a minute on an
# H200 (the sweep itself is seconds; start-up generates 64 MiB of text).
set -eu
cd "$(dirname "$0")/../.."

make --no-print-directory cuda
cal=calibrate/cuda/hetsim-cuda-cal
if [ ! -x "$cal" ]; then
	echo "run-on-gpu: $cal was not built (is nvcc at \${CUDA_HOME:-/usr/local/cuda}/bin/nvcc?)" >&2
	exit 1
fi
dev=$("$cal" --print-device)
mkdir -p calibrate/models
out=calibrate/models/$dev.samples.csv
# 9 minutes at most, whatever happens.
if command -v timeout >/dev/null 2>&1; then
	timeout 540 "$cal" -o "$out" "$@"
else
	"$cal" -o "$out" "$@"
fi
echo "run-on-gpu: samples in $out, provenance in $out.meta (read by --fit)"
echo "run-on-gpu: fit them on a machine with GSL:"
echo "  bin/hetsim calibrate --fit $out -o calibrate/models/$dev.yaml"
