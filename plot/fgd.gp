# fgd.gp - `hetsim fgd`'s figures: a metric against the arrived GPU demand
# (% of the cluster's GPU capacity), one line per policy (the seeds'
# mean) in a band (their min to max).
# hetsim fgd sets: csv (its curves.csv: policy,demand_pct,seeds,
# alloc_pct,alloc_min,alloc_max,frag_pct,frag_min,frag_max,
# frag_idle_pct,...), metric (alloc, frag or frag_ratio), policies (space-separated),
# nseeds, outfile, fmt.
# fmt: png (the default) or svg (hetsim writes both; hetsim report inlines the svg)
if (!exists("fmt")) fmt = "png"
if (fmt eq "svg") {
	set terminal svg size 1000, 620 dynamic noenhanced font "sans,13" background "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 1000, 620 noenhanced font "sans,11" background "white"
	} else {
		set terminal png size 1000, 620 noenhanced background "#ffffff"
	}
}
set output outfile
set datafile separator ","
set border 3 lw 1.2 lc rgb "#333333"
set tics nomirror out scale 0.6
set grid lc rgb "#dddddd"
set key outside right top nobox samplen 2
set xlabel "arrived GPU demand (% of the cluster's GPU capacity)"
set xrange [0:130]
if (metric eq "alloc") {
	col = 4
	set ylabel "GPU allocated (% of capacity)"
	set yrange [0:105]
	set title sprintf("GPU allocation ratio against the offered load (mean of %d seeds, band: min to max)", nseeds)
} else {
	if (metric eq "frag") {
		col = 7
		set ylabel "fragmented GPU (% of capacity)"
		set yrange [0:*]
		set title sprintf("GPU fragmentation against the offered load (mean of %d seeds, band: min to max)", nseeds)
	} else {
		col = 10
		set ylabel "fragmented GPU (% of the idle GPU)"
		set yrange [0:105]
		set title sprintf("GPU fragmentation ratio against the offered load (mean of %d seeds, band: min to max)", nseeds)
	}
}
colours = "#4a78b5 #d9752b #3f9b4f #b8423a #8661b0 #8a6d3b #c25b9f #707070"
n = words(policies)
sel(p) = sprintf("%s", p)
plot for [i=1:n] csv using (strcol(1) eq word(policies, i) ? $2 : NaN):col+1:col+2 \
	with filledcurves fc rgb word(colours, (i - 1) % 8 + 1) fs transparent solid 0.18 noborder notitle, \
     for [i=1:n] csv using (strcol(1) eq word(policies, i) ? $2 : NaN):col \
	with lines lw 2 lc rgb word(colours, (i - 1) % 8 + 1) title word(policies, i)
