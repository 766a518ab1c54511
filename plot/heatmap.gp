# heatmap.gp - the gain of one policy over another as a map over two sweep
# axes (scripts/paper: the sensitivity of label-dual's gain over
# spark-standalone to the share of GPU nodes and of deep-learning jobs).
# Variables: datafile (x y gain%, blocks per y), figtitle, xlabel, ylabel,
# markx, marky (the setting to mark), plotdir, fmt, outfile.
width = 900
height = 650
load plotdir."/common.gp"
set title fulltitle
set xlabel xlabel
set ylabel ylabel
set cblabel "gain, % (positive: faster)"
# Paul Tol's diverging BuRd scheme (ColorBrewer's RdBu), read by
# colour-blind readers too: red a loss, blue a gain
set palette defined (-50 "#b2182b", -10 "#f4a582", 0 "#f7f7f7", 10 "#92c5de", 50 "#2166ac")
set cbrange [-50:50]
set grid noytics
set xtics 1
set ytics 1, 2
set xrange [0.5:5.5]
set yrange [0:10]
set key off
set object 1 rectangle center markx, marky size 1, 2 front fillstyle empty border lc rgb "#000000" lw 3
set label 1 "paper" at markx, marky + 0.75 center front font ",11"
plot datafile using 1:2:3 with image, \
     datafile using 1:2:(sprintf("%+.0f", $3)) with labels font ",12" tc rgb "#111111"
