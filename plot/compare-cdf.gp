# compare-cdf.gp - `hetsim compare`'s JCT CDF of one workload: a line per
# policy, the done jobs of all its replications.
# Data (hetsim compare, a temporary file): a block per policy, rows
# "jct F" (F: the share of its done jobs with a JCT up to jct).
# hetsim compare sets: datafile, workload, policies (space-separated),
# colours (each policy's, from the palette of common.gp), keys (each
# policy's key, a word in double quotes: its name, "(k of N done)" where
# it left jobs not done, "(no job done)"), zero_at (where a JCT of 0 s is
# drawn on the log axis; 0 if none), xlo, xhi (the smallest and largest
# JCT drawn: where they are one, a range around it, where gnuplot would
# warn of an empty one), outfile, fmt (png or svg: hetsim writes both),
# plotdir.
figtitle = workload
subtitle = "JCT CDF (done jobs, every replication)"
load plotdir."/common.gp"
set grid xtics ytics lc rgb "#dddddd"
set title fulltitle
set xlabel "job completion time (s)".(zero_at > 0 ? sprintf("; a JCT of 0 s drawn at %g s", zero_at) : "")
set ylabel "fraction of done jobs"
set logscale x
set yrange [0:1.02]
if (xlo == xhi) { set xrange [xlo / 2.0 : xhi * 2.0] }
n = words(policies)
plot for [i = 1:n] datafile index (i - 1) using 1:2 with steps lw 2 lc rgb word(colours, i) \
	title word(keys, i)
