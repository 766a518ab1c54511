# validation.gp - `hetsim calibrate --validate MODEL -o FILE`'s figure:
# the makespan of each real run of the WordCount workload (bars) against
# hetsim's simulation of it under MODEL (a line), with the 10 % band.
# hetsim calibrate sets: csv (run,measured_s,simulated_s), outfile.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 700, 420 noenhanced font "sans,11" background "white"
} else {
	set terminal png size 700, 420 noenhanced background "#ffffff"
}
set output outfile
set datafile separator ","
set border 3 lw 1.2 lc rgb "#333333"
set tics nomirror out scale 0.6
set grid ytics lc rgb "#dddddd"
set key outside below center horizontal nobox noopaque samplen 2
set style fill solid 0.85 noborder
set boxwidth 0.6
stats csv using 3 skip 1 nooutput
sim = STATS_max
stats csv using 2 skip 1 nooutput
set yrange [0:1.35 * (STATS_max > sim ? STATS_max : sim)]
set xrange [0.3:STATS_records + 0.7]
set xtics 1
set title sprintf("closed loop: real WordCount on this machine against hetsim (median error %+.1f %%)", 100 * (sim - STATS_median) / STATS_median)
set xlabel "run"
set ylabel "makespan (s)"
plot csv using 1:2 skip 1 with boxes lc rgb "#0072b2" title "measured", \
     sim * 1.1 with lines dt 2 lc rgb "#999999" title "simulated ± 10 %", \
     sim * 0.9 with lines dt 2 lc rgb "#999999" notitle, \
     sim with lines lw 2.5 lc rgb "#d55e00" title "simulated"
