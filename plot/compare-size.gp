# compare-size.gp - `hetsim compare`'s mean slowdown by job size for one
# workload: a line per policy over the size bins (cores asked, powers of
# two), the done jobs of every replication.
# hetsim compare sets: csv (its sizes.csv: workload,policy,cores_from,
# cores_to,jobs,slowdown), workload, policies (space-separated), colours
# (each policy's, from the palette of common.gp), done (the workload's
# done jobs: 0, no row in csv, an empty frame that says so), outfile,
# fmt (png or svg: hetsim writes both), plotdir.
figtitle = workload
subtitle = "mean slowdown by job size (done jobs, every replication)"
load plotdir."/common.gp"
set datafile separator ","
set grid xtics ytics lc rgb "#dddddd"
set title fulltitle
set xlabel "cores the job asks for (bins from 2^k; 0: under 2)"
set ylabel "mean slowdown, (end - arrival) / (end - start)"
set logscale x 2
set logscale y
set yrange [1:*]
n = words(policies)
if (done == 0) {
	# no job done: no row to read (stats would fail), a frame that says so
	set xrange [1:16]
	set yrange [1:10]
	set label 1 "no job done" at graph 0.5, graph 0.5 center textcolor rgb "#666666"
	plot for [i=1:n] NaN with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colours, i) \
		title word(policies, i)
} else {
	# one size bin only (every job asks for the same cores), or every
	# slowdown 1: a range around it, where gnuplot would warn of an empty one
	stats csv using (strcol(1) eq workload ? ($3 > 0 ? $3 : 1) : NaN) nooutput
	if (STATS_records > 0 && STATS_min == STATS_max) { set xrange [STATS_min / 2.0 : STATS_max * 2.0] }
	stats csv using (strcol(1) eq workload ? $6 : NaN) nooutput
	if (STATS_records > 0 && STATS_max <= 1) { set yrange [1:2] }
	plot for [i=1:n] csv using (strcol(1) eq workload && strcol(2) eq word(policies, i) ? ($3 > 0 ? $3 : 1) : NaN):6 \
		with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colours, i) title word(policies, i)
}
