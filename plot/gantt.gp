# gantt.gp - (c) executors per node over time for one run, coloured by
# job type: a light tint from launch to ready (executor start-up), the
# colour from ready to end; executors that overlap on a node get their
# own sub-row; a black outline marks executors that hold GPUs.
# Data (hetsim plot gantt), rows "x0 x1 y0 y1": block 0 shades every other
# node; then per job type a start-up and a running block; then GPU
# outlines.  Variables: figtitle, types, colours, tints (word lists: the
# start-up boxes' colour, 35 % of the type's on white), ytics
# ('("node" y, ...)'), xmax (shared by the figures of every policy drawn
# together), ymax, ngpu, height.
width = 1200
load plotdir."/common.gp"
nt = words(types)
set title figtitle
set xlabel "time, s"
set xrange [0:xmax]
set yrange [ymax:-0.25]
eval("set ytics ".ytics)
set ytics scale 0
set grid noytics xtics lc rgb "#dddddd"
set key outside right top vertical
# Key: per job type its running box, then its start-up box ("TYPE,
# start-up"), each drawn as in the figure: start-up in an opaque tint of
# the type's colour (not a transparent fill, which would look different
# on the shaded rows than in the key).
plot datafile index 0 using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 with boxxyerror \
         fs solid 1 noborder lc rgb "#f0f0f0", \
     for [k = 1:2 * nt] datafile index (k % 2 ? k + 1 : k - 1) \
         using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 with boxxyerror \
         fs solid 1 border lc rgb "white" lc rgb word(k % 2 ? colours : tints, (k + 1) / 2) \
         title (k % 2 ? word(types, (k + 1) / 2) : word(types, (k + 1) / 2).", start-up"), \
     datafile index (2 * nt + 1) using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 \
         with boxxyerror fs empty border lc rgb "#000000" lw 1.2 lc rgb "#000000" \
         title (ngpu > 0 ? "holds GPUs" : "")
