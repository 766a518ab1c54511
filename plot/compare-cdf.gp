# compare-cdf.gp - `hetsim compare`'s JCT CDF of one workload: a line per
# policy, the done jobs of all its replications.
# hetsim compare sets: csv (its jcts.csv: workload,policy,jct_s), workload,
# policies (space-separated), outfile, fmt.
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
set title sprintf("%s: JCT CDF (done jobs, every replication)", workload)
set xlabel "job completion time (s)"
set ylabel "fraction of done jobs"
set logscale x
set yrange [0:1]
colours = "#4a78b5 #d9752b #3f9b4f #b8423a #8661b0 #8a6d3b #c25b9f #707070 #2a9d8f #e9c46a"
n = words(policies)
plot for [i=1:n] csv using (strcol(1) eq workload && strcol(2) eq word(policies, i) && $3 > 0 ? $3 : NaN):(1) \
	smooth cnormal with lines lw 2 lc rgb word(colours, (i - 1) % 10 + 1) title word(policies, i)
