# utilisation.gp - (d) cores held by executors as a share of each node
# label's cores, and GPUs held as a share of the label's GPUs, over time
# (step functions), for one run; in a cluster with several GPU models,
# GPUs held as a share of each model's GPUs instead.
# Data (hetsim plot utilisation): rows "t share..." (one column per label
# for cores, then one per label with GPUs, or per GPU model), each value
# holding until the next row.  Variables: figtitle, labels, colours, gpulabels, gpucolours
# (word lists), gpuby ("label" or "GPU model"), xmax (shared by the
# figures of every policy drawn together); footnote and footnote2 when
# cores held exceed the label's cores (why they can).
nl = words(labels)
ng = words(gpulabels)
width = 1200
# a footnote's lines below the panels, not out of them
height = (ng > 0 ? 760 : 480) + (exists("footnote2") ? 50 : exists("footnote") ? 30 : 0)
load plotdir."/common.gp"
if (!exists("gpuby")) gpuby = "label"
set xrange [0:xmax]
set yrange [0:100<*]
set lmargin 11
set key outside right top vertical
set rmargin 24
set ylabel "cores held, % of the label's cores"
if (ng > 0) {
	set multiplot layout 2, 1 title figtitle font ",15"
	set tmargin 2.5
	set format x ""
	set bmargin 1
} else {
	set title figtitle
	set xlabel "time, s"
}
# above 100 %: the line the shares cross, beside the footnote's why
if (strlen(footnote) > 0) {
	set arrow 7 from graph 0, first 100 to graph 1, first 100 nohead dt 2 lw 1.2 \
	    lc rgb "#a00000" back
}
plot for [i = 1:nl] datafile using 1:(100 * column(i + 1)) with steps lw 2 \
         lc rgb word(colours, i) title word(labels, i)
if (ng > 0) {
	set format x "% h"
	if (strlen(footnote) > 0) { set bmargin (strlen(footnote2) > 0 ? 6.5 : 5) } else { set bmargin }
	set tmargin 1
	set xlabel "time, s"
	set ylabel "GPUs held, % of the ".gpuby."'s GPUs"
	unset arrow 7
	set yrange [0:105]
	plot for [j = 1:ng] datafile using 1:(100 * column(nl + 1 + j)) with steps lw 2 \
	         dt 1 lc rgb word(gpucolours, j) title word(gpulabels, j)
	unset multiplot
}
