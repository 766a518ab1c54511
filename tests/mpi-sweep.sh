#!/bin/sh
# mpi-sweep.sh - `hetsim sweep` across MPI ranks writes the same bytes as
# on one machine.  Builds bin/hetsim and bin/hetsim-mpi (make MPI=1),
# sweeps tests/scenarios/sweep/two-axes.yaml with `bin/hetsim sweep -j 1`
# and under `mpirun -n 2` (ranks running in this process, then in worker
# processes), and compares runs.csv, summary.csv and types.csv.  `make check` runs
# it when mpicc and mpirun are on PATH.  Last line: "mpi-sweep: N passed,
# M failed"; exit status 1 on failure.
set -u
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
scn=tests/scenarios/sweep/two-axes.yaml
dir=$(mktemp -d "${TMPDIR:-/tmp}/hetsim-mpi-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

fail() {
	echo "mpi-sweep: $*" >&2
	echo "mpi-sweep: 0 passed, 1 failed"
	exit 1
}

$MAKE --no-print-directory bin/hetsim >"$dir/make.log" 2>&1 &&
	$MAKE --no-print-directory MPI=1 bin/hetsim-mpi >>"$dir/make.log" 2>&1 ||
	{ cat "$dir/make.log" >&2; fail "cannot build bin/hetsim and bin/hetsim-mpi"; }

if [ "$(id -u)" -eq 0 ]; then # Open MPI refuses root unless told
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi

bin/hetsim sweep "$scn" -j 1 -q -o "$dir/one" || fail "bin/hetsim sweep $scn failed"
for j in 1 2; do
	timeout 300 mpirun -n 2 --oversubscribe bin/hetsim-mpi sweep "$scn" -j $j -q \
		-o "$dir/mpi$j" >"$dir/mpi.log" 2>&1 ||
		{ cat "$dir/mpi.log" >&2; fail "mpirun -n 2 bin/hetsim-mpi sweep -j $j failed"; }
	if [ -s "$dir/mpi.log" ]; then
		cat "$dir/mpi.log" >&2
		fail "mpirun -n 2 bin/hetsim-mpi sweep -j $j -q printed something"
	fi
	for f in runs.csv summary.csv types.csv; do
		cmp "$dir/one/$f" "$dir/mpi$j/$f" >&2 ||
			fail "$f under mpirun -n 2 (-j $j) differs from bin/hetsim sweep -j 1"
	done
done
echo "mpi-sweep: 1 passed, 0 failed"
