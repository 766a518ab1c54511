# policies.gp - (a) one bar per policy: mean of a metric (makespan by
# default) over replications, with its 95 % confidence interval.
# Data (hetsim plot policies): i "policy" mean ci95_lo ci95_hi top colour.
# Variables: figtitle, subtitle, ylabel, n (bars), ymax; optional note,
# notecolour (the reduction of one policy against the baseline).
width = 160 * n + 480 > 800 ? 160 * n + 480 : 800
load plotdir."/common.gp"
set title fulltitle
set ylabel ylabel
set xrange [-0.6:n - 0.4]
set yrange [0:ymax]
set xtics scale 0
set boxwidth 0.62
set style fill solid 0.9 noborder
unset key
if (strlen(note) > 0) {
	set label 1 note at graph 0.98, graph 0.96 right textcolor rgb notecolour font ",14" front
}
plot datafile using 1:3:7:xtic(2) with boxes lc rgb variable, \
     '' using 1:4:(0):($5 - $4) with vectors heads size 0.08, 90 lc rgb "#222222" lw 1.5, \
     '' using 1:6:(sprintf("%.4g", $3)) with labels offset 0, 0.9
