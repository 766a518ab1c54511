# fgd.gp - `hetsim fgd`'s figures: a metric against the arrived GPU demand
# (% of the cluster's GPU capacity), one line per policy (the seeds'
# mean) in a band (their min to max).
# hetsim fgd sets: csv (its curves.csv: policy,demand_pct,seeds,
# alloc_pct,alloc_min,alloc_max,frag_pct,frag_min,frag_max,
# frag_idle_pct,...), metric (alloc, frag or frag_ratio), policies (space-separated),
# colours (each policy's, from the palette of common.gp), nseeds, outfile,
# plotdir, fmt: png (the default) or svg (hetsim writes both).
if (!exists("fmt")) fmt = "png"
figtitle = metric eq "alloc" ? "GPU allocation ratio against the offered load" : \
	metric eq "frag" ? "GPU fragmentation against the offered load" : \
	"GPU fragmentation ratio against the offered load"
subtitle = sprintf("mean of %d seeds, band: min to max", nseeds)
height = 620
load plotdir."/common.gp"
set datafile separator ","
set grid xtics ytics lc rgb "#dddddd"
set title fulltitle
set xlabel "arrived GPU demand (% of the cluster's GPU capacity)"
set xrange [0:130]
if (metric eq "alloc") {
	col = 4
	set ylabel "GPU allocated (% of capacity)"
	set yrange [0:105]
} else {
	if (metric eq "frag") {
		col = 7
		set ylabel "fragmented GPU (% of capacity)"
		set yrange [0:*]
	} else {
		col = 10
		set ylabel "fragmented GPU (% of the idle GPU)"
		set yrange [0:105]
	}
}
n = words(policies)
sel(p) = sprintf("%s", p)
plot for [i=1:n] csv using (strcol(1) eq word(policies, i) ? $2 : NaN):col+1:col+2 \
	with filledcurves fc rgb word(colours, i) fs transparent solid 0.18 noborder notitle, \
     for [i=1:n] csv using (strcol(1) eq word(policies, i) ? $2 : NaN):col \
	with lines lw 2 lc rgb word(colours, i) title word(policies, i)
