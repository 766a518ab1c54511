# jct-by-type.gp - (a) mean job completion time per job type, one bar per
# policy in each cluster, with 95 % confidence intervals.
# Data (hetsim plot jct-by-type): one block per policy, rows
# "x mean ci95_lo ci95_hi".  Variables: figtitle, ylabel, policies,
# colours, types (word lists), boxw, ymax.
np = words(policies)
nt = words(types)
width = 170 * nt * (np > 2 ? np / 2.0 : 1) + 620
load plotdir."/common.gp"
set title fulltitle
set ylabel ylabel
set xrange [-0.6:nt - 0.4]
set yrange [0:ymax]
set xtics () scale 0
do for [t = 1:nt] { set xtics add (word(types, t) t - 1) }
set style fill solid 0.9 noborder
plot for [i = 1:np] datafile index (i - 1) using 1:2:(boxw) with boxes \
         lc rgb word(colours, i) title word(policies, i), \
     for [i = 1:np] datafile index (i - 1) using 1:3:(0):($4 - $3) with vectors \
         heads size boxw / 4, 90 lc rgb "#222222" lw 1.5
