# compare-makespan.gp - `hetsim compare`'s makespans: a bar per workload
# and policy (the replications' mean) with its 95 % confidence interval.
# hetsim compare sets: csv (its leaderboard.csv: workload,policy,rank,
# replications,makespan_s,makespan_s_ci95,...), outfile, fmt.
# fmt: png (the default) or svg (hetsim writes both; hetsim report inlines the svg)
if (!exists("fmt")) fmt = "png"
if (fmt eq "svg") {
	set terminal svg size 1200, 650 dynamic noenhanced font "sans,12" background "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 1200, 650 noenhanced font "sans,10" background "white"
	} else {
		set terminal png size 1200, 650 noenhanced background "#ffffff"
	}
}
set output outfile
set datafile separator ","
set border 3 lw 1.2 lc rgb "#333333"
set tics nomirror out scale 0.6
set grid ytics lc rgb "#dddddd"
set title "makespan by workload and policy (mean, 95 % CI over replications)"
set ylabel "makespan (s)"
set style fill solid 0.8 noborder
set boxwidth 0.7
set xtics rotate by -60 font ",8"
set yrange [0:*]
unset key
plot csv every ::1 using 0:5:(column(6) == column(6) ? $6 : 0):xtic(sprintf("%s / %s", strcol(1), strcol(2))) \
	with boxerrorbars lc rgb "#4a78b5"
