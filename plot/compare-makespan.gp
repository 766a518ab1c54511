# compare-makespan.gp - `hetsim compare`'s makespans: one panel per
# workload (their makespans differ by orders of magnitude, and one axis
# for all would flatten every bar but the longest workload's), a bar per
# policy (the replications' mean) with its 95 % confidence interval; a
# policy without a makespan has an empty slot that says so.  A panel
# whose bars span more than two decades has a logarithmic axis (its
# title says so).
# hetsim compare sets: csv (its leaderboard.csv), cw, cp, cm, cc (the
# columns of workload, policy, makespan_s and makespan_s_ci95, from 1),
# workloads, policies, colours (word lists: every policy of the figure,
# and its colour), and for workload w (from 1): pw<w> (its policies, in
# the leaderboard's order), mk<w> (each one's mark over its bar, "⚠ 2.5
# not done", or ""), mky<w> (where: the top of its whisker, s), log<w> (1: a logarithmic axis), ylo<w>, yhi<w> (its
# axis, s); footnote where a mark is shown; outfile, fmt, plotdir.
nw = words(workloads)
np = words(policies)
maxp = 1
do for [w = 1:nw] { maxp = words(value(sprintf("pw%d", w))) > maxp ? words(value(sprintf("pw%d", w))) : maxp }
width = 260 + 70 * maxp > 900 ? 260 + 70 * maxp : 900
height = 80 + 300 * nw
figtitle = "makespan by workload and policy (mean, 95 % CI over replications)"
load plotdir."/common.gp"
set datafile separator ","
unset key
set style fill solid 1 noborder
set boxwidth 0.62
set xtics scale 0 rotate by 30 right
set lmargin 12
set rmargin 4
do for [i = 1:np] { set linetype 100 + i lc rgb word(colours, i) }
pidx(p) = sum [k = 1:np] (word(policies, k) eq p ? k : 0)
xof(p) = sum [k = 1:npl] (word(pl, k) eq p ? k : 0)
set multiplot layout nw, 1 title fulltitle font ",15"
do for [w = 1:nw] {
	pl = value(sprintf("pw%d", w))
	npl = words(pl)
	wl = word(workloads, w)
	lg = value(sprintf("log%d", w))
	set title wl.(lg ? ": bars span more than two decades, log scale" : "") font ",13"
	set xrange [0.4:npl + 0.6]
	set xtics ()
	do for [k = 1:npl] { set xtics add (word(pl, k) k) }
	if (lg) {
		set logscale y
		set ylabel "makespan, s (log scale)"
	} else {
		unset logscale y
		set ylabel "makespan, s"
	}
	set yrange [value(sprintf("ylo%d", w)):value(sprintf("yhi%d", w))]
	# large makespans with SI prefixes (12M: 12 million s), so that the
	# tics stay short and the axis label inside the figure
	if (value(sprintf("yhi%d", w)) >= 1e5) { set format y "%.0s%c" } else { set format y "% h" }
	ybase = value(sprintf("ylo%d", w))
	# the marks of jobs not done, over the whiskers (labels, not a plot:
	# a panel without one draws nothing for them)
	mk = value(sprintf("mk%d", w))
	mky = value(sprintf("mky%d", w))
	do for [i = 1:npl] {
		if (strlen(word(mk, i)) > 0) {
			set label 200 + i word(mk, i) at i, word(mky, i) + 0 center offset 0, 0.9 \
			    textcolor rgb "#a00000" front
		}
	}
	# boxxyerror, not boxes: a bar from the axis's foot, on a log axis too
	plot csv every ::1 using (strcol(cw) eq wl ? xof(strcol(cp)) : NaN):(column(cm)): \
	         (xof(strcol(cp)) - 0.31):(xof(strcol(cp)) + 0.31):(ybase):(column(cm)): \
	         (100 + pidx(strcol(cp))) with boxxyerror lc variable, \
	     '' every ::1 using (strcol(cw) eq wl ? xof(strcol(cp)) : NaN): \
	         (column(cm) - column(cc)):(0):(2 * column(cc)) \
	         with vectors heads size 0.08, 90 lc rgb "#222222" lw 1.5, \
	     '' every ::1 using (strcol(cw) eq wl ? xof(strcol(cp)) : NaN):(ybase): \
	         (valid(cm) ? "" : "no makespan") \
	         with labels offset 0, 1 textcolor rgb "#666666"
	do for [i = 1:npl] { unset label 200 + i }
}
unset multiplot
