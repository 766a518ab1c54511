# compare-size.gp - `hetsim compare`'s mean slowdown by job size for one
# workload: a line per policy over the size bins (cores asked, powers of
# two), the done jobs of every replication.
# hetsim compare sets: csv (its sizes.csv: workload,policy,cores_from,
# cores_to,jobs,slowdown), workload, policies (space-separated), outfile, fmt.
# fmt: png (the default) or svg (hetsim writes both; hetsim report inlines the svg)
if (!exists("fmt")) fmt = "png"
if (fmt eq "svg") {
	set terminal svg size 1000, 600 dynamic noenhanced font "sans,13" background "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 1000, 600 noenhanced font "sans,11" background "white"
	} else {
		set terminal png size 1000, 600 noenhanced background "#ffffff"
	}
}
set output outfile
set datafile separator ","
set border 3 lw 1.2 lc rgb "#333333"
set tics nomirror out scale 0.6
set grid lc rgb "#dddddd"
set key outside right top nobox samplen 2
set title sprintf("%s: mean slowdown by job size (done jobs, every replication)", workload)
set xlabel "cores the job asks for (bins from 2^k; 0: under 2)"
set ylabel "mean slowdown, (end - arrival) / (end - start)"
set logscale x 2
set logscale y
set yrange [1:*]
# one size bin only (every job asks for the same cores): a range around
# it, where gnuplot would warn of an empty one
stats csv using (strcol(1) eq workload ? ($3 > 0 ? $3 : 1) : NaN) nooutput
if (STATS_records > 0 && STATS_min == STATS_max) { set xrange [STATS_min / 2.0 : STATS_max * 2.0] }
colours = "#4a78b5 #d9752b #3f9b4f #b8423a #8661b0 #8a6d3b #c25b9f #707070 #2a9d8f #e9c46a"
n = words(policies)
plot for [i=1:n] csv using (strcol(1) eq workload && strcol(2) eq word(policies, i) ? ($3 > 0 ? $3 : 1) : NaN):6 \
	with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colours, (i - 1) % 10 + 1) title word(policies, i)
