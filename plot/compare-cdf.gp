# compare-cdf.gp - `hetsim compare`'s JCT CDF of one workload: a line per
# policy, the done jobs of all its replications.
# Data (hetsim compare, a temporary file): a block per policy, rows
# "jct F" (F: the share of its done jobs with a JCT up to jct).
# hetsim compare sets: datafile, workload, policies (space-separated),
# colours (each policy's, from the palette of common.gp), counts (each
# policy's done jobs), zero_at (where a JCT of 0 s is drawn on the log
# axis; 0 if none), outfile, fmt (png or svg: hetsim writes both), plotdir.
figtitle = workload
subtitle = "JCT CDF (done jobs, every replication)"
load plotdir."/common.gp"
set grid xtics ytics lc rgb "#dddddd"
set title fulltitle
set xlabel "job completion time (s)".(zero_at > 0 ? sprintf("; a JCT of 0 s drawn at %g s", zero_at) : "")
set ylabel "fraction of done jobs"
set logscale x
set yrange [0:1.02]
n = words(policies)
plot for [i = 1:n] datafile index (i - 1) using 1:2 with steps lw 2 lc rgb word(colours, i) \
	title word(policies, i).(word(counts, i) + 0 > 0 ? "" : " (no job done)")
