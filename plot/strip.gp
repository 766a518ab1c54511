# strip.gp - every replication's makespan of each configuration, a dot
# each, one row per configuration (scripts/paper: the baselines' spread,
# so that a row whose replications fall in two groups shows as two).
# Variables: datafile (row makespan name replication, one line per
# replication; row 0 at the top), nrows, colours (each row's, row 0
# first: its configuration's colour, `hetsim plot colours`), figtitle,
# xlabel, plotdir, fmt, outfile.  Each dot is moved up or down a little by its replication
# (0-9), so that equal makespans show as a short column, not one dot.
width = 1000
height = 140 + 40 * nrows
load plotdir."/common.gp"
set title fulltitle
set xlabel xlabel
set grid xtics noytics
set ytics nomirror scale 0
set yrange [nrows - 0.5:-0.5]
set offsets graph 0.03, graph 0.03, 0, 0
set key off
set lmargin 20
do for [i = 1:nrows] { set linetype 100 + i lc rgb word(colours, i) }
plot datafile using 2:1:ytic(3) with points pt -1, \
     datafile using 2:($1 + ($4 - 4.5) * 0.06):($1 + 101) with points pt 6 ps 1.1 lw 1.5 lc variable
