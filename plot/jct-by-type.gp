# jct-by-type.gp - (a) mean job completion time per job type, one bar per
# policy in each cluster, with 95 % confidence intervals; a slot where a
# policy finished no job of the type is empty and says so.
# Data (hetsim plot jct-by-type): one block per policy, rows
# "x mean ci95_lo ci95_hi"; then the empty slots, rows "x \"label\" colour".
# Variables: figtitle, subtitle, subtitle2, ylabel, policies, keys (the key's entry
# per policy, with its mark of jobs not done), colours, types (word
# lists), boxw, ymax; optional footnote.
np = words(policies)
nt = words(types)
width = 170 * nt * (np > 2 ? np / 2.0 : 1) + 620
load plotdir."/common.gp"
if (!exists("keys")) keys = policies
set title fulltitle
set ylabel ylabel
set xrange [-0.6:nt - 0.4]
set yrange [0:ymax]
set xtics () scale 0
do for [t = 1:nt] { set xtics add (word(types, t) t - 1) }
set style fill solid 1 noborder
plot for [i = 1:np] datafile index (i - 1) using 1:2:(boxw) with boxes \
         lc rgb word(colours, i) title word(keys, i), \
     for [i = 1:np] datafile index (i - 1) using 1:3:(0):($4 - $3) with vectors \
         heads size boxw / 4, 90 lc rgb "#222222" lw 1.5, \
     datafile index np using 1:(0):2:3 with labels rotate by 90 left offset 0, 0.5 \
         textcolor rgb variable
