# gantt.gp - (c) executors per node over time for one run, coloured by
# job type: lighter from launch to ready (executor start-up), solid from
# ready to end; executors that overlap on a node get their own sub-row;
# a black outline marks executors that hold GPUs.
# Data (hetsim plot gantt), rows "x0 x1 y0 y1": block 0 shades every other
# node; then per job type a start-up and a running block; then GPU
# outlines.  Variables: figtitle, types, colours (word lists), ytics
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
plot datafile index 0 using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 with boxxyerror \
         fs solid 1 noborder lc rgb "#f0f0f0", \
     for [t = 1:nt] datafile index (2 * t - 1) using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 \
         with boxxyerror fs transparent solid 0.35 noborder lc rgb word(colours, t), \
     for [t = 1:nt] datafile index (2 * t) using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 \
         with boxxyerror fs solid 0.95 border lc rgb "white" lc rgb word(colours, t) \
         title word(types, t), \
     datafile index (2 * nt + 1) using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 \
         with boxxyerror fs empty border lc rgb "#000000" lw 1.2 lc rgb "#000000" \
         title (ngpu > 0 ? "holds GPUs" : ""), \
     NaN with boxes fs transparent solid 0.35 noborder lc rgb "#777777" \
         title "start-up (launch to ready)"
