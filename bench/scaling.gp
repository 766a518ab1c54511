# bench/scaling.gp - results/bench/scaling.png from scaling.dat (bench/run).
#   gnuplot -e "datafile='results/bench/scaling.dat'; outfile='x.png'" bench/scaling.gp
# Columns: bench H T wall_s events peak_rss_kib.  Rows scale-jobs and
# scale-hosts: the fifo task farm (wall of the whole process); rows
# mix-<policy>: the heterogeneous mix (wall of the event loop).
set terminal pngcairo size 1500,450 font ",10"
set output outfile
set multiplot layout 1,3 title "hetsim scaling"
set logscale xy
set offsets graph 0.05, graph 0.05, 0, 0
set grid
set key top left
set xlabel "tasks (task farm: 1000 hosts x 8 cores, one arrival every 10 us)"
set ylabel "wall time (s); peak RSS (MiB)"
plot datafile using (strcol(1) eq "scale-jobs" ? $3 : 1/0):4 with linespoints pt 7 title "wall (s)", \
     '' using (strcol(1) eq "scale-jobs" ? $3 : 1/0):($6 / 1024) with linespoints pt 5 title "peak RSS (MiB)"
set ylabel "wall time (s)"
set xlabel "hosts (task farm: 8 cores each, 100 000 tasks, fixed arrivals per core)"
plot datafile using (strcol(1) eq "scale-hosts" ? $2 : 1/0):4 with linespoints pt 7 title "wall (s)"
unset logscale y
set yrange [0:*]
set xrange [700:14000]
set xlabel "nodes (heterogeneous mix, 10 jobs per node, load about 0.7)"
set ylabel "run wall time per event (us)"
plot datafile using (strcol(1) eq "mix-spark-standalone" ? $2 : 1/0):(1e6 * $4 / $5) with linespoints pt 7 title "spark-standalone", \
     '' using (strcol(1) eq "mix-label-dual" ? $2 : 1/0):(1e6 * $4 / $5) with linespoints pt 5 title "label-dual", \
     '' using (strcol(1) eq "mix-yarn" ? $2 : 1/0):(1e6 * $4 / $5) with linespoints pt 13 title "yarn", \
     '' using (strcol(1) eq "mix-fifo" ? $2 : 1/0):(1e6 * $4 / $5) with linespoints pt 9 title "fifo"
unset multiplot
