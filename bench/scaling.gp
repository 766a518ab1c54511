# bench/scaling.gp - results/bench/scaling.png from scaling.dat (bench/run).
#   gnuplot -e "datafile='results/bench/scaling.dat'; outfile='x.png'" bench/scaling.gp
# Columns: bench H T wall_s events peak_rss_kib.
set terminal pngcairo size 1100,450 font ",10"
set output outfile
set multiplot layout 1,2 title "hetsim run, fifo task farm: wall time"
set logscale xy
set offsets graph 0.05, graph 0.05, 0, 0
set grid
set key top left
set xlabel "tasks (1000 hosts x 8 cores, one arrival every 10 us)"
set ylabel "wall time (s)"
set ylabel "wall time (s); peak RSS (MiB)"
plot datafile using (strcol(1) eq "scale-jobs" ? $3 : 1/0):4 with linespoints pt 7 title "wall (s)", \
     '' using (strcol(1) eq "scale-jobs" ? $3 : 1/0):($6 / 1024) with linespoints pt 5 title "peak RSS (MiB)"
set ylabel "wall time (s)"
set xlabel "hosts (8 cores each, 100 000 tasks, fixed arrivals per core)"
plot datafile using (strcol(1) eq "scale-hosts" ? $2 : 1/0):4 with linespoints pt 7 title "wall (s)"
unset multiplot
