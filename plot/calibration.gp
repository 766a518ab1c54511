# calibration.gp - `hetsim calibrate`'s figure: each (kernel, device)'s
# samples (points, ms) against its fitted line intercept + slope x size,
# one panel per (kernel, device), log-log axes.  Colours: the palette's
# slots 1, 5 and 2 (plot/common.gp).
# hetsim calibrate sets: n (panels), csv (the samples CSV: kernel,device,
# size,repeat,seconds[,k[,round,seq,dropped]]), ncol (its columns, 5 to
# 9), outfile, and space-separated lists with one word
# per panel: kernels, devices, units, intercepts (s), slopes (s per unit).
cols = n < 3 ? n : 3
rows = (n + cols - 1) / cols
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 440 * cols, 380 * rows noenhanced font "sans,11" background "white"
} else {
	set terminal png size 440 * cols, 380 * rows noenhanced background "#ffffff"
}
set output outfile
set datafile separator ","
set border 3 lw 1.2 lc rgb "#333333"
set tics nomirror out scale 0.6
set grid xtics ytics lc rgb "#dddddd"
set key outside below center horizontal nobox noopaque samplen 2
set logscale xy
set ylabel "duration (ms)"
set multiplot layout rows, cols title "hetsim calibrate: samples and fitted cost models"
do for [i = 1:n] {
	k = word(kernels, i)
	d = word(devices, i)
	a = real(word(intercepts, i))
	b = real(word(slopes, i))
	set title sprintf("%s on %s", k, d)
	set xlabel sprintf("size (%s)", word(units, i))
	# the sweep's samples: column 6 (k, copies at once) absent or 1,
	# column 7 (the contention round) absent or 0; column 9 (dropped)
	# 1: a stall, left out of the fit, drawn hollow
	# (ncol: the file's columns, 5 to 9: older files lack the last ones,
	# and strcol of a column a row does not have is an error)
	alone(c) = strcol(1) eq k && strcol(2) eq d && (ncol < 6 || strcol(6) eq "1") && \
		   (ncol < 7 || strcol(7) eq "0")
	stall(c) = ncol >= 9 && strcol(9) eq "1"
	plot csv using 3:((alone(0) && !stall(0)) ? $5 * 1000 : NaN) \
		with points pt 7 ps 0.6 lc rgb "#0072b2" title "samples", \
	     csv using 3:((alone(0) && stall(0)) ? $5 * 1000 : NaN) \
		with points pt 6 ps 0.8 lc rgb "#e69f00" title "stalls (dropped)", \
	     (a + b * x) * 1000 with lines lw 2 lc rgb "#d55e00" \
		title sprintf("%.3g ms + %.3g ms/%s", a * 1000, b * 1000, word(units, i))
}
unset multiplot
