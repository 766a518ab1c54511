# bench/lib.sh - the shell functions bench/run and bench/policies share
# (sourced, not run).  They read the callers' $csv (the table's CSV),
# $tmp (a scratch folder) and $WALLTIME, and call the caller's die.

# row BENCH PARAMS WALL EVENTS RSS_KIB POLICY_S MAKESPAN REF CI95 Z NOTE
#     [RATIO_OF RATIO_MEDIAN RATIO_MIN RATIO_MAX PAIRS]
# One line of the table and of bench.csv (whose fields are not quoted:
# no commas in any of them).
row() {
	awk -v b="$1" -v p="$2" -v w="$3" -v e="$4" -v r="$5" -v ps="$6" -v m="$7" -v ref="$8" \
	    -v ci="$9" -v z="${10}" -v note="${11}" -v rof="${12:-}" -v rmed="${13:-}" \
	    -v rmin="${14:-}" -v rmax="${15:-}" -v np="${16:-}" -v csv="$csv" 'BEGIN {
		if (index(b p w e r ps m ref ci z note rof rmed rmin rmax np, ",")) {
			print "bench: a comma in a row of " b ": " p "; " note > "/dev/stderr"
			exit 1
		}
		eps = (e != "" && w > 0) ? sprintf("%.0f", e / w) : ""
		rss = (r != "") ? sprintf("%.1f", r / 1024) : ""
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", b, p, w, e, eps, rss, ps, m, ref, ci, z,
			rof, rmed, rmin, rmax, np, note >> csv
		printf "%-14s %-34s %9s %10s %12s %8s %11s %11s %s\n", b, p, w, e, eps, rss, m, ref, note
	}'
}

# stats FILE: "median min max count" of the numbers in FILE, one a line
# (the median of an even count is the mean of the middle two); nothing
# for an empty FILE.
stats() {
	sort -n "$1" | awk 'NF { v[++n] = $1 } END {
		if (n == 0) exit
		m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		print m, v[1], v[n], n }'
}

# median FILE: the median of the numbers in FILE (stats).
median() {
	stats "$1" | awk '{ print $1 }'
}

# ratio A B >> FILE: A / B, one line; nothing where B is 0 (a run faster
# than /usr/bin/time's 10 ms), so that the pair drops out of the count.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.6f\n", a / b }'
}

# pairstats FILE: sets r_med r_min r_max (two decimals) and r_n (the
# pairs) from the ratios in FILE, and r_text, "median 24.50 (min-max
# 20.10-26.30) over 5 pairs"; all empty, r_text "no pair", for none.
pairstats() {
	stats "$1" | awk '{ printf "%.2f %.2f %.2f %d\n", $1, $2, $3, $4 }' > "$tmp/pairstats"
	r_med="" r_min="" r_max="" r_n=""
	read -r r_med r_min r_max r_n < "$tmp/pairstats" || true
	if [ -n "$r_n" ]; then
		r_text="median $r_med (min-max $r_min-$r_max) over $r_n pairs"
	else
		r_text="no pair"
	fi
}

# col FILE NAME [ROW]: the value of column NAME in data row ROW (1) of a CSV.
col() {
	awk -F, -v n="$2" -v r="${3:-1}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
		NR == r + 1 { print $c; exit }' "$1"
}

# timed OUTFILE CMD...: runs CMD under walltime; "wall_s rss_kib" in OUTFILE
# (0.1 ms steps; /usr/bin/time's 10 ms were a quarter of the smallest farm).
timed() {
	tf=$1; shift
	"$WALLTIME" "$tf" "$@" || die "failed: $*"
}

