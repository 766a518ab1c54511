# policies.gp - (a) one bar per policy: mean of a metric (makespan by
# default) over replications, with its 95 % confidence interval.  Above
# each bar its value, its change against the baseline and a mark when
# the policy left jobs not done; a policy without a value gets an empty
# slot that says why ("no job done"), never a bar at 0.
# Data (hetsim plot policies): i "policy" mean ci95_lo ci95_hi top colour
# "label" labely "change" "mark" (mean NaN: the empty slot).
# Variables: figtitle, subtitle, subtitle2, ylabel, n (bars), ymax; optional note,
# notecolour (--compare's change, at the foot), footnote.
width = 160 * n + 480 > 800 ? 160 * n + 480 : 800
load plotdir."/common.gp"
set title fulltitle
set ylabel ylabel
set xrange [-0.6:n - 0.4]
set yrange [0:ymax]
set xtics scale 0
set boxwidth 0.62
set style fill solid 1 noborder
unset key
if (strlen(note) > 0) {
	set label 1 note at screen 0.99, screen (strlen(footnote) > 0 ? 0.06 : 0.02) right \
	    textcolor rgb notecolour font ",13" front
	set bmargin (strlen(footnote) > 0 ? 6.5 : 5)
}
# Labels blank their text rather than their y: gnuplot 5.4 crashes on a
# labels plot whose one point is undefined (a figure of one policy).
valued(i) = valid(3)
changed(i) = strlen(strcol(10)) > 0
plot datafile using 1:3:7:xtic(2) with boxes lc rgb variable, \
     '' using 1:4:(0):($5 - $4) with vectors heads size 0.08, 90 lc rgb "#222222" lw 1.5, \
     '' using 1:9:(valued(0) ? strcol(8) : "") with labels offset 0, 0.9, \
     '' using 1:9:(valued(0) ? "" : strcol(8)) with labels offset 0, 0.9 textcolor rgb "#666666", \
     '' using 1:9:10 with labels offset 0, 2.0 textcolor rgb "#333333", \
     '' using 1:9:(changed(0) ? strcol(11) : "") with labels offset 0, 3.1 textcolor rgb "#a00000", \
     '' using 1:9:(changed(0) ? "" : strcol(11)) with labels offset 0, 2.0 textcolor rgb "#a00000"
