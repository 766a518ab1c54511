# replay.gp - `hetsim replay-log`'s figure: each stage's logged span
# (Submission to Completion Time) beside its simulated one (from when it
# could be submitted to its last task's end), one row per stage in
# Spark's order, time from the application's start.
# Colours: the palette's slots 1 and 5 (plot/common.gp).
# hetsim replay-log sets: csv (its stages.csv: stage,job,tasks,left_out,
# logged_submit_s,logged_end_s,logged_s,sim_ready_s,sim_first_s,
# sim_end_s,... and an `app` row last), nstages, figtitle, outfile.
# tall enough for the y label (a log of two stages cut it) and at most 2400
height = 200 + 16 * nstages
if (height < 360) height = 360
if (height > 2400) height = 2400
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 1100, height noenhanced font "sans,11" background "white"
} else {
	set terminal png size 1100, height noenhanced background "#ffffff"
}
set output outfile
set datafile separator ","
set border 3 lw 1.2 lc rgb "#333333"
set tics nomirror out scale 0.6
set grid xtics lc rgb "#dddddd"
set key outside below center horizontal nobox samplen 2
set title figtitle
set xlabel "time from the application's start (s)"
set ylabel "stage (by job, then stage id)"
set yrange [nstages:-1]
set ytics 0, (nstages > 40 ? 5 : 1) 
set style fill solid 0.85 noborder
# rows 0 .. nstages-1 are the stages (row 0 of the data is its header)
plot csv every ::1::nstages using (($5 + $6) / 2):($0 - 0.2):(($6 - $5) / 2):(0.18) \
	with boxxyerror lc rgb "#0072b2" title "logged (Submission to Completion)", \
     csv every ::1::nstages using (($8 + $10) / 2):($0 + 0.2):(($10 - $8) / 2):(0.18) \
	with boxxyerror lc rgb "#e69f00" title "simulated (submittable to last task end)"
